"""Why a command, or one segment of it, must stay raw (ARCHITECTURE §5, "fail closed").

Each check returns a short reason or None. cc-peel already marks most of these segments
`opaque`; the checks here repeat the ones whose failure would change what a command does
(substitutions, redirects, launchers), so a peel regression cannot open a hole, and add the
ones that are cc-rewrite's own: `CTXCRL_DISABLED`, `[hooks] exclude_commands`, gh's data
output, the cat/head/tail forms the read filter cannot honour, display-only pipe stages.

Imports only `os` and cc_peel.record (for warnings); `re` only when an exclude pattern is a
regex.
"""
from ctxcrl import lean_os as os

from cc_peel import record

DEFAULT_FILTER_PROGRAM = "cc-filter"
READ_PROGRAMS = ("cat", "head", "tail")
GREP_PROGRAMS = ("grep", "egrep", "fgrep", "rg")
#: Programs that run another command (locally as someone else, remotely, or repeatedly).
#: `env` is one only when a command follows its options and assignments (`lists_environment`).
LAUNCHERS = frozenset({"sudo", "doas", "su", "ssh", "mosh", "xargs", "watch", "eval",
                       "parallel", "env"})
#: Programs that print the environment (secrets included) when they run no command.
ENV_PROGRAMS = ("env", "printenv")
_ENV_FLAGS = frozenset({"-i", "-", "--ignore-environment", "--"})
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "ash"})
CONTAINER_TOOLS = frozenset({"docker", "podman", "kubectl", "oc", "nerdctl"})
_SAFE_WORD_CHARS = frozenset(
    "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_-./+,:@%=")


class RewriteSettings:
    """What the config and environment say about rewriting.

    `filter_program` is the cc-filter program as inserted (shell-quoted), `filter_path` the
    same unquoted; `filter_available` says whether it can be run."""

    __slots__ = ("exclude_commands", "transparent_prefixes", "filter_program", "filter_path",
                 "disabled", "_regexes", "_available")

    def __init__(self, exclude_commands=(), transparent_prefixes=(),
                 filter_program: str = DEFAULT_FILTER_PROGRAM, disabled: bool = False,
                 filter_path: str | None = None):
        self.exclude_commands = tuple(p.strip() for p in exclude_commands
                                      if isinstance(p, str) and p.strip())
        self.transparent_prefixes = tuple(p for p in transparent_prefixes
                                          if isinstance(p, str) and p.strip())
        self.filter_program = filter_program or DEFAULT_FILTER_PROGRAM  # as inserted
        if filter_path is None:  # unquote the simple forms `quote_word` writes
            filter_path = self.filter_program
            if len(filter_path) > 1 and filter_path[0] == filter_path[-1] == "'":
                filter_path = filter_path[1:-1].replace("'\"'\"'", "'")
        self.filter_path = filter_path
        self.disabled = disabled  # CTXCRL_DISABLED in cc-rewrite's own environment
        self._regexes: dict = {}
        self._available: dict = {}

    @classmethod
    def from_config(cls) -> "RewriteSettings":
        from cc_peel.peeling import configured_prefixes
        from ctxcrl import config

        hooks = config.section("hooks")
        if not isinstance(hooks, dict):
            hooks = {}
        program = os.environ.get("CTXCRL_FILTER_BIN") or hooks.get("filter_bin") or ""
        if not isinstance(program, str):
            program = ""
        return cls(
            exclude_commands=_str_list(hooks.get("exclude_commands")),
            transparent_prefixes=configured_prefixes(),
            filter_program=quote_word(program.strip()) if program.strip() else
            DEFAULT_FILTER_PROGRAM,
            disabled=bool(os.environ.get("CTXCRL_DISABLED")),
            filter_path=program.strip() or DEFAULT_FILTER_PROGRAM,
        )

    def filter_available(self, cwd: str | None = None) -> str | None:
        """None when the cc-filter program can be run, else why not. A path (with a `/`) must
        be an executable file (relative to `cwd`); a bare name must be one in a PATH
        directory — cc-rewrite's PATH, which is the agent's (the hook runs in its environment).
        A few `os.access` calls, made only when something is about to be rewritten."""
        key = cwd or ""
        if key in self._available:
            return self._available[key]
        path = self.filter_path
        if "/" in path:
            full = os.path.join(cwd or os.getcwd(), path)  # the shell gets it quoted: no ~
            why = None if _executable_file(full) else f"{path} is not an executable file"
        else:
            found = any(_executable_file(os.path.join(d or ".", path))
                        for d in os.environ.get("PATH", os.defpath).split(os.pathsep))
            why = None if found else (f"{path} is not on the PATH (set [hooks] filter_bin or "
                                      "CTXCRL_FILTER_BIN to its absolute path)")
        self._available[key] = why
        return why

    def excluded_by(self, candidates) -> str | None:
        """The exclude pattern that matches any of the candidate texts, or None."""
        for pattern in self.exclude_commands:
            if pattern.startswith("^"):
                regex = self._regex(pattern)
                if regex is not None and any(regex.match(text) for text in candidates):
                    return pattern
            elif any(word_prefix(pattern, text) for text in candidates):
                return pattern
        return None

    def _regex(self, pattern: str):
        if pattern not in self._regexes:
            import re

            try:
                self._regexes[pattern] = re.compile(pattern)
            except re.error as exc:  # once per pattern: it is cached as None
                self._regexes[pattern] = None
                record.warn("cc-rewrite", f"ignoring exclude_commands regex {pattern!r}: {exc}")
        return self._regexes[pattern]


