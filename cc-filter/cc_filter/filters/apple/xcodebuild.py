"""xcodebuild build / test: diagnostics, failing tests, the verdict; build steps counted.

Keeps: every `error:` / `warning:` line with its whole `path:line:col` (and the source and
caret lines under it; a diagnostic's `note:` candidates are capped at 6, the rest counted),
failing test cases (`Test Case '-[X testY]' failed`, the `file:line: error: … XCTAssert…`
line and the test's own output), Swift Testing issues (`✘ Test … recorded an issue at …`),
the last `Executed N tests, with N failures` line (the total; per-suite ones are counted), `** BUILD
FAILED **` / `** TEST FAILED **` / `** … SUCCEEDED **`, the `Failing tests:`, `Testing
failed:` and `The following build commands failed:` lists, and any line it does not know.
Drops, each counted in a `... (N … omitted)` marker: build step blocks (`CompileC`,
`CompileSwift`, `SwiftCompile`, `Ld`, `ProcessInfoPlistFile`, `CopySwiftLibs` … with their
indented `cd` / `export` / compiler command lines and tool chatter), `note:` lines without a
location, xcodebuild's own timestamped log lines (`2019-01-20 23:27:01.069 xcodebuild[…]`,
a `DVTAssertions` block), `Test Suite …` started/finished lines, `Test Case … started` /
`passed` lines and passing tests' output.
`-json`, `-list`, `-showBuildSettings`, `-version`, `-help` pass through. Injects nothing.
Fixtures: published logs (xcodebuild cannot run here), see tests/fixtures/apple/xcodebuild/.
"""
from cc_filter.filters.apple._xctest import TestLines
from cc_filter.kit.lines import LazyPattern, TrimmedLineFilter, omitted

_STEP = LazyPattern(
    r"^(?:[A-Z][a-z]+(?:[A-Z][A-Za-z]*)+(?:\\ [A-Z][A-Za-z]*)*|Ld|Libtool|Touch|Copy|MkDir|SymLink|Strip|"
    r"CpResource|CpHeader|Validate|Analyze|PhaseScriptExecution|Lipo)(?: |$)")
_DIAG = LazyPattern(r"^(?:.+?:\d+(?::\d+)?: |[a-z][\w-]*: )?(?:fatal )?(error|warning|note): ")
_STAMP = LazyPattern(r"^\d{4}-\d\d-\d\d \d\d:\d\d:\d\d\.\d+ \S+\[\d+:\d+\]")
_PASS_ARGS = ("-json", "-list", "-showBuildSettings", "-version", "-help", "-usage",
              "-showsdks", "-showdestinations", "-showTestPlans")
# the lines a timestamped xcodebuild log line carries (a DVTAssertions block, a log's path)
_STAMP_MORE = ("Details:", "Object:", "Method:", "Thread:", "Please file a bug")
_NOTE_LIMIT = 6
_SOURCE_LIMIT = 4


class Xcodebuild(TrimmedLineFilter):
    name = "xcodebuild"
    match_command = r"^xcodebuild(\s|$)"
    description = "xcodebuild build/test: errors, warnings, failing tests, verdict; build steps counted"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in _PASS_ARGS for a in argv[1:])
        self.tests = TestLines()
        self.state = "top"   # top | step | stamp | diag
        self.step_lines = 0
        self.steps = 0
        self.notes = 0
        self.stamp_lines = 0
        self.diag_notes = 0
        self.diag_notes_dropped = 0
        self.diag_source = 0
        self.diag_kind = ""

    def feed(self, line: str):
        if not self.passthrough and not line.strip() and self.state != "top":
            self.state = "top"
        return super().feed(line)

    def feed_trimmed(self, line: str, stripped: str):
        out = []
        if stripped.startswith("** ") and (stripped.endswith(" **") or " ** [" in stripped):
            # the verdict (`** BUILD SUCCEEDED **`, `** TEST FAILED ** [12.3 sec]`): kept
            # wherever it comes, even right under a build step or a diagnostic
            self.state = "top"
            out.extend(self._notes_marker())
            out.append(stripped)
            return out
        if self.state == "diag":
            if _DIAG.match(line) is None and not _STEP.match(line) and not line.startswith("Test "):
                # source / caret lines under a diagnostic (a note's included)
                if self.diag_kind == "note" and self.diag_notes > _NOTE_LIMIT:
                    self.diag_notes_dropped += 1
                    return out
                if self.diag_source < _SOURCE_LIMIT or self.diag_kind != "note":
                    self.diag_source += 1
                    out.append(line)
                else:
                    self.diag_notes_dropped += 1
                return out
            self.state = "top"
        m = _DIAG.match(line)
        if m is not None:
            kind = m.group(1)
            if kind == "note" and ":" in line.split(" note: ", 1)[0] and self.diag_kind:
                self.diag_notes += 1
                self.state, self.diag_kind, self.diag_source = "diag", "note", 0
                if self.diag_notes > _NOTE_LIMIT:
                    self.diag_notes_dropped += 1
                    return out
                out.append(line)
                return out
            if kind == "note" and line.startswith("note: "):
                self.notes += 1
                return out
            out.extend(self._notes_marker())
            self.state, self.diag_kind, self.diag_source, self.diag_notes = "diag", kind, 0, 0
            out.append(line)
            return out
        if self.state == "step":
            self.step_lines += 1
            return out
        if self.state == "stamp":
            if line.startswith(_STAMP_MORE) or line.startswith("/") and ": " not in line:
                self.stamp_lines += 1
                return out
            self.state = "top"
        if _STAMP.match(line):
            self.stamp_lines += 1
            self.state = "stamp"
            return out
        shown = self.tests.feed(line, stripped)
        if shown is not None:
            out.extend(self._notes_marker())
            out.extend(shown)
            return out
        if _STEP.match(line) and not line.startswith(("Build settings", "Test ", "Testing ")):
            self.steps += 1
            self.state = "step"
            return out
        out.extend(self._notes_marker())
        out.append(line)
        return out

    def _notes_marker(self):
        dropped, self.diag_notes_dropped = self.diag_notes_dropped, 0
        self.diag_kind = ""
        return [omitted(dropped, "more note lines of this diagnostic")] if dropped else []

    def finish(self, exit_code: int):
        out = self._notes_marker()
        out.extend(self.tests.finish())
        if self.steps:
            out.append(omitted(self.steps + self.step_lines,
                               f"build step lines of {self.steps} steps"))
        if self.notes:
            out.append(omitted(self.notes, "build notes"))
        if self.stamp_lines:
            out.append(omitted(self.stamp_lines, "xcodebuild log lines"))
        return out
