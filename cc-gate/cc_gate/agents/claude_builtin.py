"""Claude Code's built-in auto-allowed (read-only) commands: the commands the client runs
without asking in its default mode when no rule says otherwise.

The tables are the client's own, extracted from its binary by scripts/claude_builtin_allow.py
into claude_builtin.json (the newest client checked, tagged with its version; re-extract and
compare with `--check` when the pinned version changes). Tables of older clients that are
still checked stay next to it as `claude_builtin-<version>.json` (2.1.197): the tables differ
from release to release (2.1.332 dropped `pyright`, `file -m`, `help -s`, and moved `which`
to the flag table), so each client is judged by its own. A client whose version has no table
(newer than the newest, or an unchecked release in between) is judged by none:
`table_is_current(version)` is False and nothing is auto-allowed on the strength of a table. This module reproduces the client's check
**conservatively**: where the client's logic runs a callback we did not port, or anything is
unclear, the command is not auto-allowed (the hook then gives no answer and the client decides
on the original command: a missed rewrite, never a changed permission).

What the client requires of a whole command before it looks at the tables (its read-only check,
measured on 2.1.197): no subshell, brace group, control structure or background `&`; no
unquoted variable expansion; no bare assignment; no `cd` together with `git`; every redirect an
input, `/dev/null` or a descriptor duplication; every leading assignment one of its safe
variables (`LANG=`, `NO_COLOR=`, `CI=` …). Then each simple command must be: in its flag table
with only the listed flags (`git status -s`, `grep -rn x src`), a command it allows with any
arguments (`cat`, `head`, `wc`, `du` …; with a glob only the few it lists), an exact command
(`node --version`), or match one of its regexes (`ls …`, `find …` without `-exec`/`-delete`,
`echo …`, `pwd`).

Loaded lazily (the JSON is read once, when a command has no allow rule); imports `re` only then.
"""
from ctxcrl import lean_os as os

NEWEST = "claude_builtin.json"
_LOADED: dict = {}  # file name → its tables

#: Flag-table commands whose extra check (a callback in the client) is ported here; every other
#: command with a callback is never auto-allowed.
_LIST_FLAGS = frozenset(("-l", "--list"))
_FORMAT_FLAGS = ("--format", "--pretty", "--sort")


def _file_for(version) -> str:
    """The table file for `version` (None: the newest); the newest when there is none."""
    if version is not None:
        name = f"claude_builtin-{version}.json"
        if os.path.exists(os.path.join(os.path.dirname(__file__), name)):
            return name
    return NEWEST


def tables(version=None) -> dict:
    """The tables of client `version` (None or a version without a table: the newest)."""
    name = _file_for(version)
    loaded = _LOADED.get(name)
    if loaded is None:
        from cc_peel.record import loads

        with open(os.path.join(os.path.dirname(__file__), name), encoding="utf-8") as f:
            loaded = loads(f.read())
        loaded["any_args_set"] = frozenset(c for c in loaded["any_args"] if " " not in c)
        loaded["any_args_multi"] = [c.split(" ") for c in loaded["any_args"] if " " in c]
        loaded["flag_keys"] = [(k.split(" "), v) for k, v in loaded["flag_commands"].items()]
        loaded["safe_env_set"] = frozenset(loaded["safe_env"])
        loaded["glob_ok_set"] = frozenset(loaded["glob_ok"])
        loaded["no_args_set"] = frozenset(loaded["no_args"])
        _LOADED[name] = loaded
    return loaded


def version() -> str:
    """The newest client version with a table."""
    return tables()["version"]


def table_versions() -> list:
    """Every client version with a table, newest first."""
    found = [version()]
    for name in sorted(os.listdir(os.path.dirname(__file__))):
        if name.startswith("claude_builtin-") and name.endswith(".json"):
            found.append(name[len("claude_builtin-"):-len(".json")])
    return found


def table_is_current(client_version) -> bool:
    """Whether the tables hold the read-only check of this client version (None: a client
    whose version is not known, judged by the newest table). False for a client newer than
    the newest table, or any release without a table of its own: its check may have
    changed, so nothing may be auto-allowed on the strength of a table."""
    if client_version is None:
        return True
    return client_version == version() or _file_for(client_version) != NEWEST


def newer_than_tables(client_version) -> bool:
    """Whether `client_version` is newer than every table (for what verify says)."""
    def key(v):
        return tuple(int(p) if p.isdigit() else 0 for p in str(v).split("-")[0].split("."))

    return client_version is not None and key(client_version) > key(version())


def _regexes(t: dict) -> list:
    compiled = t.get("compiled_regexes")
    if compiled is None:
        import re

        compiled = []
        for source in t["regexes"]:
            try:
                compiled.append(re.compile(source))
            except re.error:
                continue  # a JS-only construct: that regex never allows (conservative)
        t["compiled_regexes"] = compiled
    return compiled


