"""Permission rules every agent shares: their pattern language, rule sets, settings reading.

A rule is one entry of an agent's settings (`Bash(git push --force:*)`, `Shell(ls)`,
`run_shell_command(git status)`) or of the `[gate]` config, with the file it came from.
Pattern forms, matched against a command text:

- `*` (or the bare tool name, `Bash`)      every command
- `git push:*` and `git push *`             `git push` alone or followed by a space and more
                                            (word boundary: not `git pushy`)
- `git status`                              exactly that, or followed by a space and more
- `git * --force *`, `* --version`          glob: `*` is any text; a trailing ` *` may also
                                            match nothing

Where each agent keeps its rules, and what else decides for it (modes, built-in
auto-allowed commands, flags of the running client), is that agent's own model in
`cc_gate/agents/<agent>.py`; this module keeps what they share: the Rule and RuleSet types,
the pattern language, tolerant reading of settings files (JSON, JSON with comments), project
directory lookup, and contextcrawler's own `[gate]` rules. A file that cannot be read or
parsed is skipped with one warning naming it; a missing file is simply absent.

Runs on every agent command: imports only `os` (and `ctxcrl.config`, itself cheap); settings
are small JSON files parsed with the C scanner of `cc_peel.record`; matching is a few string
scans.
"""
from ctxcrl import lean_os as os

from cc_peel import record

ALLOW = "allow"
ASK = "ask"
DENY = "deny"

#: The tool names a `[gate]` rule of contextcrawler's own config may be written with (the
#: rule syntax of Claude Code, Cursor or Gemini CLI), besides a bare pattern. Each agent's own
#: files use its module's SHELL_TOOLS.
CONFIG_SHELL_TOOLS = ("Bash", "Shell", "run_shell_command", "ShellTool")


class Rule:
    """One allow/ask/deny rule; `text` is the entry as written, `source` names its file."""

    __slots__ = ("kind", "text", "pattern", "source", "matches")

    def __init__(self, kind: str, text: str, pattern: str, source: str, matcher=None):
        self.kind = kind
        self.text = text
        self.pattern = pattern
        self.source = source
        #: matches(command) -> bool, compiled once: rules are tried on every spelling.
        self.matches = matcher or compile_pattern(pattern)

    def __repr__(self):
        return f"Rule({self.kind!r}, {self.text!r}, source={self.source!r})"

    def describe(self) -> str:
        return f"{self.kind} rule {self.text} in {self.source}"


def shell_pattern(entry, tools=CONFIG_SHELL_TOOLS, bare_ok: bool = False):
    """The command pattern of a settings entry, or None when the entry is about another tool.

    `Bash(git status)` → `git status`; `Bash` and `Bash()` → `*`. With `bare_ok`, text that is
    not wrapped in a tool name is a pattern itself (the `[gate]` config allows that).
    """
    if not isinstance(entry, str):
        return None
    text = entry.strip()
    if not text:
        return None
    paren = text.find("(")
    if paren == -1:
        if text in tools:
            return "*"
        return text if bare_ok else None
    name = text[:paren].strip()
    if name not in tools:
        return text if bare_ok and not _looks_like_tool_call(name, text) else None
    if not text.endswith(")"):
        return None
    body = text[paren + 1:-1].strip()
    return body or "*"


def _looks_like_tool_call(name: str, text: str) -> bool:
    # `Read(~/x)` or `WebFetch(domain:x)`: another tool's rule, not a shell pattern.
    return bool(name) and name[0].isupper() and name.isidentifier() and text.endswith(")")


def pattern_matches(pattern: str, command: str) -> bool:
    """Does `command` (already stripped) match `pattern`?"""
    return compile_pattern(pattern)(command)


