"""dotnet build / restore / pack / publish / clean / msbuild: MSBuild's diagnostics and result.

Keeps every warning and error line as MSBuild printed it (`path(12,30): error CS1002: ;
expected [/p/proj.csproj]`), once: the console logger's summary, which prints each of them a
second time after `Build FAILED.`, is counted (`... (20 diagnostics repeated in the summary
omitted)`); a message already given at another position becomes `(same message as (50,34))`.
Keeps `Build succeeded.` / `Build FAILED.`, `N Warning(s)`, `N Error(s)` and the terminal
logger's `  App failed with 2 error(s)` and `Build failed with … in 0.9s` lines. Counts restore
progress, the MSBuild banner, `Lib -> bin/Lib.dll` output lines and `Time Elapsed` in markers.
Machine formats pass through: `-getProperty:`/`-getItem:`/`-getTargetResult:` (JSON),
`--help`. Both layouts are read (see `_msbuild.py`); the published cases come from SDK 10
preview (`--tl:off` and the terminal logger).
"""
from cc_filter.filters.dotnet._msbuild import MSBuildOutput
from cc_filter.kit.lines import TrimmedLineFilter

_PASSTHROUGH = ("-getProperty", "-getItem", "-getTargetResult", "--getProperty", "--getItem",
                "--getTargetResult", "/getProperty", "/getItem", "/getTargetResult")


def passthrough(argv: list[str]) -> bool:
    """The user asked for a machine format or help: every line passes unchanged."""
    return any(a in ("-h", "--help", "-?", "/?", "--version") or a.startswith(_PASSTHROUGH)
               for a in argv[1:])


class DotnetBuild(TrimmedLineFilter):
    name = "dotnet-build"
    match_command = r"^dotnet (build|restore|pack|publish|clean|msbuild|build-server)(\s|$)"
    description = "dotnet build/restore/pack/publish: diagnostics once, result and counts"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = passthrough(argv)
        self.msbuild = MSBuildOutput()

    def feed_trimmed(self, line: str, stripped: str):
        shown = self.msbuild.line(line, stripped)
        if shown is None:
            return (line,)
        return shown

    def finish(self, exit_code: int):
        if self.msbuild.summary_repeats:
            self.dropped = True
        return self.msbuild.closing()
