"""vitest: failing tests with their assertion, diff and location, then the summary lines.

Keeps: each `FAIL  file > suite > test` block of the "Failed Tests" / "Failed Suites" sections
(the error line, `- Expected / + Received` diffs — except a one-value diff or `Expected: /
Received:` pair whose values the error line already states —, `Caused by:`, and each project
stack frame joined with its source line: `test/a.test.ts:6:56: expect(total(x)).toBe(100)`), the
`× test` / `→ message` lines of failing tests when no such section follows, skipped tests
(capped), console output of failing tests (capped), `Test Files …` / `Tests …` / `Errors …`
verbatim, a `--coverage` table's header, totals and files under 80% (`_coverage.py`: the
others and the table's rules counted under it; vitest prints it on a failed run only with
`--coverage.reportOnFailure`), unrecognised lines. Paths under the project folder named by
the RUN banner are shown relative to it.
Drops: the `RUN v3.2.7 /path` banner, `✓` lines of passing files and tests, the TAP lines
a `node:test` file prints for its passing tests (`ok 1 - name` and its `duration_ms` block), the per-file
`❯ file (4 tests | 4 failed)` lines, code-frame context lines and `^` markers, frames inside
node_modules, `⎯⎯⎯` rulers, `Start at`, `Duration` and `Coverage enabled with v8`, chai's
`// Object.is equality` note.
Each kind is counted at the end: in a passing run one marker per kind (`... (10 passing files
omitted)`, `passing tests`, `banner/timing lines`, `node:test TAP lines`, lines past the caps),
in a run with failures one for all (`... (58 listing and frame/diff lines omitted)`: also the
`×`/`→` lines a FAIL block repeats, rulers, code frames, diffs the error line states, and the
unchanged lines of a diff that only open or close its outer brackets: `{`, `],`).
Passes everything through for json / junit / tap reporters, `vitest list`, `--help`,
`--version`. Injects nothing. Tested with vitest 3.2.7 on vite 7 and Node 20 (default and
--reporter=verbose, assertion failures, an import error in a test file, --coverage with
@vitest/coverage-v8 3.2.7).
"""
from cc_filter.filters._coverage import CoverageTable
from cc_filter.filters.js._js_test import JsTestReport, reporters

_MACHINE_REPORTERS = ("json", "junit", "tap", "tap-flat", "hanging-process", "html", "blob")
_NOTABLE_LIMIT = 10
_PENDING_LIMIT = 200
_BRACKETS = frozenset(("{", "}", "},", "[", "]", "],", "Object {", "Array [", ")", "),"))
_TAP_COUNTS = ("tests", "suites", "pass", "fail", "cancelled", "skipped", "todo", "duration_ms")


def _machine_output(argv: list[str]) -> bool:
    return any(r in _MACHINE_REPORTERS for r in reporters(argv)) or any(
        a in ("--help", "-h", "--version", "-v", "list") or a.startswith("--outputFile")
        for a in argv)


def _frame_line(stripped: str):
    """`6|     code` → ("6", "code"); `|    ^` → ("", ""); else None."""
    number, bar, code = stripped.partition("|")
    if not bar or (number and not number.isdigit()):
        return None
    return number, code


