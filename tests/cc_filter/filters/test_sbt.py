"""The sbt filter. Inputs are published sbt output: the fixtures' files and blocks quoted from
projects' documentation (each test names its source)."""
import os
import re

from cc_filter.choose.catalogue import lookup, reset
from cc_filter.filters.jvm.sbt import Sbt

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "jvm", "sbt")

# pllab/cs162-tutorials docs/1-setup.md (sbt 1.x, ScalaTest): the `testOnly` block, from its
# `[info] CourseSpec:` line on, as the page gives it (it ends at ScalaTest's own `...`)
SCALATEST_FAILED = """\
[info] CourseSpec:
[info] A course
[info] - should tell us what its name is *** FAILED ***
[info]   scala.NotImplementedError: an implementation is missing
[info]   at scala.Predef$.$qmark$qmark$qmark(Predef.scala:284)
[info]   at edu.ucsb.cs.cs162.tuts.introduction.UniversityStandard$.minimalCourseNumber$lzycompute(UniversityStandard.scala:6)
[info]   at edu.ucsb.cs.cs162.tuts.introduction.UniversityStandard$.minimalCourseNumber(UniversityStandard.scala:6)
[info]   at edu.ucsb.cs.cs162.tuts.introduction.Course.<init>(Course.scala:6)
[info]   at edu.ucsb.cs.cs162.tuts.introduction.CourseSpec.$anonfun$new$2(IntroductionSpec.scala:27)
[info]   at scala.collection.immutable.List.foreach(List.scala:389)
[info]   at edu.ucsb.cs.cs162.tuts.introduction.CourseSpec.$anonfun$new$1(IntroductionSpec.scala:26)
[info]   at scala.runtime.java8.JFunction0$mcV$sp.apply(JFunction0$mcV$sp.java:12)
[info]   at org.scalatest.OutcomeOf.outcomeOf(OutcomeOf.scala:85)
[info]   at org.scalatest.OutcomeOf.outcomeOf$(OutcomeOf.scala:83)
[info] ...
"""

# lamastex tutorial (sbt 1.x, ScalaTest): the `test` part of its session
SCALATEST_MIXED = """\
[info] ListReduceSuite:
[info] - one plus one is two
[info] - one plus one is three? *** FAILED ***
[info]   org.scalatest.exceptions.TestFailedException was thrown. (ListReduceSuite.scala:57)
[info] - details why one plus one is not three *** FAILED ***
[info]   2 did not equal 3 (ListReduceSuite.scala:82)
[info] - intNotZero throws an exception if its argument is 0
[info] - sum of a few numbers
[info] - max of a few numbers
[info] - min of a few numbers *** FAILED ***
[info]   7 did not equal 0 (ListReduceSuite.scala:132)
[info] Run completed in 962 milliseconds.
[info] Total number of tests run: 7
[info] Suites: completed 1, aborted 0
[info] Tests: succeeded 4, failed 3, canceled 0, ignored 0, pending 0
[info] *** 3 TESTS FAILED ***
[error] Failed tests:
[error] \torg.lamastex.ex01.ListReduceSuite
[error] (Test / test) sbt.TestsFailedException: Tests unsuccessful
[error] Total time: 4 s, completed Apr 8, 2019 5:41:43 AM
"""


def run(text, argv=("sbt", "test"), exit_code=1):
    return list(Sbt(list(argv)).run(text.splitlines(), exit_code))


def test_failing_scalatest_keeps_suite_subject_message_and_project_frames():
    out = run(SCALATEST_FAILED)
    assert out[:4] == ["[info] CourseSpec:", "[info] A course",
                       "[info] - should tell us what its name is *** FAILED ***",
                       "[info]   scala.NotImplementedError: an implementation is missing"]
    project = [line for line in out if "at edu.ucsb." in line]
    assert len(project) == 5 and "(Course.scala:6)" in project[2]
    assert not any("at scala." in line or "at org.scalatest." in line for line in out)
    assert "... (5 library stack frames omitted)" in out
    assert "[info] ..." in out


def test_passing_scalatest_lines_are_counted_and_failures_kept():
    out = run(SCALATEST_MIXED)
    failed = [line for line in out if line.endswith("*** FAILED ***")]
    assert len(failed) == 3
    for detail in ("(ListReduceSuite.scala:57)", "2 did not equal 3 (ListReduceSuite.scala:82)",
                   "7 did not equal 0 (ListReduceSuite.scala:132)"):
        assert any(detail in line for line in out)
    assert "[info] - one plus one is two" not in out
    assert "... (4 passing test lines omitted)" in out
    assert out[0] == "[info] ListReduceSuite:"  # the suite of the failures, once
    assert "[error] \torg.lamastex.ex01.ListReduceSuite" in out


def test_compile_error_keeps_source_and_caret_lines():
    with open(os.path.join(FIXTURES, "compile-error.out"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = list(Sbt(["sbt", "compile"]).run(lines, 1))
    start = next(i for i, line in enumerate(out) if "scalac.scala:6:" in line)
    assert out[start + 3:start + 5] == ["[error]   error", "[error]   ^"]
    assert "... (74 dependency resolution lines omitted)" in out


def test_a_suite_that_passed_leaves_only_its_count():
    with open(os.path.join(FIXTURES, "compile-test-run-ok.out"), encoding="utf-8") as f:
        lines = f.read().splitlines()
    out = list(Sbt(["sbt", "compile", "test", "run"]).run(lines, 0))
    assert "[info] ExampleSpec:" not in out and "[info] 2+2" not in out
    assert out[-2:] == ["... (5 sbt setup lines omitted)", "... (3 passing test lines omitted)"]
    assert out.index("[info] running Main") + 1 == out.index("Hello, world!")


def test_routing_leaves_the_shell_watch_and_program_runs_alone():
    reset()
    pattern = re.compile(Sbt.match_command)
    for key in ("sbt test", "sbt compile", "sbt clean compile test", "sbt testOnly a.BSpec",
                "sbt -Dfile.encoding=UTF-8 test", "sbt compile test run", "./sbt test"):
        assert pattern.search(key), key
    for key in ("sbt", "sbt run", "sbt runMain a.Main", "sbt ~test", "sbt compile ~test",
                "sbt console", "sbt shell", "sbt -v run", "sbt reStart"):
        assert not pattern.search(key), key
        entry = lookup(key, fallback=False)
        assert entry is None or entry.name != "sbt", key
