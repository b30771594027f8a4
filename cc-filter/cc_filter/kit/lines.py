"""Line helpers shared by every filter: ANSI stripping, repeat collapsing, caps.

Filters call these instead of re-implementing them, so `+N more` and `line (×N)` read the same
everywhere. The ANSI pattern is compiled on first use: `re` costs ~10 ms to import and the
passthrough path (`cc-filter run true`) never needs it.

Also here, because many filters need them: `CappedLines` (a run of lines kept as head + tail),
`LazyPattern` (a regex compiled on first use) and `TrimmedLineFilter` (the base of filters that
read a tool's human report line by line, with a pass-through for machine formats).
"""
from cc_filter.kit.filter import Filter

_ansi = None


def _ansi_pattern():
    global _ansi
    if _ansi is None:
        import re

        # CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), charset designations (ESC ( B,
        # which `tput sgr0` prints before its `ESC [m`), and two-byte escapes. None can
        # match a newline, so the pattern may run over many lines joined at once (same result).
        # ESC is factored out: a literal first character lets `re` skip ahead to each ESC.
        _ansi = re.compile(
            r"\x1b(?:\[[0-?]*[ -/]*[@-~]|\][^\x07\x1b\n]*(?:\x07|\x1b\\)|[()*+][0-~]"
            r"|[@-Z\\-_])")
    return _ansi


def ansi_pattern():
    """The compiled ANSI escape pattern (for filters that strip many lines at once)."""
    return _ansi_pattern()


def strip_ansi(text: str) -> str:
    """Remove ANSI escapes and resolve `\\r` redraws (a progress bar keeps its last state).
    Works on one line or on a multi-line text (each line resolved on its own)."""
    if "\x1b" in text:
        text = _ansi_pattern().sub("", text)
    if "\r" in text:
        if "\n" in text:
            return "\n".join(resolve_redraws(line) for line in text.split("\n"))
        text = resolve_redraws(text)
    return text


def resolve_redraws(line: str) -> str:
    """`50%\\r100%` → `100%`: what a terminal would show after the redraws (a trailing `\\r`
    of a CRLF ending is dropped first)."""
    line = line.rstrip("\r")
    cut = line.rfind("\r")
    return line if cut < 0 else line[cut + 1:]


def collapse_repeats(lines) -> list[str]:
    """Consecutive identical lines become one `line (×N)`."""
    out: list[str] = []
    previous = None
    count = 0
    for line in lines:
        if line == previous:
            count += 1
            continue
        if previous is not None:
            out.append(previous if count == 1 else f"{previous} (×{count})")
        previous, count = line, 1
    if previous is not None:
        out.append(previous if count == 1 else f"{previous} (×{count})")
    return out


def cap(items, limit: int, noun: str = "more") -> list[str]:
    """The first `limit` items, then one `+N more` line for the rest (an omission marker:
    the runner keeps the raw output in the tee directory when it sees one)."""
    items = list(items)
    if len(items) <= limit:
        return items
    return items[:limit] + [f"+{len(items) - limit} {noun}"]


def omitted(count: int, what: str = "lines") -> str:
    """The marker for a run of dropped lines: `... (N lines omitted)` (`1 line`)."""
    return f"... ({count} {singular(what) if count == 1 else what} omitted)"


def truncated(count: int, what: str = "lines") -> str:
    """The marker for lines cut at the end: `... (N lines truncated)` (`1 line`)."""
    return f"... ({count} {singular(what) if count == 1 else what} truncated)"


#: the plural nouns markers count, and their singulars
_SINGULARS = {"entries": "entry", "directories": "directory", "dependencies": "dependency",
              "matches": "match", **{w + "s": w for w in (
                  "test", "file", "note", "row", "digest", "hint", "heading", "header",
                  "result", "frame", "name", "path", "package", "diagnostic", "commit", "error",
                  "warning", "event", "step", "task", "module", "target", "project", "suite",
                  "example", "item", "record", "byte", "character", "message", "finding",
                  "section", "block")}}


def singular(what: str) -> str:
    """A marker's kind for a count of one: its `lines` (else its first counted noun) made
    singular — `no test files lines` → `no test files line`, `passing tests` → `passing test`."""
    words = what.split(" ")
    for nouns in ({"lines": "line"}, _SINGULARS):
        for i, word in enumerate(words):
            bare = word.rstrip(":,")
            if bare in nouns:
                words[i] = nouns[bare] + word[len(bare):]
                return " ".join(words)
    return what


