"""mypy: every error with its `file:line`, error code and notes, and the closing summary.

Keeps: each `path:line: error: message  [code]` (and `warning:`), the notes that belong to an
error, `Found N errors in M files (checked K source files)` / `Success: no issues found in N
source files` verbatim, anything unrecognised (mypy's own usage errors).
Compacts: `--pretty` output back to one line per message (wrapped lines joined, the source
excerpt and `^~~~` markers dropped and counted: `... (6 source excerpt lines omitted)`); every
error stays on its own line with its `path:line`, but a message shown before under the same
code (`--strict` on untyped code: "Function is missing a type annotation") says
`path:12: error: (no-untyped-def, as above)` (`as at path:1` when another message of that
code came between), and one that differs from an earlier one only
in its quoted name keeps the name: `path:40: error: "load" (no-untyped-call, as above)`.
Drops: `-v` LOG/TRACE lines.
Passes everything through for machine formats the user asked for (`-O json`, `--output`).
Injects nothing. Tested with mypy 2.4.1 (compiled) on Python 3.11 (plain, --pretty, --strict,
syntax errors); the line format is the same in mypy 1.x.
"""
from cc_filter.filters._lint_report import Repeats
from cc_filter.kit.lines import LazyPattern, TrimmedLineFilter, omitted

_QUOTED = LazyPattern(r'"[^"]*"')
_MESSAGE = LazyPattern(r"^([^\s:][^:]*?):(\d+)((?::\d+)*): (error|warning|note): (.*)$")
_CODED = LazyPattern(r"^(.*\S)  \[([\w-]+)\]$")  # `message  [code]`


def _template(text: str) -> tuple[str, list[str]]:
    """`Call to untyped function "load" in typed context` → (`… function "…" in …`, ["load"])."""
    if '"' not in text:
        return text, []
    values = [m[1:-1] for m in _QUOTED.compiled.findall(text)]
    return _QUOTED.sub('"…"', text), values


class _Entry:
    __slots__ = ("path", "where", "severity", "text", "notes")

    def __init__(self, path, where, severity, text):
        self.path = path
        self.where = where  # "12" or "12:5" (with --show-column-numbers)
        self.severity = severity
        self.text = text
        self.notes: list[str] = []

    def render(self) -> list[str]:
        return [f"{self.path}:{self.where}: {self.severity}: {self.text}", *self.notes]


class Mypy(TrimmedLineFilter):
    name = "mypy"
    match_command = r"^(mypy|dmypy (run|check))(\s|$)"
    description = "mypy: every error with file:line and code; --pretty excerpts counted, repeats as above"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in ("-O", "--output") or a.startswith("--output=") for a in argv)
        self.entries: list[_Entry] = []
        self.last: _Entry | None = None  # the message wrapped lines are joined to (--pretty)
        self.last_note_owner: _Entry | None = None  # the entry whose last note `last` is
        self.in_excerpt = False
        self.excerpt = 0  # --pretty source excerpt and `^~~~` lines dropped (since the last flush)
        self.repeats = Repeats()  # keys (severity, code, message or its template) shown

    def feed_trimmed(self, line: str, stripped: str):
        if line.startswith(("LOG:", "TRACE:")):
            return
        match = _MESSAGE.match(line)
        if match:
            path, lineno, cols, severity, text = match.groups()
            self.in_excerpt = False
            if self.entries and self.entries[-1].path != path:
                yield from self._flush()
            entry = _Entry(path, lineno + cols, severity, text)
            previous = self.entries[-1] if self.entries else None
            if severity == "note" and previous is not None and previous.path == path:
                previous.notes.append(f"{path}:{entry.where}: note: {text}")
                self.last = entry
                self.last_note_owner = previous
            else:
                self.entries.append(entry)
                self.last = entry
                self.last_note_owner = None
            return
        if line.startswith(("Found ", "Success: ")) or line.startswith("Summary"):
            yield from self._flush()
            yield line
            return
        if line.startswith("    ") or not line.strip(" ^~"):
            self.in_excerpt = True  # --pretty: the source line and its markers
            self.excerpt += 1
            return
        if self.last is not None and not self.in_excerpt:
            self._join(line)  # --pretty wrapped the message at the terminal width
            return
        yield from self._flush()
        yield line

    def _join(self, line: str) -> None:
        owner = self.last_note_owner
        if owner is not None and owner.notes:
            owner.notes[-1] += " " + line
        else:
            self.last.text += " " + line

    def _flush(self):
        entries, self.entries = self.entries, []
        self.last = None
        for entry in entries:
            yield from self._render(entry)
        if self.excerpt:
            yield omitted(self.excerpt, "source excerpt lines")
            self.excerpt = 0

    def _render(self, entry: _Entry):
        """The entry's lines; a message (or message template) with a code shown before: the
        place and `(code, as above)` (the quoted name kept when it differs), or `(code, as at
        path:line)` when the code was shown with another message since (then "above" would not
        say which)."""
        coded = _CODED.match(entry.text) if entry.severity != "note" and not entry.notes else None
        if coded is None:
            self.repeats.other()
            yield from entry.render()
            return
        message, code = coded.groups()
        head = f"{entry.path}:{entry.where}: {entry.severity}: "
        key = (entry.severity, code, message)
        if key in self.repeats:
            yield f"{head}({code}, {self.repeats.again(key)})"
            return
        template, values = _template(message)
        like = (entry.severity, code, template)
        if len(values) == 1 and like in self.repeats:
            yield f'{head}"{values[0]}" ({code}, {self.repeats.again(like)})'
            return
        place = f"{entry.path}:{entry.where}"
        self.repeats.shown(place, *((key, like) if len(values) == 1 else (key,)))
        yield from entry.render()

    def finish(self, exit_code: int):
        yield from self._flush()
