"""RuboCop: every offense's file, line:col, severity, cop and message through the shared lint
report (a message at several places printed once with all of them, the file named once), then
RuboCop's own summary; the quoted source lines, carets, `Inspecting N files` and the progress
line dropped, and counted at the end (`... (12 source/caret lines omitted)`, `... (3
progress/heading lines omitted)`). `--format` other than the default, and `-a`/`-A` reports,
pass through."""
from cc_filter.kit.filter import Filter
from cc_filter.filters._lint_report import Findings
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

_OFFENSE = LazyPattern(r"^(\S+):(\d+):(\d+): ([CWEFR]): (\[Correctable\] |\[Corrected\] )?"
                       r"([\w/]+): (.*)$")
_SEVERITY = {"C": "convention", "W": "warning", "E": "error", "F": "fatal", "R": "refactor"}


class Rubocop(Filter):
    name = "rubocop"
    match_command = r"^rubocop(\s|$)"
    description = "RuboCop: offenses grouped by message with their places, and the summary"

    def __init__(self, argv):
        super().__init__(argv)
        self.passthrough = any(a in ("-f", "--format", "-o", "--out") or
                               a.startswith(("--format=", "-f")) and a != "-f" and
                               a.startswith("--format") for a in argv)
        self.findings = Findings(default_severity="convention")
        self.in_offense = False
        self.other: list[str] = []
        self.source = 0    # the quoted source lines and carets under an offense
        self.progress = 0  # `Inspecting N files`, the progress line, `Offenses:`

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            yield line
            return
        m = _OFFENSE.match(line)
        if m is not None:
            path, row, col, level, mark, cop, message = m.groups()
            if mark and "Corrected" in mark:
                message = f"{message} [corrected]"
            self.findings.add(path, row, col, _SEVERITY[level], message, cop)
            self.in_offense = True
            return
        if not line.strip():
            self.in_offense = False
            return
        if self.in_offense:  # the quoted source line and its carets
            self.source += 1
            return
        if (line.startswith("Inspecting ") or line == "Offenses:" or
                set(line) <= set(".CWEFR")):
            self.progress += 1
            return
        self.other.append(line)

    def finish(self, exit_code):
        if self.passthrough:
            return
        yield from self.findings.render()
        yield from self.other
        if self.source:
            yield omitted(self.source, "source/caret lines")
        if self.progress:
            yield omitted(self.progress, "progress/heading lines")
