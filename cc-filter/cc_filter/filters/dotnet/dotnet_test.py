"""dotnet test (VSTest with the console or the terminal logger, xUnit.net's adapter lines): failing
tests with their message and stack frames, the build's diagnostics, the summaries.

Keeps: each failing test — VSTest's `  Failed Ns.Class.Test [12 ms]` block (`Error Message:`,
the message, `Stack Trace:`, frames `at X in /p/File.cs:line 42`, `Standard Output Messages:`)
and the terminal logger's `    UnitTest1.cs(14): error TESTERROR:` block — with the frames of
the project's own code (`… in path:line N`; frames without a source position, the framework's,
are counted); `Skipped` lines (capped); the summaries `Failed!  - Failed: 1, Passed: 9, …`,
`Passed!  - …`, `Test Run Failed.`, `Total tests: …`, `Test summary: total: 2, failed: 1, …`,
`Results File:`; and everything `dotnet-build` keeps from the build (`_msbuild.py`).
xUnit.net's own lines (`[xUnit.net 00:00:00.08]     Ns.Class.Test [FAIL]` and the message and
stack under it) say again what VSTest's block says: they are dropped, counted, when VSTest
reported the same test, and shown otherwise (a crash before VSTest's report).
Counted: passing tests (`  Passed X [1 ms]`) and their `Standard Output Messages:`, the VSTest
banner and progress (`Test run for …`, `Starting test execution, please wait...`, `A total of 1
test files matched …`, NUnit's adapter lines), xUnit.net's progress (`Discovering:`,
`Starting:`, `Finished:` …). `--list-tests`, `--help` pass through.
Published cases: the terminal logger's output in xunit.net's getting-started page (SDK 9,
xunit.runner.visualstudio 3.1.1).
"""
from cc_filter.filters.dotnet._msbuild import MSBuildOutput
from cc_filter.filters.dotnet.dotnet_build import passthrough
from cc_filter.kit.lines import LazyPattern, TrimmedLineFilter, omitted

#: `  Failed Ns.Class.Test [12 ms]`; VSTest 16.x marked results `√` (passed), `X`, `!` (skipped)
_VSTEST_RESULT = LazyPattern(
    r"^\s+(?P<word>Passed|Failed|Skipped|√|X|!) (?P<name>.+) \[[^\[\]]*\]$")
_WORDS = {"√": "Passed", "X": "Failed", "!": "Skipped"}
_TL_FAILED = LazyPattern(r"^\s+(?P<name>.+) \([^()]*\): Error Message:")
_XUNIT = LazyPattern(r"^\[xUnit\.net [\d:.]+\] ?(?P<rest>.*)$")
_XUNIT_PROGRESS = ("xUnit.net VSTest Adapter", "Discovering:", "Discovered:", "Starting:",
                   "Finished:", "xUnit.net ")
_PROGRESS = ("Starting test execution, please wait...", "A total of ", "Test run for ",
             "Build started, please wait...", "Build completed.", "NUnit Adapter ",
             "NUnit3TestExecutor discovered ", "Running all tests in ")
_SKIP_LIMIT = 10
_BLOCK_LIMIT = 60  # lines kept of one failing test's block


