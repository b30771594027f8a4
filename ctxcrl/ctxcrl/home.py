"""Where contextcrawler keeps its files (ARCHITECTURE §2).

`CTXCRL_HOME` relocates config and data at once: both live directly in it. Otherwise config
is under `$XDG_CONFIG_HOME/ctxcrl` and data under `$XDG_DATA_HOME/ctxcrl`. Every other tool asks
this module, so the locations are decided in one place.

Trust comes only from the user (SECURITY.md): what these folders hold (config.toml with its
`[gate]` rules and `[hooks] filter_bin`, the user filters, `trusted.json`, the caches) is used
only when `untrusted_home()` finds nothing wrong with them. A folder that lies inside the current
project (a project can set `CTXCRL_HOME` or `XDG_*_HOME`, e.g. through an agent settings file's
`env` block), that is not owned by the user, or that other users can write to, trusts nothing:
defaults apply, no user filter and no trusted project filter is used, and one line on stderr
says so (`warn_untrusted_once`).

Imports only `os` (and `pwd` once, for the user's home folder): this runs on every agent command.
"""
from . import lean_os as os


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


# -- trust: which folders may hold what the user alone decides -------------------------------
PROJECT_MARKERS = (".git", ".ctxcrl", ".claude", ".gemini", ".codex", ".hg")
"""What makes a folder a project root (the nearest one from cwd upward)."""
PROJECT_DIR_VARIABLES = ("CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR")
"""Project folders an agent names for its hooks: more folders that must not hold our files
(a variable can only add a folder to distrust, never remove one)."""

_untrusted_cache: dict = {}
_warned_untrusted: set = set()
_user_homes: dict = {}  # uid → its home folder: the password database is read once


def user_home() -> str:
    """The user's home folder from the password database (a project can set HOME, not this)."""
    uid = os.getuid()
    if uid not in _user_homes:
        try:
            import pwd

            _user_homes[uid] = pwd.getpwuid(uid).pw_dir or "/"
        except (ImportError, KeyError):
            return os.path.expanduser("~")
    return _user_homes[uid]


def project_roots(cwd: str | None = None) -> list:
    """The folders of the current project: the nearest folder from cwd upward that holds one of
    PROJECT_MARKERS (a project that can set an agent's environment has its settings folder),
    and the agents' project-dir variables. The user's home
    folder and `/` are never a project here (a home folder under version control is common)."""
    try:
        start = os.path.realpath(cwd or os.getcwd())
    except OSError:
        return []
    not_projects = {"/", os.path.realpath(user_home())}  # not $HOME: a project can set it
    roots = []
    path = start
    while True:
        if path in not_projects:
            break
        if any(os.path.lexists(os.path.join(path, m)) for m in PROJECT_MARKERS):
            roots.append(path)
            break
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    for var in PROJECT_DIR_VARIABLES:
        value = os.environ.get(var)
        if value and os.path.isabs(value):
            real = os.path.realpath(value)
            if real not in not_projects and real not in roots:
                roots.append(real)
    return roots


def inside(path: str, folder: str) -> bool:
    return path == folder or path.startswith(folder.rstrip(os.sep) + os.sep)


def distrust_reason(path: str, cwd: str | None = None) -> str | None:
    """Why the folder or file `path` cannot hold trust decisions, or None: it lies inside the
    current project, is not owned by the user, or other users can write to it."""
    try:
        real = os.path.realpath(path)
    except OSError:
        return f"{path} cannot be resolved"
    for root in project_roots(cwd):
        if inside(real, root):
            return f"{short_path(path)} lies inside the project {short_path(root)}"
    try:
        st = os.stat(real)
    except OSError:
        return None  # not there: it holds nothing
    if st.st_uid != os.getuid():
        return f"{short_path(path)} is not owned by you"
    if st.st_mode & 0o022:
        return f"{short_path(path)} can be written by other users"
    return None


def untrusted_home(cwd: str | None = None) -> str | None:
    """Why contextcrawler's config and data folders cannot be trusted here, or None (cached per
    process, folder and cwd)."""
    try:
        here = cwd or os.getcwd()
    except OSError:
        here = "/"
    key = (config_dir(), data_dir(), here)
    if key not in _untrusted_cache:
        reason = None
        for folder in dict.fromkeys(key[:2]):
            reason = distrust_reason(folder, here)
            if reason:
                break
        _untrusted_cache[key] = reason
    return _untrusted_cache[key]


def warn_untrusted_once(reason: str) -> None:
    """The one stderr line saying that the home trusts nothing (once per process; the hook's
    later stages are quiet with CTXCRL_QUIET_CONFIG, like the config's own warning)."""
    if reason in _warned_untrusted:
        return
    _warned_untrusted.add(reason)
    if os.environ.get("CTXCRL_QUIET_CONFIG", "") not in ("", "0"):
        return
    try:
        os.write(2, (f"ctxcrl: trusting nothing in contextcrawler's home: {reason} "
                     "(CTXCRL_HOME or XDG_*_HOME set by the project?); no config.toml, no user "
                     "filters, no trusted project filters\n").encode())
    except OSError:
        pass


def trusted_home(cwd: str | None = None) -> bool:
    """True when the home folders may be used for trust; else says why, once, on stderr."""
    reason = untrusted_home(cwd)
    if reason is None:
        return True
    warn_untrusted_once(reason)
    return False
