"""shellcheck: every finding as `line:col SCxxxx message` under its file, advice dropped.

ShellCheck's default (tty) output quotes each offending line, draws carets under it with one
finding per caret line (`     ^-- SC2086 (info): Double quote to prevent globbing …`), adds
`Did you mean:` rewrites and a closing `For more information:` list of wiki links. The filter
keeps file, line, column, code, severity and message of every finding through `Findings`
(errors unlabelled, warning/info/style named, repeats of a message in a file on one line, a
message already printed for a code not repeated) and adds one count line; the quoted source,
carets, rewrites and links go, counted at the end (`... (12 quoted source lines omitted)`,
`... (9 advice lines omitted)`: a `Did you mean:` block's lines, the `For more information:`
list's). Columns come from the caret position, with tabs in the quoted
line expanded to 8-column stops as ShellCheck draws them, so they equal `-f gcc` columns.
Lines the filter does not know (`nosuch.sh: openBinaryFile: does not exist …`) pass unchanged.

Nothing is injected; a user's `-f/--format` (gcc, json, diff, quiet, …) passes through unchanged.
Tested with ShellCheck 0.9.0 (the tty format is unchanged since 0.4).
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._lint_report import Findings
from cc_filter.filters._tally import Tally
from cc_filter.kit.lines import strip_ansi
from cc_filter.kit.options import asks_other_format

_SOURCE = "quoted source lines"
_ADVICE = "advice lines"


def _user_format(argv: list[str]) -> bool:
    return asks_other_format(argv, "-f", "--format", ("tty",))


def char_column(source: str, display_column: int) -> int:
    """The 1-based character column under display column `display_column` (0-based)."""
    shown = 0
    for index, char in enumerate(source):
        if shown >= display_column:
            return index + 1
        shown = (shown // 8 + 1) * 8 if char == "\t" else shown + 1
    return len(source) + 1


def parse_caret(line: str):
    """`     ^-- SC2086 (info): message` → (display column, code, severity, message) or None."""
    stripped = line.lstrip(" ")
    if not stripped.startswith("^"):
        return None
    carets, _, rest = stripped.partition(" ")
    if carets.strip("^-") or not rest.startswith("SC"):
        return None
    code, _, rest = rest.partition(" (")
    severity, sep, message = rest.partition("): ")
    if not sep or not code[2:].isdigit():
        return None
    return len(line) - len(stripped), code, severity, message


class Shellcheck(Filter):
    name = "shellcheck"
    match_command = r"^shellcheck(\s|$)"
    description = "shellcheck: one line per finding, quoted source and advice dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = _user_format(argv)
        self.findings = Findings()
        self.path: str | None = None
        self.line_no = ""
        self.source: str | None = None  # the quoted line, once read
        self.skipping = False  # inside a `Did you mean:` block or the closing link list
        self.other: list[str] = []
        self.cut = Tally()  # lines left out, by kind

    def feed(self, line: str):
        line = strip_ansi(line)
        if self.passthrough:
            return (line,)
        if self.skipping == "rewrite":
            if not line.strip():
                self.skipping = False
            else:
                self.cut.add(_ADVICE)
            return ()
        if self.skipping == "links":
            if not line.strip():
                return ()
            if line.startswith("  https://"):
                self.cut.add(_ADVICE)
                return ()
            self.skipping = False  # not a link: a line of its own (kept below)
        if line.startswith("In ") and line.endswith(":") and " line " in line:
            self.path, _, number = line[3:-1].rpartition(" line ")
            self.line_no, self.source = number, None
            return ()
        if self.path is not None and self.source is None:
            self.source = line
            self.cut.add(_SOURCE)
            return ()
        if self.source is not None:
            caret = parse_caret(line)
            if caret is not None:
                column, code, severity, message = caret
                self.findings.add(self.path, self.line_no, char_column(self.source, column),
                                  severity, message, code)
                return ()
        if line.startswith("Did you mean:"):
            self.skipping = "rewrite"
            self.cut.add(_ADVICE)
            return ()
        if line.startswith("For more information:"):
            self.skipping = "links"
            self.cut.add(_ADVICE)
            return ()
        if line.strip():
            self.other.append(line)
        return ()

    def finish(self, exit_code: int):
        if self.passthrough:
            return ()
        out = self.findings.render_grouped() + self.other
        if len(self.findings):
            out.append(self.findings.summary("finding"))
        out += self.cut.markers()
        return out
