"""The pytest filter: failures kept with their assertion text, noise gone (lines from real runs)."""
import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.python.pytest import Pytest

FAILURE_RUN = """\
============================= test session starts ==============================
platform linux -- Python 3.11.7, pytest-9.2.0, pluggy-1.7.0
rootdir: /tmp/proj
collected 3 items

tests/test_cart.py .F.                                                   [100%]

=================================== FAILURES ===================================
___________________________ test_total_with_discount ___________________________

    def test_total_with_discount():
        cart = Cart()
>       assert cart.total() == 3.0
E       assert 3.3 == 3.0
E        +  where 3.3 = total()
E        +    where total = <shop.cart.Cart object at 0x7f0b5b1452d0>.total

tests/test_cart.py:10: AssertionError
=============================== warnings summary ===============================
tests/test_cart.py::test_old
  /tmp/proj/tests/test_cart.py:44: DeprecationWarning: use count()
    warnings.warn("use count()", DeprecationWarning)

-- Docs: https://docs.pytest.org/en/stable/how-to/capture-warnings.html
=========================== short test summary info ============================
FAILED tests/test_cart.py::test_total_with_discount - assert 3.3 == 3.0
=================== 1 failed, 2 passed, 1 warning in 0.13s ====================
"""


def run(argv, text, exit_code=1):
    return list(Pytest(argv).run(text.splitlines(), exit_code))


def test_failure_block_is_named_by_the_summary_and_keeps_location_code_and_assertion():
    assert run(["pytest"], FAILURE_RUN) == [
        "FAILED tests/test_cart.py::test_total_with_discount",
        "tests/test_cart.py:10: assert cart.total() == 3.0",
        "E assert 3.3 == 3.0",
        "E  +  where 3.3 = total()",
        "warnings:",
        "tests/test_cart.py::test_old",
        "  tests/test_cart.py:44: DeprecationWarning: use count()",
        "1 failed, 2 passed, 1 warning in 0.13s",
        # session header, collected, the dots line and 3 section banners; the warning's
        # source line and its docs link
        "... (8 header/progress lines omitted)",
        "... (2 warning source lines omitted)",
        "... (3 traceback lines omitted)",  # 2 source context lines, the `where … object` repr
    ]


def test_short_tracebacks_become_path_line_code():
    text = """\
=================================== FAILURES ===================================
_____________________________ test_remove_missing ______________________________
tests/test_cart.py:23: in test_remove_missing
    cart.remove("ghost")
/usr/lib/python3.11/site-packages/x.py:5: in helper
    call()
shop/cart.py:12: in remove
    del self.items[sku]
        ^^^^^^^^^^^^^^^
E   KeyError: 'ghost'
----------------------------- Captured stdout call -----------------------------
removing an unknown sku
=========================== short test summary info ============================
FAILED tests/test_cart.py::test_remove_missing - KeyError: 'ghost'
1 failed in 0.01s
"""
    assert run(["pytest", "--tb=short", "-q"], text) == [
        "FAILED tests/test_cart.py::test_remove_missing",
        'tests/test_cart.py:23: cart.remove("ghost")',
        "shop/cart.py:12: del self.items[sku]",
        "E KeyError: 'ghost'",
        "Captured stdout call:",
        "  removing an unknown sku",
        "1 failed in 0.01s",
        "... (2 header/progress lines omitted)",  # the FAILURES and summary banners
        "... (1 traceback line omitted)",  # the caret line
        "... (2 library frame lines omitted)",  # site-packages/x.py's location and code
    ]


@pytest.mark.parametrize("line,marker", [
    ("tests/test_cart.py::test_add_1 PASSED                           [  3%]",
     "... (1 passing test omitted)"),
    ("tests/test_cart.py ............                                 [ 31%]",
     "... (1 header/progress line omitted)"),
    ("FFFFFF.                                                         [100%]",
     "... (1 header/progress line omitted)"),
    ("[gw0] [ 50%] PASSED tests/test_cart.py::test_add_1", "... (1 passing test omitted)"),
])
def test_progress_and_passed_lines_go_counted(line, marker):
    assert run(["pytest", "-v"], line + "\n2 passed in 0.01s\n", 0) == ["2 passed in 0.01s", marker]


