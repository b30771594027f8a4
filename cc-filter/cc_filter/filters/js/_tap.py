"""The TAP stream (Test Anything Protocol, versions 13 and 14) read as a test report, shared by
the `tap` filter (tape, node-tap, `nyc tape`) and `node-test` (`node --test`, whose reporter
off a terminal is TAP on Node 20). Not a filter itself.

Keeps: every `not ok` line (at any depth: node-tap and `node --test` indent subtests) with its
YAML diagnostic block (`operator`, `expected`, `actual`, `at`, `error` …), the `# heading`
of the test it belongs to (tape names its tests by comments), the plan and the closing counts
(`1..141`, `# tests 141`, `# pass 129`, `# fail 12`, `# ok`, node-tap's `# { total: 141,
pass: 129, fail: 12 }`), `Bail out!`, `# SKIP` / `# TODO` results, and everything that is not
TAP (the tests' own output, a coverage summary). Paths in a diagnostic are made relative to
where the command ran (`at: Test.<anonymous> (test/discount.js:7:7)`).
Drops, each kind counted in one marker above the closing counts: `ok` lines (`passing
tests`), the YAML blocks of passing tests (node --test gives each a `duration_ms`), the
headings and `# Subtest:` lines of tests without a failure, the plans and counts of subtests
(node-tap's per-file totals: the top-level counts and the `not ok` lines say it), a
diagnostic's `duration_ms` and its stack frames inside node_modules and node's own code
(`library frame lines`; the project's frames stay, at most `FRAMES` per failure), and lines
of one diagnostic past `BLOCK_LIMIT`.

Imports nothing heavy (no `re`): it runs on the `cc-filter run` path.
"""
from cc_filter.filters._paths import relative
from cc_filter.kit.lines import omitted, strip_ansi

FRAMES = 2
BLOCK_LIMIT = 40
_SUMMARY = ("# tests ", "# pass ", "# fail ", "# ok", "# suites ", "# cancelled ", "# skipped ",
            "# todo ", "# duration_ms ", "# { total:", "# time=", "# No coverage", "# not ok")
_PROCESS_KEYS = ("stdio:", "cwd:", "command:", "args:", "externalID:", "signal:", "env:")
_LIBRARY = ("node_modules/", "node:", "(internal/", "<anonymous>)")


def _is_plan(text: str) -> bool:
    head, dots, rest = text.partition("..")
    return bool(dots) and head.isdigit() and (rest.split(" ", 1)[0].isdigit())


def _relative_paths(text: str) -> str:
    """`(/abs/dir/test/a.js:7:7)` → `(test/a.js:7:7)` when it lies under the working directory;
    also `location: '/abs/…'` and a bare `/abs/…` word."""
    if "/" not in text:
        return text
    words = text.split(" ")
    for i, word in enumerate(words):
        start = 0
        while start < len(word) and word[start] in "('\"":
            start += 1
        if word[start:start + 1] == "/":
            end = len(word)
            while end > start and word[end - 1] in ")'\",":
                end -= 1
            words[i] = word[:start] + relative(word[start:end]) + word[end:]
    return " ".join(words)


