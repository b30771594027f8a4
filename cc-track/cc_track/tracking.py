"""The steps every `cc-track` command shares, as library calls the CLI stays thin over:
open tracking.db, ingest the spool, prune; and the maintenance commands (record, prune, repair).

Failure policy (README "Faults"): a read-only data directory still gets a report (the database
opened immutable, a warning that the spool was not ingested); a corrupt database is refused
with a pointer to `cc-track repair`, which moves it aside, salvages what rows it can and
rebuilds from the spool; a full disk rolls the ingest back, leaving the spool in place.
"""
import os
import sqlite3
import time

from ctxcrl import home
from . import ingest, store


class Opened:
    """An open database plus what opening it did: ingest counts and warnings for stderr."""

    __slots__ = ("db", "ingested", "warnings", "readonly")

    def __init__(self, db, ingested, warnings, readonly):
        self.db, self.ingested, self.warnings, self.readonly = db, ingested, warnings, readonly


def _disk_full(exc: Exception) -> bool:
    text = str(exc).lower()
    return "full" in text or getattr(exc, "errno", None) == 28


def open_tracking(config: dict, *, allow_readonly: bool = True, now: float | None = None,
                  lock_timeout: float = ingest.LOCK_TIMEOUT_S) -> Opened:
    """Open tracking.db and ingest the spool. Raises store.StoreError for a corrupt or newer
    database, and OSError / sqlite3.Error (read-only, disk full) when `allow_readonly` is
    false; otherwise such problems become warnings and the report runs on what is there."""
    warnings: list[str] = []
    path = home.db_path()
    try:
        db = store.connect(path)
    except (OSError, sqlite3.OperationalError) as exc:
        if not allow_readonly:
            raise
        db = store.connect(path, readonly=True)
        reason = getattr(exc, "strerror", None) or str(exc)
        warnings.append(f"cannot write {home.short_path(os.path.dirname(path))} ({reason}); "
                        "showing the database as it is, the spool was not ingested")
        return Opened(db, ingest.IngestResult(), warnings, True)
    try:
        result = ingest.ingest_spool(db, config, now=now, lock_timeout=lock_timeout)
    except ingest.IngestUnavailable as exc:
        if not allow_readonly:
            raise
        warnings.append(str(exc))
        result = ingest.IngestResult()
    except (OSError, sqlite3.OperationalError) as exc:
        if not allow_readonly:
            raise
        what = "the disk is full" if _disk_full(exc) else str(exc)
        warnings.append(f"could not ingest the spool ({what}); its records stay in the spool "
                        "and are ingested next time")
        result = ingest.IngestResult()
    if result.rejects:
        warnings.append(f"{result.rejects} malformed spool line{'s' * (result.rejects != 1)} "
                        f"kept aside in {home.short_path(os.path.dirname(result.rejects_paths[0]))}/")
    return Opened(db, result, warnings, False)


def record_stdin(stream, config: dict, now: float | None = None) -> ingest.IngestResult | None:
    """`cc-track record`: queue stdin's records as a chunk and ingest. None: tracking is off."""
    if not config.get("tracking", {}).get("enabled", True):
        for _ in stream:
            pass  # drain, so a producer writing to us does not get SIGPIPE
        return None
    db = store.connect()
    try:
        ingest.queue_stdin_records(stream)
        return ingest.ingest_spool(db, config, now=now)
    finally:
        db.close()


def repair(config: dict, now: float | None = None) -> list[str]:
    """Move a damaged tracking.db aside, salvage its readable rows into a fresh one, and
    ingest the spool. A healthy database is left alone. Returns lines to print."""
    path = home.db_path()
    messages = []
    problem = _check(path)
    if problem is None:
        opened = open_tracking(config, allow_readonly=False, now=now)
        opened.db.close()
        return [f"{home.short_path(path)} is healthy; "
                f"{opened.ingested.summary()} from the spool."]
    spool_dir = os.path.dirname(home.spool_path())
    home.ensure_private_dir(spool_dir)
    lock = ingest._lock_ingest(spool_dir, ingest.LOCK_TIMEOUT_S)
    try:
        stamp = time.strftime("%Y%m%dT%H%M%S", time.localtime(now))
        aside = f"{path}.corrupt-{stamp}"
        os.rename(path, aside)
        for suffix in ("-wal", "-shm"):
            if os.path.exists(path + suffix):
                os.rename(path + suffix, aside + suffix)
        messages.append(f"{home.short_path(path)} was damaged ({problem}); "
                        f"moved it to {home.short_path(aside)}")
        rows = store.salvage_rows(aside)
        db = store.connect(path)
        try:
            if rows:
                db.execute("BEGIN IMMEDIATE")
                db.executemany(
                    f"INSERT OR IGNORE INTO records ({', '.join(store.RECORD_COLUMNS)}) "
                    f"VALUES ({', '.join('?' * len(store.RECORD_COLUMNS))})", rows)
                db.execute("COMMIT")
            messages.append(f"salvaged {len(rows)} record{'s' * (len(rows) != 1)} "
                            "from the damaged file")
        finally:
            db.close()
    finally:
        os.close(lock)
    opened = open_tracking(config, allow_readonly=False, now=now)
    opened.db.close()
    messages.append(f"rebuilt {home.short_path(path)}: {opened.ingested.summary()} from the spool")
    return messages


def _check(path: str) -> str | None:
    """None when the database opens and passes `PRAGMA quick_check`, else the problem."""
    if not os.path.exists(path):
        return None
    try:
        db = store.connect(path)
    except store.CorruptDatabase as exc:
        return str(exc.__cause__ or exc)
    try:
        result = db.execute("PRAGMA quick_check").fetchone()[0]
    except sqlite3.DatabaseError as exc:
        return str(exc)
    finally:
        db.close()
    return None if result == "ok" else result
