"""Peel one simple command: env assignments, transparent wrappers, core, trailing redirects.

Also decides whether the command is opaque (must never be rewritten) and why. Works on the
items cc_peel.structure found; imports nothing heavy.
"""
from cc_lex.words import ShellWord

from .keys import normalise, program_name
from .segments import Segment
from .structure import ITEM_REDIRECT, ITEM_WORD, SimpleCommand

# Opaque reasons, in the order they are checked (the first that applies is reported).
HEREDOC = "heredoc"
SUBSTITUTION = "substitution"
ARITHMETIC = "arithmetic"
FILE_REDIRECT = "file_redirect"
IN_SUBSTITUTION = "in_substitution"
IN_GROUP = "in_group"
IN_CONTROL = "in_control"
NO_COMMAND = "no_command"
DELEGATES = "delegates:"  # + what runs another command: "delegates:sudo", "delegates:bash -c"
ALREADY_FILTERED = "already_filtered"
DISABLED = "disabled"

_NAME_START = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ_")
_NAME_CHARS = _NAME_START | frozenset("0123456789")

_OUTPUT_TO_FILE = frozenset((">", ">>", ">|", "&>", "&>>", "<>"))

# Commands that run another command the gate and the filters cannot see as such.
_DELEGATORS = frozenset(("sudo", "doas", "su", "ssh", "mosh", "xargs", "watch", "eval",
                         "parallel", "nsenter", "chroot", "runuser", "exec-as"))
