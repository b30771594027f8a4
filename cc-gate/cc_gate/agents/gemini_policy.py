"""Gemini CLI's Policy Engine rules for the shell tool: the TOML policy files, parsed and
cached, and how one rule matches one `run_shell_command` call (measured on Gemini CLI 0.61.0,
whose bundle holds the engine this reproduces).

A policy file is `[[rule]]` tables: `toolName` (string or list), `commandPrefix` (string or
list) | `commandRegex` | `argsPattern`, `decision` = allow | deny | ask_user, `priority` (an
integer 0-999), `modes`, `interactive`, `allowRedirection`, and fields that keep a rule off the
main agent's shell tool (`mcpName`, `subagent`, `toolAnnotations`). The engine turns a rule's
priority into `tier + priority / 1000` (default 1, extension 2, workspace 3, user 4, admin 5)
and the highest matching rule decides. It tests every rule against the tool call's arguments
written as "stable" JSON (keys sorted, each top-level pair between NUL characters):
`commandPrefix = "git status"` is the regex `"command":"git status(?:[\\s"]|\\\\")`, so it
matches `git status`, `git status -s`, not `git statusx` nor `git status\\nrm …` (the newline
is written `\\n`); `commandRegex = R` is `"command":"R`; `argsPattern` is the regex itself.

Parsing TOML needs `tomllib` (and `re`, ~5 ms on the hook path), so the parsed rules of each
file are kept in `<data dir>/cache/gemini-policies.json`, keyed by the file's path, mtime and
size: an unchanged file is never parsed again. `re` is imported only when a rule has a regex.
"""
from ctxcrl import lean_os as os

from cc_peel import record

TIER_DEFAULT, TIER_WORKSPACE, TIER_USER, TIER_ADMIN = 1, 3, 4, 5
TIER_NAMES = {1: "default", 2: "extension", 3: "workspace", 4: "user", 5: "admin"}
DECISIONS = {"allow": "allow", "deny": "deny", "ask_user": "ask"}
MODES = ("default", "autoEdit", "yolo", "plan")
SHELL_TOOL = "run_shell_command"
SHELL_TOOL_NAMES = ("run_shell_command", "ShellTool")
CACHE_VERSION = 1


class PolicyError(Exception):
    """A policy file Gemini CLI would not load as a whole (unreadable, bad TOML, bad schema)."""


class PolicyRule:
    """One `[[rule]]` as it applies to the shell tool (one per commandPrefix alternative)."""

    __slots__ = ("decision", "priority", "modes", "interactive", "kind", "text", "regex",
                 "allow_redirection", "source", "_compiled")

    def __init__(self, decision, priority, modes=None, interactive=None, kind=None, text=None,
                 allow_redirection=False, source=""):
        self.decision = decision            # allow | deny | ask
        self.priority = priority            # tier + priority / 1000
        self.modes = tuple(modes) if modes else None
        self.interactive = interactive      # None: both
        self.kind = kind                    # None (the whole tool) | prefix | regex | args
        self.text = text                    # the prefix, or the regex source
        self.allow_redirection = bool(allow_redirection)
        self.source = source
        self._compiled = None

    @property
    def patternless(self) -> bool:
        return self.kind is None

    def to_json(self) -> list:
        return [self.decision, self.priority, list(self.modes or ()), self.interactive,
                self.kind, self.text, self.allow_redirection, self.source]

    @classmethod
    def from_json(cls, row: list) -> "PolicyRule":
        return cls(row[0], row[1], row[2] or None, row[3], row[4], row[5], row[6], row[7])

    def applies(self, mode, headless) -> bool:
        """In this approval mode, headless or not (None: unknown, the rule may apply)."""
        if self.modes is not None and mode is not None and mode not in self.modes:
            return False
        if self.interactive is not None and headless is not None and \
                self.interactive == headless:
            return False
        return True

    def matches(self, args_text: str, command: str) -> bool:
        """Does the rule match a call whose stable-JSON arguments are `args_text`?"""
        if self.kind is None:
            return True
        if self.kind == "prefix":
            return _prefix_matches(self.text, args_text)
        if self._compiled is None:
            self._compiled = compile_js_regex(self.text)
        return self._compiled.search(args_text) is not None

    def describe(self) -> str:
        what = {None: "", "prefix": f" commandPrefix {self.text!r}",
                "regex": f" commandRegex {self.text!r}", "args": f" argsPattern {self.text!r}"}
        word = {"ask": "ask_user"}.get(self.decision, self.decision)
        tier = TIER_NAMES.get(int(self.priority), "?")
        return (f"{word} rule{what[self.kind]} (priority {self.priority:.3f}, {tier} tier) "
                f"in {self.source}")


