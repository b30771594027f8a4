"""pytest: every failure and error with its assertion text, locations and the closing summary.

Keeps: each FAILURES / ERRORS section, shown under its short-summary line (`FAILED
tests/t.py::test_x`; the summary's truncated message is dropped, the section has it whole):
each project frame as `path:line: failing code` (long, short, native and line tracebacks
alike), the `E` assertion lines and diffs (under --tb=line too, where pytest indents them
without the `E`), captured output (capped); a failure whose lines are exactly those of the one
shown just before (a parametrized test) says `... (4 lines of the same failure as above
omitted)` (its raw lines); under -vv also the fixture values (`value = {'id': 42}`, not object
reprs) and the five source lines before the failing line; with -rA / -rP the PASSED tests asked
for, grouped by file; the other short-summary lines (SKIPPED / XFAIL / XPASS reasons, FAILED /
ERROR lines without a section); warnings (capped, after the failures); the `stopping after 1
failures` / `Interrupted: …` lines; SKIPPED / XFAIL / XPASS lines of -v output (capped); the
closing summary line (`6 failed, 32 passed, 1 warning in 0.13s`) verbatim without its `=`
padding.
Drops: the session header, progress dots and percentages, PASSED lines (unless asked for), the
source context of long tracebacks (but under -vv), `_ _ _` separators, frame argument dumps
(`self = …`), frames inside site-packages / the standard library / `<frozen …>`, pytest's hints
(`Use -v to get more diff`, `Omitting 1 identical items`) and `where x = <… object at 0x…>`
reprs, blank lines. The drops are counted after the summary line: `... (31 passing tests
omitted)` (the PASSED lines of -v, or of -rA's summary when not asked for), `... (8
header/progress lines omitted)` (session header, `collected N items`, progress dots and section
banners), `... (2 warning source lines omitted)`, `... (5 pass/xfail report lines omitted)`
(PASSES / XPASSES / XFAILURES sections), and the lines cut inside the failure sections: `...
(32 traceback lines omitted)` (the source context and caret lines of the frames shown, frame
argument dumps, `_ _ _` separators, pytest's hints and object reprs), `... (26 library frame
lines omitted)` (the frames inside site-packages / the standard library, with their code), `...
(14 short-summary reason lines omitted)` (-vv: the rest of a multi-line reason whose section is
shown); the caps say `... (N more … omitted)`.
Paths under the session's `rootdir` (from the header, or inferred from a warning location
under -q) are shown relative to it.
Passes everything through (ANSI stripped) for listings the user asked for: --collect-only,
--fixtures, --markers, --help, --version, --setup-plan.
Injects nothing. Tested with pytest 9.2.0 on Python 3.11 (default, -q, -v, -x, -rA,
--tb=short, --color=yes); the format has been stable since pytest 6.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._coverage import CoverageTable, threshold_of
from cc_filter.kit.lines import omitted, strip_ansi

_LISTING_FLAGS = frozenset((
    "--collect-only", "--co", "--fixtures", "--funcargs", "--fixtures-per-test", "--markers",
    "--help", "-h", "--version", "-V", "--setup-plan", "--trace-config",
))
_KEPT_VERBOSE_LIMIT = 20
_OTHER_LIMIT = 50
_BLOCK_LIMIT = 80
_CAPTURED_LIMIT = 20
_WARNING_LIMIT = 20
_CONTEXT_LINES = 5  # -vv: source lines shown before a failing line
#: the lines cut inside the failure sections, by kind, with the marker's noun: a shown frame's
#: source context and carets, argument dumps, separators, pytest's hints and reprs ("frame");
#: the frames of site-packages / the standard library ("library"); -vv's short-summary reason
#: lines that the section above shows ("summary")
_CUT_KINDS = (("frame", "traceback lines"), ("library", "library frame lines"),
              ("summary", "short-summary reason lines"))

_rx = None


class _Patterns:
    def __init__(self):
        import re

        self.banner = re.compile(r"^([=_!-])\1{2,} (.*?) \1{2,}$|^([=_!-])\3{5,}$")
        self.progress = re.compile(r"^(?:\S.*? )?[.sxXFEf]+ *(?:\[ *\d+%\])?$")
        self.verbose = re.compile(
            r"^(?:\[gw\d+\] (?:\[ *\d+%\] )?)?(\S.*?) (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS)"
            r"(?: \(.*\))?(?: +\[ *\d+%\])?$")
        self.xdist_verbose = re.compile(
            r"^\[gw\d+\] \[ *\d+%\] (PASSED|FAILED|ERROR|SKIPPED|XFAIL|XPASS) (.*)$")
        self.summary = re.compile(
            r"^(?:\d+ (?:failed|passed|skipped|deselected|xfailed|xpassed|warnings?|errors?|"
            r"rerun)(?:, )?)+ in [\d.]+s(?: \([\d:.]+\))?$|^no tests ran in [\d.]+s")
        self.location = re.compile(r"^(\S[^:]*?):(\d+): ?(.*)$")
        self.native = re.compile(r'^ +File "([^"]+)", line \d+')
        self.argdump = re.compile(r"^[A-Za-z_]\w* = ")
        self.caret = re.compile(r"^ *[\^~]+ *$")


def _patterns() -> _Patterns:
    global _rx
    if _rx is None:
        _rx = _Patterns()
    return _rx


def _library_path(path: str) -> bool:
    return ("/site-packages/" in path or "/dist-packages/" in path or path.startswith("<")
            or "/lib/python3" in path or "/_pytest/" in path)


class _Block:
    """One FAILURES / ERRORS entry, rendered frame by frame as `path:N: code` lines followed
    by the frame's `E` lines; held until the short test summary names its test."""

    __slots__ = ("title", "lines", "dropped", "code", "location", "e_lines", "e_indent",
                 "expect_code", "captured", "emitted", "context", "cut", "pending", "lib_frame",
                 "raw")

    def __init__(self, title: str):
        self.title = title
        self.raw = 0  # the section's non-blank raw lines (its title aside)
        self.cut: dict[str, int] = {}  # how many of them were cut, by kind
        self.pending = 0  # source/caret lines of the current long frame: its kind is known
        #                   at its location line (a library frame's go with it)
        self.lib_frame = False  # the current short / native frame is a library frame
        self.lines: list[str] = []
        self.dropped = 0
        self.code: str | None = None
        self.location: str | None = None
        self.e_lines: list[str] = []
        self.e_indent: int | None = None
        self.expect_code = False
        self.captured: int | None = None  # lines kept of the current "Captured …" section
        self.emitted = False
        self.context: list[str] = []  # -vv: the source lines before the failing `>` line

    def add(self, line: str) -> None:
        if len(self.lines) < _BLOCK_LIMIT:
            self.lines.append(line)
        else:
            self.dropped += 1

    def count(self, kind: str, n: int = 1) -> None:
        self.cut[kind] = self.cut.get(kind, 0) + n

    def resolve(self, library: bool = False) -> None:
        """The pending source lines belong to a frame now known to be a library's or not."""
        if self.pending:
            self.count("library" if library else "frame", self.pending)
            self.pending = 0

    def add_e(self, rest: str) -> None:
        text = rest.strip()
        if not text:
            return  # a blank `E` line: nothing to count
        if text.startswith(
                ("Use -v to get", "Use -vv to get", "...Full output truncated")) or (
                text.startswith("Omitting ") and "identical items" in text) or (
                text.startswith("+") and " object at 0x" in text):
            self.count("frame")  # pytest's hints and object reprs, not the assertion
            return
        indent = len(rest) - len(rest.lstrip(" "))
        if self.e_indent is None:
            self.e_indent = indent
        text = "E " + rest[min(indent, self.e_indent):].rstrip()
        if text.lstrip("E ").startswith("+") and text in self.e_lines:
            self.count("frame")  # a `+  where …` line pytest printed again (-vv)
            return
        self.e_lines.append(text)

    def flush_frame(self) -> None:
        if self.location is not None:
            self.add(f"{self.location}: {self.code}" if self.code else self.location)
        for line in self.e_lines:
            self.add(line)
        self.code = self.location = None
        self.e_lines = []
        self.e_indent = None
        self.expect_code = False


