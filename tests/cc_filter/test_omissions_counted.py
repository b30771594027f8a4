"""Every omission is counted (issue 14, principle 2): for the filters listed in `ACCOUNTED`,
every raw fixture line that does not reach the answer on a successful run must be accounted for
by the counts in the `... (N <kind> omitted)` markers, and a run that dropped anything must end
with the tee hint (`[full output: …]`) so the raw output can be recovered.

A line "reaches the answer" when its text (ANSI and redraws resolved, stripped) appears in the
output, or when the filter states it in its own words (`CONDENSED`: the prefixes a filter
rewrites, e.g. `Found existing installation: x` becomes part of `replaced: x, …`). Blank lines
carry nothing and are not counted. The test fails when a filter drops a line without counting
it, and when the counts claim more lines than vanished.
"""
import os
import re

import pytest

from cc_filter import cases, catalogue
from cc_filter.filters.python.pip_install import _clean

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "tests", "fixtures")

#: filter → raw-line prefixes the filter restates in other words instead of dropping
ACCOUNTED = {
    "pip-install": ("Found existing installation: ", "Requirement already satisfied: ",
                    "Successfully installed "),
    "cargo-nextest": (),
    "golangci-lint": (),
}
_MARKER = re.compile(r"^\.\.\. \((\d+) [^()]+ omitted\)$")
CASES = [c for c in cases.discover(FIXTURES) if c.filter_name in ACCOUNTED]


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(REPO)
    catalogue.reset()


def _restated(filter_name: str, text: str) -> bool:
    if filter_name == "pip-install" and text.startswith("Requirement already satisfied: ") \
            and " (from " in text:
        return False  # a dependency's line: dropped, must be counted
    return text.startswith(ACCOUNTED[filter_name])


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_dropped_lines_are_counted(case, tmp_path):
    result = cases.run_fixture_case(case, tee_dir=str(tmp_path / "tee"))
    assert not result.failures, "\n".join(result.failures)
    if case.data["exit_code"] != 0:
        pytest.skip("failed run: the raw tail and tee file cover it (guard rules)")
    with open(case.out_path, "rb") as f:
        raw = f.read().decode("utf-8", "replace")
    out_lines = result.output.splitlines()
    shown = {line.strip() for line in out_lines}
    counted = sum(int(m.group(1)) for m in map(_MARKER.match, out_lines) if m)
    vanished = []
    for line in raw.split("\n"):
        text = _clean(line.split("\r")[-1] if "\r" in line else line).strip()
        if text and text not in shown and not _restated(case.filter_name, text):
            vanished.append(text)
    assert counted == len(vanished), (
        f"{case.id}: {len(vanished)} raw lines vanished, markers count {counted}; "
        f"first vanished: {vanished[:3]}")
    if vanished:
        assert "[full output: " in result.output, f"{case.id}: dropped lines but no tee hint"
