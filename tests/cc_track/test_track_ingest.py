"""Spool ingest: each record exactly once, malformed lines kept aside, crash recovery."""
import io
import json
import os

import pytest

from ctxcrl import home
from cc_track import ingest, store
from ctxcrl.config import load_config
from ctxcrl.spool import SpoolRecord, append

from track_records import NOW, make_record


def count(db) -> int:
    return db.execute("SELECT count(*) FROM records").fetchone()[0]


def spool_leftovers(home_dir) -> list[str]:
    return sorted(n for n in os.listdir(home_dir) if n.startswith("spool."))


GOOD = {"id": "a1", "ts": NOW, "command": "git status -s", "key": "git status",
        "filter": "git-status", "mode": "run", "exit_code": 0, "raw_chars": 400,
        "output_chars": 100, "raw_tokens": 100, "output_tokens": 25, "saved_tokens": 75,
        "elapsed_ms": 12.5, "cwd": "/p", "project": "/p", "tee_path": None}


@pytest.mark.parametrize("change, expected", [
    ({}, {"raw_tokens": 100, "output_tokens": 25, "saved_tokens": 75}),
    ({"raw_tokens": None, "output_tokens": None, "saved_tokens": None},
     {"raw_tokens": 100, "output_tokens": 25, "saved_tokens": 75}),  # estimated from chars
    ({"saved_tokens": -7}, {"saved_tokens": -7}),  # signed: output grew
    ({"key": None}, {"key": "git status -s"}),  # missing key: the command
    ({"future_field": 1}, {"command": "git status -s"}),  # unknown fields ignored
    ({"raw_tokens": 100.0}, {"raw_tokens": 100}),
])
def test_parse_record_accepts(change, expected):
    data = {**GOOD, **change}
    row = dict(zip(store.RECORD_COLUMNS + ("ingested_at",),
                   ingest.parse_record(json.dumps(data), now=5.0)))
    for name, value in expected.items():
        assert row[name] == value
    assert row["ingested_at"] == 5.0


@pytest.mark.parametrize("line, reason", [
    ("not json", "not JSON"),
    ("[1, 2]", "not a JSON object"),
    (json.dumps({**GOOD, "id": ""}), "no id"),
    (json.dumps({**GOOD, "id": 7}), "no id"),
    (json.dumps({**GOOD, "ts": "yesterday"}), "no numeric ts"),
    (json.dumps({**GOOD, "raw_tokens": None, "raw_chars": None}), "no raw_tokens"),
    (json.dumps({**GOOD, "output_tokens": "many"}), "output_tokens is not an integer"),
    (json.dumps({**GOOD, "command": ["git"]}), "command is not a string"),
    (json.dumps({**GOOD, "elapsed_ms": "fast"}), "elapsed_ms is not a number"),
])
def test_parse_record_rejects_with_a_reason(line, reason):
    with pytest.raises(ValueError, match=reason):
        ingest.parse_record(line)


def test_spool_record_json_round_trip():
    record = SpoolRecord.for_command(command="git status -s", key="git status",
                                     filter="git-status", mode="run", exit_code=0,
                                     raw_chars=401, output_chars=100, elapsed_ms=12.34,
                                     cwd="/p/é")
    assert (record.raw_tokens, record.output_tokens, record.saved_tokens) == (101, 25, 76)
    assert SpoolRecord.from_json(record.to_json()).to_dict() == record.to_dict()
    assert json.loads(record.to_json()) == record.to_dict()


@pytest.mark.parametrize("line, reason", [
    ("[1]", "not a JSON object"),
    (json.dumps({**GOOD, "future_field": 1}), "unknown spool fields: future_field"),
    (json.dumps({**GOOD, "id": ""}), "no id"),
])
def test_spool_record_from_json_rejects(line, reason):
    with pytest.raises(ValueError, match=reason):
        SpoolRecord.from_json(line)


def test_store_arguments_false_keeps_only_the_key():
    row = ingest.parse_record(json.dumps(GOOD), store_arguments=False)
    assert row[store.RECORD_COLUMNS.index("command")] == "git status"


def test_every_spool_record_is_ingested_once(ctxcrl_home):
    for i in range(20):
        assert append(make_record(i))
    db = store.connect()
    result = ingest.ingest_spool(db, load_config(), now=NOW)
    assert (result.inserted, result.duplicates, result.rejects) == (20, 0, 0)
    assert count(db) == 20
    assert spool_leftovers(ctxcrl_home) == []
    # the same records again (a producer retrying, a re-fed file): ignored by id
    for i in range(20):
        append(make_record(i))
    result = ingest.ingest_spool(db, load_config(), now=NOW)
    assert (result.inserted, result.duplicates) == (0, 20)
    assert count(db) == 20


