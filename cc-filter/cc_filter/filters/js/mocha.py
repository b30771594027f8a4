"""mocha: failing tests with their assertion and location, then passing / failing counts.

Keeps: `N passing (47ms)` / `N failing` / `N pending` verbatim, each numbered failure as one
header line `1) basket bugs › applies the bulk discount:` followed by its error, assertion
text and diffs, and the first two project stack frames (`at parseQty (src/basket.js:15:32)`;
the test body's `at Context.<anonymous> (spec/bugs.spec.js:6:12)` as `at
spec/bugs.spec.js:6:12`); pending tests (capped) and unindented output (console.log) of the
listing.
Drops: mocha's own `+ expected - actual` diff when node:assert's message already compared the
values (`15 !== 13.5`, `+ actual - expected`), the listing's `✔` lines, describe headings and
`N) test` lines (the numbered failure sections repeat them), frames inside node_modules /
node:internal, blank lines. Each kind is counted: in a passing run before `N passing` (`...
(18 passing tests omitted)`, `describe headings`, pending tests past the cap), in a run with
failures in one marker at the end (`... (40 listing and frame/diff lines omitted)`).
Passes everything through for machine reporters (`--reporter json|xunit|tap|…`, `-R`),
`--help`, `--version`, `--list-files`. Injects nothing. Tested with mocha 12.0.3 (spec
reporter, node:assert failures) on Node 20; the spec reporter is unchanged since mocha 6.
"""
from cc_filter.filters.js._js_test import JsTestReport, reporters

_FRAMES = 2
_PENDING_LIMIT = 10
_HUMAN_REPORTERS = ("spec", "dot", "list", "progress", "min", "nyan", "landing")


def _machine_output(argv: list[str]) -> bool:
    return any(
        a in ("--help", "-h", "--version", "-V", "--list-files", "--list-reporters") for a in argv
    ) or any(r not in _HUMAN_REPORTERS for r in reporters(argv, ("--reporter", "-R")))


def _count_line(stripped: str) -> bool:
    words = stripped.split()
    return len(words) >= 2 and words[0].isdigit() and words[1] in ("passing", "failing", "pending")


class Mocha(JsTestReport):
    name = "mocha"
    match_command = r"^mocha(\s|$)"
    description = "mocha: failing tests with assertion and location, pass/fail counts"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = _machine_output(argv)
        self.in_details = False
        self.header: list[str] | None = None  # the lines of `1) suite` … `test:` being joined
        self.frames = 0
        self.pending = 0
        self.node_diff = False
        self.skipping_diff = False
        self.failed = False  # a test failed: the counts are one marker at the end

    def feed_trimmed(self, line: str, stripped: str):
        if _count_line(stripped):
            self.in_details = stripped.split()[1] in ("failing", "pending") or self.in_details
            self.failed = self.failed or stripped.split()[1] == "failing"
            if stripped.split()[1] == "passing" and not self.failed:
                yield from self.counted()
            yield stripped
            return
        if not self.in_details:
            yield from self._listing(line, stripped)
            return
        number, dot, rest = stripped.partition(") ")
        if dot and number.isdigit() and line.startswith("  ") and self.header is None:
            self.header = [stripped]
            self.frames = self.block_lines = 0
            self.node_diff = self.skipping_diff = False
            if rest.endswith(":"):
                yield self._take_header()
            return
        if self.header is not None:
            self.header.append(stripped)
            if stripped.endswith(":"):
                yield self._take_header()
            return
        if stripped in ("+ actual - expected", "- actual + expected") or " !== " in stripped:
            self.node_diff = True  # node:assert already showed the values
        if stripped == "+ expected - actual":
            self.skipping_diff = self.node_diff
        if self.skipping_diff and not stripped.startswith("at "):
            # mocha's own diff of values node:assert's message already compared
            self.count("diff lines the error line states")
            return
        self.skipping_diff = False
        if stripped.startswith("at "):
            if "node_modules/" in stripped or "node:internal" in stripped or \
                    self.frames >= _FRAMES:
                self.count("stack frames")
                return
            self.frames += 1
            if stripped.startswith("at Context.<anonymous> ("):
                # the test body's frame: only its place says something
                stripped = "at " + stripped[len("at Context.<anonymous> ("):].rstrip(")")
        # frames and the error's first line lose mocha's indentation; the message lines
        # node:assert printed keep theirs (its diffs are aligned by it)
        first = self.block_lines == 0
        yield from self.block_line(stripped if first or stripped.startswith("at ") else line)

    def _take_header(self) -> str:
        header, self.header = self.header, None
        return " › ".join(header)

    def _listing(self, line: str, stripped: str):
        if stripped[0] in "✔✓":
            self.count("passing tests")
            return
        number, dot, _ = stripped.partition(") ")
        if dot and number.isdigit():
            self.failed = True
            self.count("failing-test list lines")  # its numbered failure names it
            return
        if stripped.startswith("- "):
            if self.pending < _PENDING_LIMIT:
                self.pending += 1
                yield stripped
            else:
                self.count(f"pending tests past the {_PENDING_LIMIT}-line cap")
            return
        if line.startswith(" "):
            self.count("describe headings")
            return
        yield line  # the tests' own output

    def finish(self, exit_code: int):
        if self.header:
            yield self._take_header()
        yield from self.dropped_note(self.failed or exit_code != 0)
