"""The helpers filters share (cc_filter.kit.lines: CappedLines, LazyPattern, TrimmedLineFilter;
filters/_js_test.py, _git_text.py, _rustc.py): what each promises its filters, pinned on small
inputs (the fixture harness covers them on real output)."""
import os
import subprocess
import sys

import pytest

from cc_filter.filters.files import read
from cc_filter.filters.git import git_fetch, git_push
from cc_filter.filters.js import _js_test, mocha, vitest
from cc_filter.filters.git._git_text import HintBlock
from cc_filter.filters.rust._rustc import machine_format
from cc_filter.kit.lines import CappedLines, LazyPattern, TrimmedLineFilter


def capped(count, limit=5, head=2, tail=2, batch=None):
    run = CappedLines(limit, head, tail)
    lines = [str(i) for i in range(1, count + 1)]
    if batch is None:
        for line in lines:
            run.add(line)
    else:
        for i in range(0, len(lines), batch):
            run.extend(lines[i:i + batch])
    return run


@pytest.mark.parametrize("count,rendered", [
    (0, []),
    (5, ["1", "2", "3", "4", "5"]),
    (6, ["1", "2", "... (2 lines omitted)", "5", "6"]),
    (1000, ["1", "2", "... (996 lines omitted)", "999", "1000"]),
])
def test_capped_lines_keep_head_and_tail(count, rendered):
    assert capped(count).render() == rendered
    assert capped(count).capped is (count > 5)


@pytest.mark.parametrize("batch", [1, 2, 3, 7, 64, 5000])
def test_capped_lines_extend_is_add_in_batches(batch):
    for count in (0, 4, 5, 6, 9, 300, 2000):
        one, many = capped(count), capped(count, batch=batch)
        assert (many.parts(), many.count) == (one.parts(), one.count), (count, batch)


def test_capped_lines_memory_stays_bounded():
    run = capped(100_000, limit=50, head=10, tail=10, batch=1000)
    assert len(run.kept) == 10 and len(run.last) <= 1000 + 4 * 10 + 64
    assert run.parts() == ([str(i) for i in range(1, 11)], 99_980,
                           [str(i) for i in range(99_991, 100_001)])


def test_capped_lines_attach_is_shown_but_not_counted():
    run = CappedLines(3, 1, 1)
    run.add("a")
    run.attach("\\ No newline at end of file")
    assert run.render() == ["a", "\\ No newline at end of file"] and run.count == 1


def test_read_gives_the_same_output_line_by_line_and_in_batches():
    lines = [f"line {i}" for i in range(1, 3001)]
    one = read.Read(["cat", "app.log"])
    by_line = [out for line in lines for out in one.feed(line)] + one.finish(0)
    batched = read.Read(["cat", "app.log"])
    by_batch = batched.feed_lines(lines[:333]) + batched.feed_lines(lines[333:]) + batched.finish(0)
    assert by_line == by_batch
    assert by_line[read.HEAD] == "... lines 201–2950 omitted (sed -n '201,2950p' app.log)"
    assert read.Read(["cat", "-A", "x"]).feed_lines(["a", "b"]) == ["a", "b"]


def test_lazy_pattern_compiles_on_first_use():
    code = ("import sys; from cc_filter.kit.lines import LazyPattern; p = LazyPattern(r'(?i)ab+c');"
            "before = 're' in sys.modules; m = p.match('ABBC');"
            "print(before, m.group(0), p.sub('x', 'zabcz'), p.search('-abc') is not None)")
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.stdout.split() == ["False", "ABBC", "zxz", "True"], out.stderr
    assert LazyPattern("a").fullmatch("ab") is None


class Upper(TrimmedLineFilter):
    def __init__(self, argv):
        super().__init__(argv)
        self.passthrough = "--json" in argv

    def feed_trimmed(self, line, stripped):
        if stripped == "skip":
            return None
        yield f"{stripped.upper()} <{line}>"


