"""bun test: each failing test with the line that failed (and its caret), the error, expected
and received, and where; the totals. A failure at the same line as the one before it (a loop
of cases) is one line: `(fail) discount > 10%: Expected: 90, Received: 900`. A test file's
heading (`test/cart.test.ts:`) stays above its failures. With `--coverage`, bun's table keeps
its header, `All files` and the files under 80% of functions or lines (`_coverage.py`: the
others and the table's rules counted under it). Dropped, and counted just before bun's
totals (`... (10 passing tests omitted)`, `... (N skipped/todo tests omitted)`, `... (N code
context lines omitted)`, `... (N repeated caret/error/at lines omitted)`: a failure at the
same line as the one before; `... (11 file headings omitted)`: of files with no failure):
passing tests, skipped and todo tests, the code around the failing line; blank lines.
Tested with bun 1.4.5 (one file, twelve files with --coverage)."""
from cc_filter.filters._coverage import CoverageTable
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

_CODE = LazyPattern(r"^\s*\d+ \| ")
_CARET = LazyPattern(r"^\s+\^\s*$")
_AT = LazyPattern(r"^\s+at .*?\(?(\S+:\d+:\d+)\)?$")
_FACT = LazyPattern(r"^(Expected|Received|- Expected|\+ Received)")
_HEADING = LazyPattern(r"^\S+\.\w+:$")  # `test/cart.test.ts:` above the file's results
_TOTALS = LazyPattern(r"^\s*\d+ (pass|fail|skip|todo|expect\(\) calls)$|^Ran \d+ tests? ")


class BunTest(Filter):
    name = "bun-test"
    match_command = r"^bun test(\s|$)"
    description = "bun test: failing tests with the failing line, expected/received; totals"

    def __init__(self, argv):
        super().__init__(argv)
        self.pending: list[str] = []  # bun prints a failure's report before its `(fail)` line
        self.previous_where = None
        self.passed = self.skipped = self.context = self.repeated = 0  # dropped lines, counted (see above)
        self.headings = 0
        self.heading = None  # the current file's heading, until a failure of it shows it
        self.coverage = CoverageTable()

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if line.startswith("(pass) "):
            self.context += sum(1 for x in self.pending if x.strip())
            self.pending.clear()
            self.passed += 1
            return
        if line.startswith("(fail) "):
            yield from self._failure(line)
            return
        if line.startswith(("(skip) ", "(todo) ")):
            self.skipped += 1
            return
        if not line.strip():
            return
        if not self.pending:
            table = self.coverage.feed(line.strip())
            if table is not None:
                self._drop_heading()
                yield from table
                return
            if _HEADING.match(line):
                self._drop_heading()
                self.heading = line
                return
        if not self.pending and _TOTALS.match(line):
            yield from self._counts()
        if (_CODE.match(line) or _CARET.match(line) or _AT.match(line) or _FACT.match(line)
                or line.startswith("error: ")) or self.pending:
            self.pending.append(line)
            return
        yield line

    def _drop_heading(self):
        if self.heading is not None:
            self.headings += 1
            self.heading = None

    def _failure(self, fail_line: str):
        report, self.pending = self.pending, []
        if self.heading is not None:
            yield self.heading
            self.heading = None
        code = caret = where = None
        facts, rest = [], []
        for i, line in enumerate(report):
            if _CARET.match(line):
                caret = line
                code = next((x for x in reversed(report[:i]) if _CODE.match(x)), None)
            elif _CODE.match(line):
                self.context += 1
                continue
            elif _AT.match(line):
                self.context += where is not None  # deeper frames
                where = where or line.strip()
            elif _FACT.match(line):
                facts.append(line.strip())
            else:
                rest.append(line)
        if where is not None and where == self.previous_where and facts:
            # the same line failed as before: its code, caret, error and place are repeated
            self.repeated += (caret is not None) + len(rest) + 1  # code lines: counted above
            yield f"{fail_line}: {', '.join(facts)}"
            return
        self.previous_where = where
        yield fail_line
        if code is not None:
            self.context -= 1  # the failing line itself is shown (counted above)
            yield code
            if caret is not None:
                yield caret
        yield from rest
        yield from facts
        if where:
            yield f"  {where}"

    def _counts(self):
        if self.passed:
            yield omitted(self.passed, "passing tests")
        if self.skipped:
            yield omitted(self.skipped, "skipped/todo tests")
        if self.context:
            yield omitted(self.context, "code context lines")
        if self.repeated:
            yield omitted(self.repeated, "repeated caret/error/at lines")
        self._drop_heading()
        if self.headings:
            yield omitted(self.headings, "file headings")
        self.passed = self.skipped = self.context = self.repeated = self.headings = 0

    def finish(self, exit_code):
        if self.pending and self.heading is not None:
            yield self.heading
            self.heading = None
        yield from self.pending  # a report no `(fail)` line followed: keep it whole
        self.pending = []
        yield from self.coverage.finish()
        yield from self._counts()
