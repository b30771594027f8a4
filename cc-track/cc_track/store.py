"""`tracking.db`: the SQLite database cc-track owns (ARCHITECTURE §7).

WAL journal, a busy timeout, `PRAGMA user_version` as the schema version and in-place
migrations (one function per version step, each in its own transaction). The file is 0600 in a
0700 directory. A database made by a newer cc-track is refused rather than guessed at; a file
that is not a database (or fails its quick check) raises `CorruptDatabase`, which the CLI turns
into a clear message pointing at `cc-track repair`.

Cold path only: this imports sqlite3.
"""
import os
import sqlite3
import time

from ctxcrl import home
from ctxcrl.spool import FIELDS

SCHEMA_VERSION = 2
BUSY_TIMEOUT_MS = 10_000
CACHE_KIB = 65536

#: The columns of `records` filled from a spool record (the table adds `ingested_at`).
RECORD_COLUMNS = FIELDS


class StoreError(Exception):
    """A database problem the user has to act on; the message says what to do."""


class CorruptDatabase(StoreError):
    pass


class NewerSchema(StoreError):
    pass


def _migrate_to_1(db: sqlite3.Connection) -> None:
    db.execute(
        """CREATE TABLE records (
            id TEXT NOT NULL UNIQUE,
            ts REAL NOT NULL,
            cwd TEXT, project TEXT, command TEXT, key TEXT, filter TEXT, mode TEXT,
            exit_code INTEGER,
            raw_chars INTEGER, output_chars INTEGER,
            raw_tokens INTEGER NOT NULL, output_tokens INTEGER NOT NULL,
            saved_tokens INTEGER NOT NULL,
            elapsed_ms REAL, tee_path TEXT
        )"""
    )
    db.execute("CREATE INDEX records_ts ON records(ts)")


def _migrate_to_2(db: sqlite3.Connection) -> None:
    # v2: remember each ingested spool chunk (counts shown by reports, rejects kept aside).
    db.execute("ALTER TABLE records ADD COLUMN ingested_at REAL")
    db.execute(
        """CREATE TABLE ingest_batches (
            source TEXT PRIMARY KEY,
            ingested_at REAL NOT NULL,
            lines INTEGER NOT NULL,
            inserted INTEGER NOT NULL,
            duplicates INTEGER NOT NULL,
            rejects INTEGER NOT NULL,
            rejects_path TEXT
        )"""
    )


#: MIGRATIONS[n] brings a database from version n to n + 1.
MIGRATIONS = (_migrate_to_1, _migrate_to_2)
assert len(MIGRATIONS) == SCHEMA_VERSION


def _is_corruption(exc: sqlite3.DatabaseError) -> bool:
    text = str(exc).lower()
    return "not a database" in text or "malformed" in text or "corrupt" in text


def connect(path: str | None = None, *, readonly: bool = False) -> sqlite3.Connection:
    """Open (creating and migrating when needed) the tracking database.

    `readonly` opens an existing file without writing anything (used when the data directory
    is read-only); it never creates or migrates.
    """
    path = path or home.db_path()
    try:
        if readonly:
            db = _connect_readonly(path)
        else:
            home.ensure_private_dir(os.path.dirname(path) or ".")
            fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
            os.close(fd)
            db = sqlite3.connect(path, timeout=BUSY_TIMEOUT_MS / 1000, isolation_level=None)
            db.execute(f"PRAGMA busy_timeout = {BUSY_TIMEOUT_MS}")
            if db.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                db.execute("PRAGMA journal_mode = WAL")
            db.execute("PRAGMA synchronous = NORMAL")
            db.execute(f"PRAGMA cache_size = -{CACHE_KIB}")  # ids arrive in random order
            _migrate(db, path)
        version = db.execute("PRAGMA user_version").fetchone()[0]
        if readonly and version > SCHEMA_VERSION:
            raise NewerSchema(_newer_message(path, version))
        if version:
            db.execute("SELECT count(*) FROM (SELECT 1 FROM records LIMIT 1)").fetchone()
    except sqlite3.DatabaseError as exc:
        if _is_corruption(exc):
            raise CorruptDatabase(
                f"{home.short_path(path)} is not a readable database ({exc}); "
                "run `cc-track repair` to move it aside and rebuild it from the spool"
            ) from exc
        raise
    return db


def _connect_readonly(path: str) -> sqlite3.Connection:
    """An existing database, read-only; an empty schema in memory when there is none yet
    (no file, or the empty file left behind when creating it failed on a full disk)."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        db = sqlite3.connect(":memory:", isolation_level=None)
        _migrate(db, ":memory:")
        return db
    # immutable=1: no -shm/-wal files are needed, so this works in a read-only directory.
    db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True, isolation_level=None)
    return db


def _newer_message(path: str, version: int) -> str:
    return (
        f"{home.short_path(path)} has schema version {version}, newer than this cc-track "
        f"understands ({SCHEMA_VERSION}); upgrade contextcrawler"
    )


def _migrate(db: sqlite3.Connection, path: str) -> None:
    version = db.execute("PRAGMA user_version").fetchone()[0]
    if version > SCHEMA_VERSION:
        raise NewerSchema(_newer_message(path, version))
    while version < SCHEMA_VERSION:
        db.execute("BEGIN IMMEDIATE")
        try:
            # Another process may have migrated while we waited for the write lock.
            current = db.execute("PRAGMA user_version").fetchone()[0]
            if current == version:
                MIGRATIONS[version](db)
                db.execute(f"PRAGMA user_version = {version + 1}")
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        version = db.execute("PRAGMA user_version").fetchone()[0]


def prune(db: sqlite3.Connection, retention_days: float, now: float | None = None) -> int:
    """Delete rows older than `retention_days` (≤ 0 keeps everything); returns the count."""
    if not retention_days or retention_days <= 0:
        return 0
    cutoff = (now if now is not None else time.time()) - retention_days * 86400
    cur = db.execute("DELETE FROM records WHERE ts < ?", (cutoff,))
    return cur.rowcount


def salvage_rows(path: str) -> list[tuple]:
    """Whatever rows a damaged database still yields (best effort, never raises)."""
    rows: list[tuple] = []
    try:
        db = sqlite3.connect(f"file:{path}?mode=ro&immutable=1", uri=True)
    except sqlite3.Error:
        return rows
    try:
        cur = db.execute(f"SELECT {', '.join(RECORD_COLUMNS)} FROM records")
        while True:
            try:
                row = cur.fetchone()
            except sqlite3.Error:
                break
            if row is None:
                break
            rows.append(row)
    except sqlite3.Error:
        pass
    finally:
        db.close()
    return rows
