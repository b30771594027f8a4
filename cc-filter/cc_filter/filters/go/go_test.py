"""go test (plain, -v and -json): failing tests with the lines around their failure, panics,
build failures, package results.

Keeps: `--- FAIL: TestX (0.00s)` lines (subtests nested) with the lines the test logged
(`file_test.go:12: message`), `panic:` messages with the stack frames of the project's own
code as `example.com/m/pkg.TestX (pkg/x_test.go:9)`, the file relative to where go test ran
(stdlib / runtime / testing frames, goroutine
headers, argument words, `+0x1f` offsets and the repeated `panic: … [recovered]` line dropped),
compiler and vet errors of test builds (`# pkg` plus `file.go:3:2: message`), `FAIL pkg 0.01s`
and `FAIL pkg [build failed]` lines verbatim, `ok` lines carrying a coverage figure, `--- SKIP`
lines (capped), the `ok pkg 0.01s` lines of a run of at most 3 packages (verbatim, at the end).

A failing test's log is capped (`TestLog`), never just cut at the top: its first lines, every
line that reads like a failure (`want`, `got`, `expected`, `error`, `fail`, `mismatch` …, up
to a bound), and its last lines (a `t.Fatalf` comes last) stay, in their order; a call site
(`x_test.go:45:`) that repeats is shown a few times. Each gap is one counted marker:
`... (470 log lines of TestAdd omitted)`. Memory per test stays bounded.

Drops, each kind counted in a marker at the end: `=== RUN / PAUSE / CONT / NAME` lines (one
marker naming the words seen: `... (381 === RUN lines omitted)`; the `=== RUN` line of a test
whose `--- FAIL` / `--- SKIP` line is shown is restated by it, not counted), `--- PASS`
lines (`passing tests`) and passing tests' logs, the `ok pkg 0.01s` lines of more than 3
packages (`ok package lines`, `cached ok package lines`: the names would cost what the lines
do; on a passing run one line above the counts says the verdict, `ok: 19 packages, 171 tests
passed`), `? pkg [no test files]` lines, the bare `PASS` lines (a bare `FAIL` is restated by the
`FAIL pkg` line), `go: downloading`, skipped tests past the cap, a panic's runtime stack
(goroutine headers, standard library frames, the repeated `panic:` line). A project frame's
two lines become one (restated, not counted).
`-json`: each event's `Output` text goes through the same rules (the answer is text, like the
plain run's); lines that are not JSON (build errors on stderr) too; events without output are
counted (`JSON events without output`). `-list` and `-h` pass
through. Injects nothing.
Tested with go1.19.8 (Debian bookworm's golang-go): plain, -v, -json, panics, build and vet
failures; the text format is unchanged through go1.23 (go1.20+ adds `=== NAME` lines, handled).
"""
from cc_filter.filters._paths import relative
from cc_filter.filters._tally import Tally
from cc_filter.kit.lines import TrimmedLineFilter, omitted

_LOG_HEAD = 12
_LOG_FAILURES = 30
_LOG_TAIL = 8
_SITE_REPEATS = 3
_FAILURE_WORDS = ("want", "got", "expect", "error", "fail", "mismatch", "unexpected", "!=",
                  "should", "assert", "wrong", "invalid", "diff", "panic", "not equal")
_SKIP_LIMIT = 10
_OK_NAMES = 3  # passing packages named in the closing line (more: only counted)
_FRAME_LIMIT = 10
_STACK = "runtime stack lines"


_STDLIB_FUNCS = ("runtime.", "testing.", "panic(", "reflect.", "sync.", "os.", "syscall.",
                 "internal/", "fmt.", "net/", "io.", "errors.")
_GOROOT_MARKS = ("/usr/lib/go-", "/usr/lib/go/", "/usr/local/go/", "/libexec/src/", "/go/src/")


def _project_frame(func: str, location: str) -> bool:
    """A panic's stack frame is worth showing when it is the project's code, not the standard
    library's (`testing.tRunner`, `runtime.gopanic`, files under GOROOT)."""
    func = func.removeprefix("created by ")
    return not func.startswith(_STDLIB_FUNCS) and not any(m in location for m in _GOROOT_MARKS)


def _site(stripped: str) -> str:
    """`uuid_test.go:45: bad` → `uuid_test.go:45`; "" for a line without a call site."""
    colon = stripped.find(".go:")
    if colon <= 0 or " " in stripped[:colon]:
        return ""
    end = colon + 4
    while end < len(stripped) and stripped[end].isdigit():
        end += 1
    return stripped[:end] if end > colon + 4 else ""


