"""The go-test filter (lines from go1.19 runs)."""
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
        "ok: 1 package (1 cached); no test files: 1",
    ]


def test_panic_keeps_message_and_project_frames_only():
    assert list(GoTest(["go", "test", "./..."]).run(PANIC.splitlines(), 1)) == [
        "--- FAIL: TestLookup (0.00s)",
        "    order_bugs_test.go:8: looking up the first item",
        "panic: runtime error: index out of range [3] with length 0 [recovered]",
        "  example.com/inventory/order.TestLookup (order_bugs_test.go:9)",
        "FAIL\texample.com/inventory/order\t0.008s",
    ]


def test_json_passes_through():
    line = '{"Action":"run","Test":"TestA"}'
    assert list(GoTest(["go", "test", "-json"]).run([line], 0)) == [line]
