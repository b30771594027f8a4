"""The tsc filter (lines from real TypeScript 7 / 5.9 runs)."""
import shlex

import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.js.tsc import Tsc


def test_tsc_pretty_becomes_one_line_per_diagnostic():
    text = """\
src/pricing.ts:3:41 - error TS2322: Type 'string' is not assignable to type 'number'.

3 export const sample: Line = { sku: 'x', qty: '1', cents: 100 };
                                          ~~~

  src/till.ts:3:3
    3   qty: number;
        ~~~
    The expected type comes from property 'qty' which is declared here on type 'Line'


Found 1 error in src/pricing.ts:3
"""
    assert list(Tsc(["tsc", "--pretty"]).run(text.splitlines(), 2)) == [
        "src/pricing.ts:3:41 - error TS2322: Type 'string' is not assignable to type 'number'.",
        "  src/till.ts:3:3: The expected type comes from property 'qty' which is declared here on "
        "type 'Line'",
        "... (4 source excerpt lines omitted)",
        "Found 1 error in src/pricing.ts:3",
    ]



def test_tsc_pretty_file_table_counts_the_rows_it_cuts():
    rows = [f"     1  src/f{i}.ts:1" for i in range(12)]
    text = "\n".join(["Found 12 errors in 12 files.", "", "Errors  Files"] + rows)
    out = list(Tsc(["tsc", "--pretty"]).run(text.splitlines(), 2))
    assert out[-1] == "+2 more files" and len(out) == 2 + 10 + 1


@pytest.mark.parametrize("command,name", [
    ("tsc --noEmit", "tsc"), ("npx tsc -p .", "tsc"),
])
def test_commands_route_here(command, name):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False)
    assert entry is not None and entry.name == name
