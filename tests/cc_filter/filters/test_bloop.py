"""The bloop filter. Inputs are published bloop output: the fixtures (tests/fixtures/jvm/bloop,
each naming its source) and, for a failing ScalaTest suite, ScalaTest's reporter lines as a
published sbt run gives them (test_sbt.py's lamastex block) without sbt's `[info] ` prefix —
bloop prints the reporter's lines bare (its docs/usage.md shows the passing form)."""
import os
import re

from cc_filter.choose.catalogue import lookup, reset
from cc_filter.filters.jvm.bloop import Bloop

from test_sbt import SCALATEST_MIXED

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "jvm", "bloop")
_COUNT = re.compile(r"^\.\.\. \((\d+) (.+) omitted\)$")


def run(lines, argv=("bloop", "test", "foo"), exit_code=0):
    return list(Bloop(list(argv)).run(lines, exit_code))


def fixture(case):
    with open(os.path.join(FIXTURES, case + ".out"), encoding="utf-8") as f:
        return f.read().splitlines()


def counts(out):
    return {m.group(2): int(m.group(1)) for m in map(_COUNT.match, out) if m}


def test_compiled_projects_in_one_line_in_bloops_order_and_progress_counted():
    raw = fixture("compile-ok")
    out = run(raw, ("bloop", "compile", "akka-stream-typed"))
    names = [line.split()[1] for line in raw if line.startswith("Compiled ")]
    assert out[0] == "compiled: " + ", ".join(names)
    assert counts(out) == {"compile progress lines": sum(1 for x in raw if x.startswith("Compiling"))}


def test_a_failed_compile_keeps_every_diagnostic_and_does_not_say_compiled():
    raw = fixture("test-compile-error")
    out = run(raw, ("bloop", "test", "b"), exit_code=1)
    assert [line for line in raw if line.startswith("[E]")] == [x for x in out if x.startswith("[E]")]
    assert not any(line.startswith("compiled:") for line in out)


def test_a_failing_scalatest_suite_keeps_its_suite_failures_and_counts():
    raw = [line.removeprefix("[info] ") for line in SCALATEST_MIXED.splitlines()
           if line.startswith("[info] ")]
    out = run(raw, exit_code=1)
    assert out[:5] == ["ListReduceSuite:", "- one plus one is three? *** FAILED ***",
                       "  org.scalatest.exceptions.TestFailedException was thrown. "
                       "(ListReduceSuite.scala:57)",
                       "- details why one plus one is not three *** FAILED ***",
                       "  2 did not equal 3 (ListReduceSuite.scala:82)"]
    assert "  7 did not equal 0 (ListReduceSuite.scala:132)" in out
    assert "Tests: succeeded 4, failed 3, canceled 0, ignored 0, pending 0" in out
    assert counts(out)["passing test and suite lines"] == 4


def test_a_passing_suite_is_counted_with_its_tests():
    out = run(fixture("test-ok"))
    assert out[:3] == ["1 tests, 1 passed", "All tests in CubeCalculatorTest passed",
                       "All 1 test suites passed."]
    assert counts(out) == {"passing test and suite lines": 2, "timing and banner lines": 4}


def test_routing_leaves_watch_runs_and_programs_alone():
    reset()
    for key in ("bloop compile foo", "bloop test foo -o CubeCalculatorTest",
                "bloop compile --cascade foo", "bloop test foo --propagate"):
        assert lookup(key, fallback=False).name == "bloop", key
    for key in ("bloop test foo -w", "bloop compile foo --watch", "bloop run foo",
                "bloop server", "bloop projects"):
        entry = lookup(key, fallback=False)
        assert entry is None or entry.name != "bloop", key
