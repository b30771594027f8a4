"""Deterministic spool records for cc-track tests (imported by conftest and tests)."""
import os
import sys

from ctxcrl.spool import SpoolRecord, estimate_tokens

VENV_BIN = os.path.dirname(sys.executable)
CC_TRACK = os.path.join(VENV_BIN, "cc-track")
#: 2026-03-10 12:00:00 UTC, the "now" of every fixed-database test.
NOW = 1773144000.0
DAY = 86400.0


def make_record(i: int, *, key="git status", filter="git-status", raw=4000, output=800,
                ts=NOW, project="/home/dev/app", command=None, mode="run", exit_code=0,
                elapsed=120.0) -> SpoolRecord:
    raw_tokens, output_tokens = estimate_tokens(raw), estimate_tokens(output)
    return SpoolRecord(
        id=f"rec-{i:06d}", ts=ts, cwd=project, project=project, command=command or key,
        key=key, filter=filter, mode=mode, exit_code=exit_code, raw_chars=raw,
        output_chars=output, raw_tokens=raw_tokens, output_tokens=output_tokens,
        saved_tokens=raw_tokens - output_tokens, elapsed_ms=elapsed, tee_path=None,
    )


def fixed_records() -> list[SpoolRecord]:
    """Ten days of varied, deterministic use: several filters and projects, one filter that
    made output bigger, a passthrough, a failing test run."""
    specs = [
        # (days ago, hour, key, command, filter, raw chars, output chars, project, exit, ms)
        (9, 9, "git status", "git status", "git-status", 2400, 300, "/home/dev/app", 0, 40),
        (9, 10, "pytest -q", "uv run pytest -q", "pytest", 48000, 1200, "/home/dev/app", 1, 8200),
        (8, 11, "cargo test", "cargo test", "cargo-test", 90000, 2000, "/home/dev/engine", 0, 41000),
        (8, 15, "git log -n 20", "git log -n 20", "git-log", 12000, 2600, "/home/dev/app", 0, 60),
        (7, 9, "git status", "git status", "git-status", 2000, 260, "/home/dev/app", 0, 35),
        (6, 13, "jq .", "curl -s api | jq .", "json", 600, 1400, "/home/dev/app", 0, 15),
        (6, 14, "npm install", "npm install", "npm-install", 30000, 400, "/home/dev/web", 0, 15000),
        (5, 10, "pytest -q", "pytest -q tests/unit", "pytest", 36000, 900, "/home/dev/app", 0, 6400),
        (5, 16, "ls -la", "ls -la", None, 800, 800, "/home/dev/app", 0, 5),
        (3, 9, "cargo test", "cargo test --workspace", "cargo-test", 120000, 6000, "/home/dev/engine", 101, 52000),
        (3, 12, "jq .", "jq . big.json", "json", 400, 1000, "/home/dev/web", 0, 10),
        (2, 10, "git diff", "git diff", "git-diff", 26000, 9000, "/home/dev/app", 0, 80),
        (1, 9, "git status", "git status", "git-status", 2200, 280, "/home/dev/app", 0, 38),
        (1, 11, "npm test", "npm test", "npm-test", 18000, 700, "/home/dev/web", 1, 9100),
        (0, 8, "pytest -q", "pytest -q -x", "pytest", 52000, 1500, "/home/dev/app", 0, 9900),
    ]
    records = []
    for i, (ago, hour, key, command, filt, raw, out, project, code, ms) in enumerate(specs):
        ts = NOW - ago * DAY - 12 * 3600 + hour * 3600
        mode = "passthrough" if filt is None else "run"
        records.append(make_record(i, key=key, command=command, filter=filt, raw=raw, output=out,
                                   ts=ts, project=project, mode=mode, exit_code=code,
                                   elapsed=float(ms)))
    return records


