"""ruff, eslint, yamllint, shellcheck, black, prettier and their shared report shapes."""
import pytest

from cc_filter.filters._lint_report import Findings
from cc_filter.filters._paths import paths_by_directory
from cc_filter.filters.python.black import Black
from cc_filter.filters.js.eslint import Eslint, parse_stylish
from cc_filter.filters.js.prettier import Prettier
from cc_filter.filters.python.ruff import Ruff
from cc_filter.filters.lint.shellcheck import Shellcheck, char_column, parse_caret
from cc_filter.filters.lint.yamllint import Yamllint, parse_finding


def run(cls, argv, text, exit_code=1):
    return list(cls(argv).run(text.split("\n"), exit_code))


RUFF_FULL = """\
F401 [*] `os` imported but unused
 --> app.py:1:8
  |
1 | import os
  |        ^^
  |
help: Remove unused import: `os`

invalid-syntax: Expected `)`, found newline
 --> bad.py:1:8
  |
1 | def f(:
  |        ^
  |

Found 2 errors.
[*] 1 fixable with the `--fix` option."""


def test_ruff_joins_header_and_location_and_drops_snippets():
    assert run(Ruff, ["ruff", "check", "."], RUFF_FULL) == [
        "app.py:1:8: F401 [*] `os` imported but unused",
        "bad.py:1:8: invalid-syntax: Expected `)`, found newline",
        "... (8 snippet lines omitted)", "... (1 help line omitted)",
        "Found 2 errors.", "[*] 1 fixable with the `--fix` option."]


def test_ruff_format_check_names_files():
    text = "unformatted: File would be reformatted\n --> pkg/a.py:5:1\n   |\n5  +\n   |\n\n1 file would be reformatted"
    assert run(Ruff, ["ruff", "format", "--check"], text) == ["would reformat: pkg/a.py:5:1",
                                                               "... (3 diff lines omitted)",
                                                               "1 file would be reformatted"]


@pytest.mark.parametrize("argv", [["ruff", "check", "--output-format", "json"],
                                  ["ruff", "check", "--output-format=github"],
                                  ["ruff", "format", "--diff"], ["ruff", "check", "--statistics"]])
def test_ruff_user_formats_pass_through(argv):
    assert run(Ruff, argv, RUFF_FULL) == RUFF_FULL.split("\n")


@pytest.mark.parametrize("line, parsed", [
    ("   2:10  error    'get' is defined but never used  no-unused-vars",
     ("2", "10", "error", "'get' is defined but never used", "no-unused-vars")),
    ("  2:3  error  Parsing error: Unexpected keyword 'return'",
     ("2", "3", "error", "Parsing error: Unexpected keyword 'return'", None)),
    ("  8:5  warning  Unexpected console statement  @scope/no-console",
     ("8", "5", "warning", "Unexpected console statement", "@scope/no-console")),
    ("/abs/file.js", None),
])
def test_eslint_stylish_rows(line, parsed):
    assert parse_stylish(line) == parsed


def test_eslint_keeps_every_finding_with_its_whole_path_and_the_summary():
    text = """
/p/src/a.js
  1:1  error  Unexpected var, use let or const instead  no-var
  3:3  error  Unexpected var, use let or const instead  no-var

/p/src/b.js
  2:1  warning  Unexpected console statement  no-console

✖ 3 problems (2 errors, 1 warning)
"""
    # errors and warnings together: each under its heading, errors named as plainly
    assert run(Eslint, ["eslint", "src"], text) == [
        "errors:",
        "/p/src/a.js:1:1 Unexpected var, use let or const instead (no-var)",
        "/p/src/a.js:3:3 (no-var, as above)",
        "warnings:",
        "/p/src/b.js:2:1 Unexpected console statement (no-console)",
        "✖ 3 problems (2 errors, 1 warning)"]


def test_eslint_other_formats_pass_through():
    assert run(Eslint, ["eslint", "-f", "json", "."], '[{"x": 1}]') == ['[{"x": 1}]']


@pytest.mark.parametrize("line, parsed", [
    ('  1:1       warning  missing document start "---"  (document-start)',
     ("1", "1", "warning", 'missing document start "---"', "document-start")),
    ("  2:6       error    syntax error: expected ',' or ']', but got ':' (syntax)",
     ("2", "6", "error", "syntax error: expected ',' or ']', but got ':'", "syntax")),
])
def test_yamllint_rows(line, parsed):
    assert parse_finding(line) == parsed


def test_yamllint_counts_and_keeps_unknown_lines():
    text = "a.yaml\n  3:1       error    trailing spaces  (trailing-spaces)\n\n[Errno 2] No such file"
    assert run(Yamllint, ["yamllint", "a.yaml"], text) == [
        "a.yaml", "3:1 trailing spaces (trailing-spaces)", "[Errno 2] No such file",
        "1 problem (1 error) in 1 file"]


@pytest.mark.parametrize("source, display, column", [
    ("\tcd $DIR", 8, 2), ("\tcd $DIR", 11, 5), ("echo $f", 5, 6), ("a\tb", 8, 3)])
def test_shellcheck_columns_expand_tabs_like_shellcheck(source, display, column):
    assert char_column(source, display) == column


def test_shellcheck_caret_lines():
    assert parse_caret("     ^-- SC2086 (info): Double quote.") == (5, "SC2086", "info", "Double quote.")
    assert parse_caret("echo ^ not a caret") is None


