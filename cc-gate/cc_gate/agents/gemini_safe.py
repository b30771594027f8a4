"""Gemini CLI's own known-safe shell commands: what an interactive session runs without asking
when no rule with a pattern decides (measured on Gemini CLI 0.61.0; its bundle's
`isKnownSafeCommand`, used by the Policy Engine's shell heuristics).

In default and autoEdit mode the engine's default rule for `run_shell_command` is `ask_user`;
the heuristics turn that into `allow` for one simple command that is known safe: a read-only
tool from a fixed list whose path arguments stay inside the workspace, `find` without
`-exec`/`-delete`/`-fprint…`, `sed -n <N>p [file]`, and `git status|log|diff|show|branch` with
read-only arguments (`branch` only with listing flags) and no `-c` / `--config-env`. A command
with several parts (`&&`, `|`, `;`), a redirection, or a dangerous form (`rm -f`, `ln -s`,
`sudo …`, `find -exec`) keeps `ask_user`.

`known_safe(command, cwd)` answers True (the client runs it unasked), False (the client asks)
or None (the gate cannot tell for sure: quoting, globs, variables, `~`, `rg` whose trust
depends on where it lives, …). Only the first two let the gate rewrite; None leaves the
command alone.

Imports only `os`; cc_lex is imported when a command is judged.
"""
from ctxcrl import lean_os as os

#: The client's safe commands (`safeCommands`), and those of them that read files
#: (`fileReadingCommands`: each path argument must stay in the workspace).
SAFE = frozenset(("cat", "cd", "cut", "echo", "expr", "false", "grep", "head", "id", "ls", "nl",
                  "paste", "pwd", "rev", "seq", "stat", "tail", "tr", "true", "uname", "uniq",
                  "wc", "which", "whoami", "numfmt", "tac"))
FILE_READING = frozenset(("cat", "head", "tail", "tac", "nl", "stat", "wc", "cut", "paste",
                          "rev", "uniq", "numfmt", "ls"))
GIT_READ_ONLY = ("status", "log", "diff", "show", "branch")
#: Every first word the client may call safe: any other command is surely asked about.
CANDIDATES = SAFE | {"git", "find", "sed", "base64", "rg"}
_GIT_UNSAFE = frozenset(("--output", "--ext-diff", "--textconv", "--exec", "--paginate"))
_GIT_BRANCH_LISTING = frozenset(("--list", "-l", "--show-current", "-a", "--all", "-r",
                                 "--remotes", "-v", "-vv", "--verbose"))
_FIND_UNSAFE = frozenset(("-exec", "-execdir", "-ok", "-okdir", "-delete", "-fls", "-fprint",
                          "-fprint0", "-fprintf"))
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_./,:=@%+-")
_PLAIN_TILDE = _PLAIN | {"~"}
_GIT_VALUE_OPTIONS = ("-C", "-c", "--config-env", "--exec-path", "--git-dir", "--namespace",
                      "--super-prefix", "--work-tree")


def word_value(text: str):
    """The value of one word when the shell and the client's parser surely agree on it: plain
    characters (a `~` not first: no tilde expansion), or one quoted string with nothing
    inside that either would expand (`'*.py'`, `"a b"`); else None."""
    if not text:
        return None
    if set(text) <= _PLAIN_TILDE and not text.startswith("~"):
        return text
    if len(text) >= 2 and text[0] == text[-1] == "'" and "'" not in text[1:-1]:
        value = text[1:-1]
    elif len(text) >= 2 and text[0] == text[-1] == '"' and \
            not set(text[1:-1]) & set('"$`\\!'):
        value = text[1:-1]
    else:
        return None
    return value if "\n" not in value and "\0" not in value else None


def words_of(command: str):
    """The command's words when it is one simple command of such words (no unquoted globs,
    variables, operators, redirections, comments), else None."""
    from cc_lex.lexer import LexError, tokenize

    try:
        tokens = tokenize(command)
    except LexError:
        return None
    words = []
    for token in tokens:
        if token.kind == "operator" and token.text == "\n" and token is tokens[-1]:
            continue
        value = word_value(token.text) if token.kind == "word" else None
        if value is None:
            return None
        words.append(value)
    return words or None


def first_word(command: str):
    """The first word as the client's parser would take it, when that is sure."""
    from cc_lex.lexer import LexError, tokenize

    try:
        tokens = tokenize(command)
    except LexError:
        return None
    if not tokens or tokens[0].kind != "word" or not set(tokens[0].text) <= _PLAIN:
        return None
    return tokens[0].text


