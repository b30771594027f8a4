"""go build / go vet / go install: compiler and vet errors, grouped under their package.

Keeps: `# example.com/m/pkg` headers and every `file.go:12:3: message` line (with the
`have (…)` / `want (…)` detail lines), `too many errors`, `go: …` errors (missing modules,
bad flags), anything unrecognised.
Drops, and counts in a marker at the end: the package list `go build -v` / `go install -v`
prints (`... (20 built packages omitted)`; a success that shows nothing else says `ok: 20
packages built` above it), `go: downloading` / `go: finding` progress
(`... (3 go: downloading lines omitted)`).
Passes everything through for `-json`, `-n`, `-x` (the user asked to see the commands), `-h`.
Injects nothing. Tested with go1.19.8 (Debian bookworm's golang-go); the formats are the same
through go1.23.
"""
from cc_filter.kit.lines import TrimmedLineFilter, omitted


def _package_path(stripped: str) -> bool:
    """`example.com/inventory/report` or `command-line-arguments`: a line of `go build -v`."""
    if not stripped or " " in stripped or ":" in stripped or stripped.startswith(("#", "-")):
        return False
    return "/" in stripped or stripped.isidentifier() or stripped == "command-line-arguments"


class GoBuild(TrimmedLineFilter):
    name = "go-build"
    match_command = r"^go (build|vet|install)(\s|$)"
    description = "go build/vet: errors with file:line:col under their package, -v noise dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in ("-json", "-n", "-x", "-h", "-help") for a in argv)
        self.verbose = "-v" in argv
        self.packages = 0
        self.shown = False  # a line was shown (else a success says `ok: N packages built`)
        self.progress: dict[str, int] = {}  # `go: downloading` … → lines dropped

    def feed_trimmed(self, line: str, stripped: str):
        if line.startswith(("go: downloading", "go: finding", "go: extracting")):
            kind = " ".join(line.split(" ", 2)[:2])
            self.progress[kind] = self.progress.get(kind, 0) + 1
            return
        if self.verbose and _package_path(stripped):
            self.packages += 1
            return
        self.shown = True
        yield line

    def finish(self, exit_code: int):
        for kind, count in self.progress.items():
            yield omitted(count, f"{kind} lines")
        if self.packages and exit_code == 0 and not self.shown:
            yield f"ok: {self.packages} packages built"
        if self.packages:
            yield omitted(self.packages, "built packages" if exit_code == 0
                          else "packages built before the failure")
