"""What the JavaScript test-runner filters (jest, vitest, mocha) share (not a filter itself).

- `JsTestReport`: a `TrimmedLineFilter` whose failure blocks are capped at `BLOCK_LIMIT` lines
  each (`block_line(line)`; a subclass sets `self.block_lines = 0` where a block starts); what
  is left out is counted in `self.dropped` and named by one closing `… (N more lines omitted)`
  line (`dropped_note()`).
- `reporters(argv, flags)`: the values of the reporter options the user gave, to pass machine
  reporters (json, junit, tap …) through.

Imports nothing heavy (no `re`): it runs on the `cc-filter run` path.
"""
from cc_filter.lines import TrimmedLineFilter

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
    """Base of jest / vitest / mocha: failure blocks capped, the rest counted (see above)."""

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.block_lines = 0
        self.dropped = 0

    def block_line(self, line: str):
        """Yield `line` while the current block has fewer than `BLOCK_LIMIT` lines, else count
        it as dropped."""
        if self.block_lines < BLOCK_LIMIT:
            self.block_lines += 1
            yield line
        else:
            self.dropped += 1

    def dropped_note(self):
        if self.dropped:
            yield f"… ({self.dropped} more lines omitted)"
