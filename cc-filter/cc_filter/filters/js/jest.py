"""jest: failing suites and tests with their assertion messages and locations, then the summary.

Keeps: `FAIL path` lines, every `● suite › test` block (matcher line, Expected / Received,
diffs, thrown errors, the failing source line with its location `test/x.test.js:6:26: code` —
the code frame's `>` line joined with the first project stack frame when they point at the same
line — and the next project frame), `● Test suite failed to run` blocks, console output of
failing suites (capped), skipped / todo tests of --verbose (capped), the `Test Suites:` /
`Tests:` / `Snapshots:` / `Time:` lines verbatim, a `--coverage` table's header, totals and
files under 80% (`_coverage.py`: the others counted under it) (in a run with failures but `Snapshots: 0
total` and `Time:`), and unrecognised lines (`No tests found`).
Drops: `PASS path` lines, the generic matcher signature line (`expect(received).toBe(expected)
// Object.is equality`: the source line shows the call), `✓` / `✕` test lines and describe
headings of --verbose (the `●` blocks name every failing test), code-frame context lines and `^`
markers, stack frames inside node_modules / node:internal (but a block's first one when the
block has no frame of the project's and no `>` line: an error a library raised from its own
callback),
console output of passing suites,
`Ran all test suites.` (the `Test Suites:` total says so). Each kind is counted: in a passing
run just before `Test Suites:` (`... (16 passing suites omitted)`, `... (48 passing tests
omitted)`, `describe headings`, `console lines of passing suites`, lines past the caps); in a
run with failures all in one marker at the end (`... (40 listing and frame/diff lines
omitted)`: also the `✕` lines, code frames, matcher signatures, dropped stack frames, `Ran all
test suites matching …`, `Snapshots: 0 total` and `Time:`), which keeps the answer about the
failures.
Passes everything through for `--json`, `--listTests`, `--showConfig`, `--help`, `--version`.
Injects nothing. Tested with jest 30.5.2 (default and --verbose, assertion failures, a syntax
error in a test file, no tests found); the layout is the same in jest 27-29.
"""
from cc_filter.filters._coverage import CoverageTable
from cc_filter.filters.js._js_test import JsTestReport

_PASSTHROUGH = frozenset(("--json", "--listTests", "--showConfig", "--help", "-h", "--version",
                          "-v"))
_FRAMES = 2
_CONSOLE_LIMIT = 10
_NOTABLE_LIMIT = 10


def _code_frame(stripped: str) -> bool:
    """`4 |   code`, `> 6 |   code`, `|   ^`: jest's code frame around the failing line."""
    if stripped.startswith("|"):
        return True
    head = stripped.split("|", 1)[0].strip()
    return "|" in stripped and (
        head.isdigit() or (head.startswith(">") and head[1:].strip().isdigit()))


def _library_frame(stripped: str) -> bool:
    return "node_modules/" in stripped or "node:internal" in stripped or "(<anonymous>)" in stripped


