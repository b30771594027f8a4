"""gcc / g++ / clang diagnostics, shared by the gcc and make filters.

`CDiagnostics.feed(line)` returns True when the line was part of a compiler or linker message
(and was consumed). `finish()` renders them grouped: errors first (each with up to 3 of its
notes that point into the project — g++'s `src/x.cpp:10:14: required from here`, clang's
`in instantiation … requested here` — rather than into system headers), then warnings, then
linker lines, then the compiler's own summary (`3 warnings and 4 errors generated.`,
`compilation terminated.`) or, for 3 diagnostics or more without one, a count line
`4 errors, 3 warnings`.
Dropped: source excerpts (`   12 |     code`, clang's plain source lines), `^~~~` markers and
fix-it lines, `In function ‘main’:` / `At top level:` / `In file included from …` context
lines, g++'s `required from ‘…’` chain inside system headers, gcc's "each undeclared identifier
is reported only once" note, duplicates. Each counted in the caller's `Tally` (one marker per
kind, `finish()` ends with them unless the caller shows them itself): `excerpt and context
lines` (excerpts, markers, fix-its, context lines, the instantiation chain), `more notes` (a
warning's notes past its first, an error's past 3 are `+N more notes` under it, notes of
dropped diagnostics, gcc's "reported only once" note), `long notes truncated` (cut at 240
characters), `repeated diagnostics` and `repeated linker lines`, `more diagnostics` (past 200).
Imports `re` only when the first line is fed.
"""
from cc_filter.filters._tally import Tally
from cc_filter.kit.lines import LazyPattern

_NOTE_LIMIT = 3
_NOTE_WIDTH = 240
_KEEP_LIMIT = 200
_NOISE_NOTES = ("each undeclared identifier is reported only once",)
EXCERPTS = "excerpt and context lines"
NOTES = "more notes"

_MESSAGE = LazyPattern(r"^([^\s:][^:]*:\d+(?::\d+)?): "
                       r"(fatal error|error|warning|note|remark): (.*)$")
_SUMMARY = LazyPattern(r"^\d+ (?:warning|error)s? (?:and \d+ (?:warning|error)s? )?generated\.$")


def _system_path(text: str) -> bool:
    return text.startswith(("/usr/", "/opt/", "/Library/", "/Applications/")) or (
        "/include/c++/" in text.split(":", 1)[0])


def _context(line: str) -> bool:
    if line.startswith("In file included from ") or (
            line.startswith(" ") and line.lstrip().startswith("from ")):
        return True
    return line.endswith(":") and (": In function " in line or ": In member function " in line
                                   or line.endswith(": At top level:")
                                   or ": In instantiation of " in line
                                   or ": In constructor " in line or ": In destructor " in line
                                   or ": In lambda function" in line
                                   or ": In static member function " in line)


def _linker(line: str) -> bool:
    return (line.startswith(("/usr/bin/ld: ", "ld: ", "ld.lld: ", "collect2: ", "/usr/bin/ld.",
                             "ld.gold: "))
            or ": undefined reference to " in line or ": multiple definition of " in line
            or (line.startswith(("clang: error: linker", "clang++: error: linker"))))


class _Message:
    __slots__ = ("location", "severity", "text", "notes")

    def __init__(self, location, severity, text):
        self.location = location
        self.severity = severity
        self.text = text
        self.notes: list[str] = []

    def render(self, tally: Tally, limit: int = _NOTE_LIMIT) -> list[str]:
        """The message and up to `limit` of its notes (`+N more notes` for the rest, when
        `limit` is the error's); every note left out or cut is counted in `tally`."""
        lines = [f"{self.location}: {self.severity}: {self.text}"]
        # The notes that point into the project (`src/index.cpp:10:14: required from here`)
        # say where the user's code is involved; notes inside system headers rarely help.
        kept = [n for n in self.notes if not _system_path(n)][:limit]
        if not kept:
            kept = self.notes[:1]
        lines.extend(f"  {n[:_NOTE_WIDTH]}" for n in kept)
        tally.add("long notes truncated", sum(len(n) > _NOTE_WIDTH for n in kept))
        if len(self.notes) > len(kept):
            if limit == _NOTE_LIMIT:
                lines.append(f"  +{len(self.notes) - len(kept)} more notes")
            else:
                tally.add(NOTES, len(self.notes) - len(kept))
        return lines


