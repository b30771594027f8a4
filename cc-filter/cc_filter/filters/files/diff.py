"""diff: the differences exactly as diff printed them; only file timestamps dropped.

Every hunk header, changed line, context line, `Only in …`, `Binary files … differ`,
`\\ No newline at end of file` and error stays byte for byte: the diff is the answer. The one
thing that goes is the modification time diff appends to the `---`/`+++` (unified) and
`***`/`---` (context) file header lines (`--- old/app.ini\\t2026-01-01 10:00:00.000000000
+0000` → `--- old/app.ini`). Nothing is injected. Tested with GNU diffutils 3.8.
"""
from cc_filter.kit.filter import Filter


def _is_timestamp(text: str) -> bool:
    """`2026-01-01 10:00:00.000000000 +0000` or `Thu Jan  1 10:00:00 2026`."""
    digits = sum(c.isdigit() for c in text)
    return ":" in text and digits >= 6 and len(text) <= 40


class Diff(Filter):
    name = "diff"
    match_command = r"^diff(\s|$)"
    description = "diff: every difference kept; header timestamps dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.expect_header = True  # a file header comes first, and after each `diff …` line

    def feed(self, line: str):
        if line.startswith(("diff ", "Only in ", "Common subdirectories")):
            self.expect_header = True
            return (line,)
        if self.expect_header and line.startswith(("--- ", "+++ ", "*** ")) and "\t" in line:
            name, _, stamp = line.rpartition("\t")
            if _is_timestamp(stamp):
                if line.startswith("+++ "):
                    self.expect_header = False
                return (name,)
        if line.startswith(("@@ ", "***************")):
            self.expect_header = False
        return (line,)
