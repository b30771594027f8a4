"""`python -m unittest`: every FAIL / ERROR block with its traceback, then the run summary.

Keeps: `FAIL: test (module.Class.test)` / `ERROR: …` headers (shown as `FAIL: module.Class.test`,
the id to rerun), the traceback frames of the project as `path:N` (ERROR frames with their code
line; a FAIL's assertion message already shows the values), the exception and assertion text
(including unittest's `- / + / ?` diffs), skipped / expected-failure / unexpected-success lines
of -v output (capped), `Ran N tests in Xs` and `OK` / `FAILED (failures=2, errors=1)` verbatim.
Drops: the progress dots, `… ok` lines of -v, `=====` / `-----` rulers, `Traceback (most recent
call last):`, frames inside the standard library, caret lines, difflib's `?   ++++` column
markers and assertSequenceEqual's prose before its diff (`First extra element 1:` …, the
diff below it shows the same), blank lines. Paths under the
project root (inferred from the failing test's module) are shown relative to it.
The drops are counted at the end: `... (24 passing tests omitted)` (the `… ok` lines of -v),
`... (2 progress/ruler lines omitted)` (dots lines and rulers), and with the lines cut inside the
failure blocks (`Traceback …`, carets, a FAIL's code line, difflib's markers, the sequence prose)
in the same marker, `... (18 progress/ruler/traceback lines omitted)`; `... (3 library frame
lines omitted)` (the standard-library frames with their code); the caps say `... (N more …
omitted)`.
Injects nothing. Tested with Python 3.11.7's unittest (plain and -v; the module-import error
case included); the layout is unchanged from 3.8 to 3.13.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted, strip_ansi

_VERBOSE_KEPT_LIMIT = 20
_BLOCK_LIMIT = 60
_RESULTS = (" ... ok", " ... FAIL", " ... ERROR")
_NOTABLE = (" ... skipped", " ... expected failure", " ... unexpected success")


def _library_frame(line: str) -> bool:
    path = line.split('"', 2)[1] if line.count('"') >= 2 else ""
    return "/lib/python3" in path or "/site-packages/" in path or path.startswith("<")


def _sequence_preamble(stripped: str) -> bool:
    words = stripped.split()
    if len(words) == 6 and words[0] in ("First", "Second") and words[2] == "contains" and (
            words[4:] == ["additional", "elements."] or words[4:] == ["additional", "element."]):
        return True
    return len(words) == 4 and words[0] == "First" and words[1] in ("extra", "differing") and (
        words[2] == "element" and words[3].endswith(":"))


def _progress_only(stripped: str) -> bool:
    return bool(stripped) and not stripped.strip(".EFsxu")


class Unittest(Filter):
    name = "unittest"
    match_command = r"^unittest(\s|$)"  # the key has `python -m` unwrapped already
    description = "python -m unittest: failures, errors, tracebacks and the result line"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.in_block = False
        self.block_lines = 0
        self.block_dropped = 0
        self.skip_code = False
        self.frame: str | None = None  # `path:N` of the traceback frame being read
        self.frame_code: str | None = None
        self.block_kind = ""
        self.skip_value = False
        self.module_path = ""  # `/module.py` of the failing test, to find the project root
        self.root = ""
        self.notable = 0
        self.notable_dropped = 0
        self.passing = 0  # `… ok` lines dropped
        self.noise = 0    # progress dots lines and rulers dropped
        self.traceback = 0  # cut inside a failure block: `Traceback …`, carets, a FAIL's code
        #                     line, difflib's `?` markers, assertSequenceEqual's prose
        self.library = 0  # the lines of standard-library / site-packages frames

    def _end_block(self):
        yield from self._flush_frame()
        if self.block_dropped:
            yield omitted(self.block_dropped, "more lines of this failure")
        self.in_block = False
        self.block_lines = self.block_dropped = 0

    def feed(self, line: str):
        line = strip_ansi(line).rstrip()
        stripped = line.strip()
        if stripped and set(stripped) == {"="} and len(stripped) >= 20:
            yield from self._end_block()
            self.in_block = True
            self.noise += 1
            return
        if stripped and set(stripped) == {"-"} and len(stripped) >= 20:
            if not self.in_block or self.block_lines > 1:
                yield from self._end_block()  # the ruler before `Ran N tests`
            self.noise += 1
            return
        if not stripped:
            return
        if self.in_block:
            yield from self._block_line(line, stripped)
            return
        if line.startswith("Ran ") or stripped in ("OK", "NO TESTS RAN") or line.startswith(
                ("OK (", "FAILED (")):
            yield line
            return
        if line.endswith(" ... ok"):
            self.passing += 1
            return
        if line.endswith(_RESULTS) or _progress_only(stripped):
            self.noise += 1
            return
        if any(word in line for word in _NOTABLE):
            if self.notable < _VERBOSE_KEPT_LIMIT:
                self.notable += 1
                yield line
            else:
                self.notable_dropped += 1
            return
        yield line  # the test's own output, warnings, an import error before the run

    def _block_line(self, line: str, stripped: str):
        if stripped == "Traceback (most recent call last):":
            self.traceback += 1
            return
        if line.startswith(("FAIL: ", "ERROR: ", "UNEXPECTED SUCCESS: ")) and line.endswith(")"):
            # `FAIL: test_x (module.Class.test_x)` → `FAIL: module.Class.test_x`, the id to rerun
            label, _, rest = line.partition(": ")
            self.block_kind = label
            method, _, test_id = rest[:-1].partition(" (")
            if test_id.endswith("." + method) or test_id.endswith(method):
                module = test_id.split(".", 1)[0]
                self.module_path = "/" + module.replace(".", "/") + ".py"
                line = f"{label}: {test_id}"
            yield from self._add(line)
            return
        if line.startswith('  File "') and ", line " in line:
            yield from self._flush_frame()
            if _library_frame(line):
                self.skip_code = True
                self.library += 1
                return
            path = self._rel(line.split('"', 2)[1])
            lineno = line.split(", line ", 1)[1].split(",", 1)[0]
            self.frame = f"{path}:{lineno}"
            self.skip_code = False
            return
        if line.startswith("    ") and (self.frame is not None or self.skip_code):
            if self.frame is not None and stripped.strip("^~ "):
                if self.frame_code is None:
                    self.frame_code = stripped  # the frame's code line
                else:
                    self.traceback += 1
                return
            if self.skip_code:
                self.library += 1  # a standard-library frame's code and caret lines
                return
        if not stripped.strip("^~ "):
            self.traceback += 1
            return  # caret line under the failing expression
        if line.startswith("? ") and not stripped[1:].strip(" +-^"):
            self.traceback += 1
            return  # difflib's column markers under a `- / +` diff line
        if self.skip_value:
            self.skip_value = False
            self.traceback += 1
            return
        if _sequence_preamble(stripped):
            # assertSequenceEqual's prose before its diff says what the diff shows
            self.skip_value = stripped.endswith(":")
            self.traceback += 1
            return
        yield from self._flush_frame()
        self.skip_code = False
        yield from self._add(line)

    def _rel(self, path: str) -> str:
        if not self.root and self.module_path and path.endswith(self.module_path):
            self.root = path[:-len(self.module_path) + 1]
        if self.root and path.startswith(self.root):
            return path[len(self.root):]
        return path

    def _flush_frame(self):
        if self.frame is not None:
            frame, code = self.frame, self.frame_code
            self.frame = self.frame_code = None
            # A FAIL is an assertion whose message shows the values; an ERROR's code line shows
            # what raised, so only ERROR frames keep it.
            shown = f"{frame}: {code}" if code and self.block_kind != "FAIL" else frame
            if code and shown == frame:
                self.traceback += 1  # a FAIL frame's code line
            yield from self._add(shown)

    def _add(self, line: str):
        if self.block_lines < _BLOCK_LIMIT:
            self.block_lines += 1
            yield line
        else:
            self.block_dropped += 1

    def finish(self, exit_code: int):
        yield from self._end_block()
        if self.notable_dropped:
            yield omitted(self.notable_dropped, "more skipped / expected-failure lines")
        if self.passing:
            yield omitted(self.passing, "passing tests")
        # One marker for the rulers and the traceback lines cut (a failure's answer is short:
        # its markers are too)
        cut = self.noise + self.traceback
        if cut:
            kinds = "/".join(kind for kind, n in (("progress/ruler", self.noise),
                                                  ("traceback", self.traceback)) if n)
            yield omitted(cut, f"{kinds} lines")
        if self.library:
            yield omitted(self.library, "library frame lines")
