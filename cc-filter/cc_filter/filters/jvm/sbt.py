"""sbt (batch runs: `sbt test`, `sbt compile`, `sbt "testOnly x.Y"` …): compiler errors, failing
tests, the test summaries and the result of each task.

Keeps: every `[error]` and `[warn]` line (compiler messages `[error] /p/A.scala:6:11: …` with
their source and `^` lines, `[error] Failed tests:` and its list, `[error] (Test / test)
sbt.TestsFailedException: …`, `[error] Total time: …`); ScalaTest's failing tests
(`[info] - name *** FAILED ***` with the lines under it: the message and `(File.scala:57)`, the
project's own stack frames) and the suite and subject lines above them; munit's failing tests
(`==> X x.Suite.name  0.01s munit.ComparisonFailException: /p/T.scala:13 …` with the source
lines and frame under it) and its suite line; the summaries (`[info] Run completed in …`,
`[info] Tests: succeeded N, failed N, …`, `[info] All tests passed.`, `[info] *** 3 TESTS FAILED
***`, `[info] Passed: Total 4, …`); `[success] Total time: …`; anything it does not know
(a program's output, a prompt line).
Counted in `... (N … omitted)` markers: the setup lines (`[info] welcome to sbt`, `[info]
Loading …`, `[info] set current project …`, the sbt server's), dependency resolution
(`[info] Updating …`, `[info] Resolving …`, `Fetching artifacts`), compilation progress
(`[info] Compiling 2 Scala sources …`, `Done compiling.`, `Packaging …`), passing tests
(`[info] - name`, munit's `  + name 0.007s`) with the suite lines of suites that passed, and
library stack frames under a failing test (scala., java., sbt., org.scalatest., munit. …).
Not taken: `sbt` alone (the interactive shell), `~` watch tasks, and runs whose first task runs
a program (`run`, `runMain`, `reStart`, `console`, `shell`): they may never end.
"""
from cc_filter.kit.lines import LazyPattern, TrimmedLineFilter, omitted

_PREFIX = LazyPattern(r"^\[(?P<level>info|warn|error|success|debug)\] ?(?P<rest>.*)$")
_SETUP = ("welcome to sbt", "loading ", "Loading ", "set current project", "Set current project",
          "sbt server started", "started sbt server", "Executing in batch mode",
          "Reapplying settings", "Defining ", "The new value will be used",
          "Generated .bloop", "Getting ", "Starting sbt", "sbt server", "waiting for lock",
          "downloading sbt", "Downloading sbt")
_RESOLVE = ("Updating ", "Resolving ", "Done updating", "Fetching artifacts", "Fetched artifacts",
            "downloading ", "Downloading ", "Resolved ", "Fetching ", "Updated file ")
_COMPILE = ("Compiling ", "compiling ", "Done compiling", "done compiling", "Packaging ",
            "Done packaging", "Main Scala API documentation", "Main Java API documentation",
            "Wrote ", "Build triggered", "Formatting ", "Reformatted ", "Checking ")
_SUMMARY = ("Run completed in ", "Test run finished: ", "Total number of tests run:",
            "Suites: completed ",
            "Tests: succeeded ", "Tests: ", "All tests passed.", "*** ", "Passed: Total ",
            "Failed: Total ", "No tests were executed", "No tests to run", "ScalaTest",
            "Total for specification ", "Finished in ", "Error: Total ")
_SUITE = LazyPattern(r"^[A-Za-z_][\w.$]*:$")
_LIBRARY_FRAME = ("at scala.", "at java.", "at jdk.", "at sun.", "at sbt.", "at org.scalatest.",
                  "at munit.", "at org.scalacheck.", "at org.specs2.", "at zio.", "at cats.",
                  "at xsbt.", "at org.junit.", "at junit.", "at utest.")
_FRAME_LIMIT = 10
_PENDING_LIMIT = 20  # suite and subject lines held back until a test of them fails


