"""pyright: every diagnostic with its `file:line:col`, rule and explanation, and the summary.

Keeps: each `path:line:col - error|warning|information: message (rule)` line and the indented
lines that continue it, the `N errors, N warnings, N informations` summary verbatim, and
unrecognised lines (configuration errors).
Drops: the per-file header lines (every diagnostic repeats its file), `--verbose` setup output
(search paths, auto-excludes, "Could not import … in file …typeshed…", timing), "No
configuration file found.", blank lines; the setup lines are counted at the end (`... (26
setup lines omitted)`; a file header is not: each diagnostic under it names the file).
Paths are shown relative to the project root: the
part of the absolute path before a relative path argument (`pyright src` → `src/a.py:3:5`),
else the current directory. Passes everything through for `--outputjson` / `--version` / `--help`.
Injects nothing. Tested with pyright 1.1.414 (the PyPI wrapper, running Node 20); basedpyright
prints the same layout.
"""
from ctxcrl import lean_os as os

from cc_filter.kit.lines import LazyPattern, TrimmedLineFilter, omitted

_SETUP_PREFIXES = (
    "No configuration file found", "Loading configuration file", "Loading pyproject.toml",
    "pyproject.toml file found", "Auto-excluding", "Assuming Python", "Execution environment:",
    "Found ", "Could not import ", "Completed in", "No include entries specified",
    "Searching for source files", "Received ", "Using python", "Setting pythonPath",
    "No source files found", "pyright ", "basedpyright ", "Extra paths", "Python version",
    "Python platform", "Search paths", "Root directory", "Looking for", "Finding ", "Checking ",
    "Binding ", "Emitting ", "Long operation", "Heap size", "Heap stats", "Watching ",
)

_DIAGNOSTIC = LazyPattern(r"^ *(\S.*?):(\d+):(\d+) - (error|warning|information): ")


class Pyright(TrimmedLineFilter):
    name = "pyright"
    match_command = r"^(pyright|basedpyright)(\s|$)"
    description = "pyright: diagnostics with file:line:col and rule, setup noise dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in ("--outputjson", "--version", "--help", "-h") for a in argv)
        self.in_diagnostic = False
        # Relative path arguments (`pyright src`) tell where the project root is in the absolute
        # paths pyright prints: `/home/me/proj/src/a.py` with `src` → root `/home/me/proj/`.
        self.targets = [a.strip("/").removeprefix("./") for a in argv[1:]
                        if not a.startswith(("-", "/")) and a not in (".", "./")]
        self.root = ""
        self.setup = 0    # --verbose setup output, "No configuration file found." dropped
        if not self.targets:
            try:
                self.root = os.getcwd().rstrip("/") + "/"
            except OSError:
                pass

    def _find_root(self, path: str) -> None:
        for target in self.targets:
            at = path.find("/" + target + "/")
            if at < 0 and path.endswith("/" + target):
                at = len(path) - len(target) - 1
            if at >= 0:
                self.root = path[:at + 1]
                return

    def _rel(self, text: str) -> str:
        if self.root and self.root in text:
            return text.replace(self.root, "")
        return text

    def feed_trimmed(self, line: str, stripped: str):
        match = _DIAGNOSTIC.match(line)
        if match:
            if not self.root and match.group(1).startswith("/"):
                self._find_root(match.group(1))
            self.in_diagnostic = True
            yield self._rel(stripped)
            return
        if self.in_diagnostic and line[0] == " ":
            yield "  " + stripped  # the explanation under a diagnostic
            return
        self.in_diagnostic = False
        if stripped[0].isdigit() and " error" in stripped and " warning" in stripped:
            yield stripped
            return
        if line.startswith(" ") or stripped.startswith(_SETUP_PREFIXES):
            self.setup += 1
            return
        if stripped.startswith("/") and " " not in stripped:
            return  # the header naming the file the next diagnostics belong to
        yield self._rel(line)

    def finish(self, exit_code: int):
        if self.passthrough:
            return ()
        return (omitted(self.setup, "setup lines"),) if self.setup else ()
