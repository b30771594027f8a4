"""Moving spool records into `tracking.db`: each record exactly once, nothing lost.

The protocol (producers' side in spool.py):
1. Take `ingest.lock` (flock, exclusive): one ingest at a time, across processes.
2. Rotate: rename `spool.jsonl` to `spool.ingesting.<ns>.<pid>`. Producers keep appending to a
   fresh `spool.jsonl`; one that still holds the old file finishes its write first (it holds a
   shared lock while writing, and step 3 waits for it).
3. For every `spool.ingesting.*` file (this rotation's and any a killed ingest left behind):
   exclusive-lock it, parse it, `INSERT OR IGNORE` its records by id in ONE transaction that
   also records the chunk in `ingest_batches`, commit, then unlink the file.

A kill before the commit leaves the chunk in place and the database unchanged; a kill after
the commit leaves the chunk, whose records are then ignored as duplicates. Either way every
record ends up in the database exactly once.

Malformed lines are never fatal and never dropped silently: they are written (with the reason)
to `rejects/<chunk>.jsonl` before the commit (rewritten whole, so a re-run does not double them)
and counted in `ingest_batches.rejects`.

`cc-track record` queues stdin as a chunk (`spool.incoming.*` while it is written, under an
exclusive lock; renamed to `spool.ingesting.*` when complete), so it shares this path. An
incoming file whose writer died (its lock is free) is ingested as well.
"""
import fcntl
import json
import os
import sqlite3
import time

from ctxcrl import home
from . import store
from ctxcrl.spool import estimate_tokens

CHUNK_PREFIX = "spool.ingesting."
INCOMING_PREFIX = "spool.incoming."
LOCK_NAME = "ingest.lock"
REJECTS_DIR = "rejects"
LOCK_TIMEOUT_S = 120.0

_INSERT = (
    f"INSERT OR IGNORE INTO records ({', '.join(store.RECORD_COLUMNS)}, ingested_at) "
    f"VALUES ({', '.join('?' * (len(store.RECORD_COLUMNS) + 1))})"
)
_STRINGS = ("cwd", "project", "command", "key", "filter", "mode", "tee_path")
_NUMBER = (int, float)
_NUMBER_OR_NONE = (int, float, type(None))
_INT_OR_NONE = (int, type(None))
_STR_OR_NONE = (str, type(None))
_scan_json = json.JSONDecoder().scan_once  # no whitespace regex per line, unlike json.loads


class IngestUnavailable(Exception):
    """Ingest could not run (read-only data directory, lock timeout); reports still can."""


class IngestResult:
    __slots__ = ("chunks", "lines", "inserted", "duplicates", "rejects", "rejects_paths",
                 "pruned")

    def __init__(self):
        self.chunks = self.lines = self.inserted = self.duplicates = self.rejects = 0
        self.pruned = 0
        self.rejects_paths: list[str] = []

    def add(self, other: "IngestResult") -> None:
        for name in ("chunks", "lines", "inserted", "duplicates", "rejects", "pruned"):
            setattr(self, name, getattr(self, name) + getattr(other, name))
        self.rejects_paths += other.rejects_paths

    def summary(self) -> str:
        text = f"ingested {self.inserted} record{'s' * (self.inserted != 1)}"
        if self.duplicates:
            text += f", {self.duplicates} already known"
        if self.rejects:
            text += f", {self.rejects} malformed line{'s' * (self.rejects != 1)} kept aside"
        return text


def _int_field(data: dict, name: str):
    value = data.get(name)
    if value is None or type(value) is int:
        return value
    if type(value) is float and value.is_integer():
        return int(value)
    raise ValueError(f"{name} is not an integer")


