"""What `dotnet build`, `dotnet test`, `dotnet restore` … share: MSBuild's console output.

Two layouts are read. The console logger (`--tl:off`, and every run whose stdout is not a
terminal — the agent's case): `path(12,30): error CS1002: ; expected [/p/proj.csproj]` lines as
they happen, `Build FAILED.` / `Build succeeded.`, then a summary that prints every warning and
error a second time, `    1 Warning(s)`, `    19 Error(s)`, `Time Elapsed 00:00:00.81`. The
terminal logger (.NET 8+ in a terminal): `Restore complete (0.4s)`, one line per project
(`  Lib succeeded (0.1s) → bin/Lib.dll`, `  App failed with 2 error(s) (0.1s)` followed by its
indented diagnostics), `Build failed with 2 error(s) in 0.9s`.

Kept: every diagnostic line as printed (whole path, position, code, message, project), the
result lines and counts. A diagnostic printed again (MSBuild's summary) is not repeated: an
exact repeat is counted in a closing marker (`... (20 diagnostics repeated in the summary
omitted)`), the same diagnostic for another project (a shared `.targets` file, `NETSDK1057`
once per project) too. A message that an earlier diagnostic already gave (the same code and
text at another position: `CS1061 …` ten times) is shown as `path(62,34): error CS1061: (same
message as (50,34))`, naming where it was given (its file too when that is another one, and
` [other.csproj]` when the project is another).
Counted in `... (N … omitted)` markers: restore progress, the MSBuild banner, per-project
output lines (`Lib -> bin/Lib.dll`, `Lib succeeded (0.1s) → …`), `Time Elapsed`.
Anything else passes through unchanged.
"""
from cc_filter.filters._paths import relative
from cc_filter.kit.lines import LazyPattern, omitted

#: `origin[(pos)] : [subcategory ]category code: text` (MSBuild's canonical error format);
#: the origin may be empty (TL's `info NETSDK1057: …`).
_DIAGNOSTIC = LazyPattern(
    r"^(?P<indent>\s*)(?P<where>(?:\S[^:]*?(?:\([\d,\-]+\))?|[A-Za-z]:\\\S[^:]*?(?:\([\d,\-]+\))?)"
    r" ?: )?(?:[\w-]+ )?(?P<cat>error|warning|message|info) (?P<code>[A-Za-z]*\d+|[A-Z][A-Za-z]*)?"
    r" ?:(?P<text>.*)$")

_BANNER = ("MSBuild version ", "Microsoft (R) Build Engine version ",
           "Copyright (C) Microsoft Corporation", "Copyright (c) Microsoft Corporation",
           "Microsoft (R) Test Execution Command Line Tool", "VSTest version ")
_RESTORE = ("Determining projects to restore...", "All projects are up-to-date for restore.",
            "Restored ", "Restore completed in ", "Restoring packages for ", "Committing restore",
            "Generating MSBuild file ", "Writing lock file to disk", "Writing assets file to disk",
            "Writing cache file to disk", "Persisting no-op dg", "Assets file has not changed",
            "No further actions are required to complete the restore.", "Restore complete (",
            "Restore succeeded", "Lock file has not changed", "Installing ", "Installed ",
            "CACHE ", "GET https://", "OK https://", "NotFound https://")
_TIMING = ("Time Elapsed ",)
#: The console logger's line for a project's output: `  Lib -> /p/bin/Debug/net8.0/Lib.dll`.
_OUTPUT = LazyPattern(r"^  [^\s:()\[\]][^:()\[\]]*? -> \S")
#: The terminal logger's line for a project that built: `  Lib succeeded (0.1s) → bin/Lib.dll`.
_TL_PROJECT_OK = LazyPattern(
    r"^\s+\S.*? (?:test )?succeeded(?: with \d+ warning\(s\))? \([\d.]+s\)")


def split_project(text: str) -> tuple[str, str]:
    """`msg [/p/proj.csproj]` → (`msg`, `/p/proj.csproj`); the project is "" when absent."""
    if text.endswith("]"):
        cut = text.rfind(" [")
        if cut >= 0:
            inside = text[cut + 2:-1]
            if inside.endswith(("proj", ".sln", ".slnx", ".slnf", ".targets", ".props")):
                return text[:cut], inside
    return text, ""


