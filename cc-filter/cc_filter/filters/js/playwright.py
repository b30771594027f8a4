"""playwright test (list / line reporters): each failing test with its error, expected and
received, the failing source line with its caret, and where; the failed list and the totals.
Dropped: passing tests (`✓`, counted in `N passed`), the progress lines of failing tests (`✘`:
each has its section), `Running N tests using M workers`, blank lines, the `────` rulers (cut
off their titles), the code around the failing line and its caret (the `at` line has the
column), `Error Context: test-results/…` (a file of the same facts). Each kind is counted at
the end (`... (5 passing tests omitted)`, `failing-test progress lines`, `banner lines`,
`code-frame lines`, `Error Context lines`); in a run with failures in one marker (`... (N
progress and code-frame lines omitted)`). Other reporters' output (`--reporter=json`) passes
through."""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

# a test's progress line: passing ones are counted in `N passed`, failing ones get a section
_PASSED = LazyPattern(r"^\s+(✓|ok)\s+\d+ ")
_FAILED = LazyPattern(r"^\s+(✘|x)\s+\d+ ")
_CONTEXT = LazyPattern(r"^(\s+\d+ \|( |$)|\s+\|\s+\^\s*$)")  # the caret: its column is in the `at`
_BANNER = LazyPattern(r"^Running \d+ tests? using \d+ workers?")
_ERROR_CONTEXT = LazyPattern(r"^\s+Error Context: ")
_KINDS = ((_PASSED, "passing tests"), (_FAILED, "failing-test progress lines"),
          (_BANNER, "banner lines"), (_CONTEXT, "code-frame lines"),
          (_ERROR_CONTEXT, "Error Context lines"))


class Playwright(Filter):
    name = "playwright"
    match_command = r"^playwright test(\s|$)"
    description = "playwright test: failures with expected/received and the failing line; totals"

    def __init__(self, argv):
        super().__init__(argv)
        self.passthrough = any(a.startswith("--reporter") and ("json" in a or "junit" in a)
                               for a in argv)
        self.counts: dict[str, int] = {}

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            yield line
            return
        if not line.strip():
            return
        for pattern, kind in _KINDS:
            if pattern.match(line):
                self.counts[kind] = self.counts.get(kind, 0) + 1
                return
        yield line.rstrip("─ ") if line.endswith("─") else line

    def finish(self, exit_code):
        if self.passthrough or not self.counts:
            return
        if exit_code != 0 and len(self.counts) > 1:
            yield omitted(sum(self.counts.values()), "progress and code-frame lines")
            return
        for kind, n in self.counts.items():
            yield omitted(n, kind)
