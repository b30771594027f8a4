"""The user's `config.toml` (ARCHITECTURE §2), read cheaply and never fatally.

Hot paths (the hook, `cc-filter run`) call `load_config()`. Without a config file that costs
one `stat`. With one, the parsed result is cached with `marshal` next to the data (keyed by the
file's mtime and size), so `tomllib` (~20 ms of imports) runs only after the file changed.
A missing or malformed config never breaks a command: defaults apply and one warning goes to
stderr. A malformed file is cached too (with its error), so tomllib does not run again until the
file changes, and the warning is repeated on every load (the problem stays visible). One part of
a malformed file is still read: its `[gate]` table's `deny` and `ask` rules, when that table
parses on its own (`_salvage_gate`). A typo elsewhere in the file must not quietly drop a
deny the user wrote; for an agent with no rules of its own (pi) those are the only denies.
Its `allow` rules are not taken from a file that does not parse.

`CTXCRL_QUIET_CONFIG` (non-empty, not "0") silences that warning: the installed hook script
sets it for every stage but the first one that reads the config (cc-gate), so one agent command
gets one warning, not one per stage.

The file is read only from a home the user alone controls (`home.trusted_home()`): a config
folder inside the project, or writable by others, gives the defaults (its `[gate]` allow rules
and `[hooks] filter_bin` would otherwise come from the project).
"""
import sys

from . import lean_os as os
from . import home

DEFAULTS: dict = {
    "hooks": {"exclude_commands": [], "transparent_prefixes": []},
    "tee": {
        "enabled": True,
        "mode": "failures",
        "min_size": 500,
        "max_files": 10000,  # a ceiling only: retention is by age and total size
        "max_file_size": 16 * 1024 * 1024,
        "max_age_days": 7,
        "max_total_size": 500 * 1000 * 1000,
    },
    "tracking": {"enabled": True, "retention_days": 90, "store_arguments": True},
    "gate": {"allow": [], "ask": [], "deny": []},
    "economics": {},
}

_CACHE_VERSION = 2  # 2: (version, stamp, data, error) — a malformed file is cached too
_loaded: dict | None = None


def _merge(defaults: dict, user: dict) -> dict:
    merged = {}
    for section, values in defaults.items():
        merged[section] = dict(values)
        extra = user.get(section)
        if isinstance(extra, dict):
            merged[section].update(extra)
    for section, values in user.items():
        if section not in merged:
            merged[section] = values
    return merged


def _warn(message: str) -> None:
    if os.environ.get("CTXCRL_QUIET_CONFIG", "") not in ("", "0"):
        return
    try:
        sys.stderr.write(f"ctxcrl: {message}\n")
    except (OSError, ValueError):
        pass


def _cache_path() -> str:
    return os.path.join(home.data_dir(), "config.cache")


def _read_cache(stamp: tuple) -> tuple | None:
    """(data, error or None) cached for this file stamp, or None."""
    import marshal

    try:
        with open(_cache_path(), "rb") as f:
            version, cached_stamp, data, error = marshal.loads(f.read())  # .load(f): small reads
    except (OSError, EOFError, ValueError, TypeError):
        return None
    if version == _CACHE_VERSION and tuple(cached_stamp) == stamp and isinstance(data, dict):
        return data, error if isinstance(error, str) else None
    return None


def _write_cache(stamp: tuple, data: dict, error: str | None = None) -> None:
    import marshal

    path = _cache_path()
    try:
        home.ensure_private_dir(os.path.dirname(path))
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            marshal.dump((_CACHE_VERSION, stamp, data, error), f)
        os.replace(tmp, path)
    except (OSError, ValueError):
        pass  # a cache we cannot write only costs time


def _parse(path: str) -> dict:
    import tomllib

    with open(path, "rb") as f:
        return tomllib.load(f)


def _salvage_gate(path: str) -> dict:
    """From a config that does not parse: the `deny` and `ask` lists of its `[gate]` table (a
    `[gate]` header line and the lines up to the next table header), when that table parses
    on its own; {} otherwise."""
    import tomllib

    try:
        with open(path, encoding="utf-8") as f:
            lines = f.read().splitlines()
    except (OSError, UnicodeDecodeError):
        return {}
    body, inside = [], False
    for line in lines:
        head = line.split("#", 1)[0].strip()
        if head.startswith("["):
            if inside:
                break
            inside = head == "[gate]"
            continue
        if inside:
            body.append(line)
    if not inside:  # no [gate] table
        return {}
    try:
        table = tomllib.loads("\n".join(body))
    except (tomllib.TOMLDecodeError, ValueError):
        return {}
    return {kind: table[kind] for kind in ("deny", "ask")
            if isinstance(table.get(kind), list) and table[kind]
            and all(isinstance(rule, str) for rule in table[kind])}


def load_config(path: str | None = None) -> dict:
    """The effective configuration: defaults overlaid with the user's file."""
    global _loaded
    if path is None and _loaded is not None:
        return _loaded
    target = path or home.config_path()
    try:
        if path is None and not home.trusted_home():
            raise OSError("the home is not the user's alone")  # defaults: trust nothing
        st = os.stat(target)
        if path is None and (st.st_uid != os.getuid() or st.st_mode & 0o022):
            _warn(f"ignoring config {home.short_path(target)}: it is not yours alone (owner "
                  "or write permission for others); the defaults apply")
            raise OSError("config.toml writable by others")  # defaults
    except OSError:
        result = _merge(DEFAULTS, {})
    else:
        stamp = (target, st.st_mtime_ns, st.st_size)
        cached = _read_cache(stamp)
        if cached is None:
            error = None
            try:
                user = _parse(target)
            except OSError as exc:  # unreadable now (permissions): not cached, chmod keeps mtime
                user, error = {}, f"ignoring unreadable config {target}: {exc}"
            except Exception as exc:  # tomllib.TOMLDecodeError, UnicodeDecodeError
                user, error = {}, f"ignoring malformed config {target}: {exc}"
                gate = _salvage_gate(target)
                if gate:
                    user = {"gate": gate}
                    error += "; its [gate] " + " and ".join(
                        f"{kind} rules" for kind in gate) + " still apply"
                _write_cache(stamp, user, error)
            else:
                _write_cache(stamp, user)
        else:
            user, error = cached
        if error:
            _warn(error)
        result = _merge(DEFAULTS, user)
    if path is None:
        _loaded = result
    return result


def section(name: str) -> dict:
    return load_config().get(name, {})
