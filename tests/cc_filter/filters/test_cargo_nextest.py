"""The cargo-nextest filter, on slices of the published runs in tests/fixtures/rust/cargo-nextest/
(nextest's own site recordings, uv#1753's 0.9.67 log, ruff#20566's Windows run)."""
import os

from cc_filter.filters.rust.cargo_nextest import CargoNextest
from cc_filter.kit.lines import strip_ansi

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "rust", "cargo-nextest")


def lines_of(case: str, start: int = 1, end: int | None = None) -> list[str]:
    with open(os.path.join(FIXTURES, f"{case}.out"), encoding="utf-8") as f:
        text = f.read().replace("\r\n", "\n")
    return text.split("\n")[start - 1:end]


def run(lines, argv=("cargo", "nextest", "run"), exit_code=100):
    return list(CargoNextest(list(argv)).run(lines, exit_code))


def test_insta_rules_inside_a_block_do_not_end_it():
    # uv#1753: a --- STDOUT block holding an insta snapshot diff, with its own ──── rules; the
    # libtest lines after the diff still belong to the block (and go), the panic stays
    out = run(lines_of("alpine_final_output", 211, 265))
    assert out[0] == "FAIL [   2.197s] uv::pip_install install_pinned_polars_invalid_metadata"
    assert "Source: crates/uv/tests/pip_install.rs:1176" in out
    assert not any(line.startswith(("running 1 test", "test install_pinned", "test result:"))
                   for line in out)
    assert "snapshot assertion for 'install_pinned_polars_invalid_metadata' failed in line 1176" in out
    assert out[-1] == "... (7 libtest lines omitted)"  # 6 in stdout, the RUST_BACKTRACE note


def test_the_same_failure_again_is_one_line_naming_the_first():
    # install_executable, _copy and _hardlink failed identically but for their temp dirs
    out = run(lines_of("alpine_final_output", 22, 210))
    copy = out.index("FAIL [   1.823s] uv::pip_install install_executable_copy")
    assert out[copy + 2].startswith("thread 'install_executable_copy' panicked at ")
    assert out[copy + 4].endswith("lines of output like install_executable's omitted)")
    assert sum(line.startswith("AttributeError:") for line in out) == 1


def test_backtraces_keep_the_projects_frames_and_count_the_rest():
    out = run(lines_of("windows_backtraces", 283, 503))
    assert "  left: IterationCount(0)" in out and " right: IterationCount(1)" in out
    assert "  15: ty_python_semantic::types::PEP695TypeAliasType::raw_value_type" in out
    assert not any("std::panicking::begin_panic_handler" in line for line in out)
    frames = [line for line in out if line[:5].strip().rstrip(":").isdigit()]
    assert len(frames) == 8
    assert any(line.endswith("std, rustc and dependency backtrace lines omitted)") for line in out)


def test_the_new_layout_is_dedented_and_retries_stay():
    out = run(lines_of("flaky_retry"), exit_code=0)
    assert out[1:5] == [
        "TRY 1 FAIL [   0.003s] fixture-project::basic test_flaky_mod_2",
        "stderr ---",
        "thread 'test_flaky_mod_2' panicked at tests/basic.rs:53:9:",
        "Failed because attempt 1 % 2 != 0",
    ]


def test_a_block_printed_twice_is_counted_not_shown_again():
    block = lines_of("alpine_final_output", 2, 21)  # FAIL test_cache_invalidation + its blocks
    once = run(block)
    twice = run(block + block)
    assert [line for line in twice if not line.startswith("...")] == \
        [line for line in once if not line.startswith("...")] + [block[0].strip()]
    assert twice[-1].endswith(" libtest and repeated failure output lines omitted)")
    assert "repeated" not in once[-1]


def test_machine_formats_and_help_pass_through():
    raw = lines_of("leak_fail")
    for argv in (["cargo", "nextest", "run", "--message-format", "libtest-json"],
                 ["cargo", "nextest", "run", "--message-format=libtest-json-plus"],
                 ["cargo", "nextest", "list", "-T", "json"],
                 ["cargo", "nextest", "run", "--help"]):
        filt = CargoNextest(argv)
        assert [y for line in raw for y in filt.feed(line)] + list(filt.finish(0)) == \
            [strip_ansi(line).rstrip() for line in raw]


def test_passing_and_progress_lines_are_counted():
    out = run(lines_of("all_pass"), exit_code=0)
    assert out == ["Summary [   0.021s] 14 tests run: 14 passed, 177 skipped",
                   "... (14 passing tests omitted)", "... (4 progress lines omitted)"]