def is_omission_marker(line: str) -> bool:
    """True for the markers `cap`, `omitted` and `truncated` write (and the runner's cut of an
    over-long line). The runner keeps a tee file when a filter's output contains one."""
    if line.endswith(" omitted)") or line.endswith(" truncated)") or line.endswith(" more bytes]"):
        return True
    if len(line) > 2 and line[0] == "+" and line[1].isdigit():
        number, _, noun = line[1:].partition(" ")
        words = noun.split(" ")
        plain = [w.replace("-", "").replace("(", "").replace(")", "") for w in words]
        return number.isdigit() and 0 < len(words) <= 4 and all(w.isalpha() for w in plain)
    return False


def has_line_longer_than(block, limit: int, end: int | None = None) -> bool:
    """Is any newline-separated line of block[:end] (str or bytes) longer than `limit`?
    Costs a few `rfind`s per megabyte: each step jumps to the last newline within reach."""
    start = 0
    end = len(block) if end is None else end
    newline = b"\n" if isinstance(block, (bytes, bytearray)) else "\n"
    while end - start > limit:
        found = block.rfind(newline, start, start + limit + 1)
        if found < 0:
            return True
        start = found + 1
    return False


class CappedLines:
    """A run of lines keeping its first `head` and last `tail` once it exceeds `limit`. Memory
    stays bounded: past the limit only a rolling window of the tail is held."""

    __slots__ = ("limit", "head", "tail", "kept", "last", "count")

    def __init__(self, limit: int, head: int, tail: int):
        self.limit, self.head, self.tail = limit, head, tail
        self.kept: list[str] = []
        self.last: list[str] = []
        self.count = 0

    def add(self, line: str) -> None:
        self.count += 1
        if self.count <= self.limit:
            self.kept.append(line)
            return
        if self.count == self.limit + 1:  # from now on: head + rolling tail
            self.last = self.kept[self.head:]
            del self.kept[self.head:]
        self.last.append(line)
        if len(self.last) > 4 * self.tail + 64:
            del self.last[:-self.tail]

    def extend(self, lines: list[str]) -> None:
        """`add` each of `lines` (a batch: the same result, faster)."""
        i, n = 0, len(lines)
        while i < n and self.count <= self.limit:
            self.add(lines[i])
            i += 1
        if i < n:
            self.last.extend(lines[i:] if i else lines)
            self.count += n - i
            if len(self.last) > 4 * self.tail + 64:
                del self.last[:-self.tail]

    def attach(self, line: str) -> None:
        """A line that belongs to the previous one (`\\ No newline at end of file`): shown
        with it, not counted."""
        (self.kept if self.count <= self.limit else self.last).append(line)

    @property
    def capped(self) -> bool:
        return self.count > self.limit

    def parts(self) -> tuple[list[str], int, list[str]]:
        """(head, number of lines left out, tail); all lines and 0, [] while not capped."""
        if self.count <= self.limit:
            return list(self.kept), 0, []
        return list(self.kept), self.count - self.head - self.tail, self.last[-self.tail:]

    def render(self, noun: str = "lines") -> list[str]:
        """The lines, or head + `... (N lines omitted)` + tail."""
        head, left_out, tail = self.parts()
        return head + [omitted(left_out, noun)] + tail if self.capped else head


class LazyPattern:
    """A regex compiled on its first use, so that importing a filter never imports `re`
    (~10 ms). Flags go inline (`(?i)…`). `.compiled` is the `re.Pattern`."""

    __slots__ = ("pattern", "_compiled")

    def __init__(self, pattern: str):
        self.pattern = pattern
        self._compiled = None

    @property
    def compiled(self):
        if self._compiled is None:
            import re

            self._compiled = re.compile(self.pattern)
        return self._compiled

    def match(self, text: str):
        return self.compiled.match(text)

    def search(self, text: str):
        return self.compiled.search(text)

    def fullmatch(self, text: str):
        return self.compiled.fullmatch(text)

    def sub(self, replacement, text: str, count: int = 0) -> str:
        return self.compiled.sub(replacement, text, count)


class TrimmedLineFilter(Filter):
    """Base of the filters that read a tool's human report line by line (test runners,
    compilers, type checkers). `feed` removes ANSI colours and trailing blanks; when the
    subclass set `self.passthrough` (the user asked for JSON, a listing, `--help` …) every
    line then passes unchanged, else blank lines are skipped and the rest goes to
    `feed_trimmed(line, stripped)` (`stripped`: the line without its indentation too), which
    returns or yields the output lines (returning None: none)."""

    passthrough = False

    def feed(self, line: str):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            return (line,)
        stripped = line.strip()
        if not stripped:
            return ()
        return self.feed_trimmed(line, stripped) or ()

    def feed_trimmed(self, line: str, stripped: str):
        return (line,)
