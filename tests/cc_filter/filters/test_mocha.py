"""The mocha filter (lines from a real mocha 12 run on Node 20)."""
import shlex

import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.js.mocha import Mocha

MOCHA = """\
  apples
    ✔ totals one apples
  basket bugs
    1) applies the bulk discount

  1 passing (47ms)
  1 failing

  1) basket bugs
       applies the bulk discount:

      AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:

15 !== 13.5

      + expected - actual

      -15
      +13.5
\x20\x20\x20\x20\x20\x20\x20
      at Context.<anonymous> (spec/bugs.spec.js:6:12)
      at process.processImmediate (node:internal/timers:483:21)
"""


def test_mocha_failure_joined_header_assertion_and_project_frame():
    assert list(Mocha(["mocha"]).run(MOCHA.splitlines(), 1)) == [
        "1 passing (47ms)",
        "1 failing",
        "1) basket bugs › applies the bulk discount:",
        "AssertionError [ERR_ASSERTION]: Expected values to be strictly equal:",
        "15 !== 13.5",
        "at spec/bugs.spec.js:6:12",
        "... (8 listing and frame/diff lines omitted)",
    ]


def test_mocha_passing_run_counts_tests_and_headings_before_the_total():
    text = "\n  apples\n    ✔ totals one\n    ✔ counts three\n\n  2 passing (5ms)\n"
    assert list(Mocha(["mocha"]).run(text.splitlines(), 0)) == [
        "... (1 describe heading omitted)", "... (2 passing tests omitted)", "2 passing (5ms)"]


@pytest.mark.parametrize("command,name", [
    ("mocha", "mocha"), ("npx mocha spec", "mocha"),
])
def test_commands_route_here(command, name):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False)
    assert entry is not None and entry.name == name
