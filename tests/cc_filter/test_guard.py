"""The output guard: chunk-independence, line handling, the decision rules in isolation."""
from hypothesis import given, settings
from hypothesis import strategies as st

from cc_filter.run import guard
from cc_filter.kit.filter import Filter
from cc_filter.run.tee import TeePolicy


class Upper(Filter):
    name = "upper"

    def feed(self, line):
        if not line.startswith("noise"):
            yield line.upper()


class Capper(Filter):
    name = "capper"

    def __init__(self, argv):
        super().__init__(argv)
        self.n = 0

    def feed(self, line):
        self.n += 1
        if self.n <= 2:
            yield line

    def finish(self, exit_code):
        if self.n > 2:
            yield f"+{self.n - 2} more"


RAW = st.binary(max_size=400).map(lambda b: b.replace(b"\x00", b"\n") + b"noise\n" * 30)


@settings(max_examples=80)
@given(RAW, st.lists(st.integers(1, 50), min_size=1, max_size=20), st.sampled_from([0, 1]))
def test_output_does_not_depend_on_chunking(raw, sizes, exit_code):
    whole = guard.apply(Upper([]), raw, exit_code, chunk_size=max(1, len(raw)))
    g = guard.OutputGuard(Upper([]))
    pos, i = 0, 0
    while pos < len(raw):
        size = sizes[i % len(sizes)]
        g.feed(raw[pos:pos + size])
        pos += size
        i += 1
    split = g.finish(exit_code)
    assert split.text() == whole.text()
    assert split.raw_chars == whole.raw_chars


def test_raw_chars_count_decoded_characters():
    outcome = guard.apply(Upper([]), "héllo\nwörld".encode(), 0)
    assert outcome.raw_chars == len("héllo\nwörld")


def test_long_line_is_cut_for_the_filter_and_marks_dropped(tmp_path):
    raw = b"z" * (guard.MAX_LINE + 1000) + b"\nnext\n" + b"noise\n" * 100
    outcome = guard.apply(Upper([]), raw, 0, tee_policy=TeePolicy(directory=str(tmp_path)))
    text = outcome.text()
    assert text.startswith("Z" * 100)
    assert "… [1000 MORE BYTES]" in text  # the marker went through the filter, like any text
    assert "\nNEXT\n" in text
    assert outcome.tee_path is not None
    with open(outcome.tee_path, "rb") as f:
        assert f.read() == raw[:1 << 20]  # the tee keeps the raw bytes


def test_omission_marker_from_a_filter_writes_tee(tmp_path):
    policy = TeePolicy(directory=str(tmp_path))
    outcome = guard.apply(Capper([]), b"".join(b"line %d\n" % i for i in range(50)), 0,
                          tee_policy=policy)
    lines = outcome.text().splitlines()
    assert lines[:3] == ["line 0", "line 1", "+48 more"]
    assert lines[3] == f"[full output: {outcome.tee_path}]"


def test_no_tee_without_a_policy_or_when_raw_is_printed(tmp_path):
    outcome = guard.apply(Capper([]), b"".join(b"line %d\n" % i for i in range(50)), 0)
    assert outcome.tee_path is None
    outcome = guard.apply(Capper([]), b"a\nb\nc\n", 0, tee_policy=TeePolicy(directory=str(tmp_path)))
    assert outcome.mode == "raw" and outcome.tee_path is None  # never worse: raw, nothing lost


def test_empty_raw_output_stays_empty():
    class Chatty(Filter):
        name = "chatty"

        def finish(self, exit_code):
            yield "summary: nothing"

    outcome = guard.apply(Chatty([]), b"", 0)
    assert outcome.text() == ""


def test_failure_without_any_filtered_output_shows_the_tail():
    class DropAll(Filter):
        name = "drop"
        on_empty = "all fine"

        def feed(self, line):
            return ()

    raw = b"".join(b"step %d\n" % i for i in range(40)) + b"it went wrong\n"
    outcome = guard.apply(DropAll([]), raw, 3)
    lines = outcome.text().splitlines()
    assert lines[0] == "[exit code 3; last 10 lines of output:]"
    assert lines[-1] == "it went wrong"
    assert "all fine" not in outcome.text()


def test_feed_returning_none_or_lists_is_accepted():
    class Loose(Filter):
        name = "loose"

        def feed(self, line):
            return None if line.startswith("noise") else [line]

    outcome = guard.apply(Loose([]), b"keep\n" + b"noise\n" * 30, 0)
    assert outcome.text() == "keep\n"


@settings(max_examples=40)
@given(st.lists(st.integers(0, 3 * guard.MAX_LINE // 2), min_size=1, max_size=3),
       st.sampled_from([4096, 65536, 1 << 20]))
def test_long_lines_are_cut_the_same_whatever_the_chunking(lengths, chunk):
    raw = b"".join(b"q" * n + b"\n" for n in lengths) + b"noise\n" * 3
    a = guard.apply(Upper([]), raw, 0, chunk_size=chunk)
    b = guard.apply(Upper([]), raw, 0, chunk_size=len(raw))
    assert a.text() == b.text() and a.raw_chars == b.raw_chars == len(raw)


def test_omission_markers_are_found_in_output_text():
    found = guard._has_omission_marker
    assert found("a\n... (3 lines omitted)\nb") and found("x\n+4 more files") and found("+1 more")
    assert found("line … [10 more bytes]")
    assert not found("+added line\n+1 foo = 2\n- removed") and not found("plain\ntext")


class Redactor(Filter):
    """Like env/printenv: its raw output must never reach the agent or the disk."""
    name = "redactor"
    redacts = True

    def feed(self, line):
        yield line.split("=", 1)[0] + "=***" if "=" in line else line


def test_redacting_filter_never_falls_back_to_raw(tmp_path):
    policy = TeePolicy(directory=str(tmp_path), mode="always")
    # never worse would pick the raw output (the masked line is longer); a redacting filter
    # keeps its own, and a failure gets no raw tail and no tee file
    outcome = guard.apply(Redactor([]), b"K=v\n", 5, tee_policy=policy)
    assert outcome.mode == "filtered"
    assert outcome.text() == "K=***\n"
    assert "failure-tail" not in outcome.reasons
    assert outcome.tee_path is None and list(tmp_path.iterdir()) == []


def test_redacting_filter_that_breaks_withholds_the_output():
    class Broken(Redactor):
        def feed(self, line):
            raise RuntimeError("boom")

    outcome = guard.apply(Broken([]), b"SECRET=hunter2\n", 0)
    assert "hunter2" not in outcome.text()
    assert "output withheld" in outcome.text()
    assert outcome.reasons == ["withheld:filter-error"]
    assert outcome.warning is None


def test_a_long_redacted_run_streams_only_masked_lines(tmp_path):
    written = []
    g = guard.OutputGuard(Redactor([]), tee_policy=TeePolicy(directory=str(tmp_path)))
    g.sink = lambda data: written.append(data) or True
    line = b"TOKEN=" + b"s" * 100 + b"\n"
    for _ in range(2 * guard.STREAM_AFTER // len(line)):
        g.feed(line)
    outcome = g.finish(1)
    shown = b"".join(written) + b"".join(outcome.chunks())
    assert g.streaming == "filtered" and written
    assert b"sss" not in shown and shown.startswith(b"TOKEN=***\n")
    assert "failure-tail" not in outcome.reasons and outcome.tee_path is None
