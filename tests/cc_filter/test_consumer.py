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


def test_for_tail_puts_markers_and_hint_above_and_names_and_summary_last():
    answer = ("FAILED a.py::t1\nE assert 1 == 2\nFAILED a.py::t2\n  ... (4 lines of the same "
              "failure as above omitted)\n2 failed, 9 passed in 0.1s\n"
              "... (17 header/progress lines omitted)\n[full output: ~/t/1_pytest.log]\n")
    laid = consumer.for_tail(answer).splitlines()
    assert laid[:2] == ["... (17 header/progress lines omitted)", "[full output: ~/t/1_pytest.log]"]
    assert laid[-3:] == ["FAILED a.py::t1", "FAILED a.py::t2", "2 failed, 9 passed in 0.1s"]
    assert "  ... (4 lines of the same failure as above omitted)" in laid  # indented: in place


def test_missing_facts_names_what_the_cut_lost():
    raw = "x\nFAILED a.py::t1 - boom\n=== 1 failed, 2 passed in 1s ===\n/tmp/p/src/m.py:12: E\n"
    assert consumer.missing_facts(raw, "FAILED a.py::t1\n1 failed, 2 passed in 1s\nsrc/m.py:12") == []
    lost = consumer.missing_facts(raw, "1 failed, 2 passed in 1s")
    assert lost == ["FAILED a.py::t1 - boom", "/tmp/p/src/m.py:12: E"]
    assert consumer.missing_facts("a.go:3:x\nb.go:4:y", "a.go:3:x", every_line=True) == ["b.go:4:y"]
    assert consumer.missing_facts("failures:\n", "") == []  # a bare heading is no fact


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