def test_trimmed_line_filter_strips_skips_blanks_and_passes_through():
    lines = ["\x1b[31m  red\x1b[0m  ", "", "   ", "skip", "x"]
    assert list(Upper(["t"]).run(lines, 0)) == ["RED <  red>", "X <x>"]
    assert list(Upper(["t", "--json"]).run(lines, 0)) == ["  red", "", "", "skip", "x"]


def test_js_test_report_caps_each_block_and_counts_the_rest():
    report = _js_test.JsTestReport(["jest"])
    shown = [line for i in range(_js_test.BLOCK_LIMIT + 3) for line in report.block_line(str(i))]
    assert len(shown) == _js_test.BLOCK_LIMIT
    assert list(report.dropped_note()) == [
        f"... (3 failure-report lines past the {_js_test.BLOCK_LIMIT}-line cap omitted)"]
    report.block_lines = 0  # a new block
    assert list(report.block_line("next")) == ["next"]


def test_js_test_report_counts_by_kind_or_in_one_marker_for_a_failed_run():
    report = _js_test.JsTestReport(["jest"])
    report.count("passing tests", 3)
    report.count("code-frame lines", 2)
    assert list(report.counted()) == ["... (3 passing tests omitted)",
                                      "... (2 code-frame lines omitted)"]
    assert list(report.counted()) == []  # counted once
    report.count("passing tests", 3)
    report.count("code-frame lines", 2)
    assert list(report.counted(failed=True)) == ["... (5 listing and frame/diff lines omitted)"]


@pytest.mark.parametrize("argv,values", [
    (["vitest", "run"], []),
    (["vitest", "--reporter=json"], ["json"]),
    (["vitest", "--reporter", "junit", "--reporter=verbose"], ["junit", "verbose"]),
    (["mocha", "-R", "tap"], []),
    (["vitest", "--reporter"], []),
])
def test_reporters(argv, values):
    assert _js_test.reporters(argv) == values


@pytest.mark.parametrize("argv,machine", [
    (["vitest", "run"], False), (["vitest", "run", "--reporter=verbose"], False),
    (["vitest", "run", "--reporter", "json"], True), (["vitest", "list"], True),
    (["vitest", "--outputFile=x.xml"], True),
])
def test_vitest_machine_output(argv, machine):
    assert vitest._machine_output(argv) is machine


@pytest.mark.parametrize("argv,machine", [
    (["mocha"], False), (["mocha", "-R", "spec"], False), (["mocha", "--reporter=dot"], False),
    (["mocha", "-R", "json"], True), (["mocha", "--reporter", "xunit"], True),
    (["mocha", "--list-files"], True),
])
def test_mocha_machine_output(argv, machine):
    assert mocha._machine_output(argv) is machine


@pytest.mark.parametrize("argv,machine", [
    (["cargo", "build"], False), (["cargo", "build", "--message-format=json-diagnostic"], True),
    (["cargo", "build", "--message-format", "json"], True), (["cargo", "install", "--list"], True),
    (["cargo", "test", "--", "--format", "terse"], True),
    (["cargo", "test", "--", "--format"], False),
])
def test_cargo_machine_format(argv, machine):
    assert machine_format(argv) is machine


def test_hint_block_holds_a_run_of_hints_until_flushed():
    hints = HintBlock()
    assert hints.flush() == []
    assert hints.hold("hint: Updates were rejected because the tip of your branch is behind.")
    assert hints.hold("hint: See 'git pull --help' for details.")
    assert not hints.hold("fatal: nope")
    assert hints.flush() == [
        "hint: Updates were rejected because the tip of your branch is behind.",
        "... (1 hint line omitted)"]
    assert hints.flush() == []


@pytest.mark.parametrize("cls", [git_fetch.GitFetch, git_push.GitPush])
def test_git_message_filters_hold_a_trailing_hint_until_finish(cls):
    f = cls(["git", "x"])
    assert f.feed("hint: Use 'git pull' first.") == []
    assert f.finish(1) == ["hint: Use 'git pull' first."]
