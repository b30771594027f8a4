"""yamllint: findings per file on compact lines, every one kept.

yamllint's standard output names a file, then pads each finding (`  5:3       error    duplication
of key "port" in mapping  (key-duplicates)`). The filter keeps every finding's file,
`line:col`, rule and message through `Findings` (errors unlabelled, warnings named, repeats of
a message in a file on one line, a message already printed for a rule not repeated) and adds a
one-line count (`21 problems (11 errors, 10 warnings) in 4 files`). Lines it does not know
(`[Errno 2] No such file or directory: …`) pass unchanged.

Nothing is injected; `-f parsable`/`github`/`colored` output passes through unchanged.
Tested with yamllint 1.38 (the standard format is the same since 1.x).
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._lint_report import Findings
from cc_filter.kit.lines import strip_ansi
from cc_filter.kit.options import asks_other_format

_SEVERITIES = ("error", "warning")


def _user_format(argv: list[str]) -> bool:
    return asks_other_format(argv, "-f", "--format", ("standard", "auto"))


def parse_finding(line: str):
    """`  5:3       error    message  (rule)` → (line, col, severity, message, rule) or None."""
    if not line.startswith("  "):
        return None
    words = line.split(None, 2)
    if len(words) < 3 or words[1] not in _SEVERITIES:
        return None
    position = words[0].split(":")
    if len(position) != 2 or not position[0].isdigit() or not position[1].isdigit():
        return None
    rest = words[2].strip()
    rule = None
    if rest.endswith(")") and " (" in rest:
        message, _, tail = rest.rpartition(" (")
        if tail[:-1] and " " not in tail[:-1]:
            rest, rule = message.rstrip(), tail[:-1]
    return position[0], position[1], words[1], rest, rule


class Yamllint(Filter):
    name = "yamllint"
    match_command = r"^yamllint(\s|$)"
    description = "yamllint: findings per file, padding and repeats dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = _user_format(argv)
        self.findings = Findings()
        self.path: str | None = None
        self.path_used = False
        self.other: list[str] = []

    def feed(self, line: str):
        line = strip_ansi(line)
        if self.passthrough:
            return (line,)
        if not line.strip():
            return ()
        finding = parse_finding(line) if self.path is not None else None
        if finding is not None:
            self.findings.add(self.path, *finding)
            self.path_used = True
            return ()
        self._flush_unused_path()
        if not line.startswith(" ") and not line.startswith("["):
            self.path, self.path_used = line.strip(), False
            return ()
        self.other.append(line)
        return ()

    def _flush_unused_path(self) -> None:
        """A 'file header' that no finding followed was a message after all: keep it."""
        if self.path is not None and not self.path_used:
            self.other.append(self.path)
        self.path = None

    def finish(self, exit_code: int):
        if self.passthrough:
            return ()
        self._flush_unused_path()
        out = self.findings.render_grouped() + self.other
        if len(self.findings):
            out.append(self.findings.summary())
        return out
