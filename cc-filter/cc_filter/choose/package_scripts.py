"""`npm|pnpm|yarn|bun run <script>` gets the filter of the tool the script runs (issue 15), and
so do yarn's and pnpm's shorthand `yarn <script>` / `pnpm <script>` (`pnpm test`, `pnpm t`).

The script is read from the `scripts` of the nearest package.json (cwd upward, as the package
managers do), split into its commands with cc_peel, and each command's key is looked up: when
the commands that have a filter all have the same one (`tsc -p . && vite build` has two:
none is chosen; `vite build && echo done` has one), that filter is the script's. A script that
runs another script (`npm run build:prod`) is followed, three levels deep at most.

Only for keys that start with a package manager's `run`, or with `yarn `/`pnpm ` and a word that
is none of their own commands (`is_script_run`: a `str.startswith` and a set lookup):
package.json is read, and json and cc_peel's parser imported, only then. A shorthand is a
script only when package.json has a script of that name; `bun <name>` is not taken (`bun test`
and `bun build` are bun's own test runner and bundler). Never for a script run
in another folder (`--prefix`, `-C`, `--dir`, `--filter`, `--workspace`): which package.json
holds it is the package manager's business.
"""
from ctxcrl import lean_os as os

MANAGERS = ("npm", "pnpm", "yarn", "bun")
RUN_PREFIXES = ("npm run ", "npm run-script ", "pnpm run ", "yarn run ", "bun run ")
SHORTHAND_PREFIXES = ("yarn ", "pnpm ")
#: The commands of yarn (1.x and berry) and pnpm: `yarn why`, `pnpm audit` never run a script.
BUILTINS = {
    "yarn": frozenset((
        "access add audit autoclean bin cache check config constraints create dedupe dlx exec "
        "explain generate-lock-entry global help import info init install licenses link list "
        "login logout node npm outdated owner pack patch patch-commit plugin policies publish "
        "rebuild remove run sdks search set stage tag team unlink unplug up upgrade "
        "upgrade-interactive version versions why workspace workspaces").split()),
    "pnpm": frozenset((
        "access add approve-builds audit bin bugs c cache cat-file cat-index catalog ci config "
        "create dedupe deploy deprecate dist-tag dlx docs doctor env exec fetch find-hash get "
        "help home i ignored-builds import info init install install-test it licenses link list "
        "ln login logout ls m multi outdated owner pack patch patch-commit patch-remove ping "
        "profile prune publish rb rebuild recursive remove repo rm root run sbom search "
        "self-update server set setup star stars store team token un undeprecate uninstall "
        "unlink unpublish unstar up update upgrade version view whoami why").split()),
}
#: pnpm's own aliases of `pnpm run test`
PNPM_TEST = ("test", "t", "tst")
#: Options that send the run to another package: the script is not cwd's.
ELSEWHERE = ("--prefix", "-C", "--dir", "--filter", "-F", "--workspace", "-w", "--workspaces",
             "-ws", "--recursive", "-r", "--cwd", "--if-present")
#: Wrappers that only set the environment before the real tool.
ENV_WRAPPERS = ("cross-env", "cross-env-shell", "dotenv", "env-cmd")
#: Script names that start a server or a watcher: never given the generic fallback.
STREAMING_NAMES = ("dev", "start", "serve", "server", "watch", "preview", "storybook")
MAX_DEPTH = 3


def is_script_run(key: str) -> bool:
    return key.startswith(RUN_PREFIXES) or _shorthand(key) is not None


def _shorthand(key: str) -> str | None:
    """The script name of `yarn <script>` / `pnpm <script>`, or None (not a shorthand)."""
    if not key.startswith(SHORTHAND_PREFIXES):
        return None
    manager, _, rest = key.partition(" ")
    name = rest.split(" ", 1)[0]
    if manager == "pnpm" and name in PNPM_TEST:
        return "test"
    if not name or name.startswith("-") or name in BUILTINS[manager]:
        return None
    return name