def _split_position(where: str) -> tuple[str, str]:
    """`/p/a.cs(12,30)` → (`/p/a.cs`, `(12,30)`); the position is "" when absent."""
    if where.endswith(")"):
        cut = where.rfind("(")
        if cut > 0:
            return where[:cut], where[cut:]
    return where, ""


def parse_diagnostic(line: str):
    """(indent, where, category, code, text, project) of an MSBuild diagnostic line, else None.
    Cheap for other lines: the regex runs only on lines naming a category."""
    if " error" not in line and " warning" not in line and "message " not in line \
            and "info " not in line and not line.lstrip().startswith(("error", "warning")):
        return None
    match = _DIAGNOSTIC.match(line)
    if match is None:
        return None
    where = (match.group("where") or "").removesuffix(": ").removesuffix(" ")
    text, project = split_project(match.group("text"))
    return (match.group("indent"), where, match.group("cat"), match.group("code") or "",
            text.strip(), project)


class MSBuildOutput:
    """The MSBuild part of a dotnet command's output, line by line (see the module docstring).
    `line(line, stripped)` returns the lines to show (a tuple) or None when it is not MSBuild's
    (the caller then handles it); `closing()` gives the repeat note and the markers."""

    def __init__(self):
        self.seen: set[str] = set()  # exact diagnostic lines shown
        self.keys: set[tuple] = set()  # (where, category, code, text) shown
        self.messages: dict[tuple, tuple] = {}  # (category, code, text) → its first (where, project)
        self.summary_repeats = 0
        self.other_project = 0
        self.counts = {"restore": 0, "banner": 0, "outputs": 0, "timing": 0}

    def line(self, line: str, stripped: str):
        diagnostic = parse_diagnostic(line)  # first: a diagnostic is never taken for progress
        if diagnostic is not None:
            return self._diagnostic(line, diagnostic)
        if stripped.startswith(_RESTORE):
            self.counts["restore"] += 1
            return ()
        if stripped.startswith(_BANNER):
            self.counts["banner"] += 1
            return ()
        if stripped.startswith(_TIMING):
            self.counts["timing"] += 1
            return ()
        if " -> " in stripped and _OUTPUT.match(line):
            self.counts["outputs"] += 1  # `  Lib -> /p/bin/Debug/net8.0/Lib.dll`
            return ()
        if " succeeded" in stripped and _TL_PROJECT_OK.match(line):
            self.counts["outputs"] += 1
            return ()
        return None

    def _diagnostic(self, line: str, diagnostic):
        indent, where, category, code, text, project = diagnostic
        if line in self.seen:
            self.summary_repeats += 1
            return ()
        key = (where, category, code, text)
        if text and code and key in self.keys:
            self.other_project += 1
            return ()
        self.seen.add(line)
        self.keys.add(key)
        message = (category, code, text)
        if not (text and code and where and len(text) > 40):
            return (line,)
        first = self.messages.get(message)
        if first is None:
            self.messages[message] = (where, project)
            return (line,)
        first_where, first_project = first
        # `(50,34)` in the same file, `src/Other.cs(50,34)` in another
        path, at = _split_position(where)
        first_path, first_at = _split_position(first_where)
        if first_at and first_path == path:
            ref = first_at
        else:
            # the path the agent can open (relative to the run when under it), not a base name
            ref = relative(first_path.replace("\\", "/")) + first_at
        other = "" if first_project == project else f" [{project}]"
        return (f"{indent}{where}: {category} {code}: (same message as {ref}){other}",)

    def closing(self):
        out = []
        if self.summary_repeats:
            out.append(omitted(self.summary_repeats, "diagnostics repeated in the summary"))
        if self.other_project:
            out.append(omitted(self.other_project, "diagnostics repeated for other projects"))
        kinds = (("restore", "restore lines"), ("banner", "banner lines"),
                 ("outputs", "project output lines"), ("timing", "timing lines"))
        for key, noun in kinds:
            if self.counts[key]:
                out.append(omitted(self.counts[key], noun))
        return out