def test_malformed_lines_are_kept_aside_and_counted_never_fatal(ctxcrl_home):
    append(make_record(1))
    with open(home.spool_path(), "ab") as f:
        f.write(b"{broken json\n")
        f.write(b"\xff\xfe not utf-8\n")
        f.write(b"\n")  # an empty line carries nothing: neither record nor reject
    append(make_record(2))
    with open(home.spool_path(), "ab") as f:
        f.write(b'{"id": "half", "ts": 1')  # a write cut short: no newline
    db = store.connect()
    result = ingest.ingest_spool(db, load_config(), now=NOW)
    assert (result.inserted, result.rejects) == (2, 3)
    [path] = result.rejects_paths
    assert path.startswith(str(ctxcrl_home / "rejects"))
    rejected = [json.loads(line) for line in open(path, encoding="utf-8")]
    assert [r["line"] for r in rejected] == [2, 3, 6]
    assert rejected[0]["text"] == "{broken json"
    assert "truncated" in rejected[2]["error"]
    assert db.execute("SELECT sum(rejects) FROM ingest_batches").fetchone()[0] == 3
    assert oct(os.stat(path).st_mode & 0o777) == "0o600"


def test_store_arguments_false_is_enforced_at_ingest(ctxcrl_home):
    append(make_record(1, key="git log", command="git log --author=secret"))
    db = store.connect()
    config = load_config()
    config["tracking"]["store_arguments"] = False
    ingest.ingest_spool(db, config, now=NOW)
    assert db.execute("SELECT command FROM records").fetchone()[0] == "git log"


def test_tracking_disabled_records_nothing_and_leaves_the_spool(ctxcrl_home):
    append(make_record(1))
    db = store.connect()
    config = load_config()
    config["tracking"]["enabled"] = False
    ingest.ingest_spool(db, config, now=NOW)
    assert count(db) == 0
    assert spool_leftovers(ctxcrl_home) == ["spool.jsonl"]


def test_ingest_prunes_past_retention(ctxcrl_home):
    append(make_record(1, ts=NOW - 100 * 86400))
    append(make_record(2, ts=NOW - 1 * 86400))
    db = store.connect()
    result = ingest.ingest_spool(db, load_config(), now=NOW)
    assert result.pruned == 1
    assert [r for (r,) in db.execute("SELECT id FROM records")] == ["rec-000002"]


class Crash(Exception):
    pass


def test_crash_before_commit_loses_nothing(ctxcrl_home, monkeypatch):
    for i in range(50):
        append(make_record(i))
    db = store.connect()
    real = ingest.parse_record
    calls = {"n": 0}

    def dying_parse(*args, **kwargs):
        calls["n"] += 1
        if calls["n"] == 30:
            raise Crash("killed half way")
        return real(*args, **kwargs)

    monkeypatch.setattr(ingest, "parse_record", dying_parse)
    with pytest.raises(Crash):
        ingest.ingest_spool(db, load_config(), now=NOW)
    assert count(db) == 0  # rolled back
    [chunk] = spool_leftovers(ctxcrl_home)
    assert chunk.startswith(ingest.CHUNK_PREFIX)  # the rotated chunk is still there
    monkeypatch.setattr(ingest, "parse_record", real)
    append(make_record(50))  # a producer went on writing to a fresh spool meanwhile
    result = ingest.ingest_spool(db, load_config(), now=NOW)
    assert result.inserted == 51 and count(db) == 51
    assert spool_leftovers(ctxcrl_home) == []


def test_crash_after_commit_before_unlink_doubles_nothing(ctxcrl_home, monkeypatch):
    for i in range(10):
        append(make_record(i))
    db = store.connect()

    def dying_unlink(path):
        raise Crash("killed before unlink")

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(ingest.os, "unlink", dying_unlink)
        with pytest.raises(Crash):
            ingest.ingest_spool(db, load_config(), now=NOW)
    assert count(db) == 10
    result = ingest.ingest_spool(db, load_config(), now=NOW)
    assert (result.inserted, result.duplicates) == (0, 10)
    assert count(db) == 10
    assert spool_leftovers(ctxcrl_home) == []


def test_record_from_stdin_is_ingested_and_a_missing_last_newline_is_fine(ctxcrl_home):
    lines = "\n".join(make_record(i).to_json() for i in range(3)).encode()
    result = ingest.queue_stdin_records(io.BytesIO(lines))
    assert os.path.basename(result).startswith(ingest.CHUNK_PREFIX)
    db = store.connect()
    got = ingest.ingest_spool(db, load_config(), now=NOW)
    assert (got.inserted, got.rejects) == (3, 0)


