"""Line helpers shared by every filter: ANSI stripping, repeat collapsing, caps.

Filters call these instead of re-implementing them, so `+N more` and `line (×N)` read the same
everywhere. The ANSI pattern is compiled on first use: `re` costs ~10 ms to import and the
passthrough path (`cc-filter run true`) never needs it.
"""
_ansi = None


def _ansi_pattern():
    global _ansi
    if _ansi is None:
        import re

        # CSI (ESC [ … final byte), OSC (ESC ] … BEL or ESC \), and two-byte escapes. None can
        # match a newline, so the pattern may run over many lines joined at once (same result).
        _ansi = re.compile(
            r"\x1b\[[0-?]*[ -/]*[@-~]|\x1b\][^\x07\x1b\n]*(?:\x07|\x1b\\)|\x1b[@-Z\\-_]")
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
    """The marker for a run of dropped lines: `... (N lines omitted)`."""
    return f"... ({count} {what} omitted)"


def truncated(count: int, what: str = "lines") -> str:
    """The marker for lines cut at the end: `... (N lines truncated)`."""
    return f"... ({count} {what} truncated)"


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