def parse_record(line: str, store_arguments: bool = True, now: float | None = None) -> tuple:
    """One spool line → a `records` row (store.RECORD_COLUMNS order + ingested_at).

    Raises ValueError with a short reason for anything that is not a usable record. Unknown
    fields are ignored (a newer producer may add some); missing token counts are estimated from
    the character counts, a missing `saved_tokens` is raw − output, a missing key is the command.
    """
    try:
        data, end = _scan_json(line, 0)
    except (ValueError, StopIteration) as exc:
        raise ValueError(f"not JSON: {exc}") from None
    if end != len(line) and line[end:].strip():
        raise ValueError("not JSON: extra data after the object")
    if type(data) is not dict:
        raise ValueError("not a JSON object")
    now = time.time() if now is None else now
    g = data.get
    # Fast path: a well-formed record from cc-filter (every type as expected).
    rid, ts, raw_tokens, output_tokens, saved = (
        g("id"), g("ts"), g("raw_tokens"), g("output_tokens"), g("saved_tokens"))
    if (type(rid) is str and rid and type(ts) in _NUMBER and type(raw_tokens) is int
            and type(output_tokens) is int and type(saved) is int
            and type(g("elapsed_ms")) in _NUMBER_OR_NONE
            and type(g("exit_code")) in _INT_OR_NONE and type(g("raw_chars")) in _INT_OR_NONE
            and type(g("output_chars")) in _INT_OR_NONE
            and all(type(g(name)) in _STR_OR_NONE for name in _STRINGS)):
        command = g("command")
        key = g("key") or command
        return (rid, ts, g("cwd"), g("project"), command if store_arguments else key, key,
                g("filter"), g("mode"), g("exit_code"), g("raw_chars"), g("output_chars"),
                raw_tokens, output_tokens, saved, g("elapsed_ms"), g("tee_path"), now)
    return _parse_record_slow(data, store_arguments, now)


def _parse_record_slow(data: dict, store_arguments: bool, now: float) -> tuple:
    rid = data.get("id")
    if type(rid) is not str or not rid:
        raise ValueError("no id")
    ts = data.get("ts")
    if type(ts) not in (int, float):
        raise ValueError("no numeric ts")
    for name in _STRINGS:
        value = data.get(name)
        if value is not None and type(value) is not str:
            raise ValueError(f"{name} is not a string")
    raw_chars = _int_field(data, "raw_chars")
    output_chars = _int_field(data, "output_chars")
    raw_tokens = _int_field(data, "raw_tokens")
    output_tokens = _int_field(data, "output_tokens")
    if raw_tokens is None:
        if raw_chars is None:
            raise ValueError("no raw_tokens or raw_chars")
        raw_tokens = estimate_tokens(raw_chars)
    if output_tokens is None:
        if output_chars is None:
            raise ValueError("no output_tokens or output_chars")
        output_tokens = estimate_tokens(output_chars)
    saved = _int_field(data, "saved_tokens")
    if saved is None:
        saved = raw_tokens - output_tokens
    elapsed = data.get("elapsed_ms")
    if elapsed is not None and type(elapsed) not in (int, float):
        raise ValueError("elapsed_ms is not a number")
    command = data.get("command")
    key = data.get("key") or command
    if not store_arguments:
        command = key  # privacy: never keep arguments, whatever the producer wrote
    return (
        rid, ts, data.get("cwd"), data.get("project"), command, key, data.get("filter"),
        data.get("mode"), _int_field(data, "exit_code"), raw_chars, output_chars,
        raw_tokens, output_tokens, saved, elapsed, data.get("tee_path"), now,
    )


def _lock_ingest(spool_dir: str, timeout: float):
    """The exclusive ingest lock, as an open fd (closing it releases the lock)."""
    path = os.path.join(spool_dir, LOCK_NAME)
    try:
        fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    except OSError as exc:
        raise IngestUnavailable(f"cannot open {home.short_path(path)}: {exc.strerror}") from exc
    deadline = time.monotonic() + timeout
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return fd
        except BlockingIOError:
            if time.monotonic() >= deadline:
                os.close(fd)
                raise IngestUnavailable(
                    f"another cc-track has held {LOCK_NAME} for {timeout:.0f} s; "
                    "showing what is already in the database"
                ) from None
            time.sleep(0.02)


def _chunk_name() -> str:
    return f"{CHUNK_PREFIX}{time.time_ns():020d}.{os.getpid()}"


def _rotate_spool(spool: str) -> None:
    try:
        if os.path.getsize(spool) == 0:
            return
    except FileNotFoundError:
        return
    try:
        os.rename(spool, os.path.join(os.path.dirname(spool), _chunk_name()))
    except FileNotFoundError:
        pass
    except OSError as exc:
        raise IngestUnavailable(
            f"cannot rotate {home.short_path(spool)}: {exc.strerror}"
        ) from exc


