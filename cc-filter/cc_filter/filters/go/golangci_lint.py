"""golangci-lint run: every finding with its whole `file:line:col` and linter, the summary.

Keeps: each finding (`pkg/x.go:12:3: Error return value of `f.Close` is not checked
(errcheck)`), one line each through `_lint_report.Findings`: the path as printed, the
position, the message (a message that continues on the next lines, as typecheck's `…; to add
it:` / `go get …` does, joined into it) and the linter; a finding with the same message and
linter as an earlier one says `(errcheck, as above)`. The v2 summary (`6 issues:`, `* errcheck:
6`, `0 issues.`) verbatim, warnings and errors of golangci-lint's own log (`level=warning
msg=…`, `WARN [runner] …`, `ERRO …`, `Error: …`, `level=error …`) and any line of another shape
(capped at 100).
Counts, in markers: the source lines and `^` caret lines printed under each finding
(`--output.text.print-issued-lines`, on by default: the code is in the file), `-v`'s `INFO` /
`level=info` lines.
A clean run of v1 (and of v2 with --show-stats=false) prints nothing, and its answer stays
empty.
Passes everything through for machine formats (`--out-format` / `--output.format` other than
line-number / colored-line-number / text / tab, `--output.<format>.path` for json, checkstyle,
code-climate, html, junit-xml, sarif, teamcity), `--help` and `--version`. Injects nothing.
golangci-lint exits 1 when it found issues (`--issues-exit-code`), 0 when clean.
golangci-lint cannot be installed here (its GitHub releases and the Go proxy are not
reachable): the formats come from output it printed that projects published (fixtures
`source = "published"`): reviewdog/errorformat's golangci-lint test input and golangci-lint's
own printer golden file.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.options import option_values
from cc_filter.filters._lint_report import Findings
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

# `path/x.go:12:3: message (linter)`; the column is absent for some linters (gosec, lll)
_FINDING = LazyPattern(r"^([^\s:][^:]*):(\d+)(?::(\d+))?: (.+)$")
_LINTER = LazyPattern(r"^(.*\S) \(([a-z0-9][a-z0-9_-]*)\)$")
_TEXT_FORMATS = ("line-number", "colored-line-number", "text", "tab", "colored-tab")
_MACHINE_OUTPUTS = ("json", "checkstyle", "code-climate", "html", "junit-xml",
                    "junit-xml-extended", "sarif", "teamcity", "github-actions")
_LOG_KEEP = ("WARN", "ERRO", "FATA", "level=warning", "level=error", "level=fatal", "Error:",
             "The command is terminated", "panic:")
_LOG_DROP = ("INFO ", "DEBU ", "level=info", "level=debug")
_OTHER_LIMIT = 100


def _passthrough(argv: list[str]) -> bool:
    formats = option_values(argv, None, "--out-format") + option_values(argv, None, "--output.format")
    if any(v.split(":", 1)[0] not in _TEXT_FORMATS for value in formats for v in value.split(",")):
        return True
    for arg in argv:
        if arg in ("-h", "--help", "--version"):
            return True
        if arg.startswith("--output.") and ".path" in arg:
            kind = arg[len("--output."):].split(".", 1)[0]
            if kind in _MACHINE_OUTPUTS:
                return True
    return False


class GolangciLint(Filter):
    name = "golangci-lint"
    match_command = r"^golangci-lint run(\s|$)"
    description = "golangci-lint run: every finding with file:line:col and linter, the summary"
    on_empty = "golangci-lint: no issues"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = _passthrough(argv)
        self.findings = Findings()
        self.pending: list | None = None  # [path, line, col, text, extra lines]
        self.context = 0
        self.info = 0
        self.tail: list[str] = []  # the summary and log lines, shown after the findings
        self.other = 0
        self.other_dropped = 0

    def feed(self, line: str):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            return (line,)
        stripped = line.strip()
        if not stripped:
            return ()
        if not line[0].isspace():
            found = _FINDING.match(line) if ":" in line else None
            if found is not None and not line.startswith(("level=", "WARN", "ERRO", "INFO")):
                self._close()
                path, number, col, text = found.groups()
                self.pending = [path, number, col, text, []]
                return ()
            if self._summary(stripped) or stripped.startswith(_LOG_KEEP):
                self._close()
                self.tail.append(line)
                return ()
            if stripped.startswith(_LOG_DROP):
                self._close()
                self.info += 1
                return ()
        if self.pending is not None:
            self.pending[4].append(line)  # source lines, the caret, or the message going on
            return ()
        return self._other(line)

    @staticmethod
    def _summary(stripped: str) -> bool:
        # `6 issues:` / `1 issues:` / `0 issues.` and the per-linter lines `* errcheck: 6`
        head, _, rest = stripped.partition(" ")
        if head.isdigit() and rest in ("issues:", "issues.", "issue:", "issue."):
            return True
        if stripped.startswith("* ") and ": " in stripped:
            return stripped.rpartition(": ")[2].isdigit()
        return False

    def _other(self, line: str):
        if self.other < _OTHER_LIMIT:
            self.other += 1
            return (line,)
        self.other_dropped += 1
        return ()

    def _close(self) -> None:
        pending, self.pending = self.pending, None
        if pending is None:
            return
        path, number, col, text, extra = pending
        named = _LINTER.match(text)
        if named is None:
            # a message on several lines ends with its linter: `…; to add it:` / `\tgo get …) (typecheck)`
            for at, line in enumerate(extra):
                named = _LINTER.match(line.strip())
                if named is not None and not line.strip().startswith("^"):
                    text = " ".join([text] + [x.strip() for x in extra[:at + 1]])
                    named = _LINTER.match(text)
                    extra = extra[at + 1:]
                    break
        self.context += len(extra)
        if named is not None:
            message, linter = named.groups()
        else:
            message, linter = text, None
        self.findings.add(path, number, col, "error", message, linter)

    def finish(self, exit_code: int):
        if self.passthrough:
            return
        self._close()
        yield from self.findings.render()
        yield from self.tail
        if self.other_dropped:
            yield omitted(self.other_dropped, "more output lines")
        if self.context:
            yield omitted(self.context, "source and caret lines")
        if self.info:
            yield omitted(self.info, "INFO log lines")