class CDiagnostics:
    def __init__(self, tally: Tally | None = None):
        self.tally = Tally() if tally is None else tally
        self.errors: list[_Message] = []
        self.warnings: list[_Message] = []
        self.linker: list[str] = []
        self.summary: list[str] = []
        self.seen: set[tuple] = set()
        self.current: _Message | None = None
        self.dropped = 0
        self.in_message = False
        self.expect_excerpt = False  # right after a message line: clang prints the source line
        self.instantiation: list[str] = []  # g++ `required from here` lines, for the next error

    @property
    def count(self) -> int:
        return len(self.errors) + len(self.warnings)

    def feed(self, line: str) -> bool:
        match = _MESSAGE.match(line)
        if match:
            self.in_message = self.expect_excerpt = True
            location, severity, text = match.groups()
            if severity in ("note", "remark"):
                if self.current is not None and not text.startswith(_NOISE_NOTES):
                    self.current.notes.append(f"{location}: note: {text.strip()}")
                else:
                    self.tally.add(NOTES)
                return True
            key = (location, severity, text)
            if key in self.seen:
                self.current = None
                self.tally.add("repeated diagnostics")
                return True
            self.seen.add(key)
            self.current = _Message(location, severity, text)
            self.current.notes.extend(self.instantiation)
            self.instantiation = []
            bucket = self.warnings if severity == "warning" else self.errors
            if len(bucket) < _KEEP_LIMIT:
                bucket.append(self.current)
            else:
                self.dropped += 1
                self.current = None  # its notes are counted
                self.tally.add(NOTES, len(self.instantiation))
            return True
        if _context(line):
            self.tally.add(EXCERPTS)
            return True
        if "   required from " in line or "   required by substitution of " in line:
            # g++'s instantiation chain before an error: only the user's `required from here`
            self.in_message = False
            if line.endswith("   required from here") and not _system_path(line):
                self.instantiation.append(
                    line.replace(":   required from here", ": required from here"))
            else:
                self.tally.add(EXCERPTS)
            return True
        if _linker(line):
            self.in_message = False
            if line not in self.linker:
                self.linker.append(line)
            else:
                self.tally.add("repeated linker lines")
            return True
        if _SUMMARY.match(line) or line in ("compilation terminated.",) or line.startswith(
                "cc1: all warnings being treated as errors") or line.startswith(
                "cc1plus: all warnings being treated as errors"):
            self.in_message = False
            self.summary.append(line)
            return True
        if self.in_message and (line.startswith(" ") or not line.strip() or "|" in line[:8]
                                or line.strip().startswith(("^", "~"))):
            self.expect_excerpt = False
            if line.strip():
                self.tally.add(EXCERPTS)
            return True  # the excerpt under a message (gcc: `  12 | code`, clang: plain)
        if self.expect_excerpt and not line.startswith(" "):
            self.expect_excerpt = False
            if line.strip():
                self.tally.add(EXCERPTS)
            return True  # clang's source excerpt of a line that starts at column 0
        self.in_message = self.expect_excerpt = False
        return False

    def interrupt(self) -> None:
        """Another tool's line came (make's own message): what follows is no excerpt."""
        self.in_message = self.expect_excerpt = False

    def finish(self, markers: bool = True) -> list[str]:
        """Errors, warnings, linker lines, the summary; then (`markers`) the tally's markers."""
        lines: list[str] = []
        for message in self.errors:
            lines.extend(message.render(self.tally))
        for message in self.warnings:
            lines.extend(message.render(self.tally, 1))
        self.tally.add("more diagnostics", self.dropped)
        self.dropped = 0
        lines.extend(self.linker)
        if self.summary:
            lines.extend(self.summary)
        elif self.count >= 3:
            e, w = len(self.errors), len(self.warnings)
            lines.append(f"{e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''}")
        self.errors, self.warnings, self.linker, self.summary = [], [], [], []
        if markers:
            lines.extend(self.tally.markers())
        return lines
