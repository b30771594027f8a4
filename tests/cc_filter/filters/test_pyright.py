"""The pyright filter (lines from real pyright 1.1.414 runs; continuation lines carry NBSPs)."""
from cc_filter.filters.python.pyright import Pyright

RUN = (
    "/tmp/typed/inventory/report.py\n"
    "  /tmp/typed/inventory/report.py:14:20 - error: Argument of type \"Item | None\" cannot be assigned\n"
    "  \u00a0 \u00a0 Type \"Item | None\" is not assignable to type \"Item\" (reportArgumentType)\n"
    "1 error, 0 warnings, 0 informations \n"
)


def test_paths_are_relative_to_the_root_found_from_the_argument():
    assert list(Pyright(["pyright", "inventory"]).run(RUN.splitlines(), 1)) == [
        'inventory/report.py:14:20 - error: Argument of type "Item | None" cannot be assigned',
        '  Type "Item | None" is not assignable to type "Item" (reportArgumentType)',
        "1 error, 0 warnings, 0 informations",
    ]


def test_verbose_setup_lines_go_counted():
    text = ("No configuration file found.\nAssuming Python version 3.11.7.final.0\n"
            "Search paths:\n    /usr/lib/python3.11\nFound 3 source files\n"
            "Heap stats: total_memory_size=24106MB\n0 errors, 0 warnings, 0 informations \n")
    assert list(Pyright(["pyright", "--verbose"]).run(text.splitlines(), 0)) == [
        "0 errors, 0 warnings, 0 informations", "... (6 setup lines omitted)"]


def test_outputjson_passes_through():
    assert list(Pyright(["pyright", "--outputjson"]).run(['{"version": "1"}'], 0)) == [
        '{"version": "1"}']
