"""go test: failing tests with their log lines, panics, build failures, package results.

Keeps: `--- FAIL: TestX (0.00s)` lines (subtests nested) with the `file_test.go:12: message`
lines the test logged (in -v mode the lines a test logged are held until its result and shown
only if it failed), `panic:` messages with the stack frames of the project's own code as
`example.com/m/pkg.TestX (x_test.go:9)` (stdlib / runtime / testing frames, goroutine headers,
argument words, `+0x1f` offsets and the repeated `panic: … [recovered]` line dropped), compiler
and vet errors of test builds (`# pkg` plus `file.go:3:2: message`), `FAIL pkg 0.01s` and
`FAIL pkg [build failed]` lines verbatim, `ok` lines carrying a coverage figure, `--- SKIP`
lines (capped), and a closing count of the rest: `ok: 18 packages (3 cached); no test files: 1`.
Drops: `=== RUN / PAUSE / CONT / NAME`, `--- PASS` lines and passing tests' logs, the bare
`PASS` / `FAIL` / `ok pkg 0.01s` / `? pkg [no test files]` lines (counted), `go: downloading`.
Passes everything through for `-json`, `-list` and `-h`. Injects nothing.
Tested with go1.19.8 (Debian bookworm's golang-go): plain, -v, panics, build and vet
failures; the text format is unchanged through go1.23 (go1.20+ adds `=== NAME` lines, handled).
"""
from cc_filter.lines import TrimmedLineFilter

_LOG_LIMIT = 30
_SKIP_LIMIT = 10
_FRAME_LIMIT = 10


_STDLIB_FUNCS = ("runtime.", "testing.", "panic(", "reflect.", "sync.", "os.", "syscall.",
                 "internal/", "fmt.", "net/", "io.", "errors.")
_GOROOT_MARKS = ("/usr/lib/go-", "/usr/lib/go/", "/usr/local/go/", "/libexec/src/", "/go/src/")


def _project_frame(func: str, location: str) -> bool:
    """A panic's stack frame is worth showing when it is the project's code, not the standard
    library's (`testing.tRunner`, `runtime.gopanic`, files under GOROOT)."""
    func = func.removeprefix("created by ")
    return not func.startswith(_STDLIB_FUNCS) and not any(m in location for m in _GOROOT_MARKS)


class GoTest(TrimmedLineFilter):
    name = "go-test"
    match_command = r"^go test(\s|$)"
    description = "go test: failing tests and their logs, panics, build errors, package results"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in ("-json", "--json", "-list", "-h", "-help") or
                               a.startswith("-list=") for a in argv)
        self.current: str | None = None  # the test named by the last === RUN/CONT/NAME (-v)
        self.logs: dict[str, list[str]] = {}
        self.ok = 0
        self.cached = 0
        self.no_tests = 0
        self.skips = 0
        self.skips_dropped = 0
        self.in_panic = False
        self.frames = 0
        self.frame_func: str | None = None
        self.panic_text = ""

    def feed_trimmed(self, line: str, stripped: str):
        if self.in_panic:
            if line.startswith(("FAIL\t", "ok  \t", "FAIL ")) or stripped in ("FAIL", "PASS"):
                self.in_panic = False
            else:
                yield from self._panic_line(line, stripped)
                return
        if line.startswith("=== "):
            word, _, rest = line[4:].partition(" ")
            if word in ("RUN", "CONT", "NAME"):
                self.current = rest.strip()
            return
        if stripped.startswith("--- "):
            yield from self._result(line, stripped)
            return
        if line.startswith(("panic: ", "fatal error: ")):
            self.in_panic = True
            self.panic_text = line.removesuffix(" [recovered]")
            yield from self._flush_logs()
            yield line
            return
        if line.startswith("ok  \t") or line.startswith("ok \t"):
            self._count_ok(line)
            if "coverage:" in line:
                yield line
            return
        if line.startswith("?   \t"):
            self.no_tests += 1
            return
        if stripped in ("PASS", "FAIL") or line.startswith(("go: downloading", "go: finding")):
            return
        if line.startswith(("FAIL\t", "FAIL ")):
            yield from self._flush_logs()
            self.current = None
            yield line
            return
        if line.startswith((" ", "\t")) and self.current is not None:
            logs = self.logs.setdefault(self.current, [])
            if len(logs) < _LOG_LIMIT:
                logs.append(line)
            return
        yield line  # non -v log lines under a --- FAIL, compiler / vet errors, `# pkg` headers

    def _count_ok(self, line: str) -> None:
        self.ok += 1
        if "(cached)" in line:
            self.cached += 1

    def _result(self, line: str, stripped: str):
        word, _, rest = stripped[4:].partition(": ")
        name = rest.rsplit(" (", 1)[0]
        logs = self.logs.pop(name, [])
        if word == "PASS":
            return
        if word == "SKIP":
            if self.skips >= _SKIP_LIMIT:
                self.skips_dropped += 1
                return
            self.skips += 1
        yield line
        yield from logs

    def _flush_logs(self):
        """Logs of tests whose result line never came (a panic or a timeout killed them)."""
        logs, self.logs = self.logs, {}
        for name, lines in logs.items():
            yield from lines

    def _panic_line(self, line: str, stripped: str):
        if line.startswith("\t") and self.frame_func is not None:
            func, self.frame_func = self.frame_func, None
            location = stripped.rsplit(" +0x", 1)[0]
            if _project_frame(func, location) and self.frames < _FRAME_LIMIT:
                self.frames += 1
                # `pkg/path.Func (file_test.go:9)`: the function names the package, the file is
                # named as go test's own log lines name it
                yield f"  {func.split('(', 1)[0]} ({location.rsplit('/', 1)[-1]})"
            return
        if line.startswith("\t"):
            # `\tpanic: X` repeats the `panic: X [recovered]` line above it
            if stripped != self.panic_text:
                yield line
            return
        if stripped.startswith("goroutine ") and stripped.endswith(":"):
            return
        if stripped.startswith("[signal ") or stripped.startswith("panic: "):
            yield line
            return
        self.frame_func = stripped

    def finish(self, exit_code: int):
        yield from self._flush_logs()
        if self.skips_dropped:
            yield f"… ({self.skips_dropped} more skipped tests)"
        parts = []
        if self.ok:
            parts.append(f"ok: {self.ok} package{'s' if self.ok != 1 else ''}"
                         + (f" ({self.cached} cached)" if self.cached else ""))
        if self.no_tests:
            parts.append(f"no test files: {self.no_tests}")
        if parts:
            yield "; ".join(parts)
