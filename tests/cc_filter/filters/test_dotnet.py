"""The dotnet-build and dotnet-test filters: MSBuild's diagnostics, VSTest's and xUnit.net's
failure reports. Inputs are published output: the fixtures' files and lines quoted from issue
threads (each test names its source)."""
import os

from cc_filter.filters import _paths
from cc_filter.filters.dotnet._msbuild import parse_diagnostic, split_project
from cc_filter.filters.dotnet.dotnet_build import DotnetBuild
from cc_filter.filters.dotnet.dotnet_test import DotnetTest

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "dotnet")


def fixture_lines(name: str) -> list[str]:
    with open(os.path.join(FIXTURES, name), encoding="utf-8") as f:
        return f.read().splitlines()


def run(cls, argv, lines, exit_code=1):
    return list(cls(argv).run(lines, exit_code))


def test_parse_diagnostic_canonical_forms():
    # tests/fixtures/dotnet/dotnet-build/build-errors.out (SDK 10 console logger)
    line = ("/Users/rich/git/smooth-markdown-table/src/MarkdownTable.Documents/"
            "StreamingDocumentOrchestrator.cs(66,42): error CS1501: No overload for method "
            "'ProcessDocumentAsync' takes 4 arguments [/Users/rich/git/smooth-markdown-table/src/"
            "MarkdownTable.Documents/MarkdownTable.Documents.csproj]")
    indent, where, category, code, text, project = parse_diagnostic(line)
    assert where.endswith("StreamingDocumentOrchestrator.cs(66,42)")
    assert (category, code, text) == ("error", "CS1501",
                                      "No overload for method 'ProcessDocumentAsync' takes 4 arguments")
    assert project.endswith("MarkdownTable.Documents.csproj") and indent == ""
    # the terminal logger's test failure (xunit.net getting-started page)
    assert parse_diagnostic("    UnitTest1.cs(14): error TESTERROR:")[1:5] == (
        "UnitTest1.cs(14)", "error", "TESTERROR", "")
    # a Windows path and no code (github.com/dotnet/runtime/issues/97211, rainersigwald)
    windows = (r"    S:\runtime\eng\testing\tests.targets(195,5): error : One or more tests failed"
               r" while running tests from 'System.Text.Json.Tests'. [S:\runtime\src\libraries"
               r"\System.Text.Json\tests\System.Text.Json.Tests\System.Text.Json.Tests.csproj]")
    _, where, category, code, text, project = parse_diagnostic(windows)
    assert where == r"S:\runtime\eng\testing\tests.targets(195,5)"
    assert (category, code) == ("error", "") and text.startswith("One or more tests failed")
    assert project.endswith("System.Text.Json.Tests.csproj")
    # the terminal logger's project-level message, no origin
    assert parse_diagnostic("    info NETSDK1057: You are using a preview version of .NET. "
                            "See: https://aka.ms/dotnet-support-policy")[2:4] == ("info", "NETSDK1057")
    for not_one in ("  MarkdownTable.Documents failed with 19 error(s) and 1 warning(s) (0.1s)",
                    "    19 Error(s)", "Build failed with 19 error(s) and 1 warning(s) in 0.9s"):
        assert parse_diagnostic(not_one) is None


def test_split_project_only_takes_a_project_suffix():
    assert split_project("msg [/p/a.csproj]") == ("msg", "/p/a.csproj")
    assert split_project("Expected: [1, 2]") == ("Expected: [1, 2]", "")


def test_console_logger_summary_is_not_repeated_and_said_so():
    lines = fixture_lines("dotnet-build/build-errors.out")
    out = run(DotnetBuild, ["dotnet", "build", "--tl:off"], lines)
    errors = [line for line in out if ": error CS" in line]
    assert len(errors) == 19  # each error once, though the raw output has each twice
    assert sum(": error CS" in line for line in lines) == 38
    assert "... (20 diagnostics repeated in the summary omitted)" in out
    assert "... (2 diagnostics repeated for other projects omitted)" in out  # NETSDK1057 x3
    assert out.index("Build FAILED.") < out.index("    19 Error(s)")


def test_a_repeated_message_keeps_its_position_and_code():
    lines = fixture_lines("dotnet-build/build-errors.out")
    out = run(DotnetBuild, ["dotnet", "build", "--tl:off"], lines)
    again = [line for line in out if "TableProcessorRegistry.cs(62,34)" in line]
    assert again == ["/Users/rich/git/smooth-markdown-table/src/MarkdownTable.Documents/"
                     "TableProcessorRegistry.cs(62,34): error CS1061: "
                     "(same message as (50,34))"]  # not (56,34)'s, the line above it
    first = [line for line in out if "TableProcessorRegistry.cs(50,34)" in line]
    assert "does not contain a definition for 'IsStreaming'" in first[0]


def test_a_message_given_in_another_file_or_project_names_it():
    message = "error CS0246: The type or namespace name 'Foo' could not be found (are you missing a using directive?)"
    lines = [f"/p/A/One.cs(3,5): {message} [/p/A/A.csproj]",
             f"/p/A/Two.cs(7,9): {message} [/p/A/A.csproj]",
             f"/p/B/Three.cs(1,2): {message} [/p/B/B.csproj]"]
    previous = _paths.pretend_working_directory("/p")
    try:
        out = run(DotnetBuild, ["dotnet", "build"], lines)
    finally:
        _paths.pretend_working_directory(previous)
    # the first place by the path the agent can open (relative to the run), not a base name
    assert out[1:] == ["/p/A/Two.cs(7,9): error CS0246: (same message as A/One.cs(3,5))",
                       "/p/B/Three.cs(1,2): error CS0246: (same message as A/One.cs(3,5)) [/p/B/B.csproj]"]


