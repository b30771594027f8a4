"""tracking.db: creation, permissions, WAL, schema version and in-place migrations."""
import os
import sqlite3
import stat

import pytest

from ctxcrl import home
from cc_track import store


def test_new_database_is_private_wal_and_current(ctxcrl_home):
    db = store.connect()
    path = home.db_path()
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    assert db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    assert db.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION
    assert db.execute("PRAGMA busy_timeout").fetchone()[0] == store.BUSY_TIMEOUT_MS


def test_ctxcrl_db_path_relocates_the_database(ctxcrl_home, tmp_path, monkeypatch):
    target = tmp_path / "elsewhere" / "t.db"
    monkeypatch.setenv("CTXCRL_DB_PATH", str(target))
    store.connect().close()
    assert target.exists()


def test_version_1_database_is_migrated_in_place_keeping_rows(ctxcrl_home):
    path = home.db_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    old = sqlite3.connect(path)
    store._migrate_to_1(old)
    old.execute("PRAGMA user_version = 1")
    old.execute("INSERT INTO records (id, ts, raw_tokens, output_tokens, saved_tokens) "
                "VALUES ('a', 1.0, 10, 2, 8)")
    old.commit()
    old.close()
    db = store.connect(path)
    assert db.execute("PRAGMA user_version").fetchone()[0] == 2
    assert db.execute("SELECT id, saved_tokens, ingested_at FROM records").fetchall() == [
        ("a", 8, None)]
    assert db.execute("SELECT count(*) FROM ingest_batches").fetchone()[0] == 0


def test_migrating_twice_changes_nothing(ctxcrl_home):
    store.connect().close()
    db = store.connect()
    assert db.execute("PRAGMA user_version").fetchone()[0] == store.SCHEMA_VERSION


def test_newer_schema_is_refused_with_a_clear_message(ctxcrl_home):
    db = store.connect()
    db.execute(f"PRAGMA user_version = {store.SCHEMA_VERSION + 1}")
    db.close()
    with pytest.raises(store.NewerSchema, match="newer than this cc-track"):
        store.connect()


@pytest.mark.parametrize("content", [b"this is not a database at all" * 100,
                                     b"SQLite format 3\x00" + b"\xff" * 4000])
def test_garbage_file_is_reported_as_corrupt(ctxcrl_home, content):
    path = home.db_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(content)
    with pytest.raises(store.CorruptDatabase, match="cc-track repair"):
        store.connect()


def test_prune_deletes_only_rows_past_retention(ctxcrl_home):
    db = store.connect()
    now = 1_000_000_000.0
    for i, age_days in enumerate((1, 89, 91, 400)):
        db.execute("INSERT INTO records (id, ts, raw_tokens, output_tokens, saved_tokens) "
                   "VALUES (?, ?, 1, 1, 0)", (f"r{i}", now - age_days * 86400))
    assert store.prune(db, 90, now) == 2
    assert store.prune(db, 0, now) == 0  # retention 0: keep everything
    assert [r for (r,) in db.execute("SELECT id FROM records ORDER BY id")] == ["r0", "r1"]


def test_salvage_reads_rows_of_a_healthy_file(ctxcrl_home):
    db = store.connect()
    db.execute("INSERT INTO records (id, ts, raw_tokens, output_tokens, saved_tokens) "
               "VALUES ('x', 5.0, 3, 1, 2)")
    db.close()
    rows = store.salvage_rows(home.db_path())
    assert [r[0] for r in rows] == ["x"]


def test_readonly_open_of_an_empty_file_reads_as_an_empty_database(tmp_path):
    """Creating the database on a full disk can leave a 0-byte file behind; reading it must
    give an empty report, not `no such table: records`."""
    path = tmp_path / "tracking.db"
    path.write_bytes(b"")
    db = store.connect(str(path), readonly=True)
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 0
