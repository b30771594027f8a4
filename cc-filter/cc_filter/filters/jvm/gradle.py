"""Gradle (and its wrapper): compiler errors, failing tests, `What went wrong`, the build
result; task lines that did not fail, the daemon and JVM banners, progress, the `* Try:` advice
and the deprecation boilerplate dropped. Both the plain console (`> Task :test FAILED`) and
old Gradle's (`:test FAILED`) task lines are read.

Every line dropped is counted, one marker per kind at the end: `task lines` (tasks that did
not fail, `N actionable tasks`) and `Gradle and JVM boilerplate lines` (the JDK version,
daemon and deprecation notices, the `* Try:` advice, `Run with --stacktrace`, `Get more help`,
progress, the JVM's warnings about Gradle's test worker: one kind, as each marker costs what a
short line does). Not counted, because said again by what follows:
`FAILURE: Build failed with an exception.` (`BUILD FAILED`), `* What went wrong:` (a header)
and `> Compilation failed; see the compiler error output` (the compiler's errors are shown)."""
from cc_filter.kit.filter import Filter
from cc_filter.filters._tally import Tally
from cc_filter.kit.lines import LazyPattern, strip_ansi

_TASK = LazyPattern(r"^(> Task )?(:[\w:.-]+)( (UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE|"
                    r"NO-SOURCE|FAILED))?(?P<rest>\S.*)?$")
_NOISE = LazyPattern(
    r"^(?P<banner>openjdk version |OpenJDK (Runtime Environment|64-Bit Server VM)|Starting a "
    r"Gradle Daemon|Daemon will be stopped|To honour the JVM settings|Deprecated Gradle "
    r"features were used|You can use '--warning-mode all'|See https://docs\.gradle\.org/|For "
    r"more on this, please refer to|Incremental java compilation)"
    r"|(?P<advice>Run with --(stacktrace|info|debug|scan)|> Run with --|> Get more "
    r"help at|\* Get more help at|Get more help at https)"
    r"|(?P<progress><[-=]+>|> (Configure|Configuring|Initializing|Evaluating|IDLE)\b)"
    r"|(?P<tasks>\d+ actionable tasks?: )"
    # said again by what follows: `BUILD FAILED`, the compiler's own errors (not counted)
    r"|(FAILURE: Build failed with an exception\.|\* What went wrong:|> Compilation failed; "
    r"see the compiler error output|\s*$)")
_BOILERPLATE = "Gradle and JVM boilerplate lines"
_KINDS = {"banner": _BOILERPLATE, "advice": _BOILERPLATE, "progress": _BOILERPLATE,
          "tasks": "task lines"}
#: Warnings the JVM prints about Gradle's own test worker, not about the project.
_GRADLE_JVM_WARNING = LazyPattern(
    r"^WARNING: (A terminally deprecated method in java\.lang\.System|System::setSecurityManager"
    r"|Please consider reporting this to the maintainers of org\.gradle)")


class Gradle(Filter):
    name = "gradle"
    match_command = r"^(gradle|gradlew|\./gradlew|gradlew\.bat)(\s|$)"
    description = "Gradle: errors, failing tests, what went wrong and the build result"

    def __init__(self, argv):
        super().__init__(argv)
        self.in_try = False
        self.tally = Tally()
        self.glued = False  # the second half of a glued line: its raw line is counted once

    def _drop(self, kind: str) -> None:
        if not self.glued:
            self.tally.add(kind)

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if self.in_try:
            if not line.startswith("* ") and line.strip():
                self._drop(_BOILERPLATE)
                return
            self.in_try = False
        if line.startswith("* Try:"):
            self.in_try = True
            self._drop(_BOILERPLATE)
            return
        glued = line.find("WARNING: ") if line.startswith((":", "> Task :")) else -1
        if glued > 0:  # `:testWARNING: …`: a task line and the test worker's output glued
            yield from self.feed(line[:glued])
            self.glued = True
            try:
                yield from self.feed(line[glued:])
            finally:
                self.glued = False
            return
        task = _TASK.match(line)
        if task is not None and task.group(2):
            rest = task.group("rest")
            if rest and task.group(3) is None:  # old Gradle: `:compileJava/src/…: error: …`
                yield rest
            elif task.group(4) == "FAILED" or rest:
                yield line
            else:
                self._drop("task lines")
            return
        if line == " FAILED":  # old Gradle ends a glued task line so: `Execution failed` follows
            return
        noise = _NOISE.match(line)
        if noise is not None:
            kind = noise.lastgroup
            if kind in _KINDS:
                self._drop(_KINDS[kind])
            return
        if _GRADLE_JVM_WARNING.match(line):
            self._drop(_BOILERPLATE)
            return
        yield line

    def finish(self, exit_code):
        yield from self.tally.markers()