class TestLog:
    """The log lines of one test, bounded: the head, failure-looking lines, the tail, each
    repeated call site a few times; `lines()` gives them in order with counted gap markers."""

    __slots__ = ("name", "total", "kept", "failures", "tail", "sites")

    def __init__(self, name: str):
        self.name = name
        self.total = 0
        self.kept: list[tuple[int, str]] = []  # the head
        self.failures: list[tuple[int, str]] = []
        self.tail: list[tuple[int, str]] = []
        self.sites: dict[str, int] = {}

    def add(self, line: str, stripped: str) -> None:
        index = self.total
        self.total += 1
        site = _site(stripped)
        seen = self.sites.get(site, 0) if site else 0
        if site:
            if seen < _SITE_REPEATS:
                self.sites[site] = seen + 1
            elif len(self.sites) < 1000:
                self.sites[site] = seen + 1
        fresh = not site or seen < _SITE_REPEATS
        if fresh and len(self.kept) < _LOG_HEAD:
            self.kept.append((index, line))
            return
        lower = stripped.lower()
        if fresh and len(self.failures) < _LOG_FAILURES and any(w in lower for w in _FAILURE_WORDS):
            self.failures.append((index, line))
            return
        self.tail.append((index, line))
        if len(self.tail) > _LOG_TAIL:
            del self.tail[0]

    def lines(self, indent: str = "    "):
        shown = sorted(set(self.kept + self.failures))
        counts: dict[str, int] = {}
        for _, line in shown:
            site = _site(line.strip())
            counts[site] = counts.get(site, 0) + 1
        last = self.total - 1
        for index, line in self.tail:  # the tail, less a call site already shown enough
            site = _site(line.strip())
            if index == last or not site or counts.get(site, 0) < _SITE_REPEATS:
                counts[site] = counts.get(site, 0) + 1
                shown.append((index, line))
        shown = sorted(set(shown))
        out = []
        previous = -1
        for index, line in shown:
            if index > previous + 1:
                out.append(indent + omitted(index - previous - 1, f"log lines of {self.name}"))
            out.append(line)
            previous = index
        if self.total > previous + 1:
            out.append(indent + omitted(self.total - previous - 1, f"log lines of {self.name}"))
        return out


