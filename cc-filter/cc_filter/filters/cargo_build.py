"""cargo build / check / clippy (and rustc): errors first, then warnings, then cargo's summary.

Every `error[E…]` keeps its code, message and `path:line:col` on one line, followed by its
primary label and `help:` lines; every warning becomes one line with its lint name; cargo's
`warning: … generated N warnings`, `error: could not compile …` and `Finished …` lines stay
verbatim. Compile progress (`Compiling foo v0.1.0 (…)`), source excerpts, `^^^` markers,
`= note:` / `= help:` lines and duplicate diagnostics go (see `_rustc.py`).
Passes everything through for `--message-format=json…` and for listings (`--help`, `-V`).
Injects nothing. Tested with cargo / rustc / clippy 1.95.0 (build, check, clippy, clippy
`-- -D warnings`, --release, --color=always); the human format has been stable since 1.40.
"""
from cc_filter.filter import Filter
from cc_filter.filters._rustc import RustDiagnostics
from cc_filter.lines import strip_ansi


def machine_format(argv: list[str]) -> bool:
    """True when the user asked cargo for JSON messages or a listing: pass it through."""
    for i, arg in enumerate(argv):
        if arg.startswith("--message-format=json") or (
                arg == "--message-format" and i + 1 < len(argv) and argv[i + 1].startswith("json")):
            return True
        if arg in ("--help", "-h", "-V", "--version", "--list"):
            return True
        if arg == "--format" and i + 1 < len(argv) and argv[i + 1] in ("json", "junit", "terse"):
            return True
    return False


class CargoBuild(Filter):
    name = "cargo-build"
    match_command = r"^(cargo (build|b|check|c|clippy|rustc|fix)|rustc|clippy-driver)(\s|$)"
    description = "cargo build/check/clippy: errors with code and location, warnings one line each"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = machine_format(argv)
        self.diagnostics = RustDiagnostics()

    def feed(self, line: str):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            yield line
            return
        if not self.diagnostics.feed(line) and line.strip():
            yield line
        yield from self.diagnostics.drain()

    def finish(self, exit_code: int):
        yield from self.diagnostics.finish()