class Vitest(JsTestReport):
    name = "vitest"
    match_command = r"^vitest(\s|$)"
    description = "vitest: failing tests with assertion, diff and location, summary lines"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = _machine_output(argv)
        self.in_details = False
        self.failing: list[tuple[str, str]] = []  # (test name, its `× …` / `→ …` line)
        self.reported: set[str] = set()  # names that got a FAIL block
        self.current_file = ""
        self.location: tuple[str, str] | None = None  # (`path:6:56`, "6") waiting for its line
        self.notable = 0
        self.diff: list[str] = []
        self.root = ""  # the project folder the RUN banner names: paths under it made relative
        self.message = ""  # the last `AssertionError: …` line, which diffs may only repeat
        self.tap_pending = False  # the last line was a TAP entry (node:test inside the run)
        self.tap_block: bool | None = None  # inside a TAP YAML block: kept (True) or dropped
        self.tap_failing = False
        self.failed = False  # a test or file failed: the counts are one marker
        self.coverage = CoverageTable()

    def feed_trimmed(self, line: str, stripped: str):
        table = self.coverage.feed(stripped)
        if table is not None:  # `--coverage`: the files under the threshold and the totals
            yield from self._flush_location()
            yield from table
            return
        if stripped.startswith("Coverage enabled with "):
            self.count("banner/timing lines")
            return
        if stripped.startswith("⎯"):
            yield from self._flush_location()
            self.count("ruler lines")
            self.in_details = self.in_details or "Failed" in stripped or "Unhandled" in stripped \
                or "Errors" in stripped
            return
        if stripped.startswith(("Test Files ", "Tests ", "Errors ", "Type Errors ")):
            yield from self._flush_location()
            self.in_details = False
            self.failed = self.failed or " failed " in stripped
            yield stripped
            return
        if stripped.startswith(("Duration ", "Start at ")):
            self.count("banner/timing lines")
            return
        if stripped.startswith(("RUN  v", "RUN v")):
            self.count("banner/timing lines")
            root = stripped.split(" ", 3)[-1].strip() if stripped.count(" ") >= 2 else ""
            if root.startswith("/"):
                self.root = root.rstrip("/") + "/"
            return
        if self.in_details:
            yield from self._detail(line, stripped)
            return
        yield from self._listing(line, stripped)

    def _listing(self, line: str, stripped: str):
        mark = stripped[0]
        if mark in "✓√":
            self.count("passing tests" if " > " in stripped else "passing files")
            return
        if self._tap_noise(line, stripped):
            self.count("node:test TAP lines")
            return
        if mark == "❯" and stripped.endswith(("ms", "s")) and "(" in stripped:
            self.current_file = stripped[1:].split(" (", 1)[0].strip()
            self.count("failing-file lines")
            self.failed = True
            return
        if mark in "×✗":
            name = stripped[1:].strip()
            if name.rsplit(" ", 1)[-1].rstrip("ms").replace(".", "").isdigit():
                name = name.rsplit(" ", 1)[0]
            key = name if " > " in name and name.split(" > ", 1)[0].endswith(
                (".ts", ".js", ".tsx", ".jsx", ".mts", ".mjs", ".cts", ".cjs")) else \
                f"{self.current_file} > {name}"
            self.failed = True
            if len(self.failing) < _PENDING_LIMIT:
                self.failing.append((key, stripped))
            else:
                self.count("failing-test list lines")
            return
        if mark == "→":
            if self.failing and len(self.failing) < _PENDING_LIMIT:
                self.failing.append((self.failing[-1][0], "  " + stripped))
            else:
                self.count("failing-test list lines")
            return
        if mark in "↓" or stripped.startswith("stdout |") or stripped.startswith("stderr |"):
            if self.notable < _NOTABLE_LIMIT:
                self.notable += 1
                yield stripped
            else:
                self.count(f"skipped/console lines past the {_NOTABLE_LIMIT}-line cap")
            return
        yield line

    def _tap_noise(self, line: str, stripped: str) -> bool:
        """A test file using `node:test` prints TAP into the run: its passing entries (`ok 1 -
        name`, `# Subtest:`, `TAP version 13`) and their YAML blocks (`duration_ms: …`) go like
        vitest's own ✓ lines; a `not ok` entry and its block stay."""
        if self.tap_block is not None:
            if stripped == "...":
                keep, self.tap_block = self.tap_block, None
                return not keep
            return not self.tap_block
        if stripped.startswith("1..") and stripped[3:].isdigit():
            return True  # the TAP plan
        word, _, count = stripped[2:].partition(" ") if stripped.startswith("# ") else ("", "", "")
        if count.replace(".", "").isdigit() and word in _TAP_COUNTS and not (
                word == "fail" and count != "0"):
            return True  # node:test's closing counts (a failure count stays)
        if stripped.startswith(("TAP version ", "# Subtest: ")) or (
                stripped.startswith("ok ") and stripped[3:4].isdigit()):
            self.tap_pending = True
            return True
        if stripped == "---" and line.startswith("  ") and self.tap_pending:
            self.tap_block = False  # the block of a passing entry: dropped
            return True
        if stripped.startswith("not ok ") and stripped[7:8].isdigit():
            self.tap_pending = True
            self.tap_block = None
            self.tap_failing = True
            return False
        if stripped == "---" and line.startswith("  ") and self.tap_failing:
            self.tap_block = True
            self.tap_failing = False
            return False
        self.tap_pending = False
        return False

    def _detail(self, line: str, stripped: str):
        if stripped.startswith("FAIL "):
            yield from self._flush_location()
            self.failed = True
            self.block_lines = 0
            name = " ".join(stripped[5:].split())
            self.reported.add(name)
            yield f"FAIL {name}"
            return
        frame = _frame_line(stripped) if "|" in stripped[:8] else None
        if frame is not None:
            number, code = frame
            if self.location is not None and number == self.location[1]:
                location, self.location = self.location[0], None
                yield from self.block_line(f"{location}: {code.strip()}")
            else:
                self.count("code-frame lines")
            return
        if stripped.startswith("❯ "):
            yield from self._flush_location()
            words = stripped[2:].split()
            where = words[-1]
            if "node_modules/" in where or where.startswith("node:"):
                self.count("stack frames")
                return
            parts = where.rsplit(":", 2)
            if len(parts) == 3 and parts[1].isdigit():
                prefix = " ".join(words[:-1])
                self.location = (f"{prefix} {where}".strip() if prefix else where, parts[1])
                return
            yield from self.block_line(stripped)
            return
        if line.startswith(("- ", "+ ", "  ")) or line in ("-", "+"):
            self.diff.append(line)  # held: a one-value diff only repeats the error message
            return
        yield from self._flush_location()
        if line.startswith(("Expected: ", "Received: ")) and self._in_message(line[10:]):
            self.count("diff lines the error line states")
            return
        if "Error" in line.split(":", 1)[0]:
            line = line.removesuffix(" // Object.is equality")  # chai's note on toBe
            self.message = line
        if self.root and self.root in line:
            line = line.replace(self.root, "")
        yield from self.block_line(line)

    def _in_message(self, value: str) -> bool:
        value = value.strip()
        return bool(value) and (value in self.message or value.strip('"') in self.message)

    def _flush_diff(self):
        diff, self.diff = self.diff, []
        body = [d for d in diff if d not in ("- Expected", "+ Received")]
        if len(body) == 2 and body[0].startswith("- ") and body[1].startswith("+ ") and all(
                self._in_message(d[2:]) for d in body):
            self.count("diff lines the error line states", len(diff))
            return
        # the unchanged lines that only open or close the outer brackets (`  [`, `    {` before
        # the first change, `    },`, `  ]` after the last) go; inner ones keep items apart
        def bracket(line: str) -> bool:
            return line.startswith("  ") and line.strip() in _BRACKETS
        legend = [d for d in diff if d in ("- Expected", "+ Received")]
        body = [d for d in diff if d not in ("- Expected", "+ Received")]
        start, end = 0, len(body)
        while start < end and bracket(body[start]):
            start += 1
        while end > start and bracket(body[end - 1]):
            end -= 1
        if start or end < len(body):
            self.count("diff bracket lines", start + len(body) - end)
        for line in legend + body[start:end]:
            yield from self.block_line(line)

    def _flush_location(self):
        yield from self._flush_diff()
        if self.location is not None:
            location, self.location = self.location[0], None
            yield from self.block_line(location)

    def _reported(self, name: str) -> bool:
        """Did a FAIL block show this test? vitest 4's tree listing names a test without its
        describe blocks (`file > test`), its FAIL block with them (`file > suite > test`)."""
        if name in self.reported:
            return True
        file, sep, test = name.partition(" > ")
        return bool(sep) and any(r.startswith(file + " > ") and r.endswith(" > " + test)
                                 for r in self.reported)

    def finish(self, exit_code: int):
        yield from self._flush_location()
        yield from self.coverage.finish()
        for name, line in self.failing:
            if not self._reported(name):
                yield line
            else:
                self.count("failing-test list lines")  # its FAIL block names it
        yield from self.dropped_note(self.failed or exit_code != 0)
