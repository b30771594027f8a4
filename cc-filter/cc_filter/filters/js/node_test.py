"""node --test (node:test): its TAP reporter (Node 20's default when stdout is not a terminal,
`--test-reporter=tap`) read as every TAP stream is (`_tap.TapReport`), and its spec reporter
(`--test-reporter=spec`, the default on a terminal and from Node 23 on everywhere).

Spec: the `✖ failing tests:` section that closes a failed run is kept: each failure's `test at
file:line:col`, its `✖ name` line, the error message and its diff, the project's own stack
frames (at most `FRAMES`, paths relative to where the command ran) and the `actual`,
`expected`, `operator` of the error object; the counts (`ℹ tests 17`, `ℹ pass 9`, `ℹ fail 8`
…) come last. Counted: `✔` lines (`passing tests`), `▶` suite headings, the listing's own copy
of each failure (the section repeats it: `lines of failures the failing tests list repeats`),
frames in node's own code (`library frame lines`), the error object's other keys and
brackets. A run whose listing has no closing section (an older Node) keeps the listing's
failures instead.
Any other reporter (`dot`, `junit`, `lcov`, a module) passes through, as do `--help` and
`--version`. Injects nothing. Tested with Node 20.20.2.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._paths import relative
from cc_filter.filters.js._tap import FRAMES, TapReport, _relative_paths
from cc_filter.kit.lines import omitted, strip_ansi

_LISTING_LIMIT = 2000
_KEPT_KEYS = ("actual:", "expected:", "operator:")


def _reporter(argv: list[str]) -> str:
    for i, arg in enumerate(argv):
        if arg.startswith("--test-reporter="):
            return arg.split("=", 1)[1]
        if arg == "--test-reporter" and i + 1 < len(argv):
            return argv[i + 1]
    return ""


class SpecReport:
    """The spec reporter's lines (`feed` → lines to show; `finish()` → the rest)."""

    def __init__(self):
        self.counts: dict[str, int] = {}
        self.held: list[str] = []  # the listing's failures, until the section repeats them
        self.failed_section = False
        self.totals: list[str] = []
        self.frames = 0
        self.in_object = False

    def count(self, kind: str, n: int = 1) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + n

    def feed(self, line: str) -> list[str]:
        line = strip_ansi(line).rstrip()
        text = line.strip()
        if not text:
            return []
        if text.startswith("ℹ "):
            self.totals.append(text)
            return []
        if text == "✖ failing tests:":
            self.failed_section = True
            if self.held:
                self.count("lines of failures the failing tests list repeats", len(self.held))
                self.held = []
            return [text]
        if self.failed_section:
            return self._failure(line, text)
        if text.startswith("✔ "):
            self.count("passing tests")
            return []
        if text.startswith("▶ "):
            self.count("suite headings")
            return []
        if text.startswith("﹣ ") or "# SKIP" in text or "# TODO" in text:
            return [line]
        if len(self.held) < _LISTING_LIMIT:
            self.held.append(line)
        else:
            self.count("listing lines past the cap")
        return []

    def _failure(self, line: str, text: str) -> list[str]:
        if text.startswith("test at "):
            self.frames = 0
            self.in_object = False
            return ["test at " + relative(text[len("test at "):])]
        if text.startswith("✖ "):
            return [text]
        if text.startswith("at ") or text.startswith("async "):
            if text.endswith(" {"):
                self.in_object = True
                text = text[:-2]
            if "node:" in text or "node_modules/" in text or self.frames >= FRAMES:
                self.count("library frame lines" if self.frames < FRAMES or "node:" in text
                           else f"project frames past the first {FRAMES}")
                return []
            self.frames += 1
            return ["  " + _relative_paths(text)]
        if self.in_object:
            if text == "}":
                self.in_object = False
                self.count("error object lines")
                return []
            if text.startswith(_KEPT_KEYS):
                return ["  " + text]
            self.count("error object lines")
            return []
        return [line[2:] if line.startswith("  ") else line]

    def finish(self) -> list[str]:
        out = [] if self.failed_section else self.held
        self.held = []
        out.extend(omitted(n, kind) for kind, n in self.counts.items() if n)
        out.extend(self.totals)
        return out


class NodeTest(Filter):
    name = "node-test"
    # `--test` anywhere among node's own options, never with `--watch` (it does not end);
    # the literal `node --` start keeps `node app.js` from needing `re`
    match_command = r"^node --(?!(.*\s)?(--)?watch(-\S*)?(\s|=|$))(test|\S+ (.*? )?--test)(\s|$)"
    description = "node --test: failing tests with their error and place, counts"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        reporter = _reporter(argv)
        self.report = None
        if not any(a in ("--help", "-h", "--version", "-v") for a in argv):
            if reporter in ("", "tap"):
                self.report = TapReport()
            elif reporter == "spec":
                self.report = SpecReport()
        self.sniffed = reporter != ""  # the default: TAP off a terminal, spec from Node 23

    def feed(self, line: str):
        if self.report is None:
            return (line,)
        if not self.sniffed and line.strip():
            self.sniffed = True
            text = strip_ansi(line).lstrip()
            if text.startswith(("✔ ", "✖ ", "▶ ", "ℹ ")):
                self.report = SpecReport()
        return self.report.feed(line)

    def finish(self, exit_code: int):
        return () if self.report is None else self.report.finish()