def segment_is_read_only(argv: list, text: str, env_vars=(), wrappers: str = "",
                         has_glob: bool = False, client_version=None) -> bool:
    """Whether the client auto-allows this simple command (`text` as written, `argv` its
    unquoted words); never for a client whose version has no table."""
    if not argv or wrappers or not table_is_current(client_version):
        return False
    t = tables(client_version)
    for name, value in env_vars:
        if name not in t["safe_env_set"] or not _simple_value(value):
            return False
    if any("$" in w or "`" in w for w in argv):
        return False
    if has_glob:
        return argv[0] in t["glob_ok_set"] and _simple_argv(t, argv, text)
    return _simple_argv(t, argv, text) or _flag_table(t, argv, text) or _regex_match(t, text)


def _simple_value(value: str) -> bool:
    return bool(value) and all(c.isalnum() or c in "_./:-" for c in value)


def _simple_argv(t: dict, argv: list, text: str) -> bool:
    """The client's list checks: bare commands, exact commands, any-argument commands."""
    head = argv[0]
    if head in t["no_args_set"]:
        return len(argv) == 1
    if argv in t["exact"]:
        return True
    if head in t["any_args_set"]:
        return True
    for words in t["any_args_multi"]:  # docker ps, docker images
        if argv[:len(words)] == words:
            return not any(_docker_host_flag(a) for a in argv)
    if head == "echo":
        return True
    return False


def _docker_host_flag(arg: str) -> bool:
    for flag in ("-H", "-c", "--host", "--context", "--config", "--tlscacert", "--tlscert",
                 "--tlskey"):
        if arg == flag or arg.startswith(flag + "=") or (len(flag) == 2 and len(arg) > 2
                                                         and arg.startswith(flag)):
            return True
    return arg.startswith("-") and not arg.startswith("--") and any(c in "Hc" for c in arg[1:])


def _flag_table(t: dict, argv: list, text: str) -> bool:
    spec = None
    for words, value in t["flag_keys"]:
        if argv[:len(words)] == words:
            spec, used = value, len(words)
            break
    if spec is None:
        return False
    rest = argv[used:]
    for arg in rest:
        if "{" in arg and ("," in arg or ".." in arg):
            return False
    if not _flags_are_safe(rest, spec, argv[0]):
        return False
    if spec.get("regex"):
        return False  # (hostname) a regex of its own: not ported
    if "`" in text:
        return False
    if argv[0] in ("rg", "grep", "egrep", "fgrep") and ("\n" in text or "\r" in text):
        return False
    if spec.get("callback"):
        return _callback_allows(" ".join(argv[:used]), rest)
    return True


def _callback_allows(command: str, rest: list) -> bool:
    """The client's extra checks, for the commands they are ported for; others: not allowed."""
    if command in ("git log", "git show", "git shortlog", "git rev-list", "git for-each-ref"):
        # signature / format placeholders can run gpg or read files: never with a format
        return not any(a.startswith(_FORMAT_FLAGS) or "%" in a for a in rest)
    if command in ("git branch", "git tag"):
        listing = any(a in _LIST_FLAGS for a in rest)
        return listing or not any(a and not a.startswith("-") for a in rest)
    if command == "git diff":  # 2.1.332: submodule options that run a diff per submodule
        return not any(a.startswith(("--submodule", "--ignore-submodules")) for a in rest)
    if command == "git remote":
        return all(a in ("-v", "--verbose") for a in rest)
    if command == "ps":  # BSD `ps e` shows the environment of other processes
        return not any(a and not a.startswith("-") and a.isalpha() and "e" in a for a in rest)
    return False


def _flags_are_safe(args: list, spec: dict, command: str) -> bool:
    """A port of the client's flag walk: every option must be a listed safe flag with a
    value of the listed kind; positional arguments are fine."""
    flags = spec.get("safe_flags") or {}
    respects_dd = spec.get("respects_double_dash", True)
    i = 0
    while i < len(args):
        arg = args[i]
        if not arg:
            i += 1
            continue
        if arg == "--":
            if respects_dd:
                return True
            i += 1
            continue
        if arg.startswith("-") and len(arg) > 1 and (arg[1].isalnum() or arg[1] in "_-"):
            name, eq, value = arg.partition("=")
            kind = flags.get(name)
            if kind is None:
                if command == "git" and name[1:].isdigit():  # git log -5
                    i += 1
                    continue
                if not name.startswith("--") and len(name) > 2:
                    # bundled short flags: each must be a safe flag without a value
                    if all(flags.get("-" + c) == "none" for c in name[1:]):
                        i += 1
                        continue
                    return False
                return False
            if kind == "none":
                if eq:
                    return False
                i += 1
                continue
            if not eq:
                if i + 1 >= len(args) or args[i + 1].startswith("-"):
                    return False
                value = args[i + 1]
                i += 2
            else:
                i += 1
            if not _value_ok(value, kind):
                return False
            continue
        i += 1
    return True


def _value_ok(value: str, kind: str) -> bool:
    if kind == "number":
        return value.isdigit() and value.isascii()
    if kind == "string":
        return not value.startswith("-")
    if kind == "char":
        return len(value) == 1
    if kind in ("{}", "EOF"):
        return value == kind
    return False


_UNSAFE = frozenset("<>()$`|{}&;\n\r")