def test_machine_formats_pass_through():
    lines = ['{', '  "Properties": {', '    "TargetFramework": "net8.0"', '  }', '}']
    assert run(DotnetBuild, ["dotnet", "build", "-getProperty:TargetFramework"], lines, 0) == lines
    restore = ["  Determining projects to restore..."]
    assert run(DotnetBuild, ["dotnet", "build", "--help"], restore, 0) == restore


# github.com/microsoft/vstest/issues/3842 (timheuer): `dotnet test` with the console logger,
# MSTest, NUnit and xUnit.net projects (the thread's first lines, up to the MSTest summary)
VSTEST_CONSOLE = """\
NUnit Adapter 4.5.0.0: Test execution started
Running all tests in D:\\source\\repos\\xunitplay\\TestProject3\\bin\\Debug\\net8.0\\TestProject3.dll
  Failed MSTest_Failed_Test [21 ms]
  Error Message:
   Assert.IsTrue failed.
  Stack Trace:
     at TestProject2.UnitTest1.MSTest_Failed_Test() in D:\\source\\repos\\xunitplay\\TestProject2\\UnitTest1.cs:line 10
   at System.RuntimeMethodHandle.InvokeMethod(Object target, Void** arguments, Signature sig, Boolean isConstructor)
   at System.Reflection.MethodBaseInvoker.InvokeWithNoArgs(Object obj, BindingFlags invokeAttr)

  Standard Output Messages:
 This MSTest failed


  Passed MSTest_Passing_Test [< 1 ms]
  Standard Output Messages:
 This MSTest passed



Test Run Failed.
Total tests: 2
     Passed: 1
     Failed: 1
 Total time: 1.6229 Seconds
"""


def test_vstest_console_failure_block_keeps_project_frames_only():
    out = run(DotnetTest, ["dotnet", "test"], VSTEST_CONSOLE.splitlines())
    assert out[:6] == [
        "  Failed MSTest_Failed_Test [21 ms]",
        "  Error Message:",
        "   Assert.IsTrue failed.",
        "  Stack Trace:",
        "     at TestProject2.UnitTest1.MSTest_Failed_Test() in "
        "D:\\source\\repos\\xunitplay\\TestProject2\\UnitTest1.cs:line 10",
        "  Standard Output Messages:",
    ]
    assert " This MSTest failed" in out
    assert " This MSTest passed" not in out
    assert "... (2 framework stack frames omitted)" in out
    assert "... (1 passing test omitted)" in out
    assert "... (2 output lines of passing tests omitted)" in out
    for summary in ("Test Run Failed.", "Total tests: 2", "     Failed: 1"):
        assert summary in out


def test_xunit_failure_is_shown_when_vstest_never_reported_it():
    # the adapter's lines of tests/fixtures/dotnet/dotnet-test/test-failure.out, as a run cut
    # short before the terminal logger's report would leave them
    lines = fixture_lines("dotnet-test/test-failure.out")[:14]
    assert lines[-1].endswith("Finished:    MyFirstUnitTests")
    out = run(DotnetTest, ["dotnet", "test"], lines)
    assert "[xUnit.net 00:00:00.08]     MyFirstUnitTests.UnitTest1.FailingTest [FAIL]" in out
    assert "[xUnit.net 00:00:00.08]         UnitTest1.cs(14,0): at " \
           "MyFirstUnitTests.UnitTest1.FailingTest()" in out
    # ... and dropped, counted, when it was
    full = run(DotnetTest, ["dotnet", "test"], fixture_lines("dotnet-test/test-failure.out"))
    assert not any(line.startswith("[xUnit.net") for line in full)
    assert "... (6 xUnit.net lines said again by VSTest omitted)" in full


def test_list_tests_passes_through():
    lines = ["The following Tests are available:", "    MyFirstUnitTests.UnitTest1.PassingTest"]
    assert run(DotnetTest, ["dotnet", "test", "--list-tests"], lines, 0) == lines


def test_vstest_16_result_marks():
    # VSTest 16.x console output quoted in Alex Bunardzic's opensource.com TDD series (2019)
    text = """\
A total of 1 test files matched the specified pattern.
[xUnit.net 00:00:00.57] tests.UnitTest1.Add1ItemPrice10GrandTotal10 [FAIL]
  X tests.UnitTest1.Add1ItemPrice10GrandTotal10 [4ms]
  Error Message:
   Assert.Equal() Failure
Expected: 10
Actual: 0

Test Run Failed.
Total tests: 4
     Passed: 3
         Failed: 1
 Total time: 1.0320 Seconds
"""
    out = run(DotnetTest, ["dotnet", "test"], text.splitlines())
    assert out[:3] == ["  X tests.UnitTest1.Add1ItemPrice10GrandTotal10 [4ms]", "  Error Message:",
                       "   Assert.Equal() Failure"]
    assert "Expected: 10" in out and "Actual: 0" in out and "Test Run Failed." in out
    assert not any(line.startswith("[xUnit.net") for line in out)  # VSTest reported it
