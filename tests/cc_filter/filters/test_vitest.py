"""The vitest filter (lines from real vitest 3.2 runs on Node 20)."""
import shlex

import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.js.vitest import Vitest

VITEST = """\

 RUN  v3.2.7 /tmp/till

 ✓ test/tea.test.ts (3 tests) 5ms
 ❯ test/bugs.test.ts (1 test | 1 failed) 39ms
   × till bugs > format pads thousands 11ms
     → expected '1234.56' to be '1,234.56' // Object.is equality

⎯⎯⎯⎯⎯⎯⎯ Failed Tests 1 ⎯⎯⎯⎯⎯⎯⎯

 FAIL  test/bugs.test.ts > till bugs > format pads thousands
AssertionError: expected '1234.56' to be '1,234.56' // Object.is equality

Expected: "1,234.56"
Received: "1234.56"

 ❯ test/bugs.test.ts:10:28
      9|   test('format pads thousands', () => {
     10|     expect(format(123456)).toBe('1,234.56');
       |                            ^
     11|   });

⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯⎯[1/1]⎯


 Test Files  1 failed | 1 passed (2)
      Tests  1 failed | 3 passed (4)
   Start at  12:36:09
   Duration  6.87s (transform 345ms, setup 0ms)
"""


def test_vitest_failure_block_keeps_error_and_located_source_line():
    assert list(Vitest(["vitest", "run"]).run(VITEST.splitlines(), 1)) == [
        "FAIL test/bugs.test.ts > till bugs > format pads thousands",
        "AssertionError: expected '1234.56' to be '1,234.56'",
        "test/bugs.test.ts:10:28: expect(format(123456)).toBe('1,234.56');",
        "Test Files  1 failed | 1 passed (2)",
        "Tests  1 failed | 3 passed (4)",
        # RUN, ✓ file, ❯ file, × and → (the FAIL block names the test), 2 rulers, Expected and
        # Received (the error line states them), 3 code-frame lines, Start at, Duration
        "... (14 listing and frame/diff lines omitted)",
    ]


def test_vitest_passing_run_counts_each_kind():
    text = (" RUN  v3.2.7 /tmp/till\n ✓ test/tea.test.ts (3 tests) 5ms\n"
            " ✓ test/cake.test.ts (3 tests) 5ms\n Test Files  2 passed (2)\n"
            "      Tests  6 passed (6)\n   Start at  12:36:09\n   Duration  6.87s\n")
    assert list(Vitest(["vitest", "run"]).run(text.splitlines(), 0)) == [
        "Test Files  2 passed (2)", "Tests  6 passed (6)",
        "... (3 banner/timing lines omitted)", "... (2 passing files omitted)"]


def test_vitest_failing_test_lines_stay_when_no_detail_section_follows():
    text = (" ❯ test/bugs.test.ts (1 test | 1 failed) 39ms\n   × till bugs > pads 11ms\n"
            "     → boom\n")
    assert list(Vitest(["vitest", "run"]).run(text.splitlines(), 1)) == [
        "× till bugs > pads 11ms", "  → boom", "... (1 failing-file line omitted)"]


def test_vitest_json_reporter_passes_through():
    assert list(Vitest(["vitest", "run", "--reporter=json"]).run(["{}"], 0)) == ["{}"]


@pytest.mark.parametrize("command,name", [
    ("vitest run", "vitest"), ("npx vitest", "vitest"),
])
def test_commands_route_here(command, name):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False)
    assert entry is not None and entry.name == name
