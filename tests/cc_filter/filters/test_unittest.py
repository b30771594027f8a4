"""The unittest filter (lines from real `python -m unittest` runs, Python 3.11)."""
import shlex

import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.python.unittest import Unittest

RUN = """\
.E.F
======================================================================
ERROR: test_average (test_ledger_bugs.TestLedgerBugs.test_average)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ledger/test_ledger_bugs.py", line 19, in test_average
    self.assertEqual(ledger.balance() / len(ledger.entries), 0)
                     ~~~~~~~~~~~~~~~~~^~~~~~~~~~~~~~~~~~~~~
ZeroDivisionError: division by zero

======================================================================
FAIL: test_memo_list (test_ledger_bugs.TestLedgerBugs.test_memo_list)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/tmp/ledger/test_ledger_bugs.py", line 15, in test_memo_list
    self.assertEqual(ledger.memos(), ["rent", ""])
AssertionError: Lists differ: ['rent'] != ['rent', '']

Second list contains 1 additional elements.
First extra element 1:
''

- ['rent']
+ ['rent', '']
?        ++++


----------------------------------------------------------------------
Ran 4 tests in 0.004s

FAILED (failures=1, errors=1)
"""


def test_failures_keep_id_location_and_message():
    assert list(Unittest(["unittest"]).run(RUN.splitlines(), 1)) == [
        "ERROR: test_ledger_bugs.TestLedgerBugs.test_average",
        "test_ledger_bugs.py:19: self.assertEqual(ledger.balance() / len(ledger.entries), 0)",
        "ZeroDivisionError: division by zero",
        "FAIL: test_ledger_bugs.TestLedgerBugs.test_memo_list",
        "test_ledger_bugs.py:15",
        "AssertionError: Lists differ: ['rent'] != ['rent', '']",
        "- ['rent']",
        "+ ['rent', '']",
        "Ran 4 tests in 0.004s",
        "FAILED (failures=1, errors=1)",
        # `.E.F`, two `=` and three `-` rulers; two `Traceback …`, the caret line, the FAIL's
        # code line, the sequence prose (3 lines) and difflib's `?` line
        "... (14 progress/ruler/traceback lines omitted)",
    ]


def test_library_frames_go_counted():
    text = """\
======================================================================
ERROR: test_ledger_import (unittest.loader._FailedTest.test_ledger_import)
----------------------------------------------------------------------
Traceback (most recent call last):
  File "/usr/lib/python3.11/unittest/loader.py", line 162, in loadTestsFromName
    module = __import__(module_name)
             ^^^^^^^^^^^^^^^^^^^^^^^
  File "/tmp/ledger/test_ledger_import.py", line 1, in <module>
    from ledger import Journal
ImportError: cannot import name 'Journal' from 'ledger'
"""
    assert list(Unittest(["unittest"]).run(text.splitlines(), 1))[-3:] == [
        "ImportError: cannot import name 'Journal' from 'ledger'",
        "... (3 progress/ruler/traceback lines omitted)",
        "... (3 library frame lines omitted)",  # loader.py's `File` line, its code and carets
    ]


def test_verbose_ok_lines_go_and_skips_stay():
    text = ("test_a (m.T.test_a) ... ok\n"
            "test_b (m.T.test_b) ... skipped 'not yet'\n"
            "----------------------------------------------------------------------\n"
            "Ran 2 tests in 0.001s\n\nOK (skipped=1)\n")
    assert list(Unittest(["unittest", "-v"]).run(text.splitlines(), 0)) == [
        "test_b (m.T.test_b) ... skipped 'not yet'", "Ran 2 tests in 0.001s", "OK (skipped=1)",
        "... (1 passing test omitted)", "... (1 progress/ruler line omitted)"]


@pytest.mark.parametrize("command", ["python -m unittest", "python3 -m unittest -v",
                                     "python -m unittest discover -s tests"])
def test_commands_route_here(command):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False)
    assert entry is not None and entry.name == "unittest"
