"""Where contextcrawler keeps its files (DESIGN §2).

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
