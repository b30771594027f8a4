"""cargo nextest run (and list): every failing test with its captured output, the summary.

Keeps: each status line that is not a plain pass (`FAIL`, `SIGSEGV`, `ABORT`, `TIMEOUT`,
`LEAK-FAIL`, `FAIL + LEAK`, `XFAIL`, `TRY 2 FAIL`, `TRY 2 PASS`, `FLAKY 2/3` …) verbatim with
the test's binary id and name; `LEAK` passes (capped); the captured output of failing tests,
in both layouts (`--- STDOUT:              pkg::bin test ---` blocks of nextest ≤ 0.9.9x and
the indented `  stdout ───` / `  stderr ───` blocks of newer ones): the panic
(`thread 'x' panicked at src/lib.rs:10:9:`), its message and `left:` / `right:` values, the
test's own log lines, each block capped at 40 lines around its panic lines, gaps counted; the
project's own frames of a `stack backtrace:` (std/core/rustc/registry frames counted);
`Canceling due to test failure`, the `Summary [ …] N tests run: N passed, N failed, N skipped`
line and the final status list under it, `warning: N/M tests were not run …`,
`error: test run failed`, compile errors / warnings exactly as the cargo-build filter shows
them, and any other line (capped at 50).
Counts, each in a marker: `PASS` lines (`... (537 passing tests omitted)`), `SKIP` lines,
progress (`START`, `SLOW`, `TERMINATING` while running, the `Nextest run ID` banner,
`Starting N tests across M binaries`, `────────────` rules, cargo's `Compiling` / `Finished`
lines), libtest's own lines inside a captured block (`running 1 test`, `test x ... FAILED`,
the `failures:` list, `test result: FAILED. …`, the RUST_BACKTRACE note), a captured block
printed a second time (`--failure-output immediate-final`), and lines cut from a long block.
`cargo nextest list`: the listing is the answer; it passes whole up to 400 lines, then head
and tail with the count (cargo's build chatter counted as progress).
Passes everything through for `--message-format` (libtest-json …), `--cargo-message-format`,
`-T` and `--help` / `--version`. Injects nothing. nextest exits 100 when tests fail.
cargo-nextest cannot be installed here (crates.io and GitHub downloads are not reachable): the
formats come from output nextest printed that its project and others published (fixtures
`source = "published"`): nextest's own site recordings (0.9.12x) and pasted runs of 0.9.67 –
0.9.10x in astral-sh issue threads.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters.rust._rustc import _PROGRESS, RustDiagnostics
from cc_filter.kit.lines import CappedLines, LazyPattern, omitted, strip_ansi

# `        PASS [   0.005s] (1/6) bin test`, `  TRY 1 FAIL [ …`, ` FAIL + LEAK [ …`,
# `   FLAKY 2/3 [ …`, `       START [         ] …`, `TIMEOUT-PASS [ …`
_STATUS = LazyPattern(r"^ *((?:TRY \d+ )?[A-Z][A-Z0-9+/ -]*?) \[[^\]\n]*\] ")
_PASSING = ("PASS", "TIMEOUT-PASS")
_PROGRESS_STATUS = ("START", "SLOW", "TERMINATING", "TRMNTG", "RETRY", "SETUP")
_BLOCK_LIMIT = 24
_BLOCK_HEAD = 14
_BLOCK_TAIL = 10
_PANIC_WINDOW = 5  # a panic line and the 4 after it (message, left, right) are always kept
_FRAME_LIMIT = 8
_LEAK_LIMIT = 10
_OTHER_LIMIT = 50
_LIST_LIMIT = 400
_FOREIGN_FRAMES = ("/rustc/", "\\rustc\\", ".rustup", ".cargo/registry", ".cargo\\registry",
                   ".cargo/git", ".cargo\\git", "/library/std/", "/library/core/")
_STD_FUNCS = ("std::", "core::", "alloc::", "test::", "__rust", "rust_begin_unwind",
              "<std::", "<core::", "<alloc::", "__libc", "_start", "start_thread", "clone",
              "BaseThreadInitThunk", "RtlUserThreadStart")
_MACHINE_FLAGS = ("--message-format", "--cargo-message-format", "--message-format-version")


def _passthrough(argv: list[str]) -> bool:
    for arg in argv:
        if arg in ("-h", "--help", "-V", "--version", "-T") or arg.startswith("-T"):
            return True
        if arg.startswith(_MACHINE_FLAGS):
            value = arg.partition("=")[2]
            if value != "human":
                return True
    return False


def _rule(stripped: str) -> bool:
    """`────────────` / `------------` (12 wide) between the phases of a run; a test's own
    longer rules (insta's snapshot frames) are not nextest's."""
    return stripped in ("────────────", "------------")


def _old_header(stripped: str) -> bool:
    """`--- STDOUT:              pkg::bin test ---` (and `--- TRY 2 STDERR: …`)."""
    return stripped.startswith("--- ") and stripped.endswith(" ---") and (
        "STDOUT:" in stripped or "STDERR:" in stripped or "OUTPUT:" in stripped)


def _new_header(line: str, stripped: str) -> bool:
    """`  stdout ───`, `  stderr ---`, `  output ───` (nextest ≥ 0.9.9x, two spaces in)."""
    word, _, rule = stripped.partition(" ")
    return (word in ("stdout", "stderr", "output") and line.startswith("  ")
            and not line.startswith("   ") and bool(rule) and not rule.strip("─-"))


def _libtest(stripped: str, name: str) -> bool:
    """libtest's own lines inside a test's captured output."""
    if stripped.startswith(("running ", "test result: ")) and (
            stripped.startswith("test result: ") or stripped.endswith((" test", " tests"))):
        return True
    if stripped in ("failures:", name) or stripped.startswith("note: run with `RUST_BACKTRACE="):
        return True
    if stripped.startswith("note: Some details are omitted, run with `RUST_BACKTRACE=full`"):
        return True
    return stripped.startswith("test ") and " ... " in stripped


class _Block:
    """One captured stdout/stderr of a test: libtest's lines and foreign backtrace frames
    counted, the rest kept up to a cap (head, every panic window, tail), gaps counted."""

    __slots__ = ("header", "name", "key", "lines", "total", "window", "frames", "frame_head",
                 "foreign", "boilerplate")

    def __init__(self, header: str, name: str, key: str):
        self.header = header
        self.name = name
        self.key = key  # the same output printed again (final output) has the same key
        self.lines: list[tuple[int, str, bool]] = []  # (index, line, forced)
        self.total = 0
        self.window = 0
        self.frames = 0
        self.frame_head: str | None = None
        self.foreign = 0
        self.boilerplate = 0

    def add(self, line: str, stripped: str) -> None:
        if self.frame_head is not None:
            head, self.frame_head = self.frame_head, None
            if stripped.startswith("at "):
                self._frame(head, stripped[3:], (head, line))
                return
            self._frame(head, "", (head,))
        if not stripped:
            self._keep(line)
            return
        if _libtest(stripped, self.name):
            self.boilerplate += 1
            return
        number, colon, func = stripped.partition(": ")
        if colon and number.isdigit() and " " not in func.split("<", 1)[0].strip():
            self.frame_head = line  # `   3: crate::module::function` (its `at …` may follow)
            return
        self._keep(line, forced="panicked at " in stripped)

    def _frame(self, head: str, location: str, lines: tuple) -> None:
        func = head.strip().partition(": ")[2]
        own = not func.startswith(_STD_FUNCS) and not any(m in location for m in _FOREIGN_FRAMES)
        if own and self.frames < _FRAME_LIMIT:
            self.frames += 1
            for line in lines:
                self._keep(line, backtrace=True)
        else:
            self.foreign += len(lines)

    def _keep(self, line: str, forced: bool = False, backtrace: bool = False) -> None:
        if forced:
            self.window = _PANIC_WINDOW
        keep = self.window > 0 or backtrace
        if self.window:
            self.window -= 1
        self.lines.append((self.total, line, keep))
        self.total += 1

    def render(self) -> list[str]:
        if self.frame_head is not None:
            head, self.frame_head = self.frame_head, None
            self._frame(head, "", (head,))
        lines = [entry for entry in self.lines if entry[1].strip()]  # blank lines: none
        if not lines and not self.foreign:
            return []
        out = [self.header]
        cut = set()
        seen: set[str] = set()
        for index, line, forced in lines:  # a long line seen before in this block: once
            text = line.strip()
            if len(text) >= 6 and text in seen and not forced:
                cut.add(index)
            seen.add(text)
        rest = [entry for entry in lines if entry[0] not in cut]
        if len(rest) > _BLOCK_LIMIT:
            cut |= {entry[0] for entry in rest[_BLOCK_HEAD:-_BLOCK_TAIL] if not entry[2]}
        order = [entry[0] for entry in lines]
        for at, index in enumerate(order):  # a gap of one line: the line costs what a marker does
            if index in cut and (at == 0 or order[at - 1] not in cut) and (
                    at + 1 == len(order) or order[at + 1] not in cut):
                cut.discard(index)
        gap = 0
        for index, line, _ in lines:
            if index in cut:
                gap += 1
                continue
            if gap:
                out.append(omitted(gap, f"lines of output of {self.name}"))
                gap = 0
            out.append(line)
        if self.foreign:
            out.append(omitted(self.foreign, "std, rustc and dependency backtrace lines"))
        return out


def _signature(block: "_Block") -> tuple:
    """A block's lines without the test's name, digits and temporary names: equal for two
    tests that failed the same way."""
    out = []
    for _, line, _ in block.lines:
        text = line.strip()
        if not text:
            continue
        if block.name:
            text = text.replace(block.name, "")
        words = []
        for word in text.split():
            if ".tmp" in word:
                word = word[:word.find(".tmp")]
            words.append("".join(c for c in word if not c.isdigit()))
        out.append(" ".join(words))
    return (block.header.split(":", 1)[0], tuple(out))


class CargoNextest(Filter):
    name = "cargo-nextest"
    match_command = r"^cargo nextest (run|r|list|l)(\s|$)"
    description = "cargo nextest: failing tests with their output and panics, the summary"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = _passthrough(argv)
        words = [a for a in argv if not a.startswith("-")]
        self.listing = len(words) > 2 and words[2] in ("list", "l")
        self.diagnostics = RustDiagnostics()
        self.started = False  # the first line of nextest's own (banner, Starting, a status)
        self.after_summary = False
        self.block: _Block | None = None
        self.last_name = ""  # the test of the last status line (new-layout blocks name none)
        self.last_status = ""
        self.seen_blocks: set[str] = set()
        self.signatures: dict[tuple, str] = {}  # a block's text less names and numbers → test
        self.repeated = 0
        self.passed = 0
        self.skipped = 0
        self.progress = 0
        self.boilerplate = 0
        self.leaks = 0
        self.leaks_dropped = 0
        self.other = 0
        self.other_dropped = 0
        self.listed = CappedLines(_LIST_LIMIT, _LIST_LIMIT // 2, _LIST_LIMIT // 4)

    # -- lines -------------------------------------------------------------------------------
    def feed(self, line: str):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            return (line,)
        stripped = line.strip()
        if self.listing:
            return self._list_line(line, stripped)
        out: list[str] = []
        status = _STATUS.match(line) if "[" in line else None
        block = self.block
        if block is not None:
            if status is None and not self._ends_block(line, stripped, block):
                if not block.header.startswith("--- "):
                    line = line[4:]  # the new layout indents a test's output by 4
                block.add(line, stripped)
                return ()
            out.extend(self._end_block())
        if status is not None:
            out.extend(self._status(line, status.group(1)))
            return out
        if not stripped:
            return out
        if _old_header(stripped):
            self.started = True
            name = stripped[4:-4].split()[-1] if len(stripped) > 8 else ""
            self.block = _Block(stripped, name, stripped)
            return out
        if _new_header(line, stripped):
            self.block = _Block(stripped, self.last_name, f"{self.last_status} {stripped}")
            return out
        if _rule(stripped) or stripped.startswith(("Nextest run ID ", "Starting ")) and (
                "test" in stripped or "run ID" in stripped):
            self.started = True
            self.progress += 1
            return out
        if stripped.startswith("Summary [") or stripped.startswith("Stress test "):
            self.started = True
            self.after_summary = stripped.startswith("Summary [")
            out.append(stripped)
            return out
        if not self.started:
            if stripped.startswith(_PROGRESS) and line.startswith(" ") or (
                    stripped.startswith("Finished ") and line.startswith(" ")):
                self.progress += 1
                return out
            if self.diagnostics.feed(line):
                out.extend(self.diagnostics.drain())
                return out
        out.extend(self._other(line, stripped))
        return out

    def _ends_block(self, line: str, stripped: str, block: _Block) -> bool:
        if not stripped:
            return False
        if block.header.startswith("--- "):  # the old layout: unindented output
            return (_old_header(stripped) or _rule(stripped) or stripped.startswith(
                ("Summary [", "Canceling due to", "Cancelling due to"))
                or line == "error: test run failed")
        return not line.startswith("    ")  # the new layout: output indented by 4

    def _end_block(self):
        block, self.block = self.block, None
        if block is None:
            return []
        self.boilerplate += block.boilerplate
        key = block.key
        if key in self.seen_blocks:
            shown = sum(1 for _, text, _ in block.lines if text.strip()) + block.foreign + 1
            self.repeated += shown
            return []
        self.seen_blocks.add(key)
        rendered = block.render()
        if not rendered:
            self.boilerplate += 1  # a header with nothing under it
            return rendered
        signature = _signature(block)
        like = self.signatures.get(signature)
        if like is None or len(rendered) <= 4:
            self.signatures.setdefault(signature, block.name)
            return rendered
        # the same failure as an earlier test's (a loop, a shared helper): its header and panic
        shown = rendered[:3] if "panicked at " in rendered[1] else rendered[:2]
        lines = sum(1 for _, text, _ in block.lines if text.strip()) + block.foreign
        hidden = lines - (len(shown) - 1)
        return shown + [omitted(hidden, f"lines of output like {like}'s")]

    def _status(self, line: str, word: str):
        self.started = True
        rest = line[_STATUS.match(line).end():]
        self.last_name = rest.split()[-1] if rest.split() else ""
        self.last_status = line.strip()
        word = word.strip()
        if word in _PASSING:
            self.passed += 1
            return ()
        if word == "SKIP":
            self.skipped += 1
            return ()
        if word in _PROGRESS_STATUS and not self.after_summary:
            self.progress += 1
            return ()
        if word == "LEAK" and not self.after_summary:
            if self.leaks >= _LEAK_LIMIT:
                self.leaks_dropped += 1
                return ()
            self.leaks += 1
        return (line.strip(),)  # nextest right-aligns the status word: the padding carries nothing

    def _other(self, line: str, stripped: str):
        if "panicked at " in stripped or self.other < _OTHER_LIMIT or stripped.startswith(
                ("error:", "warning:", "Canceling", "Cancelling")):
            self.other += 1
            return (line,)
        self.other_dropped += 1
        return ()

    def _list_line(self, line: str, stripped: str):
        if not stripped:
            return ()
        if not self.listed.count and (stripped.startswith(_PROGRESS) or stripped.startswith(
                "Finished ")) and line.startswith(" "):
            self.progress += 1
            return ()
        if not self.listed.count and self.diagnostics.feed(line):
            return self.diagnostics.drain()
        self.listed.add(line)
        return ()

    # -- the end -----------------------------------------------------------------------------
    def finish(self, exit_code: int):
        if self.passthrough:
            return
        if self.listing:
            yield from self.diagnostics.finish()
            yield from self.listed.render("listed lines")
            if self.progress:
                yield omitted(self.progress, "build progress lines")
            return
        yield from self._end_block()
        for line in self.diagnostics.finish():
            if not (self.started and line.startswith("Finished ")):
                yield line
        if self.leaks_dropped:
            yield f"+{self.leaks_dropped} more leaky tests"
        if self.other_dropped:
            yield omitted(self.other_dropped, "more output lines")
        if self.passed:
            yield omitted(self.passed, "passing tests")
        if self.skipped:
            yield omitted(self.skipped, "skipped tests")
        kinds = [kind for count, kind in ((self.boilerplate, "libtest"), (self.progress, "progress"),
                                          (self.repeated, "repeated failure output"))
                 if count]
        if kinds:
            what = kinds[0] if len(kinds) == 1 else ", ".join(kinds[:-1]) + " and " + kinds[-1]
            yield omitted(self.boilerplate + self.progress + self.repeated, f"{what} lines")
