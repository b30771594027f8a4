"""playwright test (list / line reporters): each failing test with its error, expected and
received, the failing source line with its caret, and where; the failed list and the totals.
Dropped: passing tests (`✓`, counted in `N passed`), `Running N tests using M workers`, blank
lines, the `────` rulers, the code around the failing line and its caret (the `at` line has the column), `Error Context: test-results/…`
(a file of the same facts). Other reporters' output (`--reporter=json`) passes through."""
from cc_filter.filter import Filter
from cc_filter.lines import LazyPattern, strip_ansi

# a test's progress line: passing ones are counted in `N passed`, failing ones get a section
_PROGRESS = LazyPattern(r"^\s+(✓|ok|✘|x)\s+\d+ ")
_CONTEXT = LazyPattern(r"^\s+\d+ \|( |$)")
_DROP = LazyPattern(r"^(Running \d+ tests? using \d+ workers?|\s+Error Context: |\s*$|"
                    r"\s+\|\s+\^\s*$)")  # the caret: its column is in the `at file:line:col`


class Playwright(Filter):
    name = "playwright"
    match_command = r"^playwright test(\s|$)"
    description = "playwright test: failures with expected/received and the failing line; totals"

    def __init__(self, argv):
        super().__init__(argv)
        self.passthrough = any(a.startswith("--reporter") and ("json" in a or "junit" in a)
                               for a in argv)

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            yield line
            return
        if _PROGRESS.match(line) or _DROP.match(line) or _CONTEXT.match(line):
            return
        yield line.rstrip("─ ") if line.endswith("─") else line
