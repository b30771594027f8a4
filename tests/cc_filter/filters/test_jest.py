"""The jest filter (lines from real jest 30 runs on Node 20)."""
import shlex

import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.js.jest import Jest

JEST = """\
PASS test/apples.test.js
FAIL test/bugs.test.js
  ● basket bugs › total applies the bulk discount

    expect(received).toBe(expected) // Object.is equality

    Expected: 13.5
    Received: 15

      4 |   test('total applies the bulk discount', () => {
    > 6 |     expect(total(items)).toBe(13.5);
        |                          ^
      7 |   });

      at Object.toBe (test/bugs.test.js:6:26)
      at Promise.then.completed (node_modules/jest-circus/build/utils.js:298:28)

Test Suites: 1 failed, 1 passed, 2 total
Tests:       1 failed, 3 passed, 4 total
Snapshots:   0 total
Time:        2.938 s
Ran all test suites.
"""


def test_jest_failure_keeps_values_and_joins_location_with_the_failing_line():
    assert list(Jest(["jest"]).run(JEST.splitlines(), 1)) == [
        "FAIL test/bugs.test.js",
        "● basket bugs › total applies the bulk discount",
        "Expected: 13.5",
        "Received: 15",
        "test/bugs.test.js:6:26: expect(total(items)).toBe(13.5);",
        "Test Suites: 1 failed, 1 passed, 2 total",
        "Tests:       1 failed, 3 passed, 4 total",
        # PASS line, matcher signature, 3 code-frame lines, the jest-circus frame, Snapshots,
        # Time (a failed run: one marker)
        "... (8 listing and frame/diff lines omitted)",
    ]


def test_jest_passing_run_counts_each_kind_before_the_totals():
    text = ("PASS test/apples.test.js\n  apples\n    ✓ total (3 ms)\n    ✓ count\n"
            "PASS test/pears.test.js\n"
            "Test Suites: 2 passed, 2 total\nTests:       2 passed, 2 total\n"
            "Snapshots:   0 total\nTime:        1 s\nRan all test suites.\n")
    assert list(Jest(["jest", "--verbose"]).run(text.splitlines(), 0)) == [
        "... (2 passing suites omitted)",
        "... (1 describe heading omitted)",
        "... (2 passing tests omitted)",
        "Test Suites: 2 passed, 2 total",
        "Tests:       2 passed, 2 total",
        "Snapshots:   0 total",
        "Time:        1 s",
    ]


@pytest.mark.parametrize("command,name", [
    ("jest --ci", "jest"), ("npx jest", "jest"),
])
def test_commands_route_here(command, name):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False)
    assert entry is not None and entry.name == name