def _title_keys(nodeid: str) -> tuple[str, ...]:
    """The section titles pytest gives the test `nodeid` (`file::Class::test` → `Class.test`)."""
    path, _, rest = nodeid.partition("::")
    if not rest:
        return (f"ERROR collecting {path}",)
    name = rest.replace("::", ".")
    return (name, f"ERROR at setup of {name}", f"ERROR at teardown of {name}",
            f"ERROR collecting {path}")


def _tb_style(argv: list[str]) -> str:
    for i, word in enumerate(argv):
        if word.startswith("--tb="):
            return word[5:]
        if word == "--tb" and i + 1 < len(argv):
            return argv[i + 1]
    return "auto"


def _verbosity(argv: list[str]) -> int:
    level = 0
    for word in argv:
        if word == "--verbose":
            level += 1
        elif word.startswith("-") and not word.startswith("--") and set(word[1:]) == {"v"}:
            level += len(word) - 1
    return level


def _reports_passes(argv: list[str]) -> bool:
    """`-rA`, `-rP`, `-rp` (also inside `-ra`-style letter sets): the PASSED lines were asked for."""
    for i, word in enumerate(argv):
        chars = ""
        if word.startswith("-r") and len(word) > 2:
            chars = word[2:]
        elif word == "-r" and i + 1 < len(argv):
            chars = argv[i + 1]
        if set(chars) & set("APp"):
            return True
    return False


