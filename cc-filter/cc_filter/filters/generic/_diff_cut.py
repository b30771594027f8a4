"""The fallback's cut of a long unified diff (`buf format -d`, `diff -ru`, any tool that prints
one): every file keeps its header lines (`diff …`, `--- a`, `+++ b`, `index …`; the time a
`---`/`+++` line ends with goes, as the diff filter drops it) and a fair
share of the budget for its hunks, so no file disappears from the middle; each file's cut is
counted under it (`... (26 diff lines of 1 hunk of proto/a.proto omitted)`). Not a filter.

`looks_like_diff(lines)` tells, from the first lines, whether the output is one. Memory: at
most `FILE_KEEP` hunk lines are held per file (the rest only counted).
"""
from cc_filter.filters.files.diff import _is_timestamp
from cc_filter.kit.lines import omitted

BUDGET = 80  # hunk lines shown in all, shared fairly among the files
MIN_SHARE = 6  # however many files: each shows this many hunk lines at least
FILE_KEEP = 400
_HEADER = ("diff ", "--- ", "+++ ", "index ", "Only in ", "Binary files ", "new file mode",
           "deleted file mode", "old mode", "new mode", "similarity index", "rename from",
           "rename to", "copy from", "copy to")


def looks_like_diff(lines: list[str]) -> bool:
    """At least one `---`/`+++` file header followed by a `@@` hunk, and nearly every line
    shaped like a diff's."""
    pairs = sum(1 for a, b in zip(lines, lines[1:]) if a.startswith("--- ") and b.startswith("+++ "))
    hunks = sum(1 for line in lines if line.startswith("@@ "))
    if not pairs or not hunks:
        return False
    shaped = sum(1 for line in lines if not line or line[0] in " +-@\\" or line.startswith(_HEADER))
    return shaped >= 0.9 * len(lines)


class _File:
    __slots__ = ("header", "hunks", "held", "extra", "name")

    def __init__(self):
        self.header: list[str] = []
        self.hunks: list[list[str]] = []
        self.held = 0
        self.extra = 0  # hunk lines past FILE_KEEP: only counted
        self.name = ""


class DiffCut:
    """`push(line)` holds; `finish()` gives the cut diff."""

    def __init__(self, budget: int = BUDGET):
        self.budget = budget
        self.preamble: list[str] = []
        self.files: list[_File] = []

    def _new_file(self) -> _File:
        f = _File()
        self.files.append(f)
        return f

    def push(self, line: str) -> None:
        current = self.files[-1] if self.files else None
        if line.startswith("diff ") or (line.startswith("--- ") and (
                current is None or current.hunks or not current.header
                or current.header[-1].startswith("+++ "))):
            current = self._new_file()
        if current is None:
            self.preamble.append(line)
            return
        if line.startswith("@@ "):
            current.hunks.append([line])
            current.held += 1
            return
        if not current.hunks:
            if line.startswith(("--- ", "+++ ")) and "\t" in line:
                name, _, stamp = line.rpartition("\t")
                if _is_timestamp(stamp):
                    line = name  # the file's time says nothing about the change
            current.header.append(line)
            if line.startswith("+++ "):
                current.name = line[4:]
            return
        if current.held < FILE_KEEP:
            current.hunks[-1].append(line)
            current.held += 1
        else:
            current.extra += 1

    def finish(self) -> list[str]:
        out = list(self.preamble)
        share = max(MIN_SHARE, self.budget // max(1, len(self.files)))
        for f in self.files:
            out.extend(f.header)
            left = share
            cut = f.extra
            cut_hunks = 0
            for hunk in f.hunks:
                if left <= 0:
                    cut += len(hunk)
                    cut_hunks += 1
                    continue
                shown = hunk[:left]
                out.extend(shown)
                left -= len(shown)
                if len(shown) < len(hunk):
                    cut += len(hunk) - len(shown)
                    cut_hunks += 1
            if cut:
                hunks = f"{cut_hunks} hunk" + ("s" if cut_hunks != 1 else "")
                out.append(omitted(cut, f"diff lines of {hunks} of {f.name or 'this file'}"))
        self.preamble, self.files = [], []
        return out
