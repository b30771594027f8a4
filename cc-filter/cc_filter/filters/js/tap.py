"""TAP producers: tape, node-tap (`tap`), and either under a coverage tool (`nyc tape …`,
`c8 tap …`). The TAP stream is read by `_tap.TapReport`: every `not ok` with its YAML
diagnostic block and the heading of its test, the plan and closing counts, the rest counted
(`... (129 passing tests omitted)`); a coverage tool's own summary passes through.
`--help`, `--version` and node-tap's non-TAP reporters (`--reporter=json|junit|…`, `-R`) pass
through. Injects nothing. Tested with tape 5.10.2, node-tap 21.8.0 (`--reporter=tap`; its
default reporter on a terminal is a summary, TAP off one) and nyc 18.0.0 on Node 20.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters.js._js_test import reporters
from cc_filter.filters.js._tap import TapReport


def _passthrough(argv: list[str]) -> bool:
    words = [a.rsplit("/", 1)[-1] for a in argv]
    at = next((i for i, w in enumerate(words) if w in ("tape", "tap")), 0)
    argv = argv[at:]  # nyc's own options (`--reporter=text-summary`) are not the runner's
    if any(a in ("--help", "-h", "--version", "-v", "-V") for a in argv):
        return True
    return any(r not in ("tap", "base", "terse", "silent")
               for r in reporters(argv, ("--reporter", "-R")))


class Tap(Filter):
    name = "tap"
    match_command = r"^(tape|tap|(nyc|c8) (.*? )?(tape|tap))(\s|$)"
    description = "TAP (tape, node-tap, nyc tape): not ok lines with their diagnostics, counts"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.report = None if _passthrough(argv) else TapReport()

    def feed(self, line: str):
        return (line,) if self.report is None else self.report.feed(line)

    def finish(self, exit_code: int):
        return () if self.report is None else self.report.finish()