def known_safe(command: str, cwd: str, workspace: str | None = None):
    """True / False / None (see the module's text)."""
    words = words_of(command)
    if words is None:
        first = first_word(command)
        if first is not None and first not in CANDIDATES and "=" not in first and \
                os.path.basename(first) not in ("rg", "rg.exe"):
            return False  # no safe command starts this way, whatever follows
        return None
    cmd = words[0]
    if os.path.basename(cmd) in ("rg", "rg.exe") and cmd != "rg":
        return None  # an rg by its path: the client trusts some (`isTrustedCommandPath`)
    if cmd not in CANDIDATES:
        return False
    workspace = workspace or cwd
    try:
        root = os.path.realpath(workspace)
        here = os.path.realpath(cwd)
    except (OSError, ValueError):
        return None
    if here != root and not here.startswith(root.rstrip("/") + "/"):
        return False

    def escapes(path: str) -> bool:
        try:
            target = os.path.realpath(os.path.join(here, os.path.expanduser(path)))
        except (OSError, ValueError):
            return True
        return target != root and not target.startswith(root.rstrip("/") + "/")

    args = words[1:]
    if cmd in SAFE:
        if cmd == "cd":
            paths = [a for a in args if not a.startswith("-")]
            return not any(escapes(p) for p in paths) if paths else not escapes("~")
        if cmd in FILE_READING or cmd == "grep":
            return _paths_stay(args, here, escapes, grep=cmd == "grep")
        return True
    if cmd == "find":
        if any(a in _FIND_UNSAFE for a in args):
            return False
        return not any(escapes(a) for a in args if not a.startswith("-"))
    if cmd == "sed":
        if 2 <= len(words) <= 4 and words[1] == "-n" and _sed_n(words[2] if len(words) > 2 else ""):
            return not (len(words) == 4 and escapes(words[3]))
        return False
    if cmd == "git":
        return _git_read_only(args)
    if cmd == "rg":
        return False  # rg is trusted only by an absolute path (`isTrustedCommandPath`)
    return None  # base64, an absolute rg: not reproduced


#: First words `isDangerousCommand` looks at (any other command is never dangerous to it).
DANGEROUS_FIRST = frozenset(("ln", "rm", "sudo", "find", "rg", "rg.exe", "git", "base64"))


def dangerous(words) -> bool:
    """The client's `isDangerousCommand` on plain words: a dangerous command always asks."""
    if not words:
        return False
    cmd, args = words[0], words[1:]
    if cmd == "ln":
        return any(a in ("-s", "--symbolic") or (a.startswith("-") and not a.startswith("--")
                                                 and "s" in a) for a in args)
    if cmd == "rm":
        return bool(args) and args[0] in ("-f", "-rf", "-fr")
    if cmd == "sudo":
        return dangerous(args)
    if cmd == "find":
        return any(a in _FIND_UNSAFE for a in args)
    if os.path.basename(cmd) in ("rg", "rg.exe"):
        return any(a in ("--search-zip", "-z") or a in ("--pre", "--hostname-bin")
                   or a.startswith(("--pre=", "--hostname-bin=")) for a in args)
    if cmd == "git":
        if any(a in ("-c", "--config-env") or (a.startswith("-c") and len(a) > 2)
               or a.startswith("--config-env=") for a in args):
            return True
        sub = _git_subcommand(args)
        if sub is None:
            return False
        name, rest = sub
        unsafe = any(a in _GIT_UNSAFE or a.startswith(("--output=", "--exec=")) for a in rest)
        if name == "branch":
            return unsafe or not _branch_listing(rest)
        return unsafe
    if cmd == "base64":
        return any(a in ("-o", "--output") or a.startswith("--output=")
                   or (a.startswith("-o") and a != "-o") for a in args)
    return False


def _git_subcommand(args):
    """(subcommand, its arguments) when the first non-option word is one of the read-only
    subcommands, else None (`findGitSubcommand`)."""
    skip = False
    for idx, arg in enumerate(args):
        if skip:
            skip = False
            continue
        if arg.startswith(("--config-env=", "--exec-path=", "--git-dir=", "--namespace=",
                           "--super-prefix=", "--work-tree=")) or \
                (arg.startswith(("-C", "-c")) and len(arg) > 2):
            continue
        if arg in _GIT_VALUE_OPTIONS:
            skip = True
            continue
        if arg == "--" or arg.startswith("-"):
            continue
        return (arg, args[idx + 1:]) if arg in GIT_READ_ONLY else None
    return None


def _branch_listing(rest) -> bool:
    return not rest or all(a in _GIT_BRANCH_LISTING or a.startswith("--format=") for a in rest)


def _paths_stay(args, here, escapes, grep=False) -> bool:
    passed = False
    i = 0
    while i < len(args):
        arg = args[i]
        i += 1
        if not passed:
            if arg == "--":
                passed = True
                continue
            if arg == "-":
                continue
            if grep and (arg.startswith("-f") or arg.startswith("--file")):
                if arg.startswith("--file="):
                    value = arg[7:]
                elif arg == "--file" or arg == "-f":
                    value = args[i] if i < len(args) else ""
                    i += 1
                else:
                    value = arg[2:]
                if value and escapes(value):
                    return False
                continue
            if arg.startswith("-"):
                if "=" in arg:
                    if escapes(arg.split("=", 1)[1]):
                        return False
                    continue
                if not os.path.lexists(os.path.join(here, arg)):
                    continue
        if escapes(arg):
            return False
    return True


def _sed_n(arg: str) -> bool:
    if not arg.endswith("p"):
        return False
    parts = arg[:-1].split(",")
    return 1 <= len(parts) <= 2 and all(p.isdigit() and p.isascii() for p in parts)


def _git_read_only(args) -> bool:
    if any(a in ("-c", "--config-env") or (a.startswith("-c") and len(a) > 2)
           or a.startswith("--config-env=") for a in args):
        return False
    sub = _git_subcommand(args)
    if sub is None:
        return False
    name, rest = sub
    if any(a in _GIT_UNSAFE or a.startswith(("--output=", "--exec=")) for a in rest):
        return False
    return _branch_listing(rest) if name == "branch" else True
