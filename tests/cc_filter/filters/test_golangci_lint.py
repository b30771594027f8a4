"""The golangci-lint filter. The lines are golangci-lint's own, as published: v2 runs pasted in
a public Claude Code session transcript (typecheck / errcheck findings with their summary),
golangci/golangci-lint#5830 (`-v` INFO lines, v2.1.6) and erigontech/erigon#150 (a v1 WARN
line and a finding without a path)."""
from cc_filter.filters.go.golangci_lint import GolangciLint

TYPECHECK = """\
testutil/repo.go:14:2: could not import github.com/entireio/cli/e2e/agents (testutil/repo.go:14:2: no required module provides package github.com/entireio/cli/e2e/agents; to add it:
\tgo get github.com/entireio/cli/e2e/agents) (typecheck)
\t"github.com/entireio/cli/e2e/agents"
\t^
testutil/repo.go:15:2: could not import github.com/entireio/cli/e2e/entire (testutil/repo.go:15:2: no required module provides package github.com/entireio/cli/e2e/entire; to add it:
\tgo get github.com/entireio/cli/e2e/entire) (typecheck)
\t"github.com/entireio/cli/e2e/entire"
\t^
2 issues:
* typecheck: 2
"""

ERRCHECK = """\
cmd/testreport/main.go:53:16: Error return value of `f.Close` is not checked (errcheck)
\t\tdefer f.Close()
\t\t             ^
testutil/repo.go:143:26: Error return value of `s.ConsoleLog.WriteString` is not checked (errcheck)
\ts.ConsoleLog.WriteString("> " + out.Command + "\\n")
\t                        ^
testutil/repo.go:144:26: Error return value of `s.ConsoleLog.WriteString` is not checked (errcheck)
\ts.ConsoleLog.WriteString("stdout:\\n" + out.Stdout + "\\n")
\t                        ^
3 issues:
* errcheck: 3
"""


def run(text, argv=("golangci-lint", "run", "./..."), exit_code=1):
    return list(GolangciLint(list(argv)).run(text.splitlines(), exit_code))


def test_a_message_on_two_lines_is_joined_and_its_source_lines_counted():
    assert run(TYPECHECK) == [
        "testutil/repo.go:14:2 could not import github.com/entireio/cli/e2e/agents "
        "(testutil/repo.go:14:2: no required module provides package "
        "github.com/entireio/cli/e2e/agents; to add it: go get github.com/entireio/cli/e2e/agents)"
        " (typecheck)",
        "testutil/repo.go:15:2 could not import github.com/entireio/cli/e2e/entire "
        "(testutil/repo.go:15:2: no required module provides package "
        "github.com/entireio/cli/e2e/entire; to add it: go get github.com/entireio/cli/e2e/entire)"
        " (typecheck)",
        "2 issues:",
        "* typecheck: 2",
        "... (4 source and caret lines omitted)",
    ]


def test_findings_keep_path_position_and_linter_and_the_summary_follows():
    assert run(ERRCHECK) == [
        "cmd/testreport/main.go:53:16 Error return value of `f.Close` is not checked (errcheck)",
        "testutil/repo.go:143:26 Error return value of `s.ConsoleLog.WriteString` is not checked"
        " (errcheck)",
        "testutil/repo.go:144:26 (errcheck, as above)",
        "3 issues:",
        "* errcheck: 3",
        "... (6 source and caret lines omitted)",
    ]


def test_log_warnings_stay_info_lines_are_counted_odd_lines_pass():
    text = (
        "INFO [lintersdb] Active 3 linters: [gofmt goimports govet] \n"
        "WARN [runner/source_code] Failed to get line 0 for file : failed to get file  lines "
        "cache: can't get file  bytes from cache: can't read file : open : no such file or "
        "directory \n"
        ":0: nilness: nil dereference in index operation (govet)\n")
    assert run(text) == [
        ":0: nilness: nil dereference in index operation (govet)",
        "WARN [runner/source_code] Failed to get line 0 for file : failed to get file  lines "
        "cache: can't get file  bytes from cache: can't read file : open : no such file or "
        "directory",
        "... (1 INFO log line omitted)",
    ]


def test_machine_formats_pass_through():
    for argv in (["golangci-lint", "run", "--out-format", "json"],
                 ["golangci-lint", "run", "--out-format=checkstyle"],
                 ["golangci-lint", "run", "--output.json.path=stdout"],
                 ["golangci-lint", "run", "--help"]):
        assert run(ERRCHECK, argv) == ERRCHECK.splitlines()
    assert run(ERRCHECK, ["golangci-lint", "run", "--out-format=colored-line-number"]) != \
        ERRCHECK.splitlines()
