"""Tracking survives an agent's sandbox: when the data directory cannot be written, producers
append to the fallback spool in $TMPDIR (said once on stderr) and the next `cc-track` command
ingests it, each record exactly once."""
import errno
import os

import pytest

from ctxcrl import home, spool
from cc_track import ingest, store
from ctxcrl.config import load_config

from track_records import NOW, make_record


@pytest.fixture
def tmpdir_env(monkeypatch, tmp_path):
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    return tmp_path / f"ctxcrl-{os.getuid()}"


REAL_APPEND_TO = spool._append_to


def refuse_data_dir(monkeypatch):
    data = os.path.abspath(home.data_dir())
    real = REAL_APPEND_TO

    def append_to(target, data_bytes):
        if os.path.abspath(target).startswith(data):
            raise OSError(errno.EACCES, "Permission denied", target)
        return real(target, data_bytes)

    monkeypatch.setattr(spool, "_append_to", append_to)


def test_records_go_to_the_fallback_spool_and_are_ingested_once(monkeypatch, tmpdir_env, capfd):
    refuse_data_dir(monkeypatch)
    assert spool.append(make_record(1)) and spool.append(make_record(2))
    assert (tmpdir_env / "spool.jsonl").read_text().count("\n") == 2
    err = capfd.readouterr().err
    assert err.count("is not writable here") == 1
    monkeypatch.setattr(spool, "_append_to", REAL_APPEND_TO)  # cc-track, outside the sandbox
    db = store.connect()
    first = ingest.ingest_spool(db, load_config(), now=NOW)
    assert first.inserted == 2
    assert not (tmpdir_env / "spool.jsonl").exists()
    assert [n for n in os.listdir(tmpdir_env) if n.startswith("spool.")] == []
    again = ingest.ingest_spool(db, load_config(), now=NOW)
    assert again.inserted == 0
    assert db.execute("SELECT count(*) FROM records").fetchone()[0] == 2


def test_an_explicit_spool_path_never_falls_back(monkeypatch, tmpdir_env, tmp_path):
    refuse_data_dir(monkeypatch)
    target = os.path.join(home.data_dir(), "other.jsonl")
    assert spool.append(make_record(1), path=target) is False
    assert not tmpdir_env.exists()


def test_a_fallback_spool_in_someone_elses_dir_is_not_read(tmpdir_env):
    tmpdir_env.mkdir(mode=0o777)
    os.chmod(tmpdir_env, 0o777)
    (tmpdir_env / "spool.jsonl").write_text(make_record(9).to_json() + "\n")
    db = store.connect()
    assert ingest.ingest_spool(db, load_config(), now=NOW).inserted == 0
    assert (tmpdir_env / "spool.jsonl").exists()
