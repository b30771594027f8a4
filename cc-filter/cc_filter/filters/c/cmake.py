"""cmake: configure (`cmake -S . -B build`) and build (`cmake --build build`), whichever
generator runs underneath (make or ninja): the make filter's rules (compiler diagnostics
grouped, recipe output kept on failure, echoed commands counted) plus ninja's and CMake's own
lines — `[3/14] Building C object …` / `[ 28%] Built target x` progress counted as build
commands, `FAILED: <target>` and `ninja: build stopped` kept, configure chatter (`-- Detecting
C compiler ABI info`) dropped, `CMake Error` / `CMake Warning` blocks kept whole."""
from cc_filter.filters.c.make import Make
from cc_filter.lines import LazyPattern

_PROGRESS = LazyPattern(r"^\[\s*(\d+/\d+|\d+%)\] |^(Scanning dependencies of target|"
                        r"Consolidate compiler generated dependencies of target) ")
_CONFIGURE_NOISE = LazyPattern(
    r"^-- (The (C|CXX|Fortran|CUDA|ASM) compiler identification|Detecting |Check for working |"
    r"Looking for |Performing Test |Found (PkgConfig|Threads)|Check if compiler accepts|"
    r"Checking whether |Configuring done|Generating done)")
_KEPT_TOOL_LINE = LazyPattern(r"^(FAILED: |ninja: (build stopped|error|fatal|warning|no work)|"
                              r"CMake (Error|Warning|Deprecation)|-- (Configuring incomplete|"
                              r"Build files have been written))")


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
            return
        if _PROGRESS.match(stripped):
            self.commands += 1
            return
        if _CONFIGURE_NOISE.match(stripped):
            return
        yield from super().feed_trimmed(line, stripped) or ()