def test_passed_lines_of_the_short_summary_are_counted_unless_asked_for():
    text = ("=========================== short test summary info ============================\n"
            "PASSED tests/t.py::test_a\nPASSED tests/t.py::test_b\n1 passed in 0.01s\n")
    assert run(["pytest"], text, 0) == [
        "1 passed in 0.01s", "... (2 passing tests omitted)", "... (1 header/progress line omitted)"]
    assert run(["pytest", "-rA"], text, 0) == [
        "PASSED (2):", "  tests/t.py: test_a test_b", "1 passed in 0.01s",
        "... (1 header/progress line omitted)"]


def test_a_failure_like_the_one_above_counts_its_raw_lines():
    block = """\
    def test_round(qty):
>       assert round_total(qty) == 1.5
E       assert 1.05 == 1.5

tests/t.py:13: AssertionError
"""
    text = ("=================================== FAILURES ===================================\n"
            "_______ test_round[a] _______\n" + block + "_______ test_round[b] _______\n" + block
            + "=========================== short test summary info ============================\n"
            "FAILED tests/t.py::test_round[a] - assert 1.05 == 1.5\n"
            "FAILED tests/t.py::test_round[b] - assert 1.05 == 1.5\n2 failed in 0.01s\n")
    assert run(["pytest", "-q"], text) == [
        "FAILED tests/t.py::test_round[a]",
        "tests/t.py:13: assert round_total(qty) == 1.5",
        "E assert 1.05 == 1.5",
        "FAILED tests/t.py::test_round[b]",
        "  ... (3 lines of the same failure as above omitted)",  # `>`, `E` and location lines
        "2 failed in 0.01s",
        "... (2 header/progress lines omitted)",
        "... (2 traceback lines omitted)",  # each `def` line
    ]


def test_skipped_and_xfail_lines_of_verbose_output_stay_with_their_reason():
    text = ("tests/t.py::test_coupon SKIPPED (coupons are not imple...) [  5%]\n"
            "tests/t.py::test_drift XFAIL (floating point tot...)       [ 16%]\n"
            "1 passed, 1 skipped, 1 xfailed in 0.07s\n")
    assert run(["pytest", "-v"], text, 0) == [
        "SKIPPED tests/t.py::test_coupon (coupons are not imple...)",
        "XFAIL tests/t.py::test_drift (floating point tot...)",
        "1 passed, 1 skipped, 1 xfailed in 0.07s",
    ]


def test_a_failed_verbose_line_without_summary_entry_is_kept():
    text = "tests/t.py::test_x FAILED                              [100%]\n1 failed in 0.01s\n"
    assert run(["pytest", "-v", "-rN", "--tb=no"], text) == [
        "1 failed in 0.01s", "FAILED tests/t.py::test_x"]


@pytest.mark.parametrize("flag", ["--collect-only", "--co", "--fixtures", "--version"])
def test_listings_pass_through(flag):
    text = "<Module tests/test_cart.py>\n  <Function test_add>\n"
    assert run(["pytest", flag], text, 0) == text.splitlines()


@pytest.mark.parametrize("command", ["pytest", "pytest -q tests", "python -m pytest -x",
                                     "py.test", "uv run pytest -k cart"])
def test_commands_route_here(command):
    import shlex

    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False)
    assert entry is not None and entry.name == "pytest"


@pytest.mark.parametrize("argv,tb,verbosity,passes", [
    (["pytest"], "auto", 0, False),
    (["pytest", "--tb=line", "-q"], "line", 0, False),
    (["pytest", "--tb", "short", "-vv"], "short", 2, False),
    (["pytest", "-v", "--verbose"], "auto", 2, False),
    (["pytest", "-rA"], "auto", 0, True),
    (["pytest", "-r", "fEp"], "auto", 0, True),
    (["pytest", "-rfE"], "auto", 0, False),
])
def test_pytest_reads_the_modes_it_honours(argv, tb, verbosity, passes):
    from cc_filter.filters.python import pytest as pytest_filter

    assert pytest_filter._tb_style(argv) == tb
    assert pytest_filter._verbosity(argv) == verbosity
    assert pytest_filter._reports_passes(argv) is passes