def _prefix_matches(prefix: str, args_text: str) -> bool:
    # "command":"<prefix as JSON, without its closing quote>, then whitespace, " or \"
    needle = '"command":' + json_string(prefix)[:-1]
    start = args_text.find(needle)
    while start != -1:
        after = start + len(needle)
        following = args_text[after:after + 1]
        if following == '"' or following.isspace() or args_text[after:after + 2] == '\\"':
            return True
        start = args_text.find(needle, start + 1)
    return False


def compile_js_regex(source: str):
    """A JavaScript `new RegExp(source)` as a Python pattern; a pattern Python cannot compile
    raises ValueError (the caller then doubts)."""
    import re

    try:
        return re.compile(source.replace("(?<", "(?P<").replace("(?P<=", "(?<=")
                          .replace("(?P<!", "(?<!"))
    except re.error as exc:
        raise ValueError(f"regex {source!r}: {exc}") from None


def json_string(text: str) -> str:
    """`JSON.stringify(text)`: `"`, `\\` and control characters escaped, nothing else."""
    from _json import encode_basestring

    return encode_basestring(text)


def stable_args(args: dict) -> str:
    """The engine's `stableStringify(args)`: keys sorted, each top-level pair in NULs."""
    pairs = []
    for key in sorted(args):
        value = args[key]
        pairs.append("\0" + json_string(key) + ":" + _stable_value(value) + "\0")
    return "{" + ",".join(pairs) + "}"


