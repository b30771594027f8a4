"""eslint: findings per file on compact lines, the summary and every error kept.

The default "stylish" output pads columns (`   2:10  error    'get' is defined but never used
no-unused-vars`). The filter keeps every finding's file, `line:col`, rule and message through
`Findings` (a run with both errors and warnings lists each under an `errors:` / `warnings:`
heading; one of them alone: warnings named, errors unlabelled; one line per repeated message in a file, a
message already printed for a rule not repeated), plus the `✖ N problems (…)` summary and its
fixable line. eslint's crash banner (`Oops! Something went wrong! :(`, the version line) goes,
counted at the end (`... (2 crash banner lines omitted)`); the error text under it stays. Paths under the working directory are shown relative to it.

Nothing is injected; a user's `-f/--format` other than stylish passes through unchanged.
Tested with eslint 10.15 (stylish has had this shape since eslint 1).
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._lint_report import Findings
from cc_filter.kit.lines import omitted, strip_ansi
from cc_filter.kit.options import asks_other_format

_SEVERITIES = ("error", "warning")
_BANNER = ("Oops! Something went wrong! :(", "ESLint: ")


def _user_format(argv: list[str]) -> bool:
    return asks_other_format(argv, "-f", "--format", ("stylish",))


def parse_stylish(line: str):
    """`  2:10  error  message  rule` → (line, col, severity, message, rule) or None."""
    if not line.startswith("  "):
        return None
    words = line.split()
    if len(words) < 3 or words[1] not in _SEVERITIES:
        return None
    position = words[0].split(":")
    if len(position) != 2 or not position[0].isdigit() or not position[1].isdigit():
        return None
    rest = line.strip()[len(words[0]):].lstrip()[len(words[1]):].strip()
    message, sep, rule = rest.rpartition("  ")
    if not sep or " " in rule.strip():
        message, rule = rest, None  # a finding without a rule (parsing errors)
    return position[0], position[1], words[1], message.strip(), rule and rule.strip()


class Eslint(Filter):
    name = "eslint"
    match_command = r"^eslint(\s|$)"
    description = "eslint: findings per file, padding and repeats dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = _user_format(argv)
        self.findings = Findings()
        self.path: str | None = None
        self.tail: list[str] = []
        self.banner = 0

    def feed(self, line: str):
        line = strip_ansi(line)
        if self.passthrough:
            return (line,)
        if not line.strip():
            return ()
        if line.startswith(_BANNER):
            self.banner += 1
            return ()
        finding = parse_stylish(line) if self.path is not None else None
        if finding is not None:
            self.findings.add(self.path, *finding)
            return ()
        if line.startswith("/"):  # stylish names each file by its absolute path
            self.path = line.strip()
            return ()
        # the summary (`✖ 25 problems …`, its fixable line) and any message: kept, after the
        # findings they sum up
        self.tail.append(line.strip() if line.startswith("  ") else line)
        return ()

    def finish(self, exit_code: int):
        if self.passthrough:
            return ()
        banner = [omitted(self.banner, "crash banner lines")] if self.banner else []
        # errors and warnings mixed: each under its heading, so an error is named as one
        return self.findings.render(headings=True) + self.tail + banner