def _executable_file(path: str) -> bool:
    return os.access(path, os.X_OK) and os.path.isfile(path)


def _str_list(value) -> list:
    if isinstance(value, str):
        return [value]
    if isinstance(value, (list, tuple)):
        return [v for v in value if isinstance(v, str)]
    return []


def quote_word(word: str) -> str:
    """`word` as one shell word (like `shlex.quote`, without importing `re`)."""
    if word and all(c in _SAFE_WORD_CHARS for c in word):
        return word
    return "'" + word.replace("'", "'\"'\"'") + "'"


def word_prefix(prefix: str, text: str) -> bool:
    """`text` is `prefix` or starts with `prefix` and a space (whole words)."""
    return text == prefix or (text.startswith(prefix) and
                              (text[len(prefix)] in " \t" or prefix[-1] == " "))


def program_of(seg) -> str:
    argv = seg.argv
    if not argv:
        return ""
    word = argv[0]
    return word.rsplit("/", 1)[-1] if "/" in word else word


# cc-peel's reason codes, said in words for --explain.
_PEEL_REASONS = {
    "heredoc": "has a heredoc",
    "substitution": "has a substitution ($(…), `…`, <(…) or >(…))",
    "arithmetic": "has arithmetic $((…)) or ((…))",
    "file_redirect": "redirects to a file (/dev/null too)",
    "in_substitution": "inside a substitution",
    "in_group": "inside a ( ) or { } group",
    "in_control": "inside a control structure or function",
    "no_command": "no command",
    "already_filtered": "already runs through cc-filter",
    "disabled": "CTXCRL_DISABLED is set",
    "block": "a group, control structure or function in a multi-line command",
}


def peel_reason(code: str) -> str:
    if code.startswith("delegates:"):
        return f"{code[len('delegates:'):]} runs another command"
    return _PEEL_REASONS.get(code, code)


# ---------------------------------------------------------------------------------------------
# whole command


def whole_refusal(peeled, tokens, segments) -> str | None:
    reason = getattr(peeled, "whole_opaque", None)
    if reason:
        return peel_reason(reason)
    multiline = False
    for tok in tokens:
        if tok.kind == "heredoc" or (tok.kind == "redirect" and tok.text.rstrip("-").endswith("<<")
                                     and not tok.text.endswith("<<<")):
            return "has a heredoc"
        if tok.kind == "substitution" and tok.text == "$((":
            return "has arithmetic $((…))"
        if tok.kind == "operator" and "\n" in tok.text:
            multiline = True
    if multiline:
        for seg in segments:
            if seg.nested in ("group", "control", "function"):
                return "a block structure in a multi-line command"
    return None


# ---------------------------------------------------------------------------------------------
# one segment


def segment_refusal(seg, command: str, tokens: "TokenIndex",
                    settings: RewriteSettings) -> str | None:
    """Why `seg` must stay raw, or None when only the catalogue decides."""
    if seg.nested is not None:
        return peel_reason(f"in_{seg.nested}")
    argv = list(seg.argv or ())
    for name, _value in seg.env_vars or ():
        if name == "CTXCRL_DISABLED":
            return "CTXCRL_DISABLED is set"
    program = program_of(seg)
    if program == "cc-filter" or (argv and argv[0] == settings.filter_path):
        return "already runs through cc-filter"
    # An environment listing may send its errors to a file (`env 2>/dev/null | grep x`): its
    # output still reaches the agent, so it is masked (the runner shows env's stderr, if any,
    # with its output; only cc-filter's own messages go to the file).
    listing = program in ENV_PROGRAMS and lists_environment(argv)
    if seg.opaque and not (listing and seg.opaque == "file_redirect"):
        return peel_reason(seg.opaque)
    if not argv:
        return "no command"
    why = _hazard_in_range(tokens, seg.start, seg.end, stderr_files_ok=listing)
    if why:
        return why
    if seg.file_redirect and not listing:
        return "redirects to a file"
    why = _launcher(program, argv)
    if why:
        return why
    core = command[seg.core_start:seg.core_end].strip()
    excluded = settings.excluded_by((seg.key or "", core, " ".join(argv)))
    if excluded is not None:
        return f"excluded by [hooks] exclude_commands {excluded!r}"
    if program == "gh":
        why = _gh_data_output(argv)
        if why:
            return why
    if program in READ_PROGRAMS:
        why = read_form_refusal(argv)
        if why:
            return why
    if program == "sed":
        from cc_filter.filters.files.read import sed_range  # the read filter owns its form

        if sed_range(argv) is None:
            return "sed: only `sed -n 'A,Bp' FILE` is a read the read filter honours"
    return None


