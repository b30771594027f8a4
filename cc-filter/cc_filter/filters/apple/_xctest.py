"""XCTest and Swift Testing report lines, shared by the xcodebuild and swift filters.

`TestLines.feed(line, stripped)` returns None for a line that is not a test line, else the
lines to show (possibly none: the line was counted as dropped in `self.dropped_*`).
A passing test's own output (the lines between its `started` and `passed` lines) is dropped
and counted; a failing test's output is shown with it.
"""
from cc_filter.kit.lines import LazyPattern, omitted

_CASE = LazyPattern(r"^Test [Cc]ase '(.+)' (started|passed|failed|skipped)\b")
_SUITE = LazyPattern(r"^Test [Ss]uite '.+' (started|passed|failed|finished)\b")
_EXECUTED = LazyPattern(r"^Executed (\d+) tests?, with (\d+) failures?")
# Swift Testing's first glyph: ASCII-ish symbols (Linux, plain terminals) and the SF Symbols
# private-use characters it prints on macOS
_ST_KIND = {"◇": "start", "\U001007c8": "start", "↳": "info", "\U00100135": "info",
            "✔": "pass", "\U0010105b": "pass", "✘": "fail", "\U00100884": "fail",
            "\U0010065f": "skip", "➜": "skip"}
_BUFFER_LIMIT = 40


def _st_glyph(stripped: str):
    return _ST_KIND.get(stripped[:1]) if stripped[1:2] == " " else None


class TestLines:
    def __init__(self):
        self.passed = 0
        self.suite_lines = 0
        self.info_lines = 0
        self.output = 0          # dropped output lines of passing tests
        self.buffer: list[str] = []
        self.buffer_dropped = 0
        self.in_case = False
        self.with_issue: set[str] = set()
        self.executed: list[str] = []   # `Executed …` lines: only the last (the total) is shown

    def feed(self, line: str, stripped: str):
        if stripped.startswith("Test "):
            m = _CASE.match(stripped)
            if m:
                state = m.group(2)
                if state == "started":
                    self._drop_buffer()
                    self.in_case = True
                    self.info_lines += 1
                    return ()
                self.in_case = False
                if state == "passed":
                    self.passed += 1
                    self._drop_buffer()
                    return ()
                out = self.buffer + ([omitted(self.buffer_dropped, "output lines of this test")]
                                     if self.buffer_dropped else [])
                self.buffer, self.buffer_dropped = [], 0
                return out + [line]
            if _SUITE.match(stripped):
                self.suite_lines += 1
                return ()
        m = _EXECUTED.match(stripped)
        if m:
            self.executed.append(line)   # the last one is the run's total
            return ()
        kind = _st_glyph(stripped) if stripped[:1] > "\x7f" else None
        if kind is not None:
            if kind in ("start", "info"):
                self.info_lines += 1
                return ()
            if kind == "pass" and " passed after " in stripped and "Test run with" not in stripped:
                self.passed += 1
                return ()
            if kind == "fail":
                body = stripped[1:].lstrip()
                name, sep, rest = body.partition(" recorded an issue")
                if sep:
                    self.with_issue.add(name)
                else:
                    name, sep, rest = body.partition(" failed after ")
                    if sep and name in self.with_issue and " with " in rest:
                        self.info_lines += 1  # `✘ Test x() failed after …`: its issue is shown
                        return ()
            return (line,)
        if self.in_case:
            if len(self.buffer) < _BUFFER_LIMIT:
                self.buffer.append(line)
            else:
                self.buffer_dropped += 1
            return ()
        return None

    def _drop_buffer(self):
        self.output += len(self.buffer) + self.buffer_dropped
        self.buffer, self.buffer_dropped = [], 0

    def finish(self):
        out = list(self.buffer)  # a test that never finished (a crash): its output stays
        if self.buffer_dropped:
            out.append(omitted(self.buffer_dropped, "output lines of this test"))
        self.buffer, self.buffer_dropped = [], 0
        if self.executed:
            out.append(self.executed.pop())
        if self.passed:
            out.append(omitted(self.passed, "passing tests"))
        if self.executed:
            out.append(omitted(len(self.executed), "per-suite 'Executed N tests' lines"))
        if self.suite_lines + self.info_lines:
            out.append(omitted(self.suite_lines + self.info_lines,
                               "test started, suite and result lines"))
        if self.output:
            out.append(omitted(self.output, "output lines of passing tests"))
        return out