def compile_pattern(pattern: str):
    """A one-argument function telling whether a command matches `pattern`."""
    if pattern == "*":
        return _everything
    if pattern.endswith(":*") and "*" not in pattern[:-2]:
        return prefix_matcher(pattern[:-2].rstrip())
    if "*" not in pattern:
        return prefix_matcher(pattern)
    if pattern.endswith(" *") and "*" not in pattern[:-2]:
        return prefix_matcher(pattern[:-2].rstrip())
    tail_optional = pattern.endswith(" *")
    if pattern.endswith(":*"):
        pattern = pattern[:-2] + " *"
        tail_optional = True
    if tail_optional:
        bare = pattern[:-2].split("*")
        spaced = (pattern[:-2] + " *").split("*")
        return lambda command: _glob_parts(bare, command) or _glob_parts(spaced, command)
    parts = pattern.split("*")
    return lambda command: _glob_parts(parts, command)


def _everything(command: str) -> bool:
    return True


def prefix_matcher(prefix: str):
    """Matches `prefix` alone or followed by whitespace and more (no `*` metacharacter)."""
    return lambda command: _prefix(prefix, command)


def _prefix(prefix: str, command: str) -> bool:
    """`command` is `prefix`, or `prefix` then whitespace and more (a word boundary)."""
    if not command.startswith(prefix):
        return False
    if len(command) == len(prefix) or not prefix:
        return True
    return command[len(prefix)] in " \t\n" or prefix[-1] in " \t"


def _glob_parts(parts: list, text: str) -> bool:
    """Whole-text match of a pattern split at its `*`s (no other metacharacters)."""
    first, last = parts[0], parts[-1]
    if len(parts) == 1:
        return text == first
    if not text.startswith(first):
        return False
    if len(text) - len(first) < len(last) or not text.endswith(last):
        return False
    pos = len(first)
    stop = len(text) - len(last)
    for middle in parts[1:-1]:
        if not middle:
            continue
        found = text.find(middle, pos, stop)
        if found == -1:
            return False
        pos = found + len(middle)
    return True


# ---------------------------------------------------------------------------------------------
# where the rules come from


class RuleSet:
    """The rules that apply to one command, in the order their files were read."""

    __slots__ = ("deny", "ask", "allow", "files", "warnings", "doubt", "extra")

    def __init__(self):
        self.deny: list = []
        self.ask: list = []
        self.allow: list = []
        self.files: list = []     # settings files that were read (display paths)
        self.warnings: list = []  # one line per skipped file
        #: Why this agent's decision cannot be known for sure (a source that could not be read
        #: or parsed): never answer allow then. None when every source was understood.
        self.doubt: str | None = None
        #: Whatever else an agent's model loaded with its rules (modes, flags, policies).
        self.extra: dict = {}

    def doubt_about(self, reason: str) -> None:
        if self.doubt is None:
            self.doubt = reason

    def add(self, kind: str, entries, tools, source: str, bare_ok: bool = False) -> None:
        if isinstance(entries, str):
            entries = [entries]
        if not isinstance(entries, (list, tuple)):
            return
        bucket = self.bucket(kind)
        for entry in entries:
            pattern = shell_pattern(entry, tools, bare_ok)
            if pattern is not None:
                bucket.append(Rule(kind, entry.strip(), pattern, source))

    def bucket(self, kind: str) -> list:
        return {DENY: self.deny, ASK: self.ask, ALLOW: self.allow}[kind]

    def all(self) -> list:
        return self.deny + self.ask + self.allow


def display_path(path: str) -> str:
    from ctxcrl.home import short_path

    return short_path(path)


# Parsed settings, per path, keyed by (mtime, size): a record stream with many commands
# reads each file once.
_parsed: dict = {}


def read_settings(path: str, lenient: bool, warnings: list):
    """The JSON object in `path`; None when absent; None plus a warning when unusable."""
    return read_cached(path, warnings, lambda p: _load(p, lenient))