def _stable_value(value) -> str:
    if value is None:
        return "null"
    if value is True:
        return "true"
    if value is False:
        return "false"
    if isinstance(value, str):
        return json_string(value)
    if isinstance(value, (int, float)):
        return record.dumps(value)
    if isinstance(value, list):
        return "[" + ",".join(_stable_value(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ",".join(json_string(k) + ":" + _stable_value(value[k])
                              for k in sorted(value)) + "}"
    return "null"


# ---------------------------------------------------------------------------------------------
# reading policy files


def policy_files(path: str) -> list:
    """The `.toml` files Gemini CLI loads from a policy path (a directory: its `*.toml`
    files, not recursive; a file: itself if it ends in `.toml`)."""
    try:
        if os.path.isdir(path):
            return sorted(os.path.join(path, name) for name in os.listdir(path)
                          if name.endswith(".toml") and os.path.isfile(os.path.join(path, name)))
    except OSError as exc:
        raise PolicyError(f"cannot list {path} ({exc.strerror or exc})") from None
    if os.path.isfile(path) and path.endswith(".toml"):
        return [path]
    return []


def parse_policy(text: str, tier: int, source: str) -> list:
    """The shell-tool rules of one policy file's text; PolicyError when Gemini CLI would
    reject the file (TOML error, schema error) or when a rule cannot be reproduced."""
    import tomllib

    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise PolicyError(f"TOML parsing failed ({exc})") from None
    rules = data.get("rule", [])
    if not isinstance(rules, list):
        raise PolicyError("`rule` is not an array of tables")
    out = []
    for index, raw in enumerate(rules):
        if not isinstance(raw, dict):
            raise PolicyError(f"rule #{index + 1} is not a table")
        out.extend(_shell_rules(raw, index, tier, source))
    return out


def _shell_rules(raw: dict, index: int, tier: int, source: str) -> list:
    where = f"rule #{index + 1}"
    names = raw.get("toolName")
    names = [names] if isinstance(names, str) else names
    if not isinstance(names, list) or not names or not all(isinstance(n, str) for n in names):
        raise PolicyError(f"{where}: toolName must be a string or a list of strings")
    decision = DECISIONS.get(raw.get("decision"))
    if decision is None:
        raise PolicyError(f"{where}: decision must be allow, deny or ask_user")
    priority = raw.get("priority")
    if isinstance(priority, bool) or not isinstance(priority, int) or not 0 <= priority <= 999:
        raise PolicyError(f"{where}: priority must be an integer from 0 to 999")
    modes = raw.get("modes")
    if modes is not None and (not isinstance(modes, list) or any(m not in MODES for m in modes)):
        raise PolicyError(f"{where}: modes must be a list of {', '.join(MODES)}")
    interactive = raw.get("interactive")
    if interactive is not None and not isinstance(interactive, bool):
        raise PolicyError(f"{where}: interactive must be true or false")
    prefixes = raw.get("commandPrefix")
    regex = raw.get("commandRegex")
    args = raw.get("argsPattern")
    if prefixes is not None and regex is not None:
        raise PolicyError(f"{where}: commandPrefix and commandRegex together")
    if (prefixes is not None or regex is not None) and args is not None:
        raise PolicyError(f"{where}: commandPrefix/commandRegex together with argsPattern")
    if (prefixes is not None or regex is not None) and names != [SHELL_TOOL]:
        raise PolicyError(f"{where}: commandPrefix/commandRegex need toolName = "
                          f"\"{SHELL_TOOL}\"")
    if not any(_names_shell_tool(n) for n in names):
        return []
    if any(key in raw for key in ("mcpName", "subagent", "toolAnnotations")):
        return []  # never the main agent's built-in shell tool
    redirection = raw.get("allowRedirection", raw.get("allow_redirection", False))
    common = dict(decision=decision, priority=tier + priority / 1000, modes=modes,
                  interactive=interactive, allow_redirection=redirection is True, source=source)
    if prefixes is not None:
        prefixes = [prefixes] if isinstance(prefixes, str) else prefixes
        if not isinstance(prefixes, list) or not all(isinstance(p, str) for p in prefixes):
            raise PolicyError(f"{where}: commandPrefix must be a string or a list of strings")
        return [PolicyRule(kind="prefix", text=p, **common) for p in prefixes if p]
    if regex is not None or args is not None:
        source_text = ('"command":"' + regex) if regex is not None else args
        if not isinstance(source_text, str):
            raise PolicyError(f"{where}: the pattern must be a string")
        if not is_safe_regex(source_text):
            return []  # Gemini CLI skips it (a ReDoS guard), so does the gate
        compile_js_regex(source_text)  # ValueError: the caller doubts
        return [PolicyRule(kind="regex" if regex is not None else "args", text=source_text,
                           **common)]
    return [PolicyRule(**common)]


def _names_shell_tool(name: str) -> bool:
    if name == "*" or name in SHELL_TOOL_NAMES:
        return True
    if "*" in name and not name.startswith(("mcp_", "discovered_tool_")):
        raise PolicyError(f"toolName {name!r}: a wildcard the gate does not reproduce")
    return False


def is_safe_regex(pattern: str) -> bool:
    """The engine's ReDoS guard: at most 2048 characters, no nested quantifier."""
    if len(pattern) > 2048:
        return False
    import re

    return re.search(r"\([^)]*[*+?{].*\)[*+?{]", pattern) is None


# ---------------------------------------------------------------------------------------------
# the cache


def cache_path() -> str:
    from ctxcrl import home

    return os.path.join(home.data_dir(), "cache", "gemini-policies.json")


class PolicyCache:
    """Parsed rules per policy file, keyed by (path, mtime_ns, size, tier)."""

    def __init__(self):
        self.path = cache_path()
        self.entries = None
        self.dirty = False

    def _load(self) -> dict:
        if self.entries is None:
            self.entries = {}
            try:
                with open(self.path, "rb") as f:
                    data = record.loads(f.read().decode("utf-8"))
                if isinstance(data, dict) and data.get("version") == CACHE_VERSION:
                    files = data.get("files")
                    self.entries = files if isinstance(files, dict) else {}
            except (OSError, ValueError, UnicodeDecodeError):
                pass
        return self.entries

    def rules_of(self, path: str, tier: int) -> list:
        """The file's shell rules (PolicyError/ValueError when Gemini would not use it)."""
        try:
            st = os.stat(path)
        except OSError as exc:
            raise PolicyError(f"cannot read it ({exc.strerror or exc})") from None
        stamp = [st.st_mtime_ns, st.st_size, tier]
        entry = self._load().get(path)
        if isinstance(entry, dict) and entry.get("stamp") == stamp:
            if entry.get("error"):
                raise PolicyError(entry["error"])
            return [PolicyRule.from_json(row) for row in entry.get("rules", [])]
        from ctxcrl.home import short_path

        try:
            with open(path, "rb") as f:
                text = f.read().decode("utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise PolicyError(f"cannot read it ({exc})") from None
        try:
            rules = parse_policy(text, tier, short_path(path))
            entry = {"stamp": stamp, "rules": [r.to_json() for r in rules]}
        except (PolicyError, ValueError) as exc:
            entry = {"stamp": stamp, "error": str(exc)}
            rules = None
        self.entries[path] = entry
        self.dirty = True
        if rules is None:
            raise PolicyError(entry["error"])
        return rules

    def save(self) -> None:
        """Write the cache back (atomically; any failure just means parsing again)."""
        if not self.dirty:
            return
        try:
            directory = os.path.dirname(self.path)
            os.makedirs(directory, mode=0o700, exist_ok=True)
            tmp = f"{self.path}.{os.getpid()}.tmp"
            with open(tmp, "w", encoding="utf-8") as f:
                f.write(record.dumps({"version": CACHE_VERSION, "files": self.entries}))
            os.replace(tmp, self.path)
        except OSError:
            pass