_SHELLS = frozenset(("bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "busybox"))
_EXEC_TOOLS = frozenset(("docker", "podman", "nerdctl", "kubectl", "oc", "docker-compose"))


def is_assignment(raw: str) -> bool:
    """NAME=… or NAME+=… or NAME[i]=… as written (the name unquoted)."""
    if not raw or raw[0] not in _NAME_START:
        return False
    k, n = 1, len(raw)
    while k < n and raw[k] in _NAME_CHARS:
        k += 1
    if k < n and raw[k] == "[":
        close = raw.find("]", k)
        if close < 0:
            return False
        k = close + 1
    if raw.startswith("+=", k):
        return True
    return k < n and raw[k] == "="


def assignment(word: ShellWord, raw: str) -> tuple[str, str]:
    """(NAME, unquoted value) of an assignment word."""
    name = raw[:raw.index("=")].rstrip("+")
    return name, word.value.partition("=")[2]


def peel_command(command: SimpleCommand, text: str,
                 prefixes: list[list[str]]) -> Segment:
    items = command.items
    count = len(items)

    def is_word(index: int) -> bool:
        return index < count and items[index][0] == ITEM_WORD

    def value(index: int) -> str:
        return items[index][1].value

    def raw(index: int) -> str:
        word = items[index][1]
        return text[word.start:word.end]

    def start_of(index: int) -> int:
        return items[index][1].start

    # 1. leading assignments, and `env [options] NAME=value…` before a command
    env_vars: list[tuple[str, str]] = []
    p = 0
    while is_word(p) and is_assignment(raw(p)):
        env_vars.append(assignment(items[p][1], raw(p)))
        p += 1
    delegation = None
    if is_word(p) and program_name(value(p)) == "env":
        q, found, delegation = _env_prefix(p, count, is_word, value, raw)
        if is_word(q) and delegation is None:
            env_vars.extend(assignment(items[j][1], raw(j)) for j in found)
            p = q
    env_end = p
    # 2. transparent wrappers (timeout 5, nice -n 5, …, config transparent_prefixes)
    while is_word(p):
        length = _wrapper_length(p, count, is_word, value)
        if not length:
            length = _prefix_length(p, prefixes, is_word, value)
        if not length or not is_word(p + length):
            break
        p += length
    wrappers_end = p
    # 3. the core up to the trailing redirects
    r = count
    while r > p and items[r - 1][0] == ITEM_REDIRECT:
        r -= 1
    a = command.start
    b = (start_of(env_end) if env_end < count else items[env_end - 1][1].end) if env_end else a
    c = (start_of(wrappers_end) if wrappers_end < count else command.end) \
        if wrappers_end > env_end else b
    if r > p:
        core_start, core_end = c, _item_end(items[r - 1])
    else:
        core_start = core_end = start_of(p) if p < count else command.end
        if not env_end and not wrappers_end:
            b = c = core_start
    argv = [item[1].value for item in items[p:r] if item[0] == ITEM_WORD]
    redirects: list[str] = []
    for _, tok, target in items[r:]:
        if target is None:
            redirects.append(tok.text)
        elif target.start == tok.end:
            redirects.append(tok.text + text[target.start:target.end])
        else:
            redirects.extend((tok.text, text[target.start:target.end]))
    file_redirect = any(kind == ITEM_REDIRECT and _writes_file(tok.text, target)
                        for kind, tok, target in items)
    words = normalise(argv)
    key = " ".join(words)
    if delegation is None:
        delegation = delegated_by(words)
    opaque = None
    if command.heredoc:
        opaque = HEREDOC
    elif command.substitution:
        opaque = SUBSTITUTION
    elif command.arithmetic:
        opaque = ARITHMETIC
    elif file_redirect:
        opaque = FILE_REDIRECT
    elif command.nested is not None:
        opaque = "in_" + command.nested
    elif not argv:
        opaque = NO_COMMAND
    elif delegation is not None:
        opaque = DELEGATES + delegation
    elif words[0] == "cc-filter":
        opaque = ALREADY_FILTERED
    elif any(name == "CTXCRL_DISABLED" for name, _ in env_vars):
        opaque = DISABLED
    return Segment(
        text=text[command.start:command.end], start=command.start, end=command.end,
        separator=command.separator, env=text[a:b], env_vars=env_vars, wrappers=text[b:c],
        core_start=core_start, core_end=core_end, core=text[core_start:core_end], argv=argv,
        key=key, redirects=redirects, file_redirect=file_redirect, position=command.position,
        opaque=opaque, nested=command.nested,
    )


def _item_end(item: tuple) -> int:
    kind, first, second = item
    if kind == ITEM_REDIRECT and second is not None:
        return second.end
    return first.end


def _writes_file(op: str, target: ShellWord | None) -> bool:
    """An output redirection to a file (/dev/null included); fd duplications are not."""
    op = op.lstrip("0123456789")
    if op in _OUTPUT_TO_FILE:
        return True
    if op == ">&" or op == "&>&":
        return target is not None and not (target.value.isdigit() or target.value == "-")
    return False


def _env_prefix(p: int, count: int, is_word, value, raw):
    """After `env` at p: (index of the command, assignment indices, delegation or None)."""
    q = p + 1
    found = []
    while is_word(q):
        word = value(q)
        if is_assignment(raw(q)):
            found.append(q)
            q += 1
        elif word in ("--unset", "--chdir"):
            q += 2
        elif word.startswith("--split-s") or (word.startswith("-") and not
                                               word.startswith("--") and _env_cluster_splits(word)):
            return q, found, "env -S"
        elif word.startswith("-") and not word.startswith("--") and not found:
            # a cluster of short options (`-iu NAME`): a value-taking last letter takes the
            # next word
            q += 2 if word[-1] in "uC" and _env_value_last(word) else 1
        elif word.startswith("-") and not found:
            q += 1
        else:
            break
    return q, found, None


def _env_cluster_splits(word: str) -> bool:
    """`-S…`, `-iS…`: a cluster of env's short options that reaches -S."""
    for c in word[1:]:
        if c == "S":
            return True
        if c in "uC":
            return False  # the rest is that option's value
    return False


def _env_value_last(word: str) -> bool:
    """The cluster's value-taking option (-u, -C) is its last letter: the value is next."""
    for k, c in enumerate(word[1:], 1):
        if c in "uC":
            return k == len(word) - 1
    return False


def _wrapper_length(p: int, count: int, is_word, value) -> int:
    """How many words the transparent wrapper at p takes (0: none there)."""
    name = program_name(value(p))
    q = p + 1
    if name in ("nohup", "noglob", "nocorrect", "builtin"):
        return 2 if name == "nohup" and is_word(q) and value(q) == "--" else 1
    if name == "timeout":
        while is_word(q) and value(q).startswith("-"):
            word = value(q)
            q += 2 if word in ("-s", "--signal", "-k", "--kill-after") else 1
        if not is_word(q):
            return 0
        return q + 1 - p  # the duration
    if name == "time":
        while is_word(q) and value(q).startswith("-"):
            word = value(q)
            q += 2 if word in ("-f", "--format", "-o", "--output") else 1
        return q - p
    if name == "nice":
        while is_word(q) and value(q).startswith("-"):
            word = value(q)
            q += 2 if word in ("-n", "--adjustment") else 1
        return q - p
    if name == "stdbuf":
        while is_word(q) and value(q).startswith("-"):
            word = value(q)
            q += 2 if word in ("-i", "-o", "-e") else 1
        return q - p
    if name == "command":
        while is_word(q) and value(q).startswith("-"):
            if value(q) in ("-v", "-V"):
                return 0  # `command -v git` looks a command up, it does not run it
            q += 1
        return q - p
    if name == "exec":
        while is_word(q) and value(q).startswith("-"):
            q += 2 if value(q) == "-a" else 1
        return q - p
    return 0


def _prefix_length(p: int, prefixes: list[list[str]], is_word, value) -> int:
    for prefix in prefixes:
        n = len(prefix)
        if n and all(is_word(p + j) and value(p + j) == prefix[j] for j in range(n)):
            return n
    return 0


def delegated_by(words: list[str]) -> str | None:
    """What in a normalised argv runs another command ('sudo', 'bash -c', …), or None."""
    if not words:
        return None
    program = words[0]
    if program in _DELEGATORS:
        return program
    if program in _SHELLS:
        for word in words[1:]:
            if word == "--" or not word.startswith("-"):
                break
            if word == "--command" or (not word.startswith("--") and "c" in word[1:]):
                return program + " -c"
        return None
    if program in _EXEC_TOOLS:
        subcommands = [word for word in words[1:4] if not word.startswith("-")]
        if "exec" in subcommands[:2]:
            return program + " exec"
        return None
    if program in ("npx", "pnpx", "npm") and ("-c" in words or "--call" in words):
        return program + " -c"
    if program == "find":
        for action in ("-exec", "-execdir", "-ok", "-okdir"):
            if action in words:
                return "find " + action
    return None