class TokenIndex:
    """The tokens of a command, searchable by offset (segments ask for theirs: no rescans)."""

    __slots__ = ("tokens", "starts")

    def __init__(self, tokens):
        self.tokens = tokens
        self.starts = [tok.start for tok in tokens]

    def first_at_or_after(self, offset: int) -> int:
        starts = self.starts  # a binary search; importing _bisect costs more than it saves
        lo, hi = 0, len(starts)
        while lo < hi:
            mid = (lo + hi) // 2
            if starts[mid] < offset:
                lo = mid + 1
            else:
                hi = mid
        return lo


def _hazard_in_range(index: TokenIndex, start: int, end: int,
                     stderr_files_ok: bool = False) -> str | None:
    tokens = index.tokens
    for pos in range(index.first_at_or_after(start), len(tokens)):
        tok = tokens[pos]
        if tok.start >= end:
            break
        if tok.kind == "substitution":
            return f"has a substitution {tok.text}…"
        if stderr_files_ok and tok.kind == "redirect" and tok.text in ("2>", "2>>"):
            continue
        if tok.kind == "redirect" and not is_fd_duplication(tok.text):
            target = tokens[pos + 1].text if pos + 1 < len(tokens) and \
                tokens[pos + 1].kind == "word" else ""
            return f"redirects to a file ({tok.text}{' ' if target else ''}{target})"
        if tok.kind == "heredoc":
            return "has a heredoc"
    return None


def writes_stdout_to_file(index: TokenIndex, seg) -> bool:
    """`seg` sends its standard output to a file (`> f`, `1>> f`, `&> f`, `>| f`)."""
    tokens = index.tokens
    for pos in range(index.first_at_or_after(seg.start), len(tokens)):
        tok = tokens[pos]
        if tok.start >= seg.end:
            break
        if tok.kind != "redirect" or is_fd_duplication(tok.text):
            continue
        op = tok.text
        if op.startswith("&>"):
            return True
        fd = op[:len(op) - len(op.lstrip("0123456789"))]
        if fd in ("", "1") and op[len(fd):].startswith(">"):
            return True
    return False


def is_fd_duplication(text: str) -> bool:
    """`2>&1`, `>&2`, `1>&-`, `<&3`: descriptor plumbing, no file involved."""
    op = text.lstrip("0123456789")
    for glue in (">&", "<&"):
        if op.startswith(glue):
            rest = op[2:]
            return rest == "-" or (rest.rstrip("-").isdigit())
    return False


def _launcher(program: str, argv: list) -> str | None:
    if program == "env":
        if lists_environment(argv):
            return None  # prints the environment: the env filter masks its secrets
        if lists_environment([w for w in argv if w not in ("-0", "--null")]):
            return "env -0 prints NUL-separated output for a program"
    if program in LAUNCHERS:
        return f"{program} runs another command"
    if program in SHELLS and any(w.startswith("-") and not w.startswith("--") and "c" in w
                                 for w in argv[1:]):
        return f"{program} -c runs a script"
    if program in CONTAINER_TOOLS and "exec" in argv[1:]:
        return f"{program} exec runs a command elsewhere"
    return None


