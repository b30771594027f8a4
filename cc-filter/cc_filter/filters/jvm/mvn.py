"""Maven: the module being built, compiler errors and warnings, failing tests with their first
stack frames, the test totals and the build result; plugin banners, `[INFO]` chatter,
download progress and the `[Help 1]` boilerplate dropped.

`[INFO] x` is shown as `x`, `[ERROR] x` as `ERROR: x`. Every line dropped is counted: the
framework's stack frames where they were (`... (12 stack frames omitted)`), the rest in one
marker per kind at the end: `[INFO] lines` (plugin banners, separators, chatter such as
`Nothing to compile - all classes are up to date`), `[DEBUG]
lines`, `[ERROR] help lines` (`[Help 1]`, `Re-run Maven using the -X switch` …), `download
lines`. Blank `[INFO]` / `[ERROR]` lines carry nothing and are not counted."""
from cc_filter.kit.filter import Filter
from cc_filter.filters._tally import Tally
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

_LEVEL = LazyPattern(r"^\[(INFO|WARNING|WARN|ERROR|DEBUG)\] ?(.*)$")
_KEEP_INFO = LazyPattern(
    r"^(BUILD (SUCCESS|FAILURE)|Tests run:|Building (?!jar:|war:)\S|Reactor Summary|"
    r"\S.* (SUCCESS|FAILURE|SKIPPED) \[|Total time:|Running \S|"
    r"Compiling \d+ source|COMPILATION (ERROR|WARNING)|\d+ (errors?|warnings?)\s*$)")
_BOILERPLATE = LazyPattern(
    r"^(To see the full stack trace|Re-run Maven using|For more information about the errors|"
    r"\[Help \d+\] http|-> \[Help \d+\]|Please refer to dump files|$)")
_NOISE = LazyPattern(r"^(Download(ing|ed) from |Progress \(\d+\)|\s*$)")
_FRAMEWORK_FRAME = LazyPattern(
    r"^\s+at (java\.base/|jdk\.internal\.|java\.lang\.reflect\.|sun\.reflect\.|org\.junit\.|"
    r"junit\.|org\.apache\.maven\.|org\.codehaus\.plexus\.|org\.gradle\.|worker\.org\.gradle)")


class Mvn(Filter):
    name = "mvn"
    match_command = r"^(mvn|mvnw|\./mvnw|mvnd)(\s|$)"
    description = "Maven: errors, failing tests, totals and the build result"

    def __init__(self, argv):
        super().__init__(argv)
        self.frames_dropped = 0
        self.tally = Tally()

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        m = _LEVEL.match(line)
        if m is None:
            yield from self._plain(line)
            return
        level, text = m.group(1), m.group(2)
        if level == "DEBUG":
            self.tally.add("[DEBUG] lines")
            return
        if self.frames_dropped:
            yield omitted(self.frames_dropped, "stack frames")
            self.frames_dropped = 0
        if level == "INFO":
            stripped = text.strip()
            if _KEEP_INFO.match(stripped):
                yield text
            elif stripped:
                self.tally.add("[INFO] lines")
            return
        if level == "ERROR" and _BOILERPLATE.match(text.strip()):
            if text.strip():
                self.tally.add("[ERROR] help lines")
            return
        yield f"{level}: {text}" if level != "ERROR" else f"ERROR: {text}"

    def _plain(self, line: str):
        if _NOISE.match(line):
            if line.strip():
                self.tally.add("download lines")
            return
        if _FRAMEWORK_FRAME.match(line):
            self.frames_dropped += 1
            return
        if self.frames_dropped:
            yield omitted(self.frames_dropped, "stack frames")
            self.frames_dropped = 0
        yield line

    def finish(self, exit_code):
        if self.frames_dropped:
            yield omitted(self.frames_dropped, "stack frames")
            self.frames_dropped = 0
        yield from self.tally.markers()
