"""The moon filter, on the fixtures captured from moon 2.5.5 (tests/fixtures/js/moon)."""
import os
import re

from cc_filter.choose.catalogue import lookup, reset
from cc_filter.filters.js.moon import Moon

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "js", "moon")
_COUNT = re.compile(r"^\.\.\. \((\d+) (.+) omitted\)$")


def run(case, exit_code):
    with open(os.path.join(FIXTURES, case + ".out"), encoding="utf-8") as f:
        raw = f.read().splitlines()
    return raw, list(Moon(["moon", "run", ":build", ":lint"]).run(raw, exit_code))


def counts(out):
    return {m.group(2): int(m.group(1)) for m in map(_COUNT.match, out) if m}


def test_a_passing_run_keeps_every_task_output_line_and_counts_the_status_lines():
    raw, out = run("run-ok", 0)
    printed = [line.rstrip() for line in raw if " | " in line]
    assert [line for line in out if " | " in line] == printed
    assert "Tasks: 8 completed" in out
    status = [line for line in raw if line.startswith("▮▮▮▮") or "Time:" in line]
    assert counts(out) == {"task status and timing lines": len(status)}
    assert not any(line.startswith("▮▮▮▮") for line in out)


def test_a_failed_run_keeps_the_failing_task_and_counts_the_passing_tasks_output():
    raw, out = run("run-error", 1)
    assert "   ui:build | src/button.tsx(3,7): error TS2322: Type string is not assignable to " \
           "type number" in out
    assert "  × Task ui:build failed to run." in out
    passing = [line for line in raw if " | " in line and "ui:build |" not in line]
    assert passing and not any(line.rstrip() in out for line in passing)
    assert counts(out)["output lines of passing tasks"] == len(passing)


def test_routing_takes_run_and_check_only():
    reset()
    for key in ("moon run :build", "moon run web:build docs:lint", "moon check web"):
        assert lookup(key, fallback=False).name == "moon", key
    for key in ("moon setup", "moon init", "moon query projects"):
        entry = lookup(key, fallback=False)
        assert entry is None or entry.name != "moon", key
