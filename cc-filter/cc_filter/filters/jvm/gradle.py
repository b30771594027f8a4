"""Gradle (and its wrapper): compiler errors, failing tests, `What went wrong`, the build
result; task lines that did not fail, the daemon and JVM banners, progress, the `* Try:` advice
and the deprecation boilerplate dropped. Both the plain console (`> Task :test FAILED`) and
old Gradle's (`:test FAILED`) task lines are read."""
from cc_filter.filter import Filter
from cc_filter.lines import LazyPattern, strip_ansi

_TASK = LazyPattern(r"^(> Task )?(:[\w:.-]+)( (UP-TO-DATE|NO-SOURCE|SKIPPED|FROM-CACHE|"
                    r"NO-SOURCE|FAILED))?(?P<rest>\S.*)?$")
_NOISE = LazyPattern(
    r"^(openjdk version |OpenJDK (Runtime Environment|64-Bit Server VM)|Starting a Gradle "
    r"Daemon|Daemon will be stopped|To honour the JVM settings|Deprecated Gradle features "
    r"were used|You can use '--warning-mode all'|See https://docs\.gradle\.org/|For more on "
    r"this, please refer to|Run with --(stacktrace|info|debug|scan)|> Run with --|> Get more "
    r"help at|\* Get more help at|Get more help at https|Incremental java compilation|"
    r"<[-=]+>|> (Configure|Configuring|Initializing|Evaluating|IDLE)\b|"
    # said again by what follows: `BUILD FAILED`, the compiler's own errors, the task counts
    r"FAILURE: Build failed with an exception\.|\* What went wrong:|> Compilation failed; see "
    r"the compiler error output|\d+ actionable tasks?: |\s*$)")
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

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if self.in_try:
            if not line.startswith("* ") and line.strip():
                return
            self.in_try = False
        if line.startswith("* Try:"):
            self.in_try = True
            return
        glued = line.find("WARNING: ") if line.startswith((":", "> Task :")) else -1
        if glued > 0:  # `:testWARNING: …`: a task line and the test worker's output glued
            yield from self.feed(line[:glued])
            yield from self.feed(line[glued:])
            return
        task = _TASK.match(line)
        if task is not None and task.group(2):
            rest = task.group("rest")
            if rest and task.group(3) is None:  # old Gradle: `:compileJava/src/…: error: …`
                yield rest
            elif task.group(4) == "FAILED" or rest:
                yield line
            return
        if line == " FAILED":  # old Gradle ends a glued task line so: `Execution failed` follows
            return
        if _NOISE.match(line) or _GRADLE_JVM_WARNING.match(line):
            return
        yield line
