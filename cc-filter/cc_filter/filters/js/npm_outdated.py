"""npm outdated: one `name current wanted latest` row per package, padding dropped.

npm exits 1 when something is outdated; the first line says how many packages and that exit
code, so the answer is not mistaken for a failure of npm itself.
The table's `Location` column goes when it is only `node_modules/<name>` for every row, and the
`Depended by` column becomes one closing line when every row has the same value. Every package
and version stays (a `MISSING` current version too). `--json` and `--parseable` output passes
through unchanged. Nothing is injected. Tested with npm 11.19.
"""
from cc_filter.kit.lines import TrimmedLineFilter

_PASSTHROUGH = ("--json", "--parseable", "-p")


def _cells(text: str) -> list[str]:
    """Columns of a text-table row: separated by two or more spaces."""
    cells, current, spaces = [], [], 0
    for char in text.strip():
        if char == " ":
            spaces += 1
            continue
        if spaces >= 2 and current:
            cells.append("".join(current).rstrip())
            current = []
        elif spaces:
            current.append(" " * spaces)
        spaces = 0
        current.append(char)
    if current:
        cells.append("".join(current))
    return cells


class NpmOutdated(TrimmedLineFilter):
    name = "npm-outdated"
    match_command = r"^npm (outdated)(\s|$)"
    description = "npm outdated: compact rows, redundant columns dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(w in _PASSTHROUGH for w in argv)
        self.header: list[str] | None = None
        self.rows: list[list[str]] = []
        self.other: list[str] = []

    def feed_trimmed(self, text: str, stripped: str):
        cells = _cells(text)
        if self.header is None and cells[:2] == ["Package", "Current"]:
            self.header = cells
            return ()
        if self.header is not None and len(cells) == len(self.header):
            self.rows.append(cells)
            return ()
        self.other.append(text)
        return ()

    def finish(self, exit_code: int):
        if self.passthrough or self.header is None:
            return self.other
        header, rows = self.header, self.rows
        keep = list(range(len(header)))
        footer = []
        if "Location" in header:
            i = header.index("Location")
            if all(row[i] == f"node_modules/{row[0]}" for row in rows):
                keep.remove(i)
        if "Depended by" in header and rows:
            i = header.index("Depended by")
            values = {row[i] for row in rows}
            if len(values) == 1:
                keep.remove(i)
                footer.append(f"(all depended on by {values.pop()})")
        n = len(rows)
        out = [f"{n} package{'' if n == 1 else 's'} outdated (npm outdated: exit code {exit_code})",
               " ".join(header[i] for i in keep)]
        out += [" ".join(row[i] for i in keep) for row in rows]
        return out + self.other + footer