def _pending_chunks(spool_dir: str) -> list[str]:
    """Complete chunks, plus incoming files whose writer died (their lock is free)."""
    try:
        names = sorted(os.listdir(spool_dir))
    except FileNotFoundError:
        return []
    chunks = []
    for name in names:
        if name.startswith(CHUNK_PREFIX):
            chunks.append(os.path.join(spool_dir, name))
        elif name.startswith(INCOMING_PREFIX) and _orphaned(os.path.join(spool_dir, name)):
            target = os.path.join(spool_dir, _chunk_name() + ".recovered")
            try:
                os.rename(os.path.join(spool_dir, name), target)
                chunks.append(target)
            except OSError:
                pass
    return chunks


def _orphaned(path: str) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError:
        return False
    try:
        fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        return True
    except BlockingIOError:
        return False
    finally:
        os.close(fd)


def _write_rejects(rejects_dir: str, source: str, rejects: list) -> str:
    home.ensure_private_dir(rejects_dir)
    path = os.path.join(rejects_dir, os.path.basename(source) + ".jsonl")
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
    with os.fdopen(fd, "w", encoding="utf-8") as f:
        for lineno, reason, text in rejects:
            f.write(json.dumps({"source": os.path.basename(source), "line": lineno,
                                "error": reason, "text": text}, ensure_ascii=False) + "\n")
        f.flush()
        os.fsync(f.fileno())
    os.replace(tmp, path)
    return path


def ingest_chunk(db: sqlite3.Connection, chunk: str, *, store_arguments: bool = True,
                 now: float | None = None, rejects_dir: str | None = None) -> IngestResult:
    """Ingest one chunk file in one transaction, then unlink it (see the module docstring)."""
    result = IngestResult()
    now = time.time() if now is None else now
    rejects_dir = rejects_dir or os.path.join(os.path.dirname(chunk), REJECTS_DIR)
    rejects: list = []
    try:
        f = open(chunk, "rb")
    except FileNotFoundError:
        return result
    with f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)  # waits for a producer mid-write

        def rows():
            for lineno, raw in enumerate(f, 1):
                result.lines += 1
                if raw[-1:] != b"\n":
                    rejects.append((lineno, "truncated line (no newline)",
                                    raw.decode("utf-8", "replace")))
                    continue
                try:
                    text = raw.decode("utf-8")
                except UnicodeDecodeError as exc:
                    rejects.append((lineno, f"not UTF-8: {exc.reason}",
                                    raw.decode("utf-8", "replace").rstrip("\n")))
                    continue
                if text.isspace():
                    result.lines -= 1  # an empty line carries nothing
                    continue
                try:
                    yield parse_record(text, store_arguments, now)
                except ValueError as exc:
                    rejects.append((lineno, str(exc).split("\n")[0][:200], text.rstrip("\n")))

        db.execute("BEGIN IMMEDIATE")
        try:
            before = db.total_changes
            db.executemany(_INSERT, rows())
            result.inserted = db.total_changes - before
            rejects_path = _write_rejects(rejects_dir, chunk, rejects) if rejects else None
            result.rejects = len(rejects)
            result.duplicates = result.lines - result.rejects - result.inserted
            db.execute(
                "INSERT OR REPLACE INTO ingest_batches VALUES (?, ?, ?, ?, ?, ?, ?)",
                (os.path.basename(chunk), now, result.lines, result.inserted,
                 result.duplicates, result.rejects, rejects_path),
            )
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        os.unlink(chunk)  # still under our lock: a late producer sees nlink == 0 and reopens
    result.chunks = 1
    if rejects_path:
        result.rejects_paths.append(rejects_path)
    return result


