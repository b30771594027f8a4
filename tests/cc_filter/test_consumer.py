"""`cc-filter run --then=…`: the answer judged after the pipe (cc_filter/run/consumer.py)."""
import os
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cc_filter.run import consumer
from cc_filter.kit.spill import SpillBuffer

from filter_testkit import REPO, cc_filter, spool_records

QUIET = os.path.join(REPO, "tests", "fixtures", "python", "pytest", "failures_quiet.out")


@pytest.mark.parametrize("spec, stages", [
    ("tail:20", (("tail", 20),)), ("head:5", (("head", 5),)),
    ("tail:50,head:5", (("tail", 50), ("head", 5))),
])
def test_parse(spec, stages):
    assert consumer.parse(spec) == stages
    assert consumer.spec_text(stages) == spec


@pytest.mark.parametrize("spec", ["", "tail", "tail:", "tail:0", "tail:-3", "tail:+3", "cat:1",
                                  "tail:3,", "head:2000000", "tail:3 ", None])
def test_parse_refuses(spec):
    assert consumer.parse(spec) is None


lines = st.lists(st.sampled_from(["a", "", "FAILED x", "é", "  b", "\r", "x" * 70]), max_size=40)


@settings(max_examples=60, deadline=None)
@given(lines, st.booleans(), st.sampled_from(["head", "tail"]), st.integers(1, 12),
       st.integers(1, 5))
def test_apply_is_what_the_real_head_and_tail_print(parts, newline_at_end, kind, n, block):
    data = "\n".join(parts).encode() + (b"\n" if newline_at_end and parts else b"")
    real = subprocess.run([kind, "-n", str(n)], input=data, capture_output=True).stdout
    assert consumer.apply(((kind, n),), data) == real
    buf = SpillBuffer(limit=block)  # spilled to a file at once: the read-from-the-end path
    buf.write(data)
    assert consumer.apply_buffer(((kind, n),), buf) == real
    buf.close()


ANSWER = ("FAILED a.py::t1\nE assert 1 == 2\nFAILED a.py::t2\n  ... (4 lines of the same "
          "failure as above omitted)\nFAILED a.py::t3\nE KeyError: 'k'\n"
          "2 failed, 9 passed in 0.1s\n"
          "... (17 header/progress lines omitted)\n[full output: ~/t/1_pytest.log]\n")


def test_for_tail_first_puts_markers_and_hint_above_a_whole_answer_that_fits():
    laid, ends = next(consumer.for_tail(ANSWER, 20))
    assert ends
    assert laid[:2] == ["... (17 header/progress lines omitted)", "[full output: ~/t/1_pytest.log]"]
    assert laid[2:] == ANSWER.splitlines()[:7]  # the filter's lines in their order
    assert "  ... (4 lines of the same failure as above omitted)" in laid  # indented: in place


def test_for_tail_names_the_failures_above_its_cut_and_ends_with_the_summary():
    layouts = [laid for laid, _ in consumer.for_tail(ANSWER, 3)]
    # each layout ends with the answer's last k lines, a failure's start or the summary
    ends_with = [laid[-3:] for laid in layouts]
    assert ["FAILED a.py::t1", "FAILED a.py::t2", "FAILED a.py::t3"] in [
        laid[-4:-1] for laid in layouts]
    assert all(laid[-1] == "2 failed, 9 passed in 0.1s" for laid in layouts)
    assert ["FAILED a.py::t3", "E KeyError: 'k'", "2 failed, 9 passed in 0.1s"] in ends_with


def test_fit_tail_keeps_the_raw_cuts_names_and_count_in_fewer_tokens():
    raw_cut = ("FAILED a.py::t1 - assert 1 == 2\nFAILED a.py::t2 - assert 1 == 2\n"
               "FAILED a.py::t3 - KeyError: 'k'\n=========== 2 failed, 9 passed in 0.1s ===========\n")
    laid, cut = consumer.fit_tail(ANSWER, (("tail", 4),), raw_cut)
    assert consumer.missing_facts(raw_cut, cut) == [] and len(cut) < len(raw_cut)
    assert consumer.apply((("tail", 4),), laid.encode()).decode() == cut
    assert consumer.fit_tail(ANSWER, (("tail", 4),), "FAILED a.py::t9\n") is None  # not ours


def test_a_cargo_digest_lists_the_names_as_cargo_does():
    answer = ("---- tests::a panicked at src/lib.rs:3:5:\nboom\n---- tests::b stdout ----\n"
              "note: test did not panic as expected at src/lib.rs:9:1\n"
              "test result: FAILED. 0 passed; 2 failed; 0 ignored\n")
    layouts = [laid for laid, _ in consumer.for_tail(answer, 3)]
    assert ["failures:", "    tests::a", "    tests::b",
            "test result: FAILED. 0 passed; 2 failed; 0 ignored"] in layouts


def test_missing_facts_names_what_the_cut_lost():
    raw = "x\nFAILED a.py::t1 - boom\n=== 1 failed, 2 passed in 1s ===\n/tmp/p/src/m.py:12: E\n"
    assert consumer.missing_facts(raw, "FAILED a.py::t1\n1 failed, 2 passed in 1s\nsrc/m.py:12") == []
    lost = consumer.missing_facts(raw, "1 failed, 2 passed in 1s")
    assert lost == ["FAILED a.py::t1 - boom", "/tmp/p/src/m.py:12: E"]
    assert consumer.missing_facts("a.go:3:x\nb.go:4:y", "a.go:3:x", every_line=True) == ["b.go:4:y"]
    assert consumer.missing_facts("failures:\n", "") == []  # a bare heading is no fact


