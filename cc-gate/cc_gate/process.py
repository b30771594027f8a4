"""The running agent client's own command line, for rules given as flags.

The hook runs as a grandchild of the client (client → `sh -c <hook>` → the hook script →
the stage), so the client's argv is read from `/proc/<pid>/cmdline` up the parent chain.
Linux only; elsewhere, or when `/proc` cannot be read, nothing is found. Imports only `os`.
"""
import os

_MAX_HOPS = 12


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
    if len(argv) > 1 and names[0] in ("node", "nodejs", "bun", "deno", "python", "python3"):
        names.append(os.path.basename(argv[1]))
    return tuple(names)


def client_argv(names, start: int | None = None):
    """The argv of the nearest ancestor process (from `start`, default this process's parent)
    whose program name is in `names`; None when there is none or /proc cannot be read."""
    pid = os.getppid() if start is None else start
    for _ in range(_MAX_HOPS):
        if pid <= 1:
            return None
        ppid, argv = _parent_and_argv(pid)
        if argv is None:
            return None
        if any(name in names for name in program_names(argv)):
            return argv
        pid = ppid
    return None