class Pytest(Filter):
    name = "pytest"
    match_command = r"^(pytest|py\.test)(\s|$)"
    description = "pytest: failures, assertion diffs, errors and the summary line"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.coverage = CoverageTable(threshold_of(argv))
        self.passthrough = any(a in _LISTING_FLAGS for a in argv)
        self.tb_line = _tb_style(argv) == "line"
        self.very_verbose = _verbosity(argv) >= 2
        self.passes_asked = _reports_passes(argv)
        self.passed: dict[str, list[str]] = {}  # file -> test names, from -rA / -rP summaries
        self.passed_count = 0
        self.last_lines: list[str] = []  # the lines of the failure shown last
        self.reason_in_block: bool | None = None  # the last FAILED summary line's section shown?
        self.state = "progress"
        self.rootdir = ""
        self.other_kept = 0
        self.other_dropped = 0
        self.verbose_kept = 0
        self.verbose_dropped = 0
        self.pending_fail: list[tuple[str, str]] = []  # (nodeid, line) from -v progress lines
        self.summarised: set[str] = set()
        self.block: _Block | None = None
        self.blocks: dict[str, list[_Block]] = {}
        self.block_order: list[_Block] = []
        self.warnings: list[str] = []
        self.warnings_dropped = 0
        self.warning_nodeid = ""
        self.passing = 0       # PASSED lines dropped
        self.noise = 0         # session header, progress dots, section banners dropped
        self.warning_source = 0  # the source line under a warning, `-- Docs:` dropped
        self.reports = 0       # PASSES / XPASSES / XFAILURES section lines dropped
        self.cut: dict[str, int] = {}  # failure-section lines cut, by kind (see _CUT_KINDS)

    def _rel(self, line: str) -> str:
        if self.rootdir and self.rootdir in line:
            return line.replace(self.rootdir, "")
        return line

    def _close_section(self):
        self._end_block()
        return ()

    def _held_back(self):
        """Sections the summary did not name, the PASSED tests asked for (`-rA`), then the
        warnings: just before the summary line."""
        yield from self._unmatched_blocks()
        if self.passed:
            yield f"PASSED ({self.passed_count}):"
            for path, names in self.passed.items():
                yield f"  {path}: " + " ".join(n for n in names if n) if any(names) else f"  {path}"
            self.passed = {}
        if self.warnings:
            yield "warnings:"
            for line in self.warnings:
                yield self._rel(line)
            self.warnings = []
        if self.warnings_dropped:
            yield omitted(self.warnings_dropped, "more warning lines")
            self.warnings_dropped = 0

    # -- protocol ------------------------------------------------------------------------
    def feed(self, line: str):
        line = strip_ansi(line)
        if self.passthrough:
            yield line
            return
        rx = _patterns()
        stripped = line.strip()
        table = self.coverage.feed(stripped) if stripped else None
        if table is not None:  # `--cov`: the files under the threshold and the total
            yield from table
            return
        banner = rx.banner.match(stripped) if stripped[:3] in ("===", "___", "!!!", "---") else None
        if banner is None and stripped[:2] in ("_ ", "- ") and stripped[-2:] == " " + stripped[0] \
                and stripped.strip("_- "):
            # a test id too long for the line: pytest frames it with one `_` each side
            # (`_ test_x[long-param] _`); `_ _ _ _` (a frame separator) has no name
            banner = rx.banner.match(stripped[0] * 2 + stripped + stripped[0] * 2)
        if banner and banner.group(1) in ("=", "!"):
            yield from self._close_section()
            title = banner.group(2)
            if banner.group(1) == "!":
                if title:
                    yield title
                return
            if title and rx.summary.match(title):
                yield from self._held_back()
                yield title
                self.state = "done"
                return
            self.noise += 1  # a section banner: what follows it is kept or counted
            self.state = {
                "test session starts": "header",
                "FAILURES": "failures",
                "ERRORS": "failures",
                "warnings summary": "warnings",
                "short test summary info": "summary",
                "PASSES": "drop",
                "XPASSES": "drop",
                "XFAILURES": "drop",
            }.get(title, "other")
            if self.state == "other" and title:
                yield title
            return
        state = self.state
        if state == "header":
            if line.startswith("rootdir: "):
                self.rootdir = line[len("rootdir: "):].split(",")[0].strip() + "/"
            if not stripped:
                self.state = "progress"
            else:
                self.noise += 1
        elif state == "drop":
            if stripped:
                self.reports += 1
        elif state in ("progress", "done"):
            yield from self._progress(line, stripped)
        elif state == "failures":
            self._failure_line(line, stripped, banner)
        elif state == "warnings":
            yield from self._warning_line(line, stripped)
        elif state == "summary":
            yield from self._summary_line(stripped, line)
        elif state == "other":
            yield from self._other(line)

    def finish(self, exit_code: int):
        yield from self.coverage.finish()
        yield from self._close_section()
        yield from self._held_back()
        for nodeid, line in self.pending_fail:
            if nodeid not in self.summarised:
                yield line
        if self.verbose_dropped:
            yield omitted(self.verbose_dropped, "more skipped/xfail lines")
        if self.other_dropped:
            yield omitted(self.other_dropped, "more output lines")
        if self.passing:
            yield omitted(self.passing, "passing tests")
        if self.noise:
            yield omitted(self.noise, "header/progress lines")
        if self.warning_source:
            yield omitted(self.warning_source, "warning source lines")
        if self.reports:
            yield omitted(self.reports, "pass/xfail report lines")
        for kind, noun in _CUT_KINDS:
            if self.cut.get(kind):
                yield omitted(self.cut[kind], noun)

    # -- states --------------------------------------------------------------------------
    def _other(self, line: str):
        if not line.strip():
            return
        if self.other_kept < _OTHER_LIMIT:
            self.other_kept += 1
            yield self._rel(line)
        else:
            self.other_dropped += 1

    def _progress(self, line: str, stripped: str):
        rx = _patterns()
        if not stripped:
            return
        if rx.summary.match(stripped):
            yield from self._held_back()
            yield stripped
            return
        if stripped.startswith(("collecting ", "collected ")):
            self.noise += 1
            return
        xdist = rx.xdist_verbose.match(stripped)
        verbose = None if xdist else rx.verbose.match(stripped)
        if xdist or verbose:
            outcome, nodeid = (xdist.group(1), xdist.group(2)) if xdist else (
                verbose.group(2), verbose.group(1))
            if outcome == "PASSED":
                self.passing += 1
                return
            if outcome in ("FAILED", "ERROR"):
                self.pending_fail.append((nodeid, f"{outcome} {self._rel(nodeid)}"))
                return
            if self.verbose_kept < _KEPT_VERBOSE_LIMIT:
                self.verbose_kept += 1
                yield self._rel(f"{outcome} {nodeid}" + self._reason(stripped))
            else:
                self.verbose_dropped += 1
            return
        if rx.progress.match(stripped):
            self.noise += 1
            return
        yield from self._other(line)

    @staticmethod
    def _reason(stripped: str) -> str:
        """The ` (reason…)` pytest prints after SKIPPED / XFAIL / XPASS in -v mode."""
        for word in (" SKIPPED (", " XFAIL (", " XPASS ("):
            at = stripped.find(word)
            if at >= 0:
                return " " + stripped[at + len(word) - 1:stripped.rfind(")") + 1]
        return ""

    # -- FAILURES / ERRORS sections (buffered per test) ----------------------------------
    def _failure_line(self, line: str, stripped: str, banner):
        rx = _patterns()
        block = self.block
        if banner and banner.group(1) == "_" and banner.group(2):
            self._end_block()
            self.block = _Block(banner.group(2))
            return
        if block is None:
            if stripped:
                block = self.block = _Block("")
            else:
                return
        if stripped and not (stripped == "E" and line.startswith("E")):
            block.raw += 1  # (a blank `E` line carries nothing)
        if banner and banner.group(1) == "-" and banner.group(2):
            block.resolve()
            block.flush_frame()
            block.captured = 0
            block.add(f"{banner.group(2)}:")
            return
        if block.captured is not None:
            if block.captured < _CAPTURED_LIMIT:
                block.captured += 1
                block.add("  " + line.rstrip())
            else:
                block.dropped += 1
            return
        if not stripped:
            return
        if stripped.startswith("_ _") and set(stripped) <= {"_", " "}:
            block.count("frame")  # the separator between two frames
            return
        if line.startswith("E ") or line == "E":
            block.add_e(self._rel(line[1:]))
            return
        if line.startswith(">"):
            if block.code is None:
                block.code = stripped[1:].strip()
                if block.context:  # -vv: the source lines just before the failing one
                    block.add("  source:")
                    for context in block.context:
                        block.add("  " + context)
                    block.context = []
            else:
                block.pending += 1
            return
        if rx.caret.match(line):
            if block.lib_frame:
                block.count("library")
            else:
                block.pending += 1
            return
        native = rx.native.match(line)
        if native:
            block.resolve()
            block.flush_frame()
            path = native.group(1)
            block.lib_frame = _library_path(path)
            if block.lib_frame:
                block.count("library")
            else:
                lineno = line.split(", line ", 1)[1].split(",", 1)[0]
                block.location = f"{self._rel(path)}:{lineno}"
            block.expect_code = True
            return
        if not line.startswith(" "):
            location = rx.location.match(line)
            if location and not line.startswith(("ImportError", "SyntaxError")):
                path, lineno, rest = location.groups()
                if rest.startswith("in "):  # --tb=short: the code line follows
                    block.resolve()
                    block.flush_frame()
                    block.lib_frame = _library_path(path)
                    if block.lib_frame:
                        block.count("library")
                    else:
                        block.location = f"{self._rel(path)}:{lineno}"
                    block.expect_code = True
                    return
                # --tb=long / auto: the frame's `>` line and E lines came before it
                block.lib_frame = False
                if _library_path(path):
                    # the location line, its `>` line and its source lines
                    block.count("library", 1 + (block.code is not None))
                    block.resolve(library=True)
                    block.code = None
                    block.flush_frame()
                    return
                block.resolve()
                block.location = f"{self._rel(path)}:{lineno}"
                if block.code is None and rest and not block.e_lines:
                    block.code = rest  # --tb=line: `path:N: message`
                block.flush_frame()
                if self.tb_line:
                    self._end_block()  # --tb=line: this location line ends one failure
                return
            block.flush_frame()
            if stripped in ("Traceback:", "Traceback (most recent call last):"):
                block.count("frame")
                return
            if stripped == "???":  # the source of a frozen module's frame
                block.count("library" if block.lib_frame else "frame")
                return
            if stripped.startswith("Hint: make sure your test modules"):
                block.count("frame")
                return
            if rx.argdump.match(line):
                if self.very_verbose and " object at 0x" not in line:
                    block.add("  " + self._rel(line.rstrip()))  # -vv: a fixture's value
                else:
                    block.count("frame")
                return
            block.add(self._rel(line.rstrip()))
            return
        # An indented line: the code line of a short / native frame, a continuation of the
        # `E` lines (--tb=line prints `At index 0 diff: …` indented, without the `E`), else
        # source context (kept before the failing line under -vv).
        if block.expect_code:
            block.code = stripped
            block.expect_code = False
            if block.location is None:
                block.code = None  # a library frame: its code line goes too
                block.count("library")
            block.flush_frame()
        elif block.e_lines and self.tb_line:
            if stripped.startswith(("Use -v to get", "Use -vv to get")):
                block.count("frame")
            else:
                block.add_e(self._rel(line))
        elif block.lib_frame:
            block.count("library")
        elif self.very_verbose:
            block.context.append(line.rstrip())
            if len(block.context) > _CONTEXT_LINES:
                block.pending += len(block.context) - _CONTEXT_LINES
                del block.context[:-_CONTEXT_LINES]
        else:
            block.pending += 1

    def _end_block(self):
        block = self.block
        if block is None:
            return
        block.flush_frame()
        block.pending += len(block.context)  # -vv: source lines after the last failing line
        block.context = []
        block.resolve()
        self.block = None
        self.blocks.setdefault(block.title, []).append(block)
        self.block_order.append(block)

    def _emit_block(self, header: str, block):
        yield header
        for kind, n in block.cut.items():
            self.cut[kind] = self.cut.get(kind, 0) + n
        if block.lines and block.lines == self.last_lines and not block.dropped:
            # a parametrized test failing the same way: its lines are the ones just above
            shown = block.raw - sum(block.cut.values())  # its raw lines the ones above show
            yield "  " + omitted(shown, "lines of the same failure as above")
            return
        self.last_lines = block.lines
        yield from block.lines
        if block.dropped:
            yield omitted(block.dropped, "more lines of this failure")

    def _warning_line(self, line: str, stripped: str):
        """Warnings are held back and shown after the failures, before the summary line."""
        if not stripped:
            return
        if line.startswith("    ") or stripped.startswith("-- Docs:"):
            self.warning_source += 1  # the source line that raised the warning, the docs link
            return
        if not line.startswith(" "):
            self.warning_nodeid = stripped.split("::", 1)[0]
        elif not self.rootdir and stripped.startswith("/") and self.warning_nodeid:
            # -q has no header naming rootdir: infer it from `<rootdir>/<nodeid path>:N:`
            at = stripped.find("/" + self.warning_nodeid + ":")
            if at >= 0:
                self.rootdir = stripped[:at + 1]
        if len(self.warnings) < _WARNING_LIMIT:
            self.warnings.append(line.rstrip())
        else:
            self.warnings_dropped += 1
        return
        yield

    def _summary_line(self, stripped: str, line: str = ""):
        if line.startswith(" ") or (not stripped and self.reason_in_block is not None):
            # the rest of a multi-line reason (-vv): its section above has it already
            if self.reason_in_block is False and stripped:
                yield self._rel(line.rstrip())
            elif stripped:
                self.cut["summary"] = self.cut.get("summary", 0) + 1
            return
        self.reason_in_block = None
        if stripped.startswith("PASSED ") and self.passes_asked:
            nodeid = stripped[7:]
            path, sep, name = nodeid.partition("::")
            self.passed.setdefault(self._rel(path), []).append(name if sep else "")
            self.passed_count += 1
            return
        if stripped.startswith("PASSED "):
            self.passing += 1
            return
        if not stripped:
            return
        if _patterns().summary.match(stripped):  # -q: the closing line has no `=` banner
            yield from self._held_back()
            yield stripped
            self.state = "done"
            return
        for outcome in ("FAILED ", "ERROR "):
            if stripped.startswith(outcome):
                nodeid = stripped[len(outcome):].split(" - ", 1)[0]
                self.summarised.add(nodeid)
                for key in _title_keys(nodeid):
                    queue = self.blocks.get(key)
                    if queue:
                        block = queue.pop(0)
                        block.emitted = True
                        self.reason_in_block = True
                        yield from self._emit_block(self._rel(outcome + nodeid), block)
                        return
                if self.tb_line:  # one untitled entry per failure, in the summary's order
                    queue = self.blocks.get("")
                    if queue:
                        block = queue.pop(0)
                        block.emitted = True
                        self.reason_in_block = True
                        yield from self._emit_block(self._rel(outcome + nodeid), block)
                        return
                self.reason_in_block = False
        yield self._rel(stripped)

    def _unmatched_blocks(self):
        """Sections the short summary did not name (`-rN`, or no summary at all)."""
        self._end_block()
        for block in self.block_order:
            if not block.emitted:
                block.emitted = True
                yield from self._emit_block(f"--- {block.title}" if block.title else "---", block)
        self.block_order = []