def read_cached(path: str, warnings: list, load):
    """`load(path)` → (value, problem), run once per (mtime, size) of `path`; the value, or
    None when `path` is absent. A problem becomes one "skipping <file>: …" warning."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    stamp = (st.st_mtime_ns, st.st_size)
    cached = _parsed.get(path)
    if cached is None or cached[0] != stamp:
        value, problem = load(path)
        warning = f"skipping {display_path(path)}: {problem}" if problem else None
        cached = _parsed[path] = (stamp, value, warning)
    if cached[2]:
        warnings.append(cached[2])
    return cached[1]


def settings_of(rules: "RuleSet", paths, lenient: bool):
    """(settings, display path) of each file in `paths` that holds usable settings, each one
    listed in `rules.files` as it is read."""
    for path in paths:
        settings = read_settings(path, lenient, rules.warnings)
        if settings is not None:
            source = display_path(path)
            rules.files.append(source)
            yield settings, source


def add_permissions(rules: "RuleSet", permissions, tools, source: str) -> None:
    """A `permissions: {deny, ask, allow}` object (Claude and Cursor settings)."""
    if isinstance(permissions, dict):
        rules.add(DENY, permissions.get("deny"), tools, source)
        rules.add(ASK, permissions.get("ask"), tools, source)
        rules.add(ALLOW, permissions.get("allow"), tools, source)


def _load(path: str, lenient: bool):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError as exc:
        return None, f"cannot read it ({exc.strerror or exc})"
    try:
        text = data.decode("utf-8")  # not "utf-8-sig": that codec is one more import
    except UnicodeDecodeError:
        return None, "not UTF-8"
    if text.startswith("\ufeff"):
        text = text[1:]
    if not text.strip():
        return {}, None
    try:
        value = record.loads(text)
    except ValueError as exc:
        if not lenient:
            return None, f"malformed JSON ({exc})"
        try:
            value = record.loads(strip_jsonc(text))
        except ValueError:
            return None, f"malformed JSON ({exc})"
    if not isinstance(value, dict):
        return None, "not a JSON object"
    return value, None


def strip_jsonc(text: str) -> str:
    """JSON with comments (`//`, `/* */`) and trailing commas → plain JSON (string-aware)."""
    out = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c == '"':
            j = i + 1
            while j < n and text[j] != '"':
                j += 2 if text[j] == "\\" else 1
            out.append(text[i:j + 1])
            i = j + 1
        elif c == "/" and text.startswith("//", i):
            j = text.find("\n", i)
            i = n if j == -1 else j
        elif c == "/" and text.startswith("/*", i):
            j = text.find("*/", i + 2)
            i = n if j == -1 else j + 2
        elif c == ",":
            j = i + 1
            while j < n and text[j] in " \t\r\n":
                j += 1
            if j < n and text[j] in "]}":
                i += 1  # trailing comma
            else:
                out.append(c)
                i += 1
        else:
            out.append(c)
            i += 1
    return "".join(out)


def dig(obj, *keys):
    for key in keys:
        if not isinstance(obj, dict):
            return None
        obj = obj.get(key)
    return obj


def find_project_dir(cwd: str, marker: str, home: str):
    """The nearest directory from `cwd` upwards holding `marker` (e.g. `.claude`), not $HOME."""
    here = os.path.abspath(cwd) if cwd else os.getcwd()
    while True:
        if here != home and os.path.isdir(os.path.join(here, marker)):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return None
        here = parent


def home_dir() -> str:
    return os.path.expanduser("~")


def add_settings_permissions(rules: RuleSet, paths, tools, lenient: bool = False) -> None:
    """`permissions: {deny, ask, allow}` of each settings file in `paths` (Claude-format and
    Cursor settings)."""
    for settings, source in settings_of(rules, paths, lenient):
        add_permissions(rules, settings.get("permissions"), tools, source)


def config_rules() -> RuleSet:
    """contextcrawler's `[gate]` alone: the rules of an agent that has none of its own."""
    rules = RuleSet()
    add_config(rules)
    return rules


def add_config(rules: RuleSet) -> None:
    """contextcrawler's own `[gate] allow / ask / deny` (config.toml), for every agent."""
    from ctxcrl import config, home

    gate = config.section("gate")
    if not isinstance(gate, dict):
        return
    source = f"[gate] of {display_path(home.config_path())}"
    tools = CONFIG_SHELL_TOOLS
    rules.add(DENY, gate.get("deny"), tools, source, bare_ok=True)
    rules.add(ASK, gate.get("ask"), tools, source, bare_ok=True)
    rules.add(ALLOW, gate.get("allow"), tools, source, bare_ok=True)

