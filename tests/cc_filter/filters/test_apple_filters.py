"""xcodebuild and swift (filters/apple/): the tricky parts. Lines are taken from the published
fixtures under tests/fixtures/apple/."""
from cc_filter.filters.apple.swift import Swift
from cc_filter.filters.apple.xcodebuild import Xcodebuild


def run(cls, argv, lines, exit_code=1):
    return list(cls(argv).run(lines, exit_code))


def test_a_failing_case_keeps_its_output_and_names_with_quotes_parse():
    name = ("-[muterTests.MutationDiscoverySpec discoverMutationOperators, doesn't discover any "
            "mutation operators]")
    out = run(Xcodebuild, ["xcodebuild", "test"], [
        f"Test Case '{name}' started.",
        "Testing mutation operator in a file path",
        f"Test Case '{name}' failed (0.197 seconds).",
        f"Test Case '{name}' started.",
        "There are 1 left to apply",
        f"Test Case '{name}' passed (0.197 seconds).",
    ])
    assert out[:2] == ["Testing mutation operator in a file path",
                       f"Test Case '{name}' failed (0.197 seconds)."]
    assert "There are 1 left to apply" not in out
    assert "... (1 passing test omitted)" in out
    assert "... (1 output line of passing tests omitted)" in out


def test_build_step_blocks_are_counted_and_a_diagnostic_inside_one_is_kept():
    out = run(Xcodebuild, ["xcodebuild", "build"], [
        "CompileSwift normal x86_64 /src/A.swift (in target: muterCore)",
        "    cd /src",
        "    /Applications/Xcode.app/Contents/Developer/Toolchains/XcodeDefault.xctoolchain/usr/bin/swift -frontend -c",
        "/src/A.swift:9:1: error: type 'AbsolutePosition' does not conform to protocol 'Equatable'",
        "extension AbsolutePosition: Equatable {",
        "^",
        "",
        "** BUILD FAILED **",
    ])
    assert out[:3] == ["/src/A.swift:9:1: error: type 'AbsolutePosition' does not conform to "
                       "protocol 'Equatable'", "extension AbsolutePosition: Equatable {", "^"]
    assert "** BUILD FAILED **" in out
    assert "... (3 build step lines of 1 steps omitted)" in out


def test_a_diagnostics_notes_are_capped_and_counted():
    notes = []
    for _ in range(10):
        notes += ["Swift.==:1:13: note: candidate has non-matching type '((), ()) -> Bool'",
                  "public func == (lhs: (), rhs: ()) -> Bool", "            ^"]
    out = run(Xcodebuild, ["xcodebuild", "test"],
              ["/src/A.swift:9:1: error: type 'A' does not conform to protocol 'Equatable'"]
              + notes + ["", "** TEST FAILED **"])
    assert sum(1 for line in out if " note: " in line) == 6
    assert "... (12 more note lines of this diagnostic omitted)" in out
    assert out.index("** TEST FAILED **") > out.index(
        "... (12 more note lines of this diagnostic omitted)")


def test_machine_and_listing_formats_pass_through():
    lines = ["Test Case '-[A testB]' passed (0.001 seconds).", "CompileSwift normal x86_64 x"]
    assert run(Xcodebuild, ["xcodebuild", "-list"], lines) == lines
    assert run(Swift, ["swift", "test", "--list-tests"], lines) == lines


def test_swift_testing_glyphs_of_macos_and_linux():
    out = run(Swift, ["swift", "test"], [
        "\U001007c8  Test example() started.",
        "\U0010105b  Test example() passed after 0.001 seconds.",
        "\U00100884  Test secondExample() recorded an issue at DemoSwiftTestingTests.swift:11:5: "
        "Expectation failed: true == false",
        "\U00100884  Test secondExample() failed after 0.001 seconds with 1 issue.",
        "◇ Test testTrueIsTrue() started.",
        "✔ Test testTrueIsTrue() passed after 0.001 seconds.",
        "✘ Test run with 2 tests failed after 0.001 seconds with 1 issue.",
    ])
    assert out[0].endswith("recorded an issue at DemoSwiftTestingTests.swift:11:5: "
                           "Expectation failed: true == false")
    assert out[1] == "✘ Test run with 2 tests failed after 0.001 seconds with 1 issue."
    assert "... (2 passing tests omitted)" in out
    assert "... (3 test started, suite and result lines omitted)" in out


def test_swift_build_progress_is_counted_and_unknown_lines_stay():
    out = run(Swift, ["swift", "build"], [
        "Building for debugging...",
        "[7/11] Compiling Slotstream AdaptiveSpeculation.swift",
        "error: link command failed with exit code 1 (use -v to see invocation)",
        "Undefined symbols for architecture arm64:",
    ])
    assert out == ["error: link command failed with exit code 1 (use -v to see invocation)",
                   "Undefined symbols for architecture arm64:",
                   "... (2 build progress lines omitted)"]
