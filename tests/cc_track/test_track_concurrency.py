"""Concurrency and kills: producers appending while cc-track ingests, ingests killed mid-way.
Every record ends up in tracking.db exactly once."""
import os
import signal
import subprocess
import sys
import time

import pytest

from ctxcrl import home
from cc_track import store
from cc_track.ingest import CHUNK_PREFIX
from track_records import CC_TRACK, make_record

PRODUCERS = 50
PER_PRODUCER = 20

PRODUCER = r"""
import sys, time, random
from ctxcrl.spool import SpoolRecord, append
p = int(sys.argv[1])
random.seed(p)
for i in range(int(sys.argv[2])):
    record = SpoolRecord.for_command(command="git status", key="git status",
        filter="git-status", mode="run", exit_code=0, raw_chars=400, output_chars=100,
        elapsed_ms=1.0, cwd="/tmp")
    record.id = f"p{p:02d}-{i:04d}"
    if not append(record):
        sys.exit(f"append failed for {record.id}")
    time.sleep(random.random() * 0.01)
"""


def ids_in_db() -> list[str]:
    db = store.connect()
    try:
        return [r for (r,) in db.execute("SELECT id FROM records")]
    finally:
        db.close()


def test_fifty_producers_and_two_reports_every_record_exactly_once(ctxcrl_home):
    env = dict(os.environ)
    producers = [subprocess.Popen([sys.executable, "-c", PRODUCER, str(p), str(PER_PRODUCER)],
                                  env=env) for p in range(PRODUCERS)]
    reports = []
    while any(p.poll() is None for p in producers) or len(reports) < 4:
        for _ in range(2):  # two reports at once, again and again while producers run
            reports.append(subprocess.Popen([CC_TRACK, "report"], env=env,
                                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE))
        for r in reports[-2:]:
            r.wait(60)
    assert [p.wait(60) for p in producers] == [0] * PRODUCERS
    assert all(r.returncode == 0 for r in reports), [r.stderr.read() for r in reports]
    assert subprocess.run([CC_TRACK, "report"], env=env, capture_output=True).returncode == 0
    got = ids_in_db()
    expected = {f"p{p:02d}-{i:04d}" for p in range(PRODUCERS) for i in range(PER_PRODUCER)}
    assert len(got) == len(expected) and set(got) == expected
    assert not [n for n in os.listdir(ctxcrl_home) if n.startswith(CHUNK_PREFIX)]


def write_spool(n: int) -> None:
    home.ensure_private_dir(os.path.dirname(home.spool_path()))
    template = make_record(0, ts=time.time()).to_json()
    with open(home.spool_path(), "w") as f:
        for i in range(n):
            f.write(template.replace("rec-000000", f"k{i:08d}") + "\n")


@pytest.mark.slow
@pytest.mark.parametrize("delay", [0.05, 0.2, 0.4, 0.8])
def test_killed_ingest_loses_nothing_and_doubles_nothing(ctxcrl_home, delay):
    n = 40_000
    write_spool(n)
    env = dict(os.environ)
    victim = subprocess.Popen([CC_TRACK, "prune"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    time.sleep(delay)
    victim.send_signal(signal.SIGKILL)
    victim.wait()
    in_db = len(ids_in_db())  # the kill left either nothing or everything of the chunk
    assert in_db in (0, n)
    left = [n for n in os.listdir(ctxcrl_home) if n.startswith("spool.")]
    assert in_db == n or left, "records neither in the database nor in the spool"
    done = subprocess.run([CC_TRACK, "prune"], env=env, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr
    got = ids_in_db()
    assert len(got) == n == len(set(got))
    assert not [x for x in os.listdir(ctxcrl_home) if x.startswith("spool.ingesting")]


def test_kill_during_ingest_quick(ctxcrl_home):
    """The fast-suite version of the kill test: one kill while ingesting 20,000 records."""
    n = 20_000
    write_spool(n)
    env = dict(os.environ)
    victim = subprocess.Popen([CC_TRACK, "prune"], env=env, stdout=subprocess.DEVNULL,
                              stderr=subprocess.DEVNULL)
    time.sleep(0.25)
    victim.kill()
    victim.wait()
    assert subprocess.run([CC_TRACK, "prune"], env=env, capture_output=True).returncode == 0
    got = ids_in_db()
    assert len(got) == n == len(set(got))
