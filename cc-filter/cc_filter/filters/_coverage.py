"""Coverage tables read by the test-runner filters (not a filter itself): istanbul's text
table (`jest --coverage`, `vitest --coverage`, `nyc`, `c8`), bun's (`bun test --coverage`:
the same layout with `% Funcs` and `% Lines` only) and coverage.py's term report (`pytest
--cov`, pytest-cov). A row's percentages are its cells under a `% …` header. What an agent needs of one is the files under the threshold and
the totals: those rows stay (padding removed), the header too; the rows of files at or above
the threshold (`--cov-fail-under=N` when given, else `THRESHOLD` %) and the table's rule
lines go, counted in a marker under the table (`... (9 files at or above 80% coverage
omitted)`).

`CoverageTable.feed(line)` returns the lines to show for a line of a table, or None when the
line is not one (the filter handles it as before). Imports nothing heavy.
"""
from cc_filter.kit.lines import omitted

THRESHOLD = 80.0


def threshold_of(argv: list[str]) -> float:
    """`--cov-fail-under=90` / `--cov-fail-under 90` → 90.0; else THRESHOLD."""
    for i, arg in enumerate(argv):
        value = None
        if arg.startswith("--cov-fail-under="):
            value = arg.split("=", 1)[1]
        elif arg == "--cov-fail-under" and i + 1 < len(argv):
            value = argv[i + 1]
        if value is not None:
            try:
                return float(value)
            except ValueError:
                pass
    return THRESHOLD


def _number(text: str) -> float | None:
    try:
        return float(text.rstrip("%"))
    except ValueError:
        return None


def _istanbul_rule(stripped: str) -> bool:
    return stripped.count("|") >= 3 and set(stripped) <= {"-", "|"}


class CoverageTable:
    def __init__(self, threshold: float = THRESHOLD):
        self.threshold = threshold
        self.kind: str | None = None  # "istanbul" / "coverage.py" while inside a table
        self.covered = 0
        self.rules = 0
        self.rows = 0
        self.columns = range(1, 5)  # the cells holding percentages (istanbul's four)

    def feed(self, stripped: str) -> list[str] | None:
        if self.kind is None:
            if _istanbul_rule(stripped):
                self.kind = "istanbul"
                self.rules += 1
                return []
            words = stripped.split()
            if words[:2] == ["Name", "Stmts"] and "Cover" in words:
                self.kind = "coverage.py"
                return [" ".join(words)]
            return None
        if self.kind == "istanbul":
            return self._istanbul(stripped)
        return self._coverage_py(stripped)

    def _istanbul(self, stripped: str) -> list[str]:
        if _istanbul_rule(stripped):
            self.rules += 1
            return self._end() if self.rows else []
        if "|" not in stripped:
            return self._end() + [stripped]  # a table cut short
        cells = [cell.strip() for cell in stripped.split("|")]
        if cells[0] == "File":
            self.columns = [i for i, cell in enumerate(cells) if cell.startswith("%")]
            return [" | ".join(cells).rstrip()]
        self.rows += 1
        numbers = [_number(cells[i]) for i in self.columns if i < len(cells)]
        if cells[0] != "All files" and numbers and all(
                n is not None and n >= self.threshold for n in numbers):
            self.covered += 1
            return []
        return [" | ".join(cells).rstrip()]

    def _coverage_py(self, stripped: str) -> list[str]:
        if stripped and set(stripped) == {"-"}:
            self.rules += 1
            return []
        words = stripped.split()
        if not words:
            return self._end()
        if words[0] == "TOTAL":
            return [" ".join(words)] + self._end()
        cover = next((_number(w) for w in words[1:] if w.endswith("%")), None)
        if cover is None:
            return self._end() + [stripped]  # not a row: the table is over
        self.rows += 1
        if cover >= self.threshold:
            self.covered += 1
            return []
        return [" ".join(words)]

    def _end(self) -> list[str]:
        out = []
        if self.covered:
            out.append(omitted(self.covered,
                               f"files at or above {self.threshold:g}% coverage"))
        if self.rules:
            out.append(omitted(self.rules, "table rule lines"))
        self.kind = None
        self.covered = self.rules = self.rows = 0
        self.columns = range(1, 5)
        return out

    def finish(self) -> list[str]:
        return self._end() if self.kind is not None else []
