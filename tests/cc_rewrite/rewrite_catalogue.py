"""A stand-in filter catalogue for rewrite tables: which keys "have a filter".

Each entry is a literal prefix matched like a `^prefix(\\s|$)` match_command, so the tables
pin cc-rewrite's own logic whatever filters cc-filter ships today. Integration tests use the
real catalogue (test_rewrite_catalogue.py).
"""
from cc_rewrite.refusals import RewriteSettings
from cc_rewrite.rewrite import Catalogue, rewrite

FILTERED = (
    "git status", "git diff", "git log", "git show", "git add", "git commit", "git push",
    "git pull", "git fetch", "git branch", "git stash", "ls", "find", "tree", "grep", "rg",
    "cat", "head", "tail", "sed", "pytest", "cargo test", "cargo build", "cargo clippy", "npm test",
    "npm run", "vitest", "tsc", "go test", "go build", "make", "ruff", "mypy", "eslint",
    "docker ps", "pip install", "gh pr", "gh issue", "gh api", "gradle", "mvn", "phpunit",
)


#: The env filter's own routing (a regex over the key), so the env rows pin what cc-filter really
#: routes: a listing cc-rewrite keeps in a pipe must be one cc-filter masks.
_ENV_PATTERN = None


def _env_listing(key: str) -> bool:
    global _ENV_PATTERN
    if _ENV_PATTERN is None:
        import re

        from cc_filter.filters.system.env import Env

        _ENV_PATTERN = re.compile(Env.match_command)
    return _ENV_PATTERN.search(key) is not None


class FakeEntry:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


def fake_lookup(key: str, cwd=None):
    if _env_listing(key):
        return FakeEntry("env")
    for prefix in FILTERED:
        if key == prefix or key.startswith(prefix + " ") or key.startswith(prefix + "\t"):
            return FakeEntry(prefix.replace(" ", "-"))
    return None


def fake_catalogue() -> Catalogue:
    return Catalogue("/tmp", fake_lookup)


def rewrite_with(command: str, **settings) -> str:
    return rewrite(command, fake_catalogue(), RewriteSettings(**settings)).text
