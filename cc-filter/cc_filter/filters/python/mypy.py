"""mypy: every error with its `file:line`, error code and notes, and the closing summary.

Keeps: each `path:line: error: message  [code]` (and `warning:`), the notes that belong to an
error, `Found N errors in M files (checked K source files)` / `Success: no issues found in N
source files` verbatim, anything unrecognised (mypy's own usage errors).
Compacts: `--pretty` output back to one line per message (wrapped lines joined, the source
excerpt and `^~~~` markers dropped); within a file, an error message repeated 3 times or more
(`--strict` on untyped code: "Function is missing a type annotation") becomes one line listing
every line number: `path: error: message  [code] ×10 at lines 1, 6, 11, …`; messages that
differ only in their quoted names are folded the same way with the names kept:
`path: error: Call to untyped function "…" in typed context  [no-untyped-call] ×6 at 8 "parse",
40 "load", …`.
Drops: `-v` LOG/TRACE lines.
Passes everything through for machine formats the user asked for (`-O json`, `--output`).
Injects nothing. Tested with mypy 2.4.1 (compiled) on Python 3.11 (plain, --pretty, --strict,
syntax errors); the line format is the same in mypy 1.x.
"""
from cc_filter.lines import LazyPattern, TrimmedLineFilter

_GROUP_MIN = 3

_QUOTED = LazyPattern(r'"[^"]*"')
_MESSAGE = LazyPattern(r"^([^\s:][^:]*?):(\d+)((?::\d+)*): (error|warning|note): (.*)$")


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
    description = "mypy: errors with file:line and codes; --pretty excerpts and repeats folded"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in ("-O", "--output") or a.startswith("--output=") for a in argv)
        self.entries: list[_Entry] = []
        self.last: _Entry | None = None  # the message wrapped lines are joined to (--pretty)
        self.last_note_owner: _Entry | None = None  # the entry whose last note `last` is
        self.in_excerpt = False

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
        groups: dict[tuple, list[tuple[_Entry, list[str]]]] = {}
        keys = []
        for entry in entries:
            key = None
            if entry.severity != "note" and not entry.notes:
                template, values = _template(entry.text)
                key = (entry.severity, template)
                groups.setdefault(key, []).append((entry, values))
            keys.append(key)
        for entry, key in zip(entries, keys):
            same = groups.get(key, ()) if key else ()
            if len(same) < _GROUP_MIN:
                yield from entry.render()
                continue
            if same[0][0] is not entry:
                continue
            if all(e.text == entry.text for e, _ in same):
                where = ", ".join(e.where for e, _ in same)
                yield f"{entry.path}: {entry.severity}: {entry.text} ×{len(same)} at lines {where}"
            else:
                where = ", ".join(
                    e.where + " " + ", ".join(f'"{v}"' for v in values) for e, values in same)
                yield f"{entry.path}: {entry.severity}: {key[1]} ×{len(same)} at {where}"

    def finish(self, exit_code: int):
        yield from self._flush()