class Jest(JsTestReport):
    name = "jest"
    match_command = r"^jest(\s|$)"
    description = "jest: failing tests with assertion messages and locations, summary lines"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in _PASSTHROUGH or a.startswith("--json") for a in argv)
        self.coverage = CoverageTable()
        self.suite_failed = False  # the current file printed FAIL
        self.in_block = False
        self.frames = 0
        self.console = 0
        self.in_console = False
        self.notable = 0
        self.pending_code: tuple[str, str] | None = None  # the `> 6 | code` line of a block
        #: a block's first node_modules / node: frame, shown at the block's end when the block
        #: showed no frame of the project's (an error a library raised from its own timer)
        self.held_frame: str | None = None
        self.in_listing = False  # between `PASS/FAIL file` and the file's first `●` block
        self.failed = False  # a suite or test failed: the counts are one marker at the end

    def feed_trimmed(self, line: str, stripped: str):
        if self.in_block and not line.startswith(" "):
            yield from self._flush_code()
        table = self.coverage.feed(stripped)
        if table is not None:  # `--coverage`: the files under the threshold and the totals
            yield from table
            return
        if line.startswith(("PASS ", "FAIL ")):
            yield from self._flush_code()
            yield from self._end_block()
            self.suite_failed = line.startswith("FAIL")
            self.failed = self.failed or self.suite_failed
            self.in_block = self.in_console = False
            self.in_listing = True
            if self.suite_failed:
                yield line
            else:
                self.count("passing suites")
            return
        if line.startswith(("Test Suites:", "Tests:", "Snapshots:", "Time:")):
            yield from self._flush_code()
            yield from self._end_block()
            self.in_block = self.in_console = self.in_listing = False
            self.failed = self.failed or " failed," in line
            if line.startswith("Test Suites:") and not self.failed:
                yield from self.counted()
            if self.failed and line.startswith("Snapshots:") and stripped.endswith(" 0 total"):
                self.count("empty Snapshots lines")
                return
            if self.failed and line.startswith("Time:"):
                self.count("timing lines")  # a failed run's one marker counts it
                return
            yield line  # a passing run's `Snapshots: 0 total`: shorter than its marker
            return
        if stripped == "Ran all test suites.":
            return  # restated by the `Test Suites:` total
        if line.startswith("Ran all test suites matching "):
            self.count("Ran all lines")  # the paths or pattern the command gave
            return
        if stripped.startswith("● "):
            yield from self._flush_code()
            yield from self._end_block()
            self.in_block, self.in_console, self.in_listing = True, False, False
            self.failed = True
            self.block_lines = self.frames = 0
            yield stripped
            return
        if stripped.startswith("console.") and " " not in stripped:
            yield from self._end_block()
            self.in_block, self.in_console = False, True
            self.console = 0
            if self.suite_failed:
                yield line.rstrip()
            else:
                self.count("console lines of passing suites")
            return
        if self.in_console:
            if not self.suite_failed:
                self.count("console lines of passing suites")
            elif stripped.startswith("at "):
                self.count("stack frames")
            elif self.console < _CONSOLE_LIMIT:
                self.console += 1
                yield line
            else:
                self.count(f"console lines past the {_CONSOLE_LIMIT}-line cap")
            return
        if self.in_block:
            yield from self._block_line(line, stripped)
            return
        if stripped[0] in "✓√":
            self.count("passing tests")
            return
        if stripped[0] in "✕×":
            self.count("failing-test list lines")  # each has its `●` block
            return
        if stripped[0] in "○✎":
            if self.notable < _NOTABLE_LIMIT:
                self.notable += 1
                yield stripped
            else:
                self.count(f"skipped/todo tests past the {_NOTABLE_LIMIT}-line cap")
            return
        if self.in_listing and line.startswith("  ") and self._describe_heading(stripped):
            self.count("describe headings")  # of --verbose output
            return
        yield line

    @staticmethod
    def _describe_heading(stripped: str) -> bool:
        return not any(c in stripped for c in ":|()") and len(stripped) < 120

    def _block_line(self, line: str, stripped: str):
        if _code_frame(stripped):
            if stripped.startswith(">"):
                number, _, code = stripped[1:].partition("|")
                self.pending_code = (number.strip(), code.strip())
                self.held_frame = None  # the code frame shows the failing line: no need
            else:
                self.count("code-frame lines")
            return
        if stripped.startswith("at "):
            if _library_frame(stripped) or self.frames >= _FRAMES:
                self.count("stack frames")
                if self.held_frame is None and not self.frames and self.pending_code is None:
                    self.held_frame = stripped
                return
            self.frames += 1
            location = stripped.rsplit("(", 1)[-1].rstrip(")") if stripped.endswith(")") \
                else stripped[3:]
            pending, self.pending_code = self.pending_code, None
            if pending is not None:
                number, code = pending
                if location.split(":")[-2:-1] == [number]:
                    # the frame and the code frame point at the same line: `path:6:26: code`
                    yield from self.block_line(f"{location}: {code}")
                    return
                yield from self.block_line(f"> {number} | {code}")
            yield from self.block_line(stripped)
            return
        if stripped.startswith("expect(received).") and (
                "(expected)" in stripped or stripped.split(" //")[0].endswith("()")):
            self.count("matcher signature lines")  # the source line shows the same call
            return
        yield from self._flush_code()
        yield from self.block_line(line[4:] if line.startswith("    ") else line.strip())

    def _end_block(self):
        """A block that showed no project frame and no `>` line keeps its first library frame:
        the only place the error names (`at Timeout._onTimeout (node_modules/lib/index.js:8:61)`)."""
        held, self.held_frame = self.held_frame, None
        if held is not None and self.in_block and not self.frames:
            self.count("stack frames", -1)
            yield from self.block_line(held)

    def _flush_code(self):
        if self.pending_code is not None:
            number, code = self.pending_code
            self.pending_code = None
            yield from self.block_line(f"> {number} | {code}")

    def finish(self, exit_code: int):
        yield from self._flush_code()
        yield from self._end_block()
        yield from self.coverage.finish()
        yield from self.dropped_note(self.failed or exit_code != 0)
