"""Where contextcrawler keeps its files (ARCHITECTURE §2).

`CTXCRL_HOME` relocates config and data at once: both live directly in it. Otherwise config
is under `$XDG_CONFIG_HOME/ctxcrl` and data under `$XDG_DATA_HOME/ctxcrl`. Every other tool asks
this module, so the locations are decided in one place.

Imports only `os`: this runs on every agent command.
"""
import os


def _xdg(var: str, fallback: str) -> str:
    base = os.environ.get(var) or os.path.join(os.path.expanduser("~"), fallback)
    return os.path.join(base, "ctxcrl")


def config_dir() -> str:
    return os.environ.get("CTXCRL_HOME") or _xdg("XDG_CONFIG_HOME", ".config")


def data_dir() -> str:
    return os.environ.get("CTXCRL_HOME") or _xdg("XDG_DATA_HOME", os.path.join(".local", "share"))


def config_path() -> str:
    return os.path.join(config_dir(), "config.toml")


def user_filters_dir() -> str:
    return os.path.join(config_dir(), "filters")


def spool_path() -> str:
    return os.path.join(data_dir(), "spool.jsonl")


def db_path() -> str:
    return os.environ.get("CTXCRL_DB_PATH") or os.path.join(data_dir(), "tracking.db")


def tee_dir() -> str:
    return os.environ.get("CTXCRL_TEE_DIR") or os.path.join(data_dir(), "tee")


def trusted_path() -> str:
    return os.path.join(data_dir(), "trusted.json")


def fallback_dir(create: bool = True) -> str | None:
    """Where tee files and spool records go when the data directory cannot be written (an
    agent's sandbox, e.g. Codex's workspace-write, allows the workspace and $TMPDIR): a private
    `ctxcrl-<uid>` in $TMPDIR (or /tmp). None when it cannot be made, or is not ours alone."""
    base = os.environ.get("TMPDIR") or "/tmp"
    path = os.path.join(base, f"ctxcrl-{os.getuid()}")
    try:
        if create:
            os.makedirs(path, mode=0o700, exist_ok=True)
        st = os.lstat(path)
    except OSError:
        return None
    import stat

    if not stat.S_ISDIR(st.st_mode) or st.st_uid != os.getuid() or st.st_mode & 0o077:
        return None  # someone else's, or open to others: never write there
    return path


def announce_fallback(directory: str) -> None:
    """Say once (per fallback directory) that the data directory could not be written."""
    try:
        fd = os.open(os.path.join(directory, ".announced"), os.O_WRONLY | os.O_CREAT | os.O_EXCL,
                     0o600)
    except OSError:
        return
    os.close(fd)
    try:
        os.write(2, (f"ctxcrl: {short_path(data_dir())} is not writable here (a sandbox?); "
                     f"tee files and tracking go to {directory} (cc-track picks them up)\n")
                 .encode())
    except OSError:
        pass


def ensure_private_dir(path: str) -> str:
    """Create `path` (and parents) as a 0700 directory; raises OSError when it cannot."""
    os.makedirs(path, mode=0o700, exist_ok=True)
    return path


def short_path(path: str) -> str:
    """`/home/dev/.local/x` → `~/.local/x`, for hints shown to the agent."""
    home = os.path.expanduser("~")
    if home and home != "/" and path.startswith(home + os.sep):
        return "~" + path[len(home):]
    return path
