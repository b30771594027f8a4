"""cargo fmt / rustfmt: with `--check`, the `file:line` of every hunk that is not formatted and
how many lines it would change, then one verdict line; the diff body (what `cargo fmt` would
write) dropped and counted (`... (53 diff lines omitted)`). rustfmt's own errors (a file it
cannot parse) pass through whole."""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

# `Diff in /p/src/a.rs:12:` (older rustfmt) or `Diff in /p/src/a.rs at line 12:` (newer)
_HEADER = LazyPattern(r"^Diff in (.+?)(?::| at line )(\d+):$")


class CargoFmt(Filter):
    name = "cargo-fmt"
    match_command = r"^(cargo fmt|rustfmt)(\s|$)"
    description = "cargo fmt --check: the file:line of each unformatted hunk and a verdict"

    def __init__(self, argv):
        super().__init__(argv)
        self.hunks: list[list] = []  # [location, removed, added]
        self.files: set = set()
        self.body = 0  # the diff lines dropped (removed, added, context; not blank ones)

    def feed(self, line):
        line = strip_ansi(line)
        header = _HEADER.match(line) if line.startswith("Diff in ") else None
        if header:
            path = header.group(1)
            self.hunks.append([f"{path}:{header.group(2)}", 0, 0])
            self.files.add(path)
            return
        if self.hunks and line[:1] in ("+", "-", " ") or (self.hunks and line == ""):
            if line[:1] == "-":
                self.hunks[-1][1] += 1
            elif line[:1] == "+":
                self.hunks[-1][2] += 1
            if line.strip():
                self.body += 1
            self.dropped = True
            return
        yield line

    def finish(self, exit_code):
        for location, removed, added in self.hunks:
            yield f"{location}: -{removed} +{added} lines"
        if self.body:
            yield omitted(self.body, "diff lines")
        if self.hunks:
            hunks, files = len(self.hunks), len(self.files)
            yield (f"cargo fmt --check failed: {hunks} hunk{'s' if hunks != 1 else ''} in "
                   f"{files} file{'s' if files != 1 else ''} not formatted (`cargo fmt` "
                   f"rewrites them)")
