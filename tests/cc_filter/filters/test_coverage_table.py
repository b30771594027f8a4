"""The coverage tables the test-runner filters cut (filters/_coverage.py): rows from the
captured jest --coverage, bun test --coverage and pytest --cov fixtures."""
from cc_filter.filters._coverage import THRESHOLD, CoverageTable, threshold_of

PYCOV = """\
Name               Stmts   Miss  Cover   Missing
------------------------------------------------
shop/cart.py           8      0   100%
shop/coupon.py         8      5    38%   6-10
shop/stock.py          8      1    88%   6
------------------------------------------------
TOTAL                 96     15    84%"""


BUN = """\
-----------------|---------|---------|-------------------
File             | % Funcs | % Lines | Uncovered Line #s
-----------------|---------|---------|-------------------
All files        |   91.67 |   81.25 |
 src/cart.js     |  100.00 |  100.00 | 
 src/coupon.js   |   66.67 |   25.00 | 5-7,9-10,12
 src/label.js    |  100.00 |   75.00 | 3
-----------------|---------|---------|-------------------"""


def _cut(table, text):
    out = []
    for line in text.splitlines():
        shown = table.feed(line.strip())
        assert shown is not None, line
        out += shown
    return out + table.finish()


def test_the_threshold_is_the_users_when_given():
    assert threshold_of(["pytest", "--cov=shop"]) == THRESHOLD
    assert threshold_of(["pytest", "--cov-fail-under=90"]) == 90.0
    assert threshold_of(["pytest", "--cov-fail-under", "95.5"]) == 95.5
    assert threshold_of(["pytest", "--cov-fail-under=lots"]) == THRESHOLD


def test_files_under_the_threshold_and_the_total_stay():
    assert _cut(CoverageTable(), PYCOV) == [
        "Name Stmts Miss Cover Missing", "shop/coupon.py 8 5 38% 6-10", "TOTAL 96 15 84%",
        "... (2 files at or above 80% coverage omitted)", "... (2 table rule lines omitted)"]
    # a stricter threshold keeps the 88% file too
    assert "shop/stock.py 8 1 88% 6" in _cut(CoverageTable(90), PYCOV)


def test_a_line_that_is_no_table_is_left_to_the_filter():
    table = CoverageTable()
    assert table.feed("Tests:       21 passed, 21 total") is None
    assert table.feed("| a | b |") is None  # a markdown row is no istanbul rule


def test_bun_has_two_percent_columns_and_a_file_passes_on_both():
    """bun's table has `% Funcs` and `% Lines` only: a file is covered when both reach the
    threshold (its empty `Uncovered` cell is no percentage)."""
    assert _cut(CoverageTable(), BUN) == [
        "File | % Funcs | % Lines | Uncovered Line #s", "All files | 91.67 | 81.25 |",
        "src/coupon.js | 66.67 | 25.00 | 5-7,9-10,12", "src/label.js | 100.00 | 75.00 | 3",
        "... (1 file at or above 80% coverage omitted)", "... (3 table rule lines omitted)"]
