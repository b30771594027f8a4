"""Faults: read-only data directory, a corrupt database, a full disk."""
import errno
import os
import shutil
import sqlite3
import subprocess
import time

import pytest

from ctxcrl import home
from cc_track import cli, ingest, store, tracking
from ctxcrl.config import load_config
from ctxcrl.spool import append
from track_records import CC_TRACK, NOW, fixed_records, make_record


def run(*args, env=None, **kwargs):
    return subprocess.run([CC_TRACK, *args], capture_output=True, text=True,
                          env=env or dict(os.environ), **kwargs)


def fill(n_spool=0):
    for r in fixed_records():
        append(r)
    db = store.connect()
    ingest.ingest_spool(db, load_config(), now=NOW)
    db.close()
    for i in range(n_spool):
        append(make_record(1000 + i, ts=NOW))


# --- read-only data directory ----------------------------------------------------------------

def _readonly_runner():
    """How to run cc-track with its data directory read-only: a read-only bind mount in a
    private mount namespace (root ignores file modes), or chmod when we are not root."""
    if os.geteuid() != 0:
        return "chmod"
    if shutil.which("unshare") and subprocess.run(
            ["unshare", "-m", "true"], capture_output=True).returncode == 0:
        return "mount"
    return None


def run_readonly(data: str, *args: str) -> subprocess.CompletedProcess:
    env = {"PATH": "/usr/bin:/bin", "HOME": os.path.dirname(data), "CTXCRL_HOME": data,
           "TZ": "UTC"}
    how = _readonly_runner()
    if how is None:
        pytest.skip("no way to make a directory read-only for root here")
    if how == "chmod":
        os.chmod(data, 0o500)
        try:
            return subprocess.run([CC_TRACK, *args], env=env, capture_output=True, text=True)
        finally:
            os.chmod(data, 0o700)
    script = 'mount --bind -o ro "$1" "$1" && shift && exec "$@"'
    return subprocess.run(["unshare", "-m", "sh", "-c", script, "sh", data, CC_TRACK, *args],
                          env=env, capture_output=True, text=True)


def test_readonly_data_dir_still_reports_with_a_warning(ctxcrl_home):
    fill(n_spool=2)
    done = run_readonly(str(ctxcrl_home), "report")
    assert done.returncode == 0, done.stderr
    assert "Top commands by tokens saved" in done.stdout
    assert "cannot" in done.stderr and "not ingested" in done.stderr
    assert "Traceback" not in done.stderr
    assert os.path.getsize(home.spool_path()) > 0  # nothing lost: ingested later


def test_readonly_data_dir_fails_prune_clearly(ctxcrl_home):
    fill()
    done = run_readonly(str(ctxcrl_home), "prune")
    assert done.returncode == cli.EXIT_ERROR
    assert done.stderr.startswith("cc-track: prune failed:")
    assert "Traceback" not in done.stderr


def test_readonly_data_dir_in_process(ctxcrl_home, monkeypatch):
    """The same failure without any mount: every write to the data directory fails EROFS."""
    fill(n_spool=2)
    real_open = os.open

    def erofs(*args, **kwargs):
        raise OSError(errno.EROFS, "Read-only file system")

    def ro_open(path, flags, *rest):
        if flags & (os.O_WRONLY | os.O_RDWR | os.O_CREAT):
            erofs()
        return real_open(path, flags, *rest)

    monkeypatch.setattr(os, "open", ro_open)
    monkeypatch.setattr(os, "rename", erofs)
    opened = tracking.open_tracking(load_config(), now=NOW)
    assert opened.readonly
    assert "Read-only file system" in opened.warnings[0]
    assert opened.db.execute("SELECT count(*) FROM records").fetchone()[0] == len(fixed_records())


# --- corrupt database ------------------------------------------------------------------------

def test_corrupt_database_is_refused_then_repaired_from_the_spool(ctxcrl_home):
    path = home.db_path()
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "wb") as f:
        f.write(b"garbage " * 1000)
    for i in range(5):
        append(make_record(i, ts=time.time()))
    done = run("report")
    assert done.returncode == cli.EXIT_DATABASE
    assert "not a readable database" in done.stderr and "cc-track repair" in done.stderr
    assert os.path.getsize(home.spool_path()) > 0  # the spool is untouched
    fixed = run("repair")
    assert fixed.returncode == 0, fixed.stderr
    assert "moved it to" in fixed.stdout and "ingested 5 records" in fixed.stdout
    aside = [n for n in os.listdir(ctxcrl_home) if n.startswith("tracking.db.corrupt-")]
    assert aside
    db = store.connect()
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 5
    assert run("report").returncode == 0