class Sbt(TrimmedLineFilter):
    name = "sbt"
    match_command = (r"^(sbt|sbtn|\./sbt|sbt\.bat) (?!(?:-\S++ )*+[\"']?(?:run|runMain|reStart"
                     r"|bgRun|console|consoleQuick|shell)\b)(?![^~]*~)\S")
    description = "sbt: compiler errors, failing tests, test summaries, task results"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in ("-h", "--help", "--version", "-V", "about", "tasks",
                                     "settings", "help") for a in argv[1:])
        self.counts = {"setup": 0, "resolve": 0, "compile": 0, "passed": 0, "frames": 0,
                       "debug": 0}
        self.pending: list[str] = []  # suite / subject lines of the tests running now
        self.failing = False  # under a failing test: its detail lines are kept
        self.frames = 0
        self.in_tests = False  # a suite line was seen and its summary has not come yet

    def feed_trimmed(self, line: str, stripped: str):
        prefix = _PREFIX.match(line) if line.startswith("[") else None
        if prefix is None:
            return self._plain(line, stripped)
        level, rest = prefix.group("level"), prefix.group("rest")
        if level == "debug":
            self.counts["debug"] += 1
            return ()
        if level == "success" and rest.startswith(_SETUP):  # `[success] Generated .bloop/…`
            self.counts["setup"] += 1
            return ()
        if level in ("error", "warn", "success"):
            self.failing = self.failing and level == "error"
            return self._flush((line,)) if level == "error" and self.pending and \
                rest.startswith("x ") else (line,)
        body = rest.strip()
        indented = rest.startswith("  ")
        if indented and self.failing:
            return self._detail(line, body)
        self.failing = False
        if body.startswith(_SETUP):
            self.counts["setup"] += 1
            return ()
        if body.startswith(_RESOLVE):
            self.counts["resolve"] += 1
            return ()
        if body.startswith(_COMPILE):
            self.counts["compile"] += 1
            return ()
        if body.startswith("Test ") and body.endswith(" started"):  # junit-interface
            self.counts["passed"] += 1
            return ()
        if body.startswith(_SUMMARY):
            self._drop_pending()
            self.in_tests = False
            return (line,)
        if body.startswith("- ") or body.startswith("+ "):
            if body.endswith("*** FAILED ***") or "*** FAILED ***" in body:
                self.failing = True
                self.frames = 0
                return self._flush((line,))
            self.counts["passed"] += 1
            return ()
        if indented and self.in_tests:  # info under a passing test (`[info]   + counted …`)
            self.counts["passed"] += 1
            return ()
        if _SUITE.match(body):  # a new suite: the previous one's lines were all passing
            self._drop_pending()
            self.in_tests = True
        if self.in_tests and len(self.pending) < _PENDING_LIMIT:
            self.pending.append(line)  # a suite or subject line, or an [info] of the build
            return ()
        return self._flush((line,))

    def _plain(self, line: str, stripped: str):
        """Lines without a level prefix: munit's report, program output, prompts."""
        if stripped.startswith("==> X ") or stripped.startswith("==> "):
            self.failing = True
            self.frames = 0
            return self._flush((line,))
        if line.startswith("  + ") or line.startswith("  - "):  # munit: passing / ignored
            self.failing = False
            self.counts["passed"] += 1
            return ()
        if _SUITE.match(stripped) and not line.startswith(" "):
            self.failing = False
            self._drop_pending()
            self.in_tests = True
            self.pending.append(line)
            return ()
        if self.failing:
            return self._detail(line, stripped)
        return self._flush((line,))

    def _detail(self, line: str, body: str):
        if body.startswith("at "):
            if body.startswith(_LIBRARY_FRAME) or self.frames >= _FRAME_LIMIT:
                self.counts["frames"] += 1
                return ()
            self.frames += 1
        return (line,)

    def _flush(self, lines):
        if not self.pending:
            return lines
        pending, self.pending = self.pending, []
        return (*pending, *lines)

    def _drop_pending(self) -> None:
        """The held-back lines belonged to tests that passed: counted with them."""
        self.counts["passed"] += len(self.pending)
        self.pending = []

    def finish(self, exit_code: int):
        out = list(self.pending)  # lines held back at the end: shown, not lost
        self.pending = []
        kinds = (("setup", "sbt setup lines"), ("resolve", "dependency resolution lines"),
                 ("compile", "compilation progress lines"), ("passed", "passing test lines"),
                 ("frames", "library stack frames"), ("debug", "debug lines"))
        for key, noun in kinds:
            if self.counts[key]:
                out.append(omitted(self.counts[key], noun))
        return out
