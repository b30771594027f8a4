"""The spool: one JSON line per filtered command, appended by producers, ingested by cc-track.

Producers (`cc-filter run`, `cc-filter <name>`) call `append(record)` once per command. The
line is written with a single `O_APPEND` write, so concurrent producers never interleave; a
non-blocking shared flock hands the file over safely to an ingest rotating it (see
`_lock_live_spool`). Writing must never change a command's output or exit code: `append`
swallows every error and reports it as False.

Imports nothing heavy (no `json`, which pulls in `re`): this runs on every agent command.
"""
import time

from . import lean_os as os
from . import home

FIELDS = (
    "id", "ts", "cwd", "project", "command", "key", "filter", "mode", "exit_code",
    "raw_chars", "output_chars", "raw_tokens", "output_tokens", "saved_tokens",
    "elapsed_ms", "tee_path",
)
MODES = ("run", "pipe", "passthrough")


def estimate_tokens(chars: int) -> int:
    """Tokens are estimated as ceil(chars / 4) (ARCHITECTURE §7)."""
    return -(-chars // 4)


def project_of(cwd: str) -> str:
    """The project a command ran in: the nearest enclosing git work tree, else `cwd` itself."""
    path = cwd
    while True:
        if os.path.exists(os.path.join(path, ".git")):
            return path
        parent = os.path.dirname(path)
        if parent == path:
            return cwd
        path = parent


class SpoolRecord:
    """One command's tracking record. `saved_tokens` is signed: negative when output grew."""

    __slots__ = FIELDS

    def __init__(self, **values):
        for name in FIELDS:
            setattr(self, name, values.pop(name, None))
        if values:
            raise TypeError(f"unknown spool fields: {', '.join(sorted(values))}")

    @classmethod
    def for_command(cls, *, command: str, key: str, filter: str | None, mode: str, exit_code: int,
                    raw_chars: int, output_chars: int, elapsed_ms: float,
                    tee_path: str | None = None, cwd: str | None = None) -> "SpoolRecord":
        cwd = cwd or os.getcwd()
        raw_tokens = estimate_tokens(raw_chars)
        output_tokens = estimate_tokens(output_chars)
        return cls(
            id=os.urandom(16).hex(), ts=round(time.time(), 3), cwd=cwd, project=project_of(cwd),
            command=command, key=key, filter=filter, mode=mode, exit_code=exit_code,
            raw_chars=raw_chars, output_chars=output_chars, raw_tokens=raw_tokens,
            output_tokens=output_tokens, saved_tokens=raw_tokens - output_tokens,
            elapsed_ms=round(elapsed_ms, 1), tee_path=tee_path,
        )

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in FIELDS}

    def to_json(self) -> str:
        from .jsoncodec import dumps

        return dumps(self.to_dict())

    @classmethod
    def from_json(cls, line: str) -> "SpoolRecord":
        """Parse one spool line; raises ValueError for anything that is not a valid record."""
        import json

        data = json.loads(line)
        if not isinstance(data, dict):
            raise ValueError("spool line is not a JSON object")
        unknown = set(data) - set(FIELDS)
        if unknown:
            raise ValueError(f"unknown spool fields: {', '.join(sorted(unknown))}")
        if not isinstance(data.get("id"), str) or not data["id"]:
            raise ValueError("spool record has no id")
        return cls(**data)


def append(record: SpoolRecord, path: str | None = None) -> bool:
    """Append one record as one line with a single O_APPEND write. Never raises. When the data
    directory cannot be written (an agent's sandbox), the record goes to the fallback spool in
    $TMPDIR (said once on stderr), which `cc-track` ingests too."""
    data = (record.to_json() + "\n").encode("utf-8")
    try:
        return _append_to(path or home.spool_path(), data)
    except OSError as exc:
        if path is not None or exc.errno not in (1, 13, 30):  # EPERM, EACCES, EROFS
            return False
    except Exception:
        return False
    try:
        fallback = home.fallback_dir()
        if fallback is None:
            return False
        done = _append_to(os.path.join(fallback, FALLBACK_SPOOL), data)
        home.announce_fallback(fallback)
        return done
    except Exception:
        return False


FALLBACK_SPOOL = "spool.jsonl"


def _append_to(target: str, data: bytes) -> bool:
    home.ensure_private_dir(os.path.dirname(target))
    for _attempt in range(_APPEND_ATTEMPTS):
        fd = os.open(target, os.O_WRONLY | os.O_APPEND | os.O_CREAT, 0o600)
        try:
            if _lock_live_spool(fd):
                os.write(fd, data)
                return True
        finally:
            os.close(fd)
    return False


# How a producer and `cc-track`'s ingest (ingest.py) hand the spool over without losing a line:
# the ingest renames `spool.jsonl` aside, takes an exclusive flock on the renamed file, reads,
# commits, unlinks it, and only then unlocks. A producer that opened the file just before the
# rename holds a shared lock while it writes, so the ingest waits for that write; a producer
# that finds the file exclusively locked, or already unlinked, reopens the path (a fresh spool)
# and writes there. The producer never blocks: the shared lock is non-blocking.
_APPEND_ATTEMPTS = 5


def _lock_live_spool(fd: int) -> bool:
    """Share-lock `fd` if it is still the live spool; False means: reopen and try again."""
    import fcntl

    try:
        fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return False  # an ingest holds this (renamed) file
    except OSError:
        return True  # a filesystem without flock: write anyway, as before
    return os.fstat(fd).st_nlink > 0