def _plain_tail(text: str, head: str, escaped_parens: bool = False) -> bool:
    """`text` is `head` alone or `head` + blank + characters none of `<>()$`|{}&;`
    (`\\(` `\\)` allowed for find): the client's `ls` and `find` regexes, without `re`."""
    if text == head:
        return True
    if not text.startswith(head) or not text[len(head)].isspace():
        return False
    rest = text[len(head):]
    if escaped_parens:
        rest = rest.replace("\\(", "").replace("\\)", "")
    return not any(c in _UNSAFE for c in rest)


def _regex_heads(t: dict) -> frozenset:
    heads = t.get("regex_heads")
    if heads is None:
        found = set()
        for source in t["regexes"]:
            word = ""
            for c in source[1:]:
                if c.isalnum() or c in "_-":
                    word += c
                else:
                    break
            found.add(word)
        heads = t["regex_heads"] = frozenset(found)
    return heads


def _regex_match(t: dict, text: str) -> bool:
    text = text.strip()
    if text.endswith(" 2>&1"):
        text = text[:-5].rstrip()
    if "$" in text:
        return False
    head = text.split(None, 1)[0] if text else ""
    if head == "ls":
        return _plain_tail(text, "ls")
    if head == "find":
        if not _plain_tail(text, "find", escaped_parens=True):
            return False
        bare = text.replace("'", "").replace('"', "").replace("\\", "")
        return not any(flag in bare.split() for flag in t["find_dangerous"])
    if head not in _regex_heads(t):
        return False
    for regex in _regexes(t):
        if regex.search(text):
            if text.startswith("find"):
                bare = text.replace("'", "").replace('"', "").replace("\\", "")
                if any(flag in bare.split() for flag in t["find_dangerous"]):
                    return False
            if "git" in text and (" -c" in text or "--exec-path" in text
                                  or "--config-env" in text):
                return False
            return True
    return False


#: What acceptEdits lets run in the working directories (with what the tables allow), and
#: more that a later release may add: never "surely asks" there.
ACCEPT_EDITS = frozenset(("mkdir", "touch", "rm", "rmdir", "mv", "cp", "sed", "ln", "chmod",
                          "tee", "install", "truncate"))
#: Shell builtins and words the client may treat as harmless on their own.
_SHELL_WORDS = frozenset(("cd", "pushd", "popd", "echo", "printf", "true", "false", "pwd", ":",
                          "test", "[", "[[", "exit", "export", "unset", "set", "shift", "read",
                          "local", "declare", "type", "command", "builtin", "hash", "wait",
                          "jobs", "alias", "unalias", "history", "times", "umask", "getopts",
                          "let", "return", "break", "continue", "source", ".", "exec", "eval",
                          "trap", "ulimit", "shopt", "enable", "help", "fc", "dirs", "disown",
                          "bg", "fg", "kill", "suspend", "logout", "caller", "compgen",
                          "complete", "readonly", "typeset", "mapfile", "readarray"))


def surely_asks(argv: list, text: str, mode: str, client_version=None, variants=()) -> bool:
    """Whether the client certainly does NOT auto-allow this simple command (its read-only
    check can only say no): the other side of `segment_is_read_only`, just as conservative.
    True only when the command's name is nowhere in the tables (`pytest`, `make`, `npm`,
    `cargo` …), or it is `git`/`docker` with a subcommand no table names (`git push`), or a
    name the regexes know with a text none of them matches (`python3 -m pytest`); never for a
    shell builtin, in acceptEdits for what that mode lets run, or for a client whose version
    has no table. `variants`: other texts the client may test its regexes on (the command
    without its trailing redirects)."""
    if not argv or not table_is_current(client_version):
        return False
    t = tables(client_version)
    head = argv[0]
    name = head.rsplit("/", 1)[-1]
    if not name or name in _SHELL_WORDS or name != head and not _plain_path(head):
        return False
    if mode == "acceptEdits" and name in ACCEPT_EDITS:
        return False
    if name in t["any_args_set"] or name in t["glob_ok_set"] or name in t["no_args_set"] \
            or name in t["xargs_targets"]:
        return False
    multi = False
    for words, _spec in t["flag_keys"]:
        if words[0] == name:
            if len(words) == 1:
                return False
            multi = True
    for words in t["any_args_multi"]:
        if words[0] == name:
            multi = True
    if multi:
        if len(argv) < 2 or argv[1].startswith("-"):
            return False  # `git -C x status`: options before the subcommand
        sub = argv[1]
        if any(words[0] == name and words[1] == sub for words, _ in t["flag_keys"]) or \
                any(words[0] == name and words[1] == sub for words in t["any_args_multi"]):
            return False
    if any(x and x[0] == name for x in t["exact"]):
        if list(argv) in t["exact"]:
            return False
    if name in _regex_heads(t):
        if len(_regexes(t)) != len(t["regexes"]):
            return False  # a regex Python cannot read might match
        stripped = text.strip()
        texts = {stripped, " ".join(argv), stripped.replace(head, name, 1)}
        texts.update(v.strip() for v in variants if v)
        if any(r.search(v) for r in _regexes(t) for v in texts):
            return False
    return True


def _plain_path(word: str) -> bool:
    return all(c.isalnum() or c in "/._-+" for c in word)
