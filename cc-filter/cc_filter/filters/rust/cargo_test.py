"""cargo test: every failing test with its panic message, compile errors, and the result lines.

Keeps: each `---- name stdout ----` failure section (the panic location `panicked at
src/lib.rs:10:9:`, the message, `left:` / `right:` values, captured output, capped at 40
lines), `test … FAILED` names that had no section (a crashed test binary), ignored tests
(capped), every FAILED suite's `test result: …` line verbatim, passing suites' result lines
with equal counts folded into one `test result: ok. 1 passed; … (×12 suites)` (timings
dropped), `error: test failed, to rerun pass …` and the `N targets failed:`
list, and compile errors / warnings exactly as the cargo-build filter shows them.
Drops: compile progress, `Running …` / `Doc-tests …` headers, `running N tests`, `test … ok`
lines and quiet-mode dots, the repeated `failures:` name list, empty suites' `test result: ok.
0 passed; 0 failed; 0 ignored …`, "note: run with `RUST_BACKTRACE=1`", thread ids, the build's
`Finished …` line once tests ran. A section whose first line is the test's own panic becomes
one line: `---- tests::x panicked at src/lib.rs:10:9:`. A `stack backtrace:` (`RUST_BACKTRACE=1`)
keeps the project's own frames, at most 3, each on one line with its path relative to where
cargo ran (`  at ledger-money/src/lib.rs:13:16 (ledger_money::split)`: the frame's `./src/…`
is the crate's); Rust's own frames (std, core, alloc, the test harness, `/rustc/…`) and the
header go, counted (`backtrace lines: standard-library frames, headers`).
Every dropped line is counted, one marker per kind before cargo's summary lines: `passing
tests`, `suite header lines` (`Running …`, `Doc-tests …`, `running N tests`), `-q progress
lines`, `empty suite results`, build progress with the `Finished` line (`... (21
Compiling/Finished lines omitted)`), `backtrace hints` (`note: run with RUST_BACKTRACE=1`),
the `failures:` headings and the names the list under the second one repeats (`failure list
lines`), the compile diagnostics' own (`_rustc.py`), ignored tests and output lines past their
caps; a failure section's lines past its cap are counted where they were cut. Not counted,
because restated: passing suites' result lines (folded, less their timing), the `test …
FAILED` lines (the test's section names it, or the line is shown), the name list's entry for a
test that has neither (shown as `test … FAILED`), the panic line merged into its section
header.
Passes everything through for `--message-format=json`, `-- --format json|junit|terse` and
`-- --list`. Injects nothing. `cargo nextest` has its own filter (cargo-nextest). Tested with
cargo / rustc 1.95.0 (default
and -q output, workspace runs with --no-fail-fast).
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._tally import Tally
from cc_filter.filters.rust._rustc import RustDiagnostics, machine_format
from cc_filter.kit.lines import omitted, strip_ansi

_SECTION_LIMIT = 40
_FRAMES = 3  # a backtrace's own frames shown per failure
#: functions of a backtrace that are Rust's own (std, core, the test harness)
_LIBRARY_FUNCS = ("__rustc::", "core::", "std::", "alloc::", "test::", "<", "rust_begin_unwind",
                  "__rust_", "_start", "__libc_")
_IGNORED_LIMIT = 10
_OTHER_LIMIT = 50


def _empty_result(line: str) -> bool:
    return " 0 passed; 0 failed; 0 ignored;" in line


def _results(results: list[str]):
    """FAILED suites verbatim, in order; passing suites with the same counts as one line
    `test result: ok. 1 passed; 0 failed; … (×12 suites)` (their timings dropped)."""
    ok: dict[str, int] = {}
    for line in results:
        if line.startswith("test result: ok."):
            counts = line.split("; finished in ", 1)[0]
            ok[counts] = ok.get(counts, 0) + 1
        else:
            yield line
    if len(ok) == 1 and sum(ok.values()) == 1:
        yield next(line for line in results if line.startswith("test result: ok."))
        return
    for counts, n in ok.items():
        yield counts if n == 1 else f"{counts} (×{n} suites)"


def _strip_thread_id(line: str) -> str:
    # thread 'tests::x' (21492) panicked at … → thread 'tests::x' panicked at …
    if line.startswith("thread '") and "' (" in line:
        head, _, rest = line.partition("' (")
        number, _, tail = rest.partition(") ")
        if number.isdigit():
            return f"{head}' {tail}"
    return line


class CargoTest(Filter):
    name = "cargo-test"
    match_command = r"^cargo (test|t)(\s|$)"
    description = "cargo test: failing tests with panic messages, compile errors, result lines"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = machine_format(argv)
        self.tally = Tally()
        self.diagnostics = RustDiagnostics(self.tally)
        self.state = "build"
        self.section_lines = 0
        self.section_dropped = 0
        self.pending_header: str | None = None
        self.sections: set[str] = set()
        self.failed: list[str] = []
        self.ignored = 0
        self.ignored_dropped = 0
        self.results: list[str] = []
        self.backtrace = False  # inside a failure's `stack backtrace:`
        self.frames = 0
        self.frame: list | None = None  # [function, location] of the frame being read
        self.crate_dir: str | None = None  # `ledger-money/` of the last panic line
        self.other = 0
        self.other_dropped = 0

    def feed(self, line: str):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            yield line
            return
        stripped = line.strip()
        if self.state == "section":
            if line.startswith("---- ") and line.endswith(" ----"):
                yield from self._start_section(line)
                return
            if line == "failures:" or line.startswith("test result: "):
                yield from self._end_section()
                self.state = "names" if line == "failures:" else "tests"
                if line.startswith("test result: "):
                    self._result(line)
                else:
                    self.tally.add("failure list lines")
                return
            if not stripped:
                return
            if stripped.startswith(("note: run with `RUST_BACKTRACE=1`",
                                    "note: Some details are omitted, run with `RUST_BACKTRACE=full`")):
                self.tally.add("backtrace hints")
                return
            if stripped == "stack backtrace:":
                self.backtrace = True
                self.frames = 0
                self.frame = None
                self.tally.add("backtrace lines: standard-library frames, headers")
                return
            if self.backtrace:
                # `  5: crate::tests::x` then `      at ./src/lib.rs:9:5`: a frame is judged
                # once its two lines are in (the next frame, or the end of the backtrace)
                number, colon, func = stripped.partition(": ")
                if colon and number.isdigit():
                    yield from self._take_frame()
                    self.frame = [func, None]
                    return
                if stripped.startswith("at ") and self.frame is not None and self.frame[1] is None:
                    self.frame[1] = stripped[3:]
                    return
                yield from self._take_frame()
                self.backtrace = False
            if self.pending_header is not None:
                header, self.pending_header = self.pending_header, None
                name = header[5:-5].removesuffix(" stdout").removesuffix(" stderr")
                line = _strip_thread_id(line)
                prefix = f"thread '{name}' panicked at "
                if line.startswith(prefix) and "/src/" in line:
                    # `ledger-money/src/lib.rs:9:5:`: the crate's folder, for its frames' paths
                    at = line[len(prefix):]
                    self.crate_dir = at[:at.index("/src/") + 1] if "/src/" in at else None
                    # the section names the test, the panic line names it again: one line
                    yield f"---- {name} panicked at {line[len(prefix):]}"
                    return
                yield header
            if self.section_lines < _SECTION_LIMIT:
                self.section_lines += 1
                yield _strip_thread_id(line)
            else:
                self.section_dropped += 1
            return
        if self.state == "names":
            if line.startswith("    "):
                name = stripped
                if name not in self.sections and name not in self.failed:
                    self.failed.append(name)  # shown as `test name ... FAILED`
                else:
                    self.tally.add("failure list lines")  # named by its section already
                return
            if not stripped:
                return
            self.state = "tests"
        if line.startswith("test result: "):
            self._result(line)
            return
        if line == "failures:":
            self.tally.add("failure list lines")
            self.state = "section"
            return
        if line.startswith("test ") and " ... " in line:
            name, _, outcome = line[5:].partition(" ... ")
            name = name.removesuffix(" - should panic")
            if outcome.startswith("FAILED"):
                self.failed.append(name)
            elif outcome.startswith("ignored"):
                if self.ignored < _IGNORED_LIMIT:
                    self.ignored += 1
                    yield line
                else:
                    self.ignored_dropped += 1
            else:
                self.tally.add("passing tests")
            return
        if line.endswith(" --- FAILED") and " " not in line[:-11]:
            self.failed.append(line[:-11])  # -q: `tests::x --- FAILED`
            return
        if stripped.startswith(("Running ", "Doc-tests ")) or line.startswith(
                ("running ", "all doctests ran in ")):
            self.tally.add("suite header lines")
            return
        if stripped and not stripped.strip(".iF") or (
                stripped[:1] in ".iF" and stripped.split(" ")[-1].count("/") == 1
                and not stripped.split(" ")[0].strip(".iF")):
            self.tally.add("-q progress lines")
            return  # -q progress: `........ 12/26`
        if self.diagnostics.feed(line):
            yield from self.diagnostics.drain()
            return
        if not stripped:
            return
        if self.other < _OTHER_LIMIT:
            self.other += 1
            yield line  # --nocapture output, `error: N targets failed:` list, …
        else:
            self.other_dropped += 1

    def _take_frame(self) -> list[str]:
        """The frame held (if its two lines are complete or the next one began): the
        project's own frames are shown, at most `_FRAMES`, as `  at ledger-money/src/lib.rs:9:5
        (crate::tests::x)`, the location relative to where cargo ran; the rest counted."""
        frame = self.frame
        if frame is None:
            return []
        func, location = frame
        self.frame = None
        library = func.startswith(_LIBRARY_FUNCS) or (location or "/rustc/").startswith("/rustc/")
        lines = 1 + (location is not None)
        if library or self.frames >= _FRAMES:
            self.tally.add("backtrace lines: standard-library frames, headers" if library
                           else f"backtrace frames past the first {_FRAMES}", lines)
            return []
        self.frames += 1
        if self.section_lines >= _SECTION_LIMIT:
            self.section_dropped += lines
            return []
        self.section_lines += 1
        return [f"  at {self._in_run(location)} ({func})" if location else f"  at {func}"]

    def _in_run(self, location: str) -> str:
        """`./src/lib.rs:9:5` (a frame's path, relative to the crate) as the panic line names
        the crate's files, relative to where cargo ran: `ledger-money/src/lib.rs:9:5`."""
        if location.startswith("./") and self.crate_dir is not None:
            return self.crate_dir + location[2:]
        return location

    def _start_section(self, line: str):
        yield from self._end_section()
        name = line[5:-5].removesuffix(" stdout").removesuffix(" stderr")
        self.sections.add(name)
        self.pending_header = line

    def _end_section(self):
        for shown in self._take_frame():
            yield shown
        self.backtrace = False
        if self.pending_header is not None:
            yield self.pending_header
            self.pending_header = None
        if self.section_dropped:
            yield omitted(self.section_dropped, "more lines of this failure")
        self.section_lines = self.section_dropped = 0

    def _result(self, line: str) -> None:
        self.results.append(line)

    def finish(self, exit_code: int):
        yield from self._end_section()
        for name in self.failed:
            if name not in self.sections:
                yield f"test {name} ... FAILED"
        self.tally.add("more ignored tests", self.ignored_dropped)
        shown = [r for r in self.results if not _empty_result(r)] or self.results[-1:]
        self.tally.add("empty suite results", len(self.results) - len(shown))
        yield from _results(shown)
        self.tally.add("more output lines", self.other_dropped)
        if self.results:  # the build's `Finished …` line, once tests ran
            summary = self.diagnostics.summary
            finished = [line for line in summary if line.startswith("Finished ")]
            if finished:
                summary[:] = [line for line in summary if not line.startswith("Finished ")]
                progress = self.diagnostics.progress
                progress["Finished"] = progress.get("Finished", 0) + len(finished)
        yield from self.diagnostics.finish()