def test_incoming_file_of_a_dead_writer_is_recovered(ctxcrl_home):
    home.ensure_private_dir(str(ctxcrl_home))
    with open(ctxcrl_home / f"{ingest.INCOMING_PREFIX}1.99999", "w") as f:
        f.write(make_record(1).to_json() + "\n" + '{"id": "cut')
    db = store.connect()
    got = ingest.ingest_spool(db, load_config(), now=NOW)
    assert (got.inserted, got.rejects) == (1, 1)
    assert spool_leftovers(ctxcrl_home) == []


def test_incoming_file_still_being_written_is_left_alone(ctxcrl_home):
    import fcntl

    home.ensure_private_dir(str(ctxcrl_home))
    path = ctxcrl_home / f"{ingest.INCOMING_PREFIX}1.99999"
    with open(path, "w") as f:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        f.write(make_record(1).to_json() + "\n")
        f.flush()
        db = store.connect()
        got = ingest.ingest_spool(db, load_config(), now=NOW)
        assert got.inserted == 0 and path.exists()


def test_producer_holding_the_rotated_file_gets_its_line_in(ctxcrl_home):
    """A producer that opened spool.jsonl just before the rotation still writes into it,
    and the ingest (which waits for its shared lock) reads that line."""
    append(make_record(1))
    spool = home.spool_path()
    fd = os.open(spool, os.O_WRONLY | os.O_APPEND)
    from ctxcrl.spool import _lock_live_spool

    assert _lock_live_spool(fd)  # the producer got its shared lock...
    os.rename(spool, spool + ".rotated-by-hand")  # ...then the file was rotated under it
    os.rename(spool + ".rotated-by-hand",
              os.path.join(os.path.dirname(spool), ingest.CHUNK_PREFIX + "0.1"))
    os.write(fd, (make_record(2).to_json() + "\n").encode())
    import threading

    done = threading.Event()

    def run():
        conn = store.connect()
        ingest.ingest_spool(conn, load_config(), now=NOW)
        conn.close()
        done.set()

    t = threading.Thread(target=run)
    t.start()
    assert not done.wait(0.3)  # the ingest waits for the producer's lock
    os.close(fd)
    t.join(10)
    db = store.connect()
    assert count(db) == 2


def test_producer_finding_the_spool_locked_or_gone_writes_to_a_fresh_one(ctxcrl_home):
    import fcntl

    append(make_record(1))
    spool = home.spool_path()
    from ctxcrl.spool import _lock_live_spool

    # an ingest holds the rotated file exclusively
    held = os.open(spool, os.O_RDONLY)
    fcntl.flock(held, fcntl.LOCK_EX)
    fd = os.open(spool, os.O_WRONLY | os.O_APPEND)
    assert not _lock_live_spool(fd)
    os.close(fd)
    # the ingest finished: unlinked, then unlocked
    os.unlink(spool)
    fd2 = os.open(spool, os.O_WRONLY | os.O_APPEND | os.O_CREAT)  # a fresh spool
    old = held
    fcntl.flock(old, fcntl.LOCK_UN)
    os.close(old)
    assert _lock_live_spool(fd2)
    os.close(fd2)


def test_late_producer_on_an_unlinked_spool_retries_on_the_fresh_path(ctxcrl_home):
    from ctxcrl import spool as spool_module

    append(make_record(1))
    path = home.spool_path()
    real_open = os.open
    state = {"first": True}

    def open_then_ingest(target, flags, mode=0o777):
        fd = real_open(target, flags, mode)
        if state["first"] and target == path:
            state["first"] = False
            db = store.connect()
            ingest.ingest_spool(db, load_config(), now=NOW)  # rotates + unlinks under us
            db.close()
        return fd

    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(spool_module.os, "open", open_then_ingest)
        assert append(make_record(2))
    db = store.connect()
    ingest.ingest_spool(db, load_config(), now=NOW)
    assert count(db) == 2


def test_spool_module_stays_light_for_producers():
    import subprocess
    import sys

    code = ("import sys, ctxcrl.spool; "
            "print(sorted(m for m in ('re', 'json', 'sqlite3', 'fcntl', 'subprocess', 'tomllib', "
            "'pathlib', 'dataclasses', 'typing') if m in sys.modules))")
    done = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                          env={"PYTHONPATH": os.pathsep.join(sys.path)})
    assert done.stdout.strip() == "[]", done.stderr
