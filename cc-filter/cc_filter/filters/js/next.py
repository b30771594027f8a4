"""next build: errors with their code frame, warnings, `✓ Compiled successfully`, the route
table and its legend; the build's progress lines (`Creating an optimized production build`,
`Generating static pages (3/7)`, `Collecting page data`, `Finalizing page optimization`,
config/cache timings) and the `▲ Next.js 16.4.6` banner, `at <unknown> (https://nextjs.org/docs/…)`
frames and the docs link after an error, a caret under a whole line and the code around an
error's line, the `No build cache found` CI advice, and blank lines dropped. A successful
build counts each kind at the end (`... (14 banner/progress/advice lines omitted)`, `docs-link
lines`, `code-frame lines`); a failed one counts them in one marker (`... (8 progress/docs/
code-frame lines omitted)`: its few lines of error are the answer, and a marker per kind would
cost a third of it). `next dev` / `next start` are servers: never matched."""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

_PROGRESS = LazyPattern(
    r"^(\s+(Creating an optimized production build|Running TypeScript|Finished TypeScript in|"
    r"Collecting page data|Generating static pages|Finalizing page optimization|Collecting "
    r"build traces|Linting and checking validity of types|Checking validity of types)|"
    r"✓ (Running next\.config took|Finished writing to filesystem cache|Collecting page data|"
    r"Generating static pages|Linting and checking)|▲ Next\.js )")
_DOCS = LazyPattern(r"^(\s+at <unknown> \(https?://|https://nextjs\.org/docs/messages/)")
# the code around an error's line (the line itself is kept); a caret under the whole line (the
# position is in the `file:line:col` above)
_CODE = LazyPattern(r"^(  +\d+ \|( |$)|\s+\| \^+\s*$)")
_ADVICE = LazyPattern(r"^⚠ No build cache found\.")
_KINDS = ((_PROGRESS, "banner/progress/advice lines"), (_DOCS, "docs-link lines"),
          (_CODE, "code-frame lines"), (_ADVICE, "banner/progress/advice lines"))


class Next(Filter):
    name = "next"
    match_command = r"^next (build|lint)(\s|$)"
    description = "next build: errors with code frames, warnings, the route table"

    def __init__(self, argv):
        super().__init__(argv)
        self.counts: dict[str, int] = {}

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if not line.strip():
            return
        for pattern, kind in _KINDS:
            if pattern.match(line):
                self.counts[kind] = self.counts.get(kind, 0) + 1
                self.dropped = True
                return
        yield line

    def finish(self, exit_code):
        if exit_code == 0:
            for kind, n in self.counts.items():
                yield omitted(n, kind)
        elif self.counts:
            yield omitted(sum(self.counts.values()), "progress/docs/code-frame lines")