class TapReport:
    """Feed it the lines of a TAP stream (`feed` → lines to show); `finish()` gives the
    markers and the held closing counts."""

    def __init__(self):
        self.counts: dict[str, int] = {}
        self.heading: str | None = None  # the last `# name` comment not yet shown
        self.heading_indent = 0
        self.subtest: str | None = None  # the last `# Subtest: name` line not yet shown
        self.pending: str | None = None  # "fail" / "pass": a result whose block may follow
        self.block: str | None = None  # "fail" / "pass" while inside a YAML block
        self.block_indent = 0
        self.result = ""  # the `not ok` line the block belongs to
        self.block_lines = 0
        self.frames = 0
        self.stack_indent: int | None = None  # inside `stack: |-`: the key's indentation
        self.stack_key: str | None = None  # the `stack: |-` line, until a frame is shown
        self.skip_indent: int | None = None  # inside a process key's value (node-tap)
        self.at = ""  # the block's `at:` place (a stack frame that repeats it goes)
        self.summary: list[str] = []
        self.failed = False
        self.passed = 0

    def count(self, kind: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n

    def feed(self, line: str) -> list[str]:
        line = strip_ansi(line).rstrip()
        text = line.lstrip()
        if not text:
            return []
        indent = len(line) - len(text)
        pending, self.pending = self.pending, None
        if pending is not None and text == "---":
            self.block = pending
            self.block_indent = indent
            self.block_lines = self.frames = 0
            self.stack_indent = self.stack_key = self.skip_indent = None
            self.at = ""
            self.count("YAML block bracket lines")
            return []
        if self.block is not None:
            if text == "...":
                self._end_stack()
                self.block = None
                self.count("YAML block bracket lines")
                return []
            if self.block == "pass":
                self.count("diagnostic lines of passing tests")
                return []
            return self._failure_line(line, text, indent)
        if text.startswith("not ok"):
            self.failed = True
            out = []
            if self.heading is not None:
                if self.heading_indent == indent:  # the test this assertion belongs to
                    out.append(self.heading)
                else:  # a file's result (node-tap): its name says it
                    self.count("test headings")
                self.heading = None
            if self.subtest is not None:
                # `# Subtest: name` (node-tap, node --test): its `not ok N - name` says it
                self.count("subtest headings")
                self.subtest = None
            self.result = text
            out.append(_relative_paths(text))
            self.pending = "fail"
            return out
        if text == "ok" or text.startswith("ok "):
            self.pending = "pass"
            if self.subtest is not None:
                self.count("subtest headings")
                self.subtest = None
            if any(d in text for d in (" # SKIP", " # skip", " # TODO", " # todo")):
                return [text]
            self.passed += 1
            self.count("passing tests")
            return []
        if text.startswith("TAP version "):
            self.count("TAP version lines")
            return []
        if text.startswith("Bail out!"):
            return [text]
        if _is_plan(text) or text.startswith(_SUMMARY):
            if indent:
                self.count("subtest plan and count lines")
            elif _is_plan(text) and not self.passed and not self.failed:
                # a plan printed first (node-tap, TAP 14): the closing counts say it again
                self.count("plan lines")
            else:
                self.summary.append(text)
            return []
        if text.startswith("# Subtest: "):
            if self.subtest is not None:
                self.count("subtest headings")
            self.subtest = text
            return []
        if text.startswith("#"):
            if self.heading is not None:
                self.count("test headings")
            self.heading = text
            self.heading_indent = indent
            return []
        return [line]  # not TAP: the tests' own output, a coverage summary

    def _failure_line(self, line: str, text: str, indent: int) -> list[str]:
        if self.stack_indent is not None and indent > self.stack_indent:
            if text.startswith("at ") or text.endswith(")") or text.startswith("async "):
                if any(mark in text for mark in _LIBRARY):
                    self.count("library frame lines")
                    return []
                if text.removeprefix("at ") == self.at:
                    self.count("stack frames the at: line states")
                    return []
                if self.frames >= FRAMES:
                    self.count(f"project frames past the first {FRAMES}")
                    return []
                self.frames += 1
            elif text.partition(": ")[2] and text.partition(": ")[2] in self.result:
                # tape's `Error: 55% off 200`: the `not ok 12 55% off 200` line says it
                self.count("stack message lines the not ok line states")
                return []
            held, self.stack_key = self.stack_key, None
            return (self._show(held) if held is not None else []) + self._show(line)
        self._end_stack()
        if self.skip_indent is not None:
            if indent > self.skip_indent or (indent == self.skip_indent and text[:2] == "- "):
                self.count("process lines: stdio, cwd, command, args")
                return []
            self.skip_indent = None
        if text.startswith(_PROCESS_KEYS):
            # node-tap's account of how it started a test file: not the failure
            self.skip_indent = indent
            self.count("process lines: stdio, cwd, command, args")
            return []
        if text.startswith("duration_ms:"):
            self.count("timing lines")
            return []
        if text.startswith("at: "):
            self.at = text[4:]
        if text.startswith("stack:"):
            # held until a frame of it is shown: alone, it says nothing
            self.stack_indent = indent
            self.stack_key = line
            return []
        return self._show(line)

    def _end_stack(self) -> None:
        if self.stack_key is not None:
            self.count("stack: lines without a frame to show")
        self.stack_key = None
        self.stack_indent = None

    def _show(self, line: str) -> list[str]:
        """A line of a failure's block, indented as in the block (its `---` at the margin)."""
        if self.block_lines >= BLOCK_LIMIT:
            self.count(f"diagnostic lines past the {BLOCK_LIMIT}-line cap")
            return []
        self.block_lines += 1
        cut = min(self.block_indent, len(line) - len(line.lstrip()))
        return [_relative_paths(line[cut:])]

    def markers(self) -> list[str]:
        counts, self.counts = self.counts, {}
        return [omitted(n, kind) for kind, n in counts.items() if n]

    def finish(self) -> list[str]:
        if self.heading is not None:
            self.count("test headings")
            self.heading = None
        if self.subtest is not None:
            self.count("subtest headings")
            self.subtest = None
        out = self.markers()
        out.extend(self.summary)
        self.summary = []
        return out
