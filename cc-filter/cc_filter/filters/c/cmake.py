"""cmake: configure (`cmake -S . -B build`) and build (`cmake --build build`), whichever
generator runs underneath (make or ninja): the make filter's rules (compiler diagnostics
grouped, recipe output kept on failure, echoed commands counted) plus ninja's and CMake's own
lines — `[3/14] Building C object …` / `[ 28%] Built target x` progress counted in one marker
naming its verbs (`... (20 Building/Linking/Built target lines omitted)`), `FAILED: <target>`
and `ninja: build stopped` kept, configure chatter (`-- Detecting C compiler ABI info`)
dropped and counted (`configure check lines`), `CMake Error` / `CMake Warning` blocks kept
whole."""
from cc_filter.filters.c.make import DIRECTORIES, Make
from cc_filter.kit.lines import LazyPattern

_PROGRESS = LazyPattern(r"^\[\s*(\d+/\d+|\d+%)\] |^(Scanning dependencies of target|"
                        r"Consolidate compiler generated dependencies of target) ")
_CONFIGURE_NOISE = LazyPattern(
    r"^-- (The (C|CXX|Fortran|CUDA|ASM) compiler identification|Detecting |Check for working |"
    r"Looking for |Performing Test |Found (PkgConfig|Threads)|Check if compiler accepts|"
    r"Checking whether |Configuring done|Generating done)")
_KEPT_TOOL_LINE = LazyPattern(r"^(FAILED: |ninja: (build stopped|error|fatal|warning|no work)|"
                              r"CMake (Error|Warning|Deprecation)|-- (Configuring incomplete|"
                              r"Build files have been written))")


def _verb(stripped: str) -> str:
    """`[ 14%] Building C object …` → `Building`; `Built target x` → `Built target`."""
    words = stripped.split("] ", 1)[-1].split(" ", 2) if stripped.startswith("[") \
        else stripped.split(" ", 2)
    return " ".join(words[:2]) if words[0] in ("Built", "Scanning") else words[0]


class Cmake(Make):
    name = "cmake"
    match_command = r"^cmake(\s|$)"
    description = "cmake configure and build (make or ninja underneath): errors kept, progress counted"

    def feed_trimmed(self, line: str, stripped: str):
        if _KEPT_TOOL_LINE.match(stripped):
            self.messages.append((len(self.output) + self.output_dropped, stripped))
            self.diagnostics.interrupt()
            return
        if stripped.startswith("ninja: Entering directory"):
            self.tally.add(DIRECTORIES)
            return
        if _PROGRESS.match(stripped):
            verb = _verb(stripped)
            self.progress[verb] = self.progress.get(verb, 0) + 1
            self.last_step = (verb, stripped)
            return
        if _CONFIGURE_NOISE.match(stripped):
            self.tally.add("configure check lines")
            return
        yield from super().feed_trimmed(line, stripped) or ()