def test_repair_salvages_the_readable_rows_of_a_damaged_database(ctxcrl_home):
    db = store.connect()
    db.execute("BEGIN")
    for i in range(3000):
        r = make_record(i, ts=NOW + i)
        db.execute(ingest._INSERT, (*[getattr(r, c) for c in store.RECORD_COLUMNS], NOW))
    db.execute("COMMIT")
    db.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    db.close()
    path = home.db_path()
    size = os.path.getsize(path)
    with open(path, "r+b") as f:  # smash a stretch of pages near the end
        f.seek(size - 40 * 4096)
        f.write(b"\xa5" * (8 * 4096))
    messages = tracking.repair(load_config(), now=NOW)
    assert any("damaged" in m for m in messages), messages
    salvaged = int(next(m for m in messages if m.startswith("salvaged")).split()[1])
    assert 0 < salvaged < 3000
    db = store.connect()
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == salvaged


def test_repair_leaves_a_healthy_database_alone(ctxcrl_home):
    fill()
    messages = tracking.repair(load_config(), now=NOW)
    assert "is healthy" in messages[0]
    assert not [n for n in os.listdir(ctxcrl_home) if ".corrupt-" in n]
    db = store.connect()
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == len(fixed_records())


def test_newer_schema_exits_3(ctxcrl_home):
    db = store.connect()
    db.execute("PRAGMA user_version = 99")
    db.close()
    done = run("report")
    assert done.returncode == cli.EXIT_DATABASE and "newer" in done.stderr


# --- disk full -------------------------------------------------------------------------------

def test_disk_full_during_ingest_keeps_the_spool_and_still_reports(ctxcrl_home, monkeypatch,
                                                                    capsys):
    fill()
    before = os.path.getsize(home.db_path())
    for i in range(3000):
        append(make_record(5000 + i, ts=time.time(), command="x" * 200))
    real_connect = store.connect

    def small_disk(*args, **kwargs):
        db = real_connect(*args, **kwargs)
        pages = db.execute("PRAGMA page_count").fetchone()[0]
        db.execute(f"PRAGMA max_page_count = {pages + 2}")  # SQLite's own "disk full"
        return db

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(store, "connect", small_disk)
        code = cli.main(["report"])
    out, err = capsys.readouterr()
    assert code == 0
    assert "the disk is full" in err and "stay in the spool" in err
    assert "Top commands" in out
    assert [n for n in os.listdir(ctxcrl_home) if n.startswith(ingest.CHUNK_PREFIX)]
    assert os.path.getsize(home.db_path()) >= before
    assert cli.main(["prune"]) == 0  # room again: everything arrives, once
    db = store.connect()
    assert db.execute("SELECT count(*) FROM records WHERE id LIKE 'rec-005%' "
                      "OR id LIKE 'rec-006%' OR id LIKE 'rec-007%'").fetchone()[0] == 3000


def test_disk_full_writing_rejects_rolls_back(ctxcrl_home, monkeypatch):
    append(make_record(1))
    with open(home.spool_path(), "a") as f:
        f.write("not json\n")

    def no_space(*args):
        raise OSError(errno.ENOSPC, "No space left on device")

    db = store.connect()
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ingest, "_write_rejects", no_space)
        with pytest.raises(OSError):
            ingest.ingest_spool(db, load_config(), now=NOW)
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 0
    result = ingest.ingest_spool(db, load_config(), now=NOW)
    assert (result.inserted, result.rejects) == (1, 1)


def test_record_when_disk_is_full_fails_clearly(ctxcrl_home, monkeypatch, capsys):
    import io

    def full(*args, **kwargs):
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(ingest, "ingest_spool", full)
    monkeypatch.setattr("sys.stdin", io.TextIOWrapper(io.BytesIO(
        (make_record(1).to_json() + "\n").encode())))
    assert cli.main(["record"]) == cli.EXIT_ERROR
    assert "record failed: the disk is full" in capsys.readouterr().err
