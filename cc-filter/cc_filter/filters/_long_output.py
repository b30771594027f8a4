"""Cutting a long output to what an agent reads: its head, every line naming an error, a warning
or a failure (with its neighbours), and its tail — each cut counted in a marker. A failure is
also what test runners mark as one: `not ok`, `✗`, `✖`, `FAIL`, `FAILED`, `ERROR`, `panicked
at`, `Traceback`, an assertion's `expected:` / `actual:` lines.

Shared by the generic fallback (generic/generic.py) and by filters whose tools print long logs
with the facts scattered through them (gradle, maven, cmake …). Streams: memory is bounded by
head + tail + the error lines kept, whatever the output's size.

Before the cut, runs of lines are collapsed: identical lines into `line (×N)`, near-identical
ones (the same but for their numbers: progress counters, `Downloading 1/300`) into their first
line, `... (N similar lines omitted)` and their last; a line naming an error is only ever
collapsed with identical ones. Runs of blank lines become one.
"""
from collections import deque

from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

#: Words that make a line worth keeping wherever it is.
ERROR_WORDS = LazyPattern(
    r"(?i)(?:\b(?:errors?|err!?|fail(?:s|ed|ure|ures|ing)?|fatal|panic(?:ked)?|exceptions?"
    r"|traceback|warn(?:ings?)?|denied|refused|abort(?:ed)?|segmentation fault|core dumped"
    r"|not found|cannot|can't|could not|couldn't|unable to|no such file|undefined"
    r"|unresolved|timed out|killed|assert(?:ion)?(?:error)?)\b"
    # the failure marks of test runners: TAP's `not ok`, the crosses of mocha / node --test /
    # vitest / bun (`✗ ✖ ✘`), and a failed assertion's `expected:` / `actual:` / `received:`
    r"|(?:^|\s)not ok\b|[✗✖✘]|^\s*[-+]?\s*(?:expected|actual|received)\b)")
#: A data field that says there is none (`"error": false,`, `errors: 0`, `failed=[]`): a JSON
#: or YAML listing of 2,000 records would otherwise be all "error lines".
_NO_ERROR_FIELD = LazyPattern(
    r"(?i)^\s*[\"']?\w*(?:errors?|fail(?:ed|ures?)?|warn(?:ings?)?|exceptions?)[\"']?\s*[:=]\s*"
    r"(?:false|null|none|nil|0|\[\]|\{\}|\"\"|'')\s*,?\s*$")
_CONTROL = LazyPattern(r"[\x00-\x08\x0b-\x1f\x7f]")
_DIGITS = LazyPattern(r"\d+")


def is_error_line(line: str) -> bool:
    return ERROR_WORDS.search(line) is not None and _NO_ERROR_FIELD.match(line) is None


def clean(line: str) -> str:
    """Without ANSI codes, `\\r` redraws and other control characters (tabs stay)."""
    line = strip_ansi(line)
    if line and min(line) < " ":
        line = _CONTROL.sub("", line)
    return line


class Collapser:
    """Collapses runs of identical / near-identical / blank lines; `push` returns the lines
    that a finished run gives, `flush` the last run's."""

    __slots__ = ("first", "last", "shape", "count", "error", "blank")

    def __init__(self):
        self.first = None
        self.last = None
        self.shape = None
        self.count = 0
        self.error = False
        self.blank = False

    def push(self, line: str) -> list[str]:
        blank = not line.strip()
        if self.first is not None and blank == self.blank:
            if blank or (line == self.first == self.last):
                self.count += 1
                return []
            if not self.error and self._shape(line) == self.shape and not is_error_line(line):
                self.count += 1
                self.last = line
                return []
        out = self.flush()
        self.first = self.last = line
        self.blank = blank
        self.shape = None if blank else self._shape(line)
        self.error = not blank and is_error_line(line)
        self.count = 1
        return out

    @staticmethod
    def _shape(line: str) -> str:
        return _DIGITS.sub("#", line) if any(c.isdigit() for c in line) else line

    def flush(self) -> list[str]:
        first, last, count = self.first, self.last, self.count
        self.first = self.last = self.shape = None
        self.count = 0
        if first is None:
            return []
        if count == 1 or not first.strip():
            return [first]
        if first == last:
            return [f"{first} (×{count})"]
        if count == 2:
            return [first, last]
        return [first, omitted(count - 2, "similar lines"), last]


class LongOutput:
    """Head, error lines with `context` neighbours, tail; the middle counted in markers."""

    def __init__(self, head: int = 40, tail: int = 60, context: int = 2,
                 max_kept: int = 400):
        self.head = head
        self.context = context
        self.max_kept = max_kept
        self.taken = 0
        self.pending: deque = deque()
        self.tail = tail
        self.skipped = 0
        self.last_skipped = ""  # a marker for one line would cost as much as the line
        self.skipped_errors = 0
        self.kept = 0
        self.after = 0  # lines still to keep after the last error line
        self.collapser = Collapser()

    def push(self, line: str) -> list[str]:
        """The lines that can be printed now (head and middle)."""
        out: list[str] = []
        for collapsed in self.collapser.push(line):
            self._take(collapsed, out)
        return out

    def _take(self, line: str, out: list) -> None:
        if self.taken < self.head:
            self.taken += 1
            out.append(line)
            return
        self.pending.append((line, is_error_line(line)))
        if len(self.pending) > self.tail:
            self._middle(*self.pending.popleft(), out)

    def _middle(self, line: str, error: bool, out: list) -> None:
        keep = error or self.after > 0
        if error:
            self.after = self.context
        elif self.after > 0:
            self.after -= 1
        if not keep:
            for ahead in range(min(self.context, len(self.pending))):
                if self.pending[ahead][1]:
                    keep = True
                    break
        if keep and self.kept < self.max_kept:
            self._flush_skipped(out)
            self.kept += 1
            out.append(line)
        else:
            self.skipped += 1
            self.last_skipped = line
            if error:
                self.skipped_errors += 1

    def _flush_skipped(self, out: list) -> None:
        if self.skipped == 1:
            out.append(self.last_skipped)
        elif self.skipped:
            out.append(omitted(self.skipped))
        self.skipped = 0

    def finish(self) -> list[str]:
        out: list[str] = []
        for collapsed in self.collapser.flush():
            self._take(collapsed, out)
        self._flush_skipped(out)
        if self.skipped_errors:
            out.append(f"[{self.skipped_errors} more lines naming an error were omitted past "
                       f"the first {self.max_kept} kept: see the full output]")
        out.extend(line for line, _error in self.pending)
        self.pending.clear()
        return out
