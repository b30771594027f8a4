"""cc-track at scale: ingest 1,000,000 spool records, then a full report on them.

`rows(ctx)` for bench/run.py. Runs the real console script in a private CTXCRL_HOME, so it
measures what a user gets: process start, the spool rotation, parsing, one transaction of
INSERT OR IGNORE, pruning; then `cc-track report` (totals, top commands, grew, daily series)
and `cc-track report --daily --by-project --format=json` over the million rows.
Run alone: python bench/bench_track.py [records]
"""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

RECORDS = 1_000_000
INGEST_TARGET = 25_000  # records per second, at least
REPORT_TARGET_S = 5.0   # a full report on a million rows, at most

KEYS = [("git status", "git-status"), ("git diff", "git-diff"), ("git log -n 20", "git-log"),
        ("pytest -q", "pytest"), ("cargo test", "cargo-test"), ("npm test", "npm-test"),
        ("ruff check .", "ruff"), ("jq .", "json"), ("ls -la", None), ("make build", "make")]
PROJECTS = ["/home/dev/app", "/home/dev/engine", "/home/dev/web", "/srv/ops"]


def write_spool(path: str, n: int, now: float) -> None:
    rng = random.Random(6)
    with open(path, "w") as f:
        for i in range(n):
            key, filt = KEYS[rng.randrange(len(KEYS))]
            project = PROJECTS[rng.randrange(len(PROJECTS))]
            raw = rng.randrange(200, 60_000)
            out = raw + rng.randrange(1, 500) if filt == "json" else rng.randrange(50, raw)
            rt, ot = -(-raw // 4), -(-out // 4)
            f.write(
                f'{{"id": "{i:032x}", "ts": {now - rng.random() * 30 * 86400:.3f}, '
                f'"cwd": "{project}", "project": "{project}", "command": "{key} --flag", '
                f'"key": "{key}", "filter": {"null" if filt is None else chr(34) + filt + chr(34)}, '
                f'"mode": "run", "exit_code": {rng.choice((0, 0, 0, 1))}, "raw_chars": {raw}, '
                f'"output_chars": {out}, "raw_tokens": {rt}, "output_tokens": {ot}, '
                f'"saved_tokens": {rt - ot}, "elapsed_ms": {rng.random() * 5000:.1f}, '
                f'"tee_path": null}}\n')


def timed(argv: list, env: dict) -> tuple[float, float]:
    """(wall seconds, CPU seconds of the child): CPU time is what to compare on a machine
    shared with other work; wall time is what a user waits."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL)
    _pid, status, usage = os.wait4(proc.pid, 0)
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.returncode:
        raise subprocess.CalledProcessError(proc.returncode, argv)
    return time.perf_counter() - start, usage.ru_utime + usage.ru_stime


def measure(cc_track: str, n: int = RECORDS) -> dict:
    work = tempfile.mkdtemp(prefix="bench-track-")
    try:
        env = {**os.environ, "CTXCRL_HOME": os.path.join(work, "home")}
        env.pop("CTXCRL_DB_PATH", None)
        os.makedirs(env["CTXCRL_HOME"], mode=0o700)
        write_spool(os.path.join(env["CTXCRL_HOME"], "spool.jsonl"), n, time.time())
        ingest_s, ingest_cpu = timed([cc_track, "prune"], env)
        report_s, report_cpu = timed([cc_track, "report", "--graph"], env)
        grouped_s, grouped_cpu = timed(
            [cc_track, "report", "--daily", "--by-project", "--format=json"], env)
        db_mb = os.path.getsize(os.path.join(env["CTXCRL_HOME"], "tracking.db")) / 1e6
        return {"records": n, "ingest_s": ingest_s, "ingest_cpu_s": ingest_cpu,
                "rate": n / ingest_s, "cpu_rate": n / ingest_cpu,
                "report_s": report_s, "report_cpu_s": report_cpu,
                "grouped_s": grouped_s, "grouped_cpu_s": grouped_cpu, "db_mb": db_mb}
    finally:
        shutil.rmtree(work, ignore_errors=True)


def rows(ctx) -> list[dict]:
    m = measure(ctx.bin("cc-track"))
    return [
        dict(budget=f"cc-track ingest of {m['records']:,} spool records",
             measured=f"{m['rate']:,.0f} records/s ({m['ingest_s']:.1f} s wall, "
                      f"{m['cpu_rate']:,.0f}/s of CPU; db {m['db_mb']:.0f} MB)",
             target=f">= {INGEST_TARGET:,} records/s", ok=m["rate"] >= INGEST_TARGET),
        dict(budget=f"cc-track report on {m['records']:,} records",
             measured=f"{m['report_s']:.2f} s ({m['report_cpu_s']:.2f} s CPU)",
             target=f"<= {REPORT_TARGET_S:.0f} s", ok=m["report_s"] <= REPORT_TARGET_S),
        dict(budget=f"cc-track report --daily --by-project --format=json, {m['records']:,}",
             measured=f"{m['grouped_s']:.2f} s ({m['grouped_cpu_s']:.2f} s CPU)",
             target=f"<= {REPORT_TARGET_S:.0f} s",
             ok=m["grouped_s"] <= REPORT_TARGET_S),
    ]


if __name__ == "__main__":
    n = int(sys.argv[1]) if len(sys.argv) > 1 else RECORDS
    here = os.path.dirname(os.path.abspath(sys.executable))
    result = measure(os.path.join(here, "cc-track"), n)
    for name, value in result.items():
        print(f"{name:10} {value:,.2f}" if isinstance(value, float) else f"{name:10} {value:,}")
