"""The cargo-test filter (lines from cargo test 1.95)."""
from cc_filter.filters.rust.cargo_test import CargoTest

RUN = """\
    Finished `test` profile [unoptimized + debuginfo] target(s) in 0.39s
     Running unittests src/lib.rs (target/debug/deps/ledger_money-fcc5f1ab5b369b87)

running 3 tests
test tests::add_1 ... ok
test tests::exchange ... ignored, needs a currency table
test regressions::split_keeps_every_cent ... FAILED

failures:

---- regressions::split_keeps_every_cent stdout ----

thread 'regressions::split_keeps_every_cent' (21496) panicked at ledger-money/src/lib.rs:122:9:
assertion `left == right` failed
  left: [4, 3, 3]
 right: [3, 3, 4]
note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace


failures:
    regressions::split_keeps_every_cent

test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s

error: test failed, to rerun pass `-p ledger-money --lib`
"""


def run(argv, text, exit_code=101):
    return list(CargoTest(argv).run(text.splitlines(), exit_code))


def test_failure_section_keeps_panic_location_and_values():
    assert run(["cargo", "test"], RUN) == [
        "test tests::exchange ... ignored, needs a currency table",
        "---- regressions::split_keeps_every_cent panicked at ledger-money/src/lib.rs:122:9:",
        "assertion `left == right` failed",
        "  left: [4, 3, 3]",
        " right: [3, 3, 4]",
        "test result: FAILED. 1 passed; 1 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s",
        # every dropped line counted, before cargo's summary
        "... (1 Finished line omitted)",
        "... (2 suite header lines omitted)",  # `Running unittests …`, `running 3 tests`
        "... (1 passing test omitted)",
        "... (3 failure list lines omitted)",  # both `failures:`, the name its section has
        "... (1 backtrace hint omitted)",
        "error: test failed, to rerun pass `-p ledger-money --lib`",
    ]


def test_passing_suites_with_equal_counts_fold_and_empty_suites_go():
    ok = "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.0{}s\n"
    empty = "test result: ok. 0 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n"
    text = ok.format(0) + empty + ok.format(1) + ok.format(0)
    assert run(["cargo", "test"], text, 0) == [
        "test result: ok. 1 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out (×3 suites)",
        "... (1 empty suite result omitted)"]


def test_a_crashed_test_binary_still_names_its_failed_tests():
    text = "running 1 test\ntest tests::boom ... FAILED\nerror: test failed, to rerun pass `--lib`\n"
    assert run(["cargo", "test"], text) == [
        "test tests::boom ... FAILED", "... (1 suite header line omitted)",
        "error: test failed, to rerun pass `--lib`"]


def test_quiet_progress_goes():
    text = ("running 26 tests\nregressions::x --- FAILED\n........ 12/26\n....i........\n"
            "test result: ok. 26 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; finished in 0.00s\n")
    assert run(["cargo", "test", "-q"], text, 0) == [
        "test regressions::x ... FAILED",
        "test result: ok. 26 passed; 0 failed; 0 ignored; 0 measured; 0 filtered out; "
        "finished in 0.00s",
        "... (1 suite header line omitted)", "... (2 -q progress lines omitted)"]


def test_list_passes_through():
    assert run(["cargo", "test", "--", "--list"], "tests::a: test\n", 0) == ["tests::a: test"]
