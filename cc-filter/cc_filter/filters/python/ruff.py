"""ruff check / ruff format: every diagnostic as one `path:line:col: CODE message` line.

ruff's default ("full") output gives each diagnostic a block: a header (`F401 [*] \\`os\\`
imported but unused`, `invalid-syntax: …`, `unformatted: File would be reformatted`), a
` --> path:line:col` line, then a code snippet, `help:` and `note:` lines, up to a blank line.
The filter joins header and location into ruff's own concise shape (`app.py:1:8: F401 [*] …`),
and for `format --check` into `would reformat: path:line:col` (the first unformatted line); the
rest of the block goes, counted once before the summary: `... (258 snippet lines omitted)`
(the code excerpt and the suggested fix), `... (23 help lines omitted)` (`help:` and `note:`),
`... (32 diff lines omitted)` (format --check). Summary lines (`Found 22 errors.`, `[*] 10
fixable with \\`--fix\\` …`, `1 file would be reformatted`), `warning:` lines and anything else
unknown pass unchanged.

Nothing is injected. The user's own output shapes pass through untouched: `--output-format`
other than full/concise (json, github, …), `--diff`, `--statistics`, `--show-settings`,
`--show-files`, `--watch`. Tested with ruff 0.17.6 (concise lines of older versions have the same
shape and pass unchanged).
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._tally import Tally
from cc_filter.kit.lines import strip_ansi
from cc_filter.kit.options import asks_other_format

_PASSTHROUGH_FLAGS = ("--diff", "--statistics", "--show-settings", "--show-files", "--watch",
                      "-w", "--help", "-h")
_OWN_FORMATS = ("full", "concise")
_UNFORMATTED = "unformatted: File would be reformatted"


def _passthrough(argv: list[str]) -> bool:
    return (any(word in _PASSTHROUGH_FLAGS for word in argv)
            or asks_other_format(argv, None, "--output-format", _OWN_FORMATS))


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
        self.block_kind = "snippet lines"  # or "diff lines" (format --check)
        self.cut = Tally()  # block lines dropped since the last markers, by kind

    def feed(self, line: str):
        line = strip_ansi(line)
        if self.passthrough:
            return (line,)
        if self.in_block:
            if not line.strip():
                self.in_block = False
            else:
                self.cut.add("help lines" if line.startswith(("help:", "note:"))
                             else self.block_kind)
            return ()
        location = _location(line)
        if location is not None and self.pending is not None:
            header, self.pending = self.pending, None
            self.in_block = True
            if header == _UNFORMATTED:
                self.block_kind = "diff lines"
                return (f"would reformat: {location}",)
            self.block_kind = "snippet lines"
            return (f"{location}: {header}",)
        out = []
        if self.pending is not None:
            out.extend(self.cut.markers())  # once, before the summary
            out.append(self.pending)
            self.pending = None
        if line.strip():
            self.pending = line
        return out

    def finish(self, exit_code: int):
        out = self.cut.markers()
        if self.pending is not None:
            out.append(self.pending)
        return out