class DotnetTest(TrimmedLineFilter):
    name = "dotnet-test"
    match_command = r"^dotnet test(\s|$)"
    description = "dotnet test: failing tests with message and frames, build errors, summaries"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = passthrough(argv) or any(
            a in ("--list-tests", "-t") for a in argv[1:])
        self.msbuild = MSBuildOutput()
        self.block: int | None = None  # indentation of the test result block we are in
        self.block_passed = False  # that block is a passing test's (its output is counted)
        self.block_vstest = False  # VSTest's block: every indented line until the next result
        self.block_lines = 0
        self.reported: set[str] = set()  # failing tests VSTest reported
        self.xunit: list[tuple[str, list[str]]] = []  # xUnit.net [FAIL] blocks, held back
        self.xunit_block: list[str] | None = None
        self.counts = {"passed": 0, "frames": 0, "progress": 0, "xunit": 0, "block": 0,
                       "skipped": 0, "xunit_progress": 0, "passed_output": 0}
        self.skips = 0

    def feed_trimmed(self, line: str, stripped: str):
        xunit = _XUNIT.match(line) if line.startswith("[xUnit.net ") else None
        if xunit is not None:
            return self._xunit(line, xunit.group("rest"))
        self.xunit_block = None
        indent = len(line) - len(line.lstrip())
        if self.block is not None:
            if indent > self.block or (self.block_vstest and indent > 0
                                       and not _VSTEST_RESULT.match(line)):
                return self._block_line(line, stripped)
            self.block = None
        result = _VSTEST_RESULT.match(line) if line.startswith(" ") else None
        if result is not None:
            word = _WORDS.get(result.group("word"), result.group("word"))
            if word == "Passed":
                self.counts["passed"] += 1
                self._open_block(indent, passed=True)
                return ()
            if word == "Skipped":
                self.skips += 1
                if self.skips > _SKIP_LIMIT:
                    self.counts["skipped"] += 1
                    return ()
                return (line,)
            self.reported.add(result.group("name"))
            self._open_block(indent)
            return (line,)
        if stripped.startswith(_PROGRESS):
            self.counts["progress"] += 1
            return ()
        shown = self.msbuild.line(line, stripped)
        if shown is None:
            return (line,)
        if stripped.endswith("error TESTERROR:"):  # the terminal logger's failing test
            self._open_block(indent, vstest=False)
        return shown

    def _open_block(self, indent: int, passed: bool = False, vstest: bool = True) -> None:
        self.block = indent
        self.block_passed = passed
        self.block_vstest = vstest
        self.block_lines = 0

    def _block_line(self, line: str, stripped: str):
        if self.block_passed:  # `Standard Output Messages:` of a passing test
            self.counts["passed_output"] += 1
            return ()
        failed = _TL_FAILED.match(line)
        if failed is not None:
            self.reported.add(failed.group("name"))
        if stripped.startswith("at ") and " in " not in stripped:
            self.counts["frames"] += 1  # a framework frame: no source position
            return ()
        self.block_lines += 1
        if self.block_lines > _BLOCK_LIMIT:
            self.counts["block"] += 1
            return ()
        return (line,)

    def _xunit(self, line: str, rest: str):
        body = rest.strip()
        if body.endswith(" [FAIL]"):
            self.xunit_block = [line]
            self.xunit.append((body[:-len(" [FAIL]")], self.xunit_block))
            return ()
        if body.startswith(_XUNIT_PROGRESS) and rest.startswith(("  ", "x")) and \
                len(rest) - len(rest.lstrip()) <= 2:
            self.xunit_block = None
            self.counts["xunit_progress"] += 1
            return ()
        if self.xunit_block is not None:
            if len(self.xunit_block) < _BLOCK_LIMIT:
                self.xunit_block.append(line)
            else:
                self.counts["block"] += 1
            return ()
        return (line,)  # [SKIP] lines, test output xUnit.net printed on its own

    def _was_reported(self, name: str) -> bool:
        """VSTest names a test by its full name (xUnit.net) or by its method alone (MSTest)."""
        return name in self.reported or any(
            name.endswith("." + r) or r.endswith("." + name) for r in self.reported)

    def finish(self, exit_code: int):
        out = []
        for name, block in self.xunit:
            if self._was_reported(name):
                self.counts["xunit"] += len(block)
            else:
                out.extend(block)
        out.extend(self.msbuild.closing())
        kinds = (("passed", "passing tests"), ("passed_output", "output lines of passing tests"),
                 ("skipped", "more skipped tests"),
                 ("frames", "framework stack frames"), ("block", "more lines of failing tests"),
                 ("xunit", "xUnit.net lines said again by VSTest"),
                 ("xunit_progress", "xUnit.net progress lines"),
                 ("progress", "test progress lines"))
        for key, noun in kinds:
            if self.counts[key]:
                out.append(omitted(self.counts[key], noun))
        if self.msbuild.summary_repeats:
            self.dropped = True
        return out
