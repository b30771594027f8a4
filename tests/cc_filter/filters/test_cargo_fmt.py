"""The cargo-fmt filter: each unformatted hunk's `file:line`, the diff body counted."""
from cc_filter.filters.rust.cargo_fmt import CargoFmt


def run(lines, exit_code=1):
    return list(CargoFmt(["cargo", "fmt", "--check"]).run(lines, exit_code))


def test_newer_rustfmt_header_and_the_diff_body_counted():
    # rustfmt 1.8 says `Diff in <path> at line N:`; blank context lines carry nothing
    out = run(["Diff in /p/src/a.rs at line 3:", " fn a() {", "-    x( )", "+    x()", " ", " }"])
    assert out[:3] == ["/p/src/a.rs:3: -1 +1 lines", "... (4 diff lines omitted)",
                       "cargo fmt --check failed: 1 hunk in 1 file not formatted "
                       "(`cargo fmt` rewrites them)"]
