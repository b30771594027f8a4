"""gcc / g++ / cc / c++ / clang / clang++: diagnostics grouped, errors first.

Every error and warning stays on one line `path:line:col: error: message [-Wflag]` (errors
with up to 3 of their notes, indented), linker errors (`undefined reference to …`,
`collect2: error: ld returned 1 exit status`) and the compiler's summary stay verbatim; source
excerpts, `^~~~` markers, fix-its and `In function …` context lines go, counted in a marker
per kind at the end (`... (14 excerpt and context lines omitted)`; see `_ccdiag.py`).
Unrecognised lines (`gcc: error: x.c: No such file or directory`) stay.
Passes everything through when the output is not diagnostics: `-E`, `-M`/`-MM`, `-###`, `-v`,
`--version`, `--help`, `-dump…`, `-print-…`, `-fdiagnostics-format=…` (sarif / json).
Injects nothing. Tested with gcc / g++ 12.2.0 and clang 14.0.6 (Debian bookworm): C errors,
-Wall -Wextra warnings, linker errors, C++ conversion errors.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters.c._ccdiag import CDiagnostics
from cc_filter.kit.lines import strip_ansi

_PASSTHROUGH = frozenset(("-E", "-M", "-MM", "-###", "-v", "--version", "--help", "-dumpversion",
                          "-dumpmachine", "-dumpspecs", "-print-search-dirs"))


class Gcc(Filter):
    name = "gcc"
    match_command = r"^(gcc|g\+\+|cc|c\+\+|clang|clang\+\+)(-[0-9.]+)?(\s|$)"
    description = "gcc/g++/clang: errors and warnings one line each, excerpts dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(
            a in _PASSTHROUGH or a.startswith(("-print-", "-fdiagnostics-format=")) for a in argv)
        self.diagnostics = CDiagnostics()

    def feed(self, line: str):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            yield line
            return
        if not self.diagnostics.feed(line) and line.strip():
            yield line

    def finish(self, exit_code: int):
        yield from self.diagnostics.finish()