def lists_environment(argv: list) -> bool:
    """`env`/`printenv` printing the environment, one `NAME=value` line per variable: `env`
    with only `-i`, `-`, `--ignore-environment`, `-u NAME`, `--unset=NAME`, `--` and
    `NAME=value` words (no command to run), `printenv` with only names. Not the NUL-separated
    forms (`-0`, `--null`: output for a program), nor an option this does not know."""
    if not argv:
        return False
    program = argv[0].rsplit("/", 1)[-1]
    if program == "printenv":
        return all(_is_name(word) for word in argv[1:])
    if program != "env":
        return False
    i = 1
    options = True
    while i < len(argv):
        word = argv[i]
        if options and word in _ENV_FLAGS:
            options = word != "--"
        elif options and word in ("-u", "--unset"):
            i += 1
            if i >= len(argv) or not _is_name(argv[i]):
                return False
        elif options and word.startswith(("-u", "--unset=")):
            if not _is_name(word[2:] if word[1] == "u" else word[8:]):
                return False
        else:
            name, sep, _value = word.partition("=")
            if not sep or not _is_name(name):
                return False  # a command (env runs it), or an option not known here
        i += 1
    return True


def _is_name(word: str) -> bool:
    return bool(word) and (word[0].isalpha() or word[0] == "_") and word.isascii() and \
        all(c.isalnum() or c == "_" for c in word)


def _gh_data_output(argv: list) -> str | None:
    api = len(argv) > 1 and argv[1] == "api"
    for word in argv[1:]:
        for flag in ("--json", "--jq", "--template"):
            if word == flag or word.startswith(flag + "="):
                return f"gh {flag} prints data for a program"
        if api and (word in ("-q", "-t") or word.startswith(("-q", "-t"))):
            return "gh api --jq/--template prints data for a program"
    return None


def read_form_refusal(argv: list) -> str | None:
    """cat/head/tail forms the read filter cannot honour: it reads exactly one file, whole
    (cat) or its first/last N lines (head/tail -n N, -N, --lines=N)."""
    program = argv[0].rsplit("/", 1)[-1]
    files = []
    i = 1
    while i < len(argv):
        word = argv[i]
        if program != "cat" and word in ("-n", "--lines"):
            i += 1
            if i >= len(argv) or not argv[i].isdigit():
                return f"{program} {word} with a count the read filter cannot honour"
        elif program != "cat" and (
            (word.startswith("-n") and word[2:].isdigit())
            or (word.startswith("--lines=") and word[8:].isdigit())
            or (word[:1] == "-" and word[1:].isdigit())
        ):
            pass
        elif word == "-" or (word.startswith("-") and len(word) > 1):
            return f"{program} {word}: an option the read filter does not understand"
        else:
            files.append(word)
        i += 1
    if not files:
        return f"{program} reads stdin: the read filter needs one file"
    if len(files) > 1:
        return f"{program} of several files"
    return None


def display_only_reason(seg) -> str | None:
    """None when a pipe stage just shows its input (cat, head, tail without following)."""
    if seg.nested is not None or seg.opaque or seg.file_redirect:
        return "not a plain stage"
    program = program_of(seg)
    if program not in READ_PROGRAMS:
        return f"{program or 'stage'} is not display-only"
    argv = list(seg.argv or ())
    if program == "tail":
        for word in argv[1:]:
            if word.startswith("--follow") or word in ("--retry", "--pid") or \
                    word.startswith(("--pid=", "--sleep-interval")):
                return "tail follows"
            if word.startswith("-") and not word.startswith("--") and \
                    any(c in word[1:] for c in "fFs"):
                return "tail follows"
    return None


def consumer_spec(stages) -> str | None:
    """What the display-only stages after a rewritten stage keep of its answer, as
    `cc-filter run --then=` reads it (`tail:20`, `head:5`, `tail:50,head:5`; "" for plain
    `cat`s), or None when one of them cannot be judged that way (`head -c`, `tail -n +5`,
    `cat -n`, a file operand…): then the stage stays raw."""
    parts = []
    for seg in stages:
        program = program_of(seg)
        words = list(seg.argv or ())[1:]
        if program == "cat":
            if any(w != "-" for w in words):
                return None
            continue
        count = _line_count(words)
        if count is None:
            return None
        parts.append(f"{program}:{count}")
    return ",".join(parts)


def _line_count(words) -> int | None:
    """N of `head`/`tail` given as `-N`, `-n N`, `-nN`, `--lines=N`, `--lines N` (default
    10); None for anything else (bytes, `+N`/`-N` offsets, suffixes, files, other options)."""
    count = 10
    i = 0
    while i < len(words):
        word = words[i]
        value = None
        if word in ("-n", "--lines"):
            if i + 1 >= len(words):
                return None
            value = words[i + 1]
            i += 1
        elif word.startswith("--lines="):
            value = word[8:]
        elif word.startswith("-n"):
            value = word[2:]
        elif word[:1] == "-" and word[1:].isdigit():
            value = word[1:]
        else:
            return None
        if not value.isdigit() or not 0 < int(value) <= 1_000_000:
            return None
        count = int(value)
        i += 1
    return count