SHELLCHECK_TTY = """
In deploy.sh line 3:
\tcd $DIR
        ^-----^ SC2164 (warning): Use 'cd ... || exit' or 'cd ... || return' in case cd fails.
           ^--^ SC2086 (info): Double quote to prevent globbing and word splitting.

Did you mean:
\tcd "$DIR" || exit


For more information:
  https://www.shellcheck.net/wiki/SC2164 -- Use 'cd ... || exit' or 'cd ... |..."""


def test_shellcheck_findings_with_gcc_columns():
    assert run(Shellcheck, ["shellcheck", "deploy.sh"], SHELLCHECK_TTY) == [
        "deploy.sh",
        "3:2 warning: Use 'cd ... || exit' or 'cd ... || return' in case cd fails. (SC2164)",
        "3:5 info: Double quote to prevent globbing and word splitting. (SC2086)",
        "2 findings (1 warning, 1 info) in 1 file",
        "... (1 quoted source line omitted)", "... (4 advice lines omitted)"]


def test_shellcheck_keeps_a_line_after_the_links():
    text = SHELLCHECK_TTY + "\nnosuch.sh: openBinaryFile: does not exist (No such file or directory)"
    out = run(Shellcheck, ["shellcheck", "deploy.sh", "nosuch.sh"], text)
    assert "nosuch.sh: openBinaryFile: does not exist (No such file or directory)" in out


def test_black_groups_files_and_keeps_errors_and_counts():
    text = """error: cannot format src/x.py: Cannot parse: 1:4: def (
would reformat /p/src/a.py
would reformat /p/src/b.py

Oh no! 💥 💔 💥
2 files would be reformatted, 1 file would fail to reformat."""
    assert run(Black, ["black", "--check", "."], text, 123) == [
        "error: cannot format src/x.py: Cannot parse: 1:4: def (", "would reformat (2):",
        "  /p/src/*.py: a b", "2 files would be reformatted, 1 file would fail to reformat.",
        "... (1 banner line omitted)"]


def test_black_keeps_blank_context_lines_of_a_diff():
    text = "--- a.py\t2026-01-01 00:00:00+00:00\n+++ a.py\t2026-01-01 00:00:01+00:00\n@@ -1,2 +1,3 @@\n x = 1\n \n+\n y = 2"
    assert run(Black, ["black", "--diff", "a.py"], text, 0) == [
        "--- a.py", "+++ a.py", "@@ -1,2 +1,3 @@", " x = 1", " ", "+", " y = 2",
        "... (2 diff-header timestamps truncated)"]


def test_prettier_write_lists_changed_files_and_counts_unchanged():
    text = "src/a.js 12ms\nsrc/b.js 3ms (unchanged)\nstyles/c.css 1ms (unchanged)\nsrc/d.js 4ms"
    assert run(Prettier, ["prettier", "--write", "."], text, 0) == [
        "formatted (2):", "  src/a.js", "  src/d.js", "... (2 unchanged files omitted)"]


def test_prettier_check_failure_is_stated():
    text = "Checking formatting...\n[warn] src/a.js\n[warn] Code style issues found in the above file. Run Prettier with --write to fix."
    out = run(Prettier, ["prettier", "--check", "src/a.js"], text)
    assert out == ["check failed: code style issues in 1 file:", "  src/a.js"]


def test_findings_render_each_finding_with_its_path_in_place_order():
    findings = Findings()
    findings.add("/p/a.js", 10, 2, "error", "bad", "r1")
    findings.add("/p/a.js", 3, 4, "warning", "meh", "r2")
    findings.add("/p/a.js", 12, 1, "error", "bad", "r1")
    assert findings.render() == ["/p/a.js:3:4 warning: meh (r2)", "/p/a.js:10:2 bad (r1)",
                                 "/p/a.js:12:1 (r1, as above)"]
    assert findings.render_grouped() == ["/p/a.js", "bad (r1): 10:2 12:1", "3:4 warning: meh (r2)"]
    assert findings.summary() == "3 problems (2 errors, 1 warning) in 1 file"


def test_a_repeat_names_its_message_when_the_rule_has_two_above():
    """`as above` must say which message: with two messages of one rule shown, a repeat not
    right after its own message points at the place its message was shown."""
    findings = Findings()
    findings.add("/p/a.go", 1, 1, "error", "Write not checked", "errcheck")
    findings.add("/p/a.go", 2, 1, "error", "Close not checked", "errcheck")
    findings.add("/p/a.go", 3, 1, "error", "Close not checked", "errcheck")
    findings.add("/p/a.go", 4, 1, "error", "Write not checked", "errcheck")
    assert findings.render() == [
        "/p/a.go:1:1 Write not checked (errcheck)", "/p/a.go:2:1 Close not checked (errcheck)",
        "/p/a.go:3:1 (errcheck, as above)", "/p/a.go:4:1 (errcheck, as at /p/a.go:1:1)"]


def test_paths_by_directory_sorts_and_writes_shared_extensions_once():
    assert paths_by_directory(["src/b.js", "src/a.js", "README.md", "src/c.css"]) == [
        "  ./: README.md", "  src/: a.js b.js c.css"]
    assert paths_by_directory(["/srv/app/a/1.py", "/srv/app/b/2.py", "/srv/app/a/3.py"]) == [
        "in /srv/app/", "  a/*.py: 1 3", "  b/: 2.py"]
