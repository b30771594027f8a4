"""The running agent client's own command line, for rules given as flags.

The hook runs as a grandchild of the client (client → `sh -c <hook>` → the hook script →
the stage), so the client's argv is read from `/proc/<pid>/cmdline` up the parent chain.
Linux only; elsewhere, or when `/proc` cannot be read, nothing is found. Imports only `os`.
Each answer is kept for the life of the process (a stage lives milliseconds; its ancestors
do not change meanwhile), so the gate's several questions walk the chain once.
"""
from ctxcrl import lean_os as os

_MAX_HOPS = 12
_FOUND: dict = {}  # (names, start) → client_process's answer


def _parent_and_argv(pid: int):
    try:
        with open(f"/proc/{pid}/stat", "rb") as f:
            stat = f.read()
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            raw = f.read()
    except OSError:
        return None, None
    # pid (comm) state ppid …: comm may hold spaces and parentheses, so split after the last ")"
    rest = stat[stat.rfind(b")") + 2:].split()
    ppid = int(rest[1]) if len(rest) > 1 else 0
    argv = [a.decode("utf-8", "surrogateescape") for a in raw.split(b"\0")[:-1]] if raw else []
    return ppid, argv


def program_names(argv: list) -> tuple:
    """The names a process may be known by: argv[0]'s base name and, for interpreters
    (`node /…/bin/claude`), the base name of the script they run."""
    if not argv:
        return ()
    names = [os.path.basename(argv[0])]
    if names[0] in ("node", "nodejs", "bun", "deno", "python", "python3"):
        # the script: the first word that is not an option (a relaunched Gemini CLI runs as
        # `node --max-old-space-size=N /…/bin/gemini …`)
        script = next((a for a in argv[1:] if not a.startswith("-")), None)
        if script is not None:
            names.append(os.path.basename(script))
    return tuple(names)


def client_argv(names, start: int | None = None):
    """The argv of the nearest ancestor process (from `start`, default this process's parent)
    whose program name is in `names`; None when there is none or /proc cannot be read."""
    found = client_process(names, start)
    return None if found is None else found[1]


def client_process(names, start: int | None = None):
    """(pid, argv) of that ancestor, for what else /proc tells about it (its terminal); None
    when there is none or /proc cannot be read."""
    key = (tuple(names), start)
    if key not in _FOUND:
        _FOUND[key] = _walk(names, os.getppid() if start is None else start)
    found = _FOUND[key]
    return None if found is None else (found[0], list(found[1]))


def _walk(names, pid: int):
    for _ in range(_MAX_HOPS):
        if pid <= 1:
            return None
        ppid, argv = _parent_and_argv(pid)
        if argv is None:
            return None
        if any(name in names for name in program_names(argv)):
            return pid, argv
        pid = ppid
    return None


def is_terminal(pid: int, fd: int):
    """Whether the process's file descriptor `fd` is a terminal; None when unreadable."""
    try:
        target = os.readlink(f"/proc/{pid}/fd/{fd}")
    except OSError:
        return None
    return target.startswith(("/dev/pts/", "/dev/tty")) or target == "/dev/console"