class GoTest(TrimmedLineFilter):
    name = "go-test"
    match_command = r"^go test(\s|$)"
    description = "go test: failing tests and their logs, panics, build errors, package results"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in ("-list", "-h", "-help") or a.startswith("-list=")
                               for a in argv)
        self.json = any(a in ("-json", "--json") for a in argv)
        self.current: str | None = None  # the test named by the last === RUN/CONT/NAME (-v)
        self.logs: dict[str, TestLog] = {}
        self.after: TestLog | None = None  # plain mode: the log printed under a --- FAIL line
        self.after_indent = ""
        self.ok_lines: list[str] = []  # the first `ok pkg 0.01s` lines (shown when few)
        self.ok = 0
        self.cached = 0
        self.skips = 0
        self.markers: dict[str, int] = {}  # `=== RUN` / `=== CONT` … → lines dropped
        self.runs: dict[str, int] = {}  # test → its `=== RUN` lines, until its result
        self.tally = Tally()
        self.in_panic = False
        self.frames = 0
        self.frame_func: str | None = None
        self.panic_text = ""

    def feed(self, line: str):
        if self.json and line.startswith("{"):
            return self._json_event(line)
        return super().feed(line)

    def _json_event(self, line: str):
        import json

        try:
            event = json.loads(line)
        except ValueError:
            return super().feed(line)
        if not isinstance(event, dict):
            return super().feed(line)
        text = event.get("Output")
        if event.get("Action") != "output" or not isinstance(text, str):
            self.tally.add("JSON events without output")
            return ()
        out = []
        for part in text.rstrip("\n").split("\n"):
            out.extend(super().feed(part))
        return out

    def feed_trimmed(self, line: str, stripped: str):
        if self.after is not None:
            if line.startswith((" ", "\t")) and not stripped.startswith("--- "):
                self.after.add(line, stripped)
                return
            yield from self._end_after()
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
            if word == "RUN":  # counted once the test passes (a shown result names it)
                self.runs[self.current] = self.runs.get(self.current, 0) + 1
            else:
                self.markers[word] = self.markers.get(word, 0) + 1
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
            if "coverage:" in line:
                yield line
            else:
                self._count_ok(line)
            return
        if line.startswith("?   \t"):
            self.tally.add("no test files lines")
            return
        if stripped in ("PASS", "FAIL"):
            if stripped == "PASS":  # a bare `FAIL` is restated by the `FAIL pkg` line
                self.tally.add("PASS lines")
            return
        if line.startswith(("go: downloading", "go: finding")):
            self.tally.add("go: downloading lines")
            return
        if line.startswith(("FAIL\t", "FAIL ")):
            yield from self._flush_logs()
            self.current = None
            yield line
            return
        if line.startswith((" ", "\t")) and self.current is not None:
            log = self.logs.get(self.current)
            if log is None:
                log = self.logs[self.current] = TestLog(self.current)
            log.add(line, stripped)
            return
        yield line  # compiler / vet errors, `# pkg` headers

    def _count_ok(self, line: str) -> None:
        self.ok += 1
        if len(self.ok_lines) < _OK_NAMES:
            self.ok_lines.append(line)
        if "(cached)" in line:
            self.cached += 1

    def _result(self, line: str, stripped: str):
        word, _, rest = stripped[4:].partition(": ")
        name = rest.rsplit(" (", 1)[0]
        log = self.logs.pop(name, None)
        runs = self.runs.pop(name, 0)
        if word == "PASS" or word == "SKIP" and self.skips >= _SKIP_LIMIT:
            self._count_runs(runs)
        if word == "PASS":
            self.tally.add("passing tests")
            if log is not None:
                self.tally.add("log lines of passing tests", log.total)
            return
        if word == "SKIP":
            if self.skips >= _SKIP_LIMIT:
                self.tally.add("more skipped tests")
                if log is not None:
                    self.tally.add("log lines of skipped tests", log.total)
                return
            self.skips += 1
        yield line
        if log is not None:
            yield from log.lines(line[:len(line) - len(line.lstrip())] + "    ")
        # plain mode prints the log after this line: it is collected until the next one
        self.after = TestLog(name)
        self.after_indent = line[:len(line) - len(line.lstrip())] + "    "

    def _count_runs(self, count: int) -> None:
        if count:  # `=== RUN` first in the marker
            runs = self.markers.pop("RUN", 0) + count
            self.markers = {"RUN": runs, **self.markers}

    def _end_after(self):
        after, self.after = self.after, None
        if after is not None and after.total:
            yield from after.lines(self.after_indent)

    def _flush_logs(self):
        """Logs of tests whose result line never came (a panic or a timeout killed them)."""
        yield from self._end_after()
        logs, self.logs = self.logs, {}
        for log in logs.values():
            yield from log.lines()

    def _panic_line(self, line: str, stripped: str):
        if line.startswith("\t") and self.frame_func is not None:
            func, self.frame_func = self.frame_func, None
            location = stripped.rsplit(" +0x", 1)[0]
            if _project_frame(func, location) and self.frames < _FRAME_LIMIT:
                self.frames += 1
                # `pkg/path.Func (order/x_test.go:9)`: the function names the package, the file
                # keeps the path the agent can open (relative to where go test ran; outside
                # it, as go printed it: a base name alone would not say which `store.go`)
                # (its argument words go: the last parenthesis, `pkg.(*T).Get(0xc0)` → `pkg.(*T).Get`)
                name = func[:func.rfind("(")] if func.endswith(")") else func
                yield f"  {name} ({relative(location)})"
            else:
                self.tally.add(_STACK, 2)
            return
        if line.startswith("\t"):
            # `\tpanic: X` repeats the `panic: X [recovered]` line above it
            if stripped != self.panic_text:
                yield line
            else:
                self.tally.add(_STACK)
            return
        if stripped.startswith("goroutine ") and stripped.endswith(":"):
            self.tally.add(_STACK)
            return
        if stripped.startswith("[signal ") or stripped.startswith("panic: "):
            yield line
            return
        self.frame_func = stripped

    def finish(self, exit_code: int):
        yield from self._flush_logs()
        if self.frame_func is not None:  # a frame's function line without its location
            self.tally.add(_STACK)
        self._count_runs(sum(self.runs.values()))  # tests without a result line
        if self.ok <= _OK_NAMES:
            yield from self.ok_lines
        if self.markers:
            yield omitted(sum(self.markers.values()),
                          "/".join(f"=== {word}" for word in self.markers) + " lines")
        passed, logs = self.tally["passing tests"], self.tally["log lines of passing tests"]
        if self.ok > _OK_NAMES and exit_code == 0:
            # a passing run's verdict in words, above the counts (`ok: 19 packages (2 cached), 171 tests
            # passed`): the markers say what was left out, this line what it said
            yield (f"ok: {self.ok} package{'s' if self.ok != 1 else ''}"
                   + (f" ({self.cached} cached)" if self.cached else "")
                   + (f", {passed} test{'s' if passed != 1 else ''} passed" if passed else ""))
        if self.ok > _OK_NAMES:
            self.tally.add("ok package lines", self.ok - self.cached)
            self.tally.add("cached ok package lines", self.cached)
        counts = self.tally.counts
        # passing tests first: the count an agent looks for
        for kind in ("passing tests", "log lines of passing tests"):
            counts.pop(kind, None)
        if logs:
            counts = {"log lines of passing tests": logs, **counts}
        if passed:
            counts = {"passing tests": passed, **counts}
        self.tally.counts = counts
        yield from self.tally.markers()
