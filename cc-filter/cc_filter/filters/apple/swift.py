"""swift build / swift test: compiler diagnostics, failing tests, summaries; progress counted.

Keeps: compiler diagnostics (`path:line:col: error: …`, warnings, notes) with the source and
caret lines under them, XCTest failures (`Test Case '…' failed`, the `file:line: error: …
XCTAssert… failed` line, the failing test's output), Swift Testing issues and failures
(`✘ Test x() recorded an issue at File.swift:17:9: …`, `✘ Test run with N tests failed …`,
also with macOS's SF Symbols glyphs), the last `Executed N tests, with N failures` line (the run's
total; per-suite ones are counted), `Test run with N tests … passed`, `Build complete!`, `error:`
lines and any line it does not know.
Drops, each counted in a `... (N … omitted)` marker: `[n/m] Compiling / Emitting / Linking /
Write …` progress, `Building for debugging...`, `Compile Swift Module …` (SwiftPM 4/5),
the file list under `warning: 'x': found N file(s) which are unhandled` (the warning stays),
XCTest suite lines, Swift Testing `started` / detail lines, passing tests and their output.
Other `swift` sub-commands are not matched (`swift run` is a program). Injects nothing.
Fixtures: published logs (no Swift toolchain here), see tests/fixtures/apple/swift/.
"""
from cc_filter.filters.apple._xctest import TestLines
from cc_filter.kit.lines import LazyPattern, TrimmedLineFilter, omitted

_PROGRESS = LazyPattern(r"^(?:\[\d+/\d+\] |Building for |Compile Swift Module |Compiling |Linking |"
                        r"Planning build|Write )")


class Swift(TrimmedLineFilter):
    name = "swift"
    match_command = r"^swift (build|test)(\s|$)"
    description = "swift build/test: diagnostics, failing tests, summaries; progress counted"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in ("--help", "-h", "--list-tests", "-l", "--version")
                               or a.startswith("--experimental-event-stream") for a in argv)
        self.tests = TestLines()
        self.progress = 0
        self.unhandled = 0
        self.in_unhandled = False

    def feed_trimmed(self, line: str, stripped: str):
        if self.in_unhandled:
            if line.startswith("    /"):
                self.unhandled += 1
                return ()
            self.in_unhandled = False
        if line.startswith("warning: '") and "which are unhandled" in line:
            self.in_unhandled = True
            return (line,)
        if _PROGRESS.match(line):
            self.progress += 1
            return ()
        shown = self.tests.feed(line, stripped)
        if shown is not None:
            return shown
        return (line,)

    def finish(self, exit_code: int):
        out = self.tests.finish()
        if self.progress:
            out.append(omitted(self.progress, "build progress lines"))
        if self.unhandled:
            out.append(omitted(self.unhandled, "unhandled file paths"))
        return out
