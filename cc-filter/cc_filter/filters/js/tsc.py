"""tsc: every diagnostic with its location and TS code, and the closing count.

Plain output (`src/a.ts(4,9): error TS2322: …` plus its indented elaboration lines) is
already one message per problem and passes unchanged. `--pretty` output (the default on a
terminal) is brought back to one line per diagnostic, `src/a.ts:4:9 - error TS2322: message`,
with its elaboration lines and each related location as `  src/b.ts:3:3: The expected type
comes from …`; `Found 8 errors in 2 files.` and the per-file `Errors  Files` table stay (its
first 10 rows, then `+N more files`).
Drops: source excerpts and `~~~` underlines, counted once after the diagnostics (`... (6 source
excerpt lines omitted)`, before the `Found` line), blank lines.
Passes everything through for `--listFiles`, `--listFilesOnly`, `--showConfig`, `--help`,
`--version`, `--explainFiles`, `--generateTrace`, `--extendedDiagnostics`.
Injects nothing. Tested with TypeScript 7.0.2 (the native tsc) and 5.9.3, plain and --pretty;
both print the same layouts.
"""
from cc_filter.kit.lines import LazyPattern, TrimmedLineFilter, omitted

_PASSTHROUGH = frozenset(("--listFiles", "--listFilesOnly", "--showConfig", "--help", "-h",
                          "--version", "-v", "--explainFiles", "--extendedDiagnostics",
                          "--diagnostics", "--all", "--init", "--listEmittedFiles"))
_TABLE_LIMIT = 10

_PRETTY_HEADER = LazyPattern(r"^\S.*:\d+:\d+ - (error|warning|message|suggestion) TS\d+: ")


def _location_only(stripped: str) -> bool:
    """`src/till.ts:3:3`: the location line of a related-information entry (--pretty)."""
    parts = stripped.rsplit(":", 2)
    return len(parts) == 3 and parts[1].isdigit() and parts[2].isdigit() and " " not in stripped


class Tsc(TrimmedLineFilter):
    name = "tsc"
    match_command = r"^(tsc|vue-tsc|tsgo)(\s|$)"
    description = "tsc: diagnostics with location and TS code; --pretty excerpts dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in _PASSTHROUGH or a.startswith("--generateTrace") for a in argv)
        self.related: str | None = None  # the location of a related-information entry
        self.table = 0
        self.table_dropped = 0
        self.in_table = False
        self.excerpt = 0  # source excerpt and underline lines dropped, not yet counted

    def _excerpt_marker(self):
        if self.excerpt:
            yield omitted(self.excerpt, "source excerpt lines")
            self.excerpt = 0

    def feed_trimmed(self, line: str, stripped: str):
        if stripped.startswith("Found ") and " error" in stripped:
            self.related = None
            yield from self._excerpt_marker()
            yield stripped
            return
        if stripped.startswith("Errors") and stripped.endswith("Files") and "  " in stripped:
            self.in_table = True
            yield stripped
            return
        if self.in_table:
            count = stripped.split(" ", 1)[0]
            if count.isdigit():
                if self.table < _TABLE_LIMIT:
                    self.table += 1
                    yield line
                else:
                    self.table_dropped += 1
                return
            self.in_table = False
        if _PRETTY_HEADER.match(line):
            self.related = None
            yield line
            return
        if stripped[0].isdigit() and (line[0] != " " or line.startswith("    ")):
            self.excerpt += 1
            return  # the excerpt: `4   const sum: string = total(lines);`
        if not stripped.strip("~ "):
            self.excerpt += 1
            return  # the underline
        if line.startswith("  ") and _location_only(stripped):
            self.related = stripped  # TypeScript 5: the message follows the excerpt
            return
        if line.startswith("  ") and " - " in stripped and _location_only(stripped.split(" - ")[0]):
            location, _, message = stripped.partition(" - ")
            yield f"  {location}: {message}"  # TypeScript 7 prints it on one line
            return
        if self.related is not None and line.startswith("    "):
            location, self.related = self.related, None
            yield f"  {location}: {stripped}"
            return
        yield line

    def finish(self, exit_code: int):
        if self.related is not None:
            yield f"  {self.related}"
        yield from self._excerpt_marker()
        if self.table_dropped:
            yield f"+{self.table_dropped} more files"
