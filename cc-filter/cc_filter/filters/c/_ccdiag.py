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
is reported only once" note, duplicates.
Imports `re` only when the first line is fed.
"""
from cc_filter.lines import LazyPattern

_NOTE_LIMIT = 3
_NOTE_WIDTH = 240
_KEEP_LIMIT = 200
_NOISE_NOTES = ("each undeclared identifier is reported only once",)

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

    def render(self) -> list[str]:
        lines = [f"{self.location}: {self.severity}: {self.text}"]
        # The notes that point into the project (`src/index.cpp:10:14: required from here`)
        # say where the user's code is involved; notes inside system headers rarely help.
        kept = [n for n in self.notes if not _system_path(n)][:_NOTE_LIMIT]
        if not kept:
            kept = self.notes[:1]
        lines.extend(f"  {n[:_NOTE_WIDTH]}" for n in kept)
        if len(self.notes) > len(kept):
            lines.append(f"  +{len(self.notes) - len(kept)} more notes")
        return lines


class CDiagnostics:
    def __init__(self):
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
                return True
            key = (location, severity, text)
            if key in self.seen:
                self.current = None
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
            return True
        if _context(line):
            return True
        if "   required from " in line or "   required by substitution of " in line:
            # g++'s instantiation chain before an error: only the user's `required from here`
            self.in_message = False
            if line.endswith("   required from here") and not _system_path(line):
                self.instantiation.append(
                    line.replace(":   required from here", ": required from here"))
            return True
        if _linker(line):
            self.in_message = False
            if line not in self.linker:
                self.linker.append(line)
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
            return True  # the excerpt under a message (gcc: `  12 | code`, clang: plain)
        if self.expect_excerpt and not line.startswith(" "):
            self.expect_excerpt = False
            return True  # clang's source excerpt of a line that starts at column 0
        self.in_message = self.expect_excerpt = False
        return False

    def interrupt(self) -> None:
        """Another tool's line came (make's own message): what follows is no excerpt."""
        self.in_message = self.expect_excerpt = False

    def finish(self) -> list[str]:
        lines: list[str] = []
        for message in self.errors:
            lines.extend(message.render())
        for message in self.warnings:
            lines.extend(message.render()[:2])
        if self.dropped:
            lines.append(f"… ({self.dropped} more diagnostics omitted)")
        lines.extend(self.linker)
        if self.summary:
            lines.extend(self.summary)
        elif self.count >= 3:
            e, w = len(self.errors), len(self.warnings)
            lines.append(f"{e} error{'s' if e != 1 else ''}, {w} warning{'s' if w != 1 else ''}")
        self.errors, self.warnings, self.linker, self.summary = [], [], [], []
        return lines
