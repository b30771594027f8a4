"""The go-test filter (lines from go1.19 runs)."""
import pytest

from cc_filter.filters import _paths
from cc_filter.filters.go.go_test import GoTest

VERBOSE = """\
=== RUN   TestRound
=== RUN   TestRound/zero
=== RUN   TestRound/huge
    price_bugs_test.go:24: Clamp(1048576) = 50, want 100
--- FAIL: TestRound (0.00s)
    --- PASS: TestRound/zero (0.00s)
    --- FAIL: TestRound/huge (0.00s)
=== RUN   TestScale1
    scale_test.go:5: chatty log of a passing test
--- PASS: TestScale1 (0.00s)
FAIL
FAIL	example.com/inventory/price	0.003s
ok  	example.com/inventory/stock	(cached)
?   	example.com/inventory/cmd/inventory	[no test files]
FAIL
"""

PANIC = """\
--- FAIL: TestLookup (0.00s)
    order_bugs_test.go:8: looking up the first item
panic: runtime error: index out of range [3] with length 0 [recovered]
	panic: runtime error: index out of range [3] with length 0

goroutine 18 [running]:
testing.tRunner.func1.2({0x518e00, 0xc0000d2000})
	/usr/lib/go-1.19/src/testing/testing.go:1396 +0x24e
panic({0x518e00, 0xc0000d2000})
	/usr/lib/go-1.19/src/runtime/panic.go:884 +0x212
example.com/inventory/order.TestLookup(0xc000098680)
	/tmp/go/inventory/order/order_bugs_test.go:9 +0x9a
created by testing.(*T).Run
	/usr/lib/go-1.19/src/testing/testing.go:1493 +0x35f
FAIL	example.com/inventory/order	0.008s
"""


def test_verbose_keeps_failing_tests_with_their_logs_and_counts_the_rest():
    assert list(GoTest(["go", "test", "-v", "./..."]).run(VERBOSE.splitlines(), 1)) == [
        "--- FAIL: TestRound (0.00s)",
        "    --- FAIL: TestRound/huge (0.00s)",
        "    price_bugs_test.go:24: Clamp(1048576) = 50, want 100",
        "FAIL\texample.com/inventory/price\t0.003s",
        "ok  \texample.com/inventory/stock\t(cached)",  # at most 3 packages: their ok lines
        # every dropped line counted (the RUN lines of the failing tests are restated by their
        # --- FAIL lines, the bare FAILs by the FAIL pkg line)
        "... (2 === RUN lines omitted)",
        "... (2 passing tests omitted)",
        "... (1 log line of passing tests omitted)",
        "... (1 no test files line omitted)",
    ]


@pytest.fixture
def in_inventory():
    """The run happened in /tmp/go/inventory (PANIC's frames are under it)."""
    previous = _paths.pretend_working_directory("/tmp/go/inventory")
    yield
    _paths.pretend_working_directory(previous)


def test_panic_keeps_message_and_project_frames_only(in_inventory):
    assert list(GoTest(["go", "test", "./..."]).run(PANIC.splitlines(), 1)) == [
        "--- FAIL: TestLookup (0.00s)",
        "    order_bugs_test.go:8: looking up the first item",
        "panic: runtime error: index out of range [3] with length 0 [recovered]",
        # the path the agent can open, relative to the run: not the file's base name
        "  example.com/inventory/order.TestLookup (order/order_bugs_test.go:9)",
        "FAIL\texample.com/inventory/order\t0.008s",
        # the goroutine header, three standard library frames (two lines each), the repeat
        "... (8 runtime stack lines omitted)",
    ]


def test_a_method_frame_keeps_its_receiver_and_name(in_inventory):
    text = PANIC.replace("example.com/inventory/order.TestLookup(0xc000098680)",
                         "example.com/inventory/order.(*Store).Get(0xc000098680, 0x3)")
    out = list(GoTest(["go", "test", "./..."]).run(text.splitlines(), 1))
    assert "  example.com/inventory/order.(*Store).Get (order/order_bugs_test.go:9)" in out


def test_json_events_get_the_text_rules():
    """-json: each event's Output goes through the text rules; non-JSON lines too."""
    import json

    events = [{"Action": "run", "Test": "TestA"},
              {"Action": "output", "Test": "TestA", "Output": "=== RUN   TestA\n"},
              {"Action": "output", "Test": "TestA", "Output": "    a_test.go:9: got 1, want 2\n"},
              {"Action": "output", "Test": "TestA", "Output": "--- FAIL: TestA (0.00s)\n"},
              {"Action": "fail", "Test": "TestA"},
              {"Action": "output", "Output": "FAIL\tex.com/m\t0.01s\n"}]
    raw = [json.dumps(e) for e in events] + ["# ex.com/other", "other.go:3:1: syntax error"]
    assert list(GoTest(["go", "test", "-json", "./..."]).run(raw, 1)) == [
        "--- FAIL: TestA (0.00s)", "    a_test.go:9: got 1, want 2", "FAIL\tex.com/m\t0.01s",
        "# ex.com/other", "other.go:3:1: syntax error",
        "... (2 JSON events without output omitted)"]  # run, fail


def test_a_long_log_keeps_its_failure_lines_and_counts_the_rest():
    """-v prints the log before the result: a cap at the top once lost the failure line."""
    raw = ["=== RUN   TestAdd"] + [f"    calc_test.go:{i}: step {i} ok" for i in range(100, 600)]
    raw += ["    calc_test.go:10: Add(2, 3) = -1, want 5", "--- FAIL: TestAdd (0.00s)",
            "FAIL", "FAIL\tex.com/calc\t0.01s"]
    out = list(GoTest(["go", "test", "-v", "."]).run(raw, 1))
    assert out[0] == "--- FAIL: TestAdd (0.00s)"
    assert "    calc_test.go:10: Add(2, 3) = -1, want 5" in out
    marker = [l for l in out if "log lines of TestAdd omitted" in l]
    assert marker == ["    ... (480 log lines of TestAdd omitted)"]
    assert len(out) < 30


def test_plain_mode_caps_a_repeated_call_site():
    raw = ["--- FAIL: TestNew (0.01s)"] + ["    uuid_test.go:45: bad version 0"] * 1000
    raw += ["FAIL", "FAIL\tex.com/uuid\t0.01s"]
    out = list(GoTest(["go", "test", "."]).run(raw, 1))
    assert out.count("    uuid_test.go:45: bad version 0") == 3 + 1  # the first ones, the last one
    assert "    ... (996 log lines of TestNew omitted)" in out
