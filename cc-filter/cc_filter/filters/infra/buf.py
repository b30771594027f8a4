"""buf lint / build / breaking: every finding's file, line:col and message through the shared
lint report (the file named once, a message at several places printed once with all of them),
then a count; anything else buf prints (its own errors) passes through."""
from cc_filter.kit.filter import Filter
from cc_filter.filters._lint_report import Findings
from cc_filter.kit.lines import LazyPattern, strip_ansi

_FINDING = LazyPattern(r"^(\S+?\.proto):(\d+):(\d+):(.+)$")


class Buf(Filter):
    name = "buf"
    match_command = r"^buf (lint|build|breaking|generate)(\s|$)"
    description = "buf lint/build/breaking: findings by file with line:col, repeats grouped"

    def __init__(self, argv):
        super().__init__(argv)
        self.passthrough = any(a.startswith("--error-format") and "text" not in a
                               for a in argv)
        self.findings = Findings()

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        m = None if self.passthrough else _FINDING.match(line)
        if m is None:
            if line.strip():
                yield line
            return
        path, row, col, message = m.groups()
        self.findings.add(path, row, col, "error", message.strip(), None)

    def finish(self, exit_code):
        if len(self.findings):
            yield from self.findings.render()
            yield self.findings.summary("finding")
