"""bloop compile / bloop test (the Scala build server's CLI): every diagnostic, failing tests,
the test counts and verdicts, and which projects compiled.

bloop's output is not sbt's: no `[info]` prefix, diagnostics as `[E] [E1] a/B.scala:3:21`
blocks (`[E]`/`[W]` lines with the message, the source line and the caret), a per-file
summary `[E] a/B.scala: L3 [E1], L5 [E2]` and `[E] Failed to compile 'b-test'`. Kept: every
`[E]`/`[W]` line; a failing test (`- name *** FAILED ***`) with the lines under it and its
suite's line; the counts (`1 tests, 1 passed`), `All tests in X passed`, `All 1 test suites
passed.`; `Watching …`; anything this filter does not know. The `Compiled foo (290ms)` lines
become one `compiled: foo, foo-test` line (the projects that did not fail to compile; bloop
prints `Compiled` for those too). Counted in one marker each: the `Compiling foo (1 Scala
source)` lines and the compiler bridge's setup (`... (N compile progress lines omitted)`),
passing tests (`- name`) and the suite lines of suites that passed (`... (N passing test and
suite lines omitted)`), `Execution took 19ms`, `Total duration: …` and the `=====` banner lines
(`... (N timing and banner lines omitted)`).

Not taken: `-w`/`--watch` runs (they never end), `bloop run` (a program), `bloop server`.
"""
from cc_filter.kit.lines import LazyPattern, TrimmedLineFilter, omitted

_COMPILED = LazyPattern(r"^Compiled (\S+) \(\d+ms\)$")
_COMPILING = LazyPattern(r"^(Compiling \S+ \(\d+ \w+ sources?( and \d+ \w+ sources?)?\)"
                         r"|Non-compiled module '[^']+' for Scala \S+ Compiling\.\.\."
                         r"|Compilation completed in \S+)$")
_FAILED_COMPILE = LazyPattern(r"^\[E\] Failed to compile (.+)$")
_SUITE = LazyPattern(r"^[\w.$]+:$")
_FAILING_TEST = LazyPattern(r"^- .* \*\*\* FAILED \*\*\*$")
_TIMING = LazyPattern(r"^(Execution took \S+|Total duration: \S+|=+)$")


class Bloop(TrimmedLineFilter):
    name = "bloop"
    match_command = r"^bloop (compile|test)(?!.*\s(-w|--watch)(\s|$))(\s|$)"
    description = "bloop compile / test: diagnostics, failing tests, counts; progress dropped"

    def __init__(self, argv):
        super().__init__(argv)
        self.compiled: list[str] = []
        self.failed: set[str] = set()
        self.progress = self.passing = self.timing = 0
        self.suite: str | None = None  # a suite line not shown yet
        self.in_failure = False  # the lines under a failing test are kept

    def feed_trimmed(self, line, stripped):
        if line != stripped and self.in_failure:
            return (line,)
        self.in_failure = False
        m = _COMPILED.match(stripped)
        if m:
            self.compiled.append(m.group(1))
            return None
        if _COMPILING.match(stripped):
            self.progress += 1
            return None
        m = _FAILED_COMPILE.match(stripped)
        if m:
            self.failed.update(p.strip("'") for p in m.group(1).split(","))
            return (line,)
        if _TIMING.match(stripped):
            self.timing += 1
            return None
        if _SUITE.match(stripped):
            self._suite_passed()
            self.suite = line
            return None
        if _FAILING_TEST.match(stripped):
            self.in_failure = True
            out = [line] if self.suite is None else [self.suite, line]
            self.suite = None
            return out
        if stripped.startswith("- "):
            self.passing += 1
            return None
        return (line,)

    def _suite_passed(self):
        if self.suite is not None:
            self.passing += 1
            self.suite = None

    def finish(self, exit_code):
        self._suite_passed()
        done = [p for p in self.compiled if p not in self.failed]
        if done:
            yield "compiled: " + ", ".join(done)
        for count, what in ((self.progress, "compile progress lines"),
                            (self.passing, "passing test and suite lines"),
                            (self.timing, "timing and banner lines")):
            if count:
                yield omitted(count, what)