@pytest.mark.parametrize("line", [
    "==================== warnings summary ====================",
    "-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html",
    "test tests::add_1 ... ok", "tests/t.py::test_a PASSED [ 10%]", "running 4 tests",
    "/usr/lib/python3.11/site-packages/_pytest/runner.py:341: in from_call",
])
def test_no_fact_lines(line):
    assert consumer.missing_facts(line + "\n", "") == []


@pytest.mark.parametrize("raw, ours", [
    ("  t.py:4: DeprecationWarning: old\n    warnings.warn('old', DeprecationWarning)\n",
     "t.py:4: DeprecationWarning: old"),  # the echoed source line under a Python warning
    (">       raise ValueError('no')\n", "shop/c.py:7: raise ValueError('no')"),
    ("test result: ok. 1 passed; 0 failed; 0 ignored; finished in 0.01s\n",
     "test result: ok. 1 passed; 0 failed; 0 ignored (×3 suites)"),
])
def test_facts_shown_another_way(raw, ours):
    assert consumer.missing_facts(raw, ours) == []


@pytest.mark.parametrize("raw, ours", [
    ("FAILED t.py::C::test_x[value0]\n", "FAILED t.py::C::test_x[zlib]"),  # the whole id
    ("test result: ok. 0 passed; 0 failed; 0 ignored; finished in 0.00s\n",
     "test result: ok. 1 passed; 0 failed; 0 ignored"),  # a suite's counts, not scattered
    ("ok  \texample.com/inv/tax\t(cached)\n", "FAIL\texample.com/inv/order"),
    ("  t.py:4: DeprecationWarning: old\nE   ValueError: boom\n",
     "t.py:4: DeprecationWarning: old"),  # only a deeper line is the echo
])
def test_facts_missing(raw, ours):
    assert consumer.missing_facts(raw, ours) != []


def _tail(data: bytes, n: int) -> bytes:
    return subprocess.run(["tail", "-n", str(n)], input=data, capture_output=True).stdout


def test_cli_tail_gets_the_names_and_the_count_and_tracks_the_cuts(ctxcrl_home):
    with open(QUIET, "rb") as f:
        raw = f.read()
    done = cc_filter("run", "--then=tail:3", "--filter=pytest", "cat", QUIET)
    assert done.returncode == 0
    cut = _tail(done.stdout, 3).decode()
    assert cut.count("FAILED tests/test_cart_bugs.py::") == 2 and "6 failed, 32 passed" in cut
    (rec,) = spool_records(ctxcrl_home)
    assert rec["raw_chars"] == len(_tail(raw, 3).decode())
    assert rec["output_chars"] == len(cut) < rec["raw_chars"]


def test_cli_passes_the_raw_output_when_the_cut_would_lose_a_fact(ctxcrl_home):
    """`| tail -50` of this run holds tracebacks the filter shortens: raw goes through, and the
    run is tracked as saving nothing (never as a saving it did not make)."""
    with open(QUIET, "rb") as f:
        raw = f.read()
    done = cc_filter("run", "--then=tail:50", "--filter=pytest", "cat", QUIET)
    assert done.returncode == 0
    assert _tail(done.stdout, 50) == _tail(raw, 50)
    (rec,) = spool_records(ctxcrl_home)
    assert rec["raw_chars"] == rec["output_chars"] == len(_tail(raw, 50).decode())


def test_cli_refuses_a_bad_spec_and_runs_nothing(tmp_path):
    marker = tmp_path / "ran"
    done = cc_filter("run", "--then=tail:x", "touch", str(marker))
    assert done.returncode == 64 and b"--then" in done.stderr and not marker.exists()


def test_a_long_run_read_by_head_streams_raw_when_its_cut_would_lose_a_match():
    """Past STREAM_AFTER the answer is written as it comes; with a `head` after the pipe the
    filtered lines stream only if they already fill its cut with every fact: a grouped search
    (`path:` headers) would show fewer matches than the raw `head -5`, so the raw streams."""
    from cc_filter.run import guard as guard_mod
    from cc_filter.filters.files import grep

    raw = "".join(f"src/m{i}.py:{j}:    value = compute({j})\n"
                  for i in range(400) for j in range(1, 200)).encode()
    assert len(raw) > guard_mod.STREAM_AFTER
    written = []
    g = guard_mod.OutputGuard(grep.Grep(["grep", "-rn", "value", "src"]),
                              argv=["grep", "-rn", "value", "src"])
    g.consumer = consumer.parse("head:5")
    g.sink = lambda data: written.append(data) or True
    for start in range(0, len(raw), 65536):
        g.feed(raw[start:start + 65536])
    outcome = g.finish(0)
    shown = b"".join(written) + b"".join(outcome.chunks())
    outcome.close()
    assert g.streaming == "raw"
    assert consumer.apply((("head", 5),), shown) == consumer.apply((("head", 5),), raw)
