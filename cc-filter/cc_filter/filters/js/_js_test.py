"""What the JavaScript test-runner filters (jest, vitest, mocha) share (not a filter itself).

- `JsTestReport`: a `TrimmedLineFilter` whose failure blocks are capped at `BLOCK_LIMIT` lines
  each (`block_line(line)`; a subclass sets `self.block_lines = 0` where a block starts). Every
  line a filter leaves out is counted by kind (`self.count("passing tests")`); `counted()`
  yields one `... (N <kind> omitted)` marker per kind (in first-counted order) and starts
  again, so a filter calls it where the counts read best (before the totals) and at the end
  (`dropped_note()`, which also names the block lines past the cap). A run with failures gets
  one marker for all of them instead (`counted(failed=True)`: `... (40 listing and
  frame/diff lines omitted)`): its report already costs most of the answer, and the runner
  keeps every failed run's raw output anyway.
- `reporters(argv, flags)`: the values of the reporter options the user gave, to pass machine
  reporters (json, junit, tap …) through.

Imports nothing heavy (no `re`): it runs on the `cc-filter run` path.
"""
from cc_filter.kit.lines import TrimmedLineFilter, omitted

BLOCK_LIMIT = 60


def reporters(argv: list[str], flags: tuple[str, ...] = ("--reporter",)) -> list[str]:
    """The values of `--reporter=X` and of `<flag> X` for each of `flags`."""
    values = []
    for i, arg in enumerate(argv):
        if arg.startswith("--reporter="):
            values.append(arg.split("=", 1)[1])
        elif arg in flags and i + 1 < len(argv):
            values.append(argv[i + 1])
    return values


class JsTestReport(TrimmedLineFilter):
    """Base of jest / vitest / mocha: failure blocks capped, every dropped line counted by
    kind (see above)."""

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.block_lines = 0
        self.counts: dict[str, int] = {}

    def count(self, kind: str, n: int = 1) -> None:
        """`n` lines of `kind` left out (shown by the next `counted()`)."""
        self.counts[kind] = self.counts.get(kind, 0) + n

    #: kinds counted inside a failure's report, by the name the one marker of a failed run
    #: gives them (every other kind: "listing")
    REPORT_KINDS = {"code-frame lines": "frame/diff", "stack frames": "frame/diff",
                    "matcher signature lines": "frame/diff",
                    "diff lines the error line states": "frame/diff",
                    f"failure-report lines past the {BLOCK_LIMIT}-line cap": "frame/diff",
                    "diff bracket lines": "bracket"}

    def counted(self, failed: bool = False):
        """One `... (N <kind> omitted)` marker per kind counted since the last call; with
        `failed`, one marker for all (`listing and frame/diff lines`)."""
        counts, self.counts = self.counts, {}
        counts = {kind: n for kind, n in counts.items() if n}
        if failed and len(counts) > 1:
            labels: dict[str, None] = {}
            for kind in counts:
                labels[self.REPORT_KINDS.get(kind, "listing")] = None
            names = [n for n in ("listing", "frame/diff", "bracket") if n in labels]
            label = names[0] if len(names) == 1 else \
                f"{', '.join(names[:-1])} and {names[-1]}"
            yield omitted(sum(counts.values()), f"{label} lines")
            return
        for kind, n in counts.items():
            yield omitted(n, kind)

    def block_line(self, line: str):
        """Yield `line` while the current block has fewer than `BLOCK_LIMIT` lines, else count
        it as dropped."""
        if self.block_lines < BLOCK_LIMIT:
            self.block_lines += 1
            yield line
        else:
            self.count(f"failure-report lines past the {BLOCK_LIMIT}-line cap")

    def dropped_note(self, failed: bool = False):
        yield from self.counted(failed)