def script_of(key: str) -> tuple[str, list[str]] | None:
    """(script name, extra arguments) of `<pm> run [options] <script> [args]` and of the
    shorthand `yarn|pnpm <script> [args]`, or None."""
    words = key.split()
    if not key.startswith(RUN_PREFIXES):
        name = _shorthand(key)
        if name is None:
            return None
        words[1] = name
        i = 1
    else:
        i = 2
    while i < len(words) and words[i].startswith("-"):
        if words[i].split("=", 1)[0] in ELSEWHERE:
            return None
        i += 1
    if i >= len(words):
        return None
    extra = words[i + 1:]
    for word in extra:
        if word.split("=", 1)[0] in ELSEWHERE:
            return None
    if extra and extra[0] == "--":
        extra = extra[1:]
    return words[i], extra


def find_package_json(cwd: str | None) -> str | None:
    path = os.path.abspath(cwd or os.getcwd())
    while True:
        candidate = os.path.join(path, "package.json")
        if os.path.isfile(candidate):
            return candidate
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def read_scripts(package_json: str) -> dict:
    import json

    try:
        with open(package_json, encoding="utf-8") as f:
            data = json.load(f)
    except (OSError, ValueError):
        return {}
    scripts = data.get("scripts") if isinstance(data, dict) else None
    if not isinstance(scripts, dict):
        return {}
    return {k: v for k, v in scripts.items() if isinstance(k, str) and isinstance(v, str)}


def command_keys(script: str) -> list[str]:
    """The keys of the commands a script's text runs (environment wrappers dropped)."""
    from cc_peel.peeling import peel

    try:
        segments = peel(script).segments
    except Exception:  # an unparsable script: no filter for it
        return []
    keys = []
    for seg in segments:
        key = seg.key or ""
        words = key.split()
        while words and (words[0] in ENV_WRAPPERS or "=" in words[0] or words[0] == "--"):
            words = words[1:]
        if words:
            keys.append(" ".join(words))
    return keys


class Resolution:
    """What a package script runs: its name, its text, the keys of its commands."""

    __slots__ = ("name", "text", "keys", "streaming")

    def __init__(self, name: str, text: str, keys: list[str]):
        self.name = name
        self.text = text
        self.keys = keys
        self.streaming = name in STREAMING_NAMES or name.split(":", 1)[0] in STREAMING_NAMES


def resolve(key: str, cwd: str | None = None, depth: int = 0) -> Resolution | None:
    """The script `key` runs (following `npm run other` scripts), or None."""
    found = script_of(key)
    if found is None:
        return None
    name, extra = found
    package_json = find_package_json(cwd)
    if package_json is None:
        return None
    text = read_scripts(package_json).get(name)
    if text is None:
        return None
    keys = command_keys(text)
    if extra and keys:  # `npm run build -- --verbose`: the arguments go to the script's end
        keys[-1] = " ".join([keys[-1]] + extra)
    if depth < MAX_DEPTH and len(keys) == 1 and is_script_run(keys[0]):
        inner = resolve(keys[0], cwd, depth + 1)
        if inner is not None:
            inner.streaming = inner.streaming or name in STREAMING_NAMES
            return inner
    return Resolution(name, text, keys)


def filter_for(resolution: Resolution, lookup) -> object | None:
    """The filter every command of the script has (commands that print next to nothing, such
    as `rm -rf dist` or `echo done`, aside), else None: a filter shown another tool's output
    could drop its facts. `lookup(key)` is the catalogue's lookup without the fallback."""
    from cc_filter.choose import fallback

    chosen = None
    for key in resolution.keys:
        entry = lookup(key)
        if entry is None:
            program = key.split(" ", 1)[0]
            if program in fallback.QUIET or program in fallback.BUILTINS:
                continue
            return None
        if chosen is not None and entry.name != chosen.name:
            return None
        chosen = entry
    return chosen
