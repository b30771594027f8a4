"""ruff check / ruff format: every diagnostic as one `path:line:col: CODE message` line.

ruff's default ("full") output gives each diagnostic a block: a header (`F401 [*] \\`os\\`
imported but unused`, `invalid-syntax: …`, `unformatted: File would be reformatted`), a
` --> path:line:col` line, then a code snippet, `help:` and `note:` lines, up to a blank line.
The filter joins header and location into ruff's own concise shape (`app.py:1:8: F401 [*] …`),
and for `format --check` into `would reformat: path`; the snippet block goes. Summary lines
(`Found 22 errors.`, `[*] 10 fixable with \\`--fix\\` …`, `1 file would be reformatted`),
`warning:` lines and anything else unknown pass unchanged.

Nothing is injected. The user's own output shapes pass through untouched: `--output-format`
other than full/concise (json, github, …), `--diff`, `--statistics`, `--show-settings`,
`--show-files`, `--watch`. Tested with ruff 0.17.6 (concise lines of older versions have the same
shape and pass unchanged).
"""
from cc_filter.filter import Filter
from cc_filter.lines import strip_ansi

_PASSTHROUGH_FLAGS = ("--diff", "--statistics", "--show-settings", "--show-files", "--watch",
                      "-w", "--help", "-h")
_OWN_FORMATS = ("full", "concise")
_UNFORMATTED = "unformatted: File would be reformatted"


def _passthrough(argv: list[str]) -> bool:
    for i, word in enumerate(argv):
        if word in _PASSTHROUGH_FLAGS:
            return True
        if word == "--output-format" and i + 1 < len(argv) and argv[i + 1] not in _OWN_FORMATS:
            return True
        if word.startswith("--output-format=") and word.split("=", 1)[1] not in _OWN_FORMATS:
            return True
    return False


def _location(line: str) -> str | None:
    """` --> app.py:1:8` → `app.py:1:8`; None for any other line."""
    text = line.lstrip(" ")
    if text.startswith("--> "):
        return text[4:].strip()
    return None


class Ruff(Filter):
    name = "ruff"
    match_command = r"^ruff (check|format)(\s|$)"
    description = "ruff check/format: one line per diagnostic, snippets dropped"
    on_empty = "ruff: ok"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = _passthrough(argv)
        self.pending: str | None = None
        self.in_block = False

    def feed(self, line: str):
        line = strip_ansi(line)
        if self.passthrough:
            return (line,)
        if self.in_block:
            if not line.strip():
                self.in_block = False
            return ()
        location = _location(line)
        if location is not None and self.pending is not None:
            header, self.pending = self.pending, None
            self.in_block = True
            if header == _UNFORMATTED:
                return (f"would reformat: {location.rsplit(':', 2)[0]}",)
            return (f"{location}: {header}",)
        out = []
        if self.pending is not None:
            out.append(self.pending)
            self.pending = None
        if line.strip():
            self.pending = line
        return out

    def finish(self, exit_code: int):
        if self.pending is not None:
            return (self.pending,)
        return ()