def ingest_spool(db: sqlite3.Connection, config: dict, *, spool: str | None = None,
                 now: float | None = None, lock_timeout: float = LOCK_TIMEOUT_S) -> IngestResult:
    """Rotate the spool and ingest every pending chunk under the ingest lock, then prune."""
    tracking = config.get("tracking", {})
    total = IngestResult()
    spool = spool or home.spool_path()
    spool_dir = os.path.dirname(spool)
    if tracking.get("enabled", True) and os.path.isdir(spool_dir):
        _ingest_pending(db, tracking, spool, now, lock_timeout, total)
    # (tracking off: the spool is left alone and nothing is recorded)
    total.pruned = prune(db, config, now=now)
    return total


def _ingest_pending(db, tracking: dict, spool: str, now, lock_timeout: float,
                    total: IngestResult) -> None:
    spool_dir = os.path.dirname(spool)
    lock_fd = _lock_ingest(spool_dir, lock_timeout)
    try:
        if spool == home.spool_path():
            _adopt_fallback_spool(spool_dir)
        _rotate_spool(spool)
        for chunk in _pending_chunks(spool_dir):
            total.add(ingest_chunk(db, chunk,
                                   store_arguments=tracking.get("store_arguments", True),
                                   now=now))
    finally:
        os.close(lock_fd)


def _adopt_fallback_spool(spool_dir: str) -> None:
    """Move the records producers wrote to the fallback spool ($TMPDIR, while a sandbox kept
    them out of the data directory) into a chunk here. Same hand-over as the live spool: rotate
    it aside, wait for writers (exclusive lock), copy, then unlink; a kill in between leaves a
    chunk whose records are ignored as duplicates next time."""
    from ctxcrl.spool import FALLBACK_SPOOL

    directory = home.fallback_dir(create=False)
    if directory is None:
        return
    try:
        _rotate_spool(os.path.join(directory, FALLBACK_SPOOL))
    except IngestUnavailable:
        return
    for chunk in _pending_chunks(directory):
        try:
            fd = os.open(chunk, os.O_RDONLY | os.O_NOFOLLOW)
        except OSError:
            continue
        try:
            fcntl.flock(fd, fcntl.LOCK_EX)
            with os.fdopen(os.dup(fd), "rb") as f:
                data = f.read()
            incoming = os.path.join(spool_dir, INCOMING_PREFIX + os.path.basename(chunk))
            out = os.open(incoming, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
            try:
                view = memoryview(data)
                while view:
                    view = view[os.write(out, view):]
                os.fsync(out)
            finally:
                os.close(out)
            os.rename(incoming, os.path.join(spool_dir, _chunk_name() + ".adopted"))
            os.unlink(chunk)
        except OSError:
            continue
        finally:
            os.close(fd)


def prune(db: sqlite3.Connection, config: dict, now: float | None = None) -> int:
    days = config.get("tracking", {}).get("retention_days", 90)
    try:
        days = float(days)
    except (TypeError, ValueError):
        days = 90.0
    db.execute("BEGIN IMMEDIATE")
    try:
        pruned = store.prune(db, days, now)
        if days > 0:
            cutoff = (time.time() if now is None else now) - days * 86400
            db.execute("DELETE FROM ingest_batches WHERE ingested_at < ?", (cutoff,))
        db.execute("COMMIT")
    except BaseException:
        if db.in_transaction:
            db.execute("ROLLBACK")
        raise
    return pruned


def queue_stdin_records(stream, spool: str | None = None) -> str:
    """Copy records given on stdin into a chunk that the next ingest picks up; returns it.

    While it is being written the file is `spool.incoming.*` under an exclusive lock, so an
    ingest never reads a half-written chunk (and recovers it if this process dies).
    """
    spool = spool or home.spool_path()
    spool_dir = home.ensure_private_dir(os.path.dirname(spool))
    incoming = os.path.join(spool_dir, f"{INCOMING_PREFIX}{time.time_ns():020d}.{os.getpid()}")
    fd = os.open(incoming, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
    with os.fdopen(fd, "wb") as out:
        fcntl.flock(out.fileno(), fcntl.LOCK_EX)
        last = b"\n"
        for raw in stream:
            if raw:
                out.write(raw)
                last = raw
        if not last.endswith(b"\n"):
            out.write(b"\n")  # stdin's last line may lack its newline; that is not truncation
        out.flush()
        os.fsync(out.fileno())
        chunk = os.path.join(spool_dir, _chunk_name())
        os.rename(incoming, chunk)
    return chunk
