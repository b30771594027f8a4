"""The cargo-build filter and the shared rustc diagnostics reader (lines from cargo 1.95)."""
import shlex

import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.rust.cargo_build import CargoBuild

ERRORS = """\
   Compiling ledger-report v0.1.0 (/tmp/ledger/ledger-report)
error[E0308]: mismatched types
  --> ledger-report/src/lib.rs:43:25
   |
43 |     let label: String = total;
   |                ------   ^^^^^ expected `String`, found `i64`
   |                |
   |                expected due to this
   |
help: try using a conversion method
   |
43 |     let label: String = total.to_string();
   |                              ++++++++++++

warning: unused variable: `count`
  --> ledger-report/src/lib.rs:20:9
   |
20 |     let mut count = 0;
   |         ^^^^^^^^^ help: if this is intentional, prefix it with an underscore: `_count`
   |
   = note: `#[warn(unused_variables)]` (part of `#[warn(unused)]`) on by default

error[E0425]: cannot find value `missing_var` in this scope
  --> ledger-report/src/lib.rs:46:31
   |
46 |     format!("{label} {first} {missing_var}")
   |                               ^^^^^^^^^^^ not found in this scope

Some errors have detailed explanations: E0308, E0425.
For more information about an error, try `rustc --explain E0308`.
warning: `ledger-report` (lib) generated 1 warning
error: could not compile `ledger-report` (lib) due to 2 previous errors; 1 warning emitted
"""


def run(argv, text, exit_code=101):
    return list(CargoBuild(argv).run(text.splitlines(), exit_code))


def test_errors_first_with_code_location_and_label_then_warnings_then_summary():
    assert run(["cargo", "build"], ERRORS) == [
        "ledger-report/src/lib.rs:43:25: error[E0308]: mismatched types",
        "  expected `String`, found `i64`",
        "ledger-report/src/lib.rs:46:31: error[E0425]: cannot find value `missing_var` in this scope",
        "ledger-report/src/lib.rs:20:9: warning: unused variable: `count` [unused_variables]",
        "  help: if this is intentional, prefix it with an underscore: `_count`",
        # every dropped line counted: 11 + 6 + 4 excerpt, help and note lines, 2 hints
        "... (1 Compiling line omitted)",
        "... (23 excerpt and note lines omitted)",
        "warning: `ledger-report` (lib) generated 1 warning",
        "error: could not compile `ledger-report` (lib) due to 2 previous errors; 1 warning emitted",
    ]


def test_a_clean_build_keeps_only_finished_and_the_count_of_progress_lines():
    text = ("   Compiling ledger-core v0.1.0 (/tmp/ledger/ledger-core)\n"
            "   Compiling ledger-api v0.1.0 (/tmp/ledger/ledger-api)\n"
            "     Locking 6 packages to latest compatible versions\n"
            "    Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.25s\n")
    assert run(["cargo", "build"], text, 0) == [
        "... (3 Compiling/Locking lines omitted)",
        "Finished `dev` profile [unoptimized + debuginfo] target(s) in 1.25s"]


def test_duplicate_warnings_of_lib_and_test_builds_are_shown_once():
    warning = ("warning: unused import: `std::fmt::Write`\n --> src/lib.rs:2:5\n  |\n"
               "2 | use std::fmt::Write;\n  |     ^^^^^^^^^^^^^^^\n\n")
    assert run(["cargo", "build"], warning * 2, 0) == [
        "src/lib.rs:2:5: warning: unused import: `std::fmt::Write`",
        "... (5 lines of repeated diagnostics omitted)",  # the second copy, header included
        "... (4 excerpt and note lines omitted)"]  # the first's `-->` and excerpt


def test_cargo_fix_hint_is_dropped_from_the_generated_line():
    text = ("warning: `ledger-report` (lib) generated 5 warnings (run `cargo fix --lib -p "
            "ledger-report` to apply 4 suggestions)\n")
    assert run(["cargo", "check"], text, 0) == [
        "... (1 excerpt and note line omitted)",  # the line, less its hint
        "warning: `ledger-report` (lib) generated 5 warnings"]


@pytest.mark.parametrize("argv", [["cargo", "build", "--message-format=json"],
                                  ["cargo", "build", "--message-format", "json-render-diagnostics"]])
def test_json_messages_pass_through(argv):
    assert run(argv, '{"reason":"compiler-artifact"}\n', 0) == ['{"reason":"compiler-artifact"}']


@pytest.mark.parametrize("command", ["cargo build", "cargo check --all", "cargo clippy -- -D warnings",
                                     "cargo b --release"])
def test_commands_route_here(command):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False)
    assert entry is not None and entry.name == "cargo-build"
