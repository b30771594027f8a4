"""next build: errors with their code frame, warnings, `✓ Compiled successfully`, the route
table and its legend; the build's progress lines (`Creating an optimized production build`,
`Generating static pages (3/7)`, `Collecting page data`, `Finalizing page optimization`,
config/cache timings), blank lines, `at <unknown> (https://nextjs.org/docs/…)` frames, the
docs link after an error, the `▲ Next.js 16.4.6` banner, a caret under a whole line, the code around an error's line and the `No build cache found` CI
advice dropped. `next dev` / `next start` are servers: never matched."""
from cc_filter.filter import Filter
from cc_filter.lines import LazyPattern, strip_ansi

_PROGRESS = LazyPattern(
    r"^(\s+(Creating an optimized production build|Running TypeScript|Finished TypeScript in|"
    r"Collecting page data|Generating static pages|Finalizing page optimization|Collecting "
    r"build traces|Linting and checking validity of types|Checking validity of types)|"
    r"✓ (Running next\.config took|Finished writing to filesystem cache|Collecting page data|"
    r"Generating static pages|Linting and checking)|\s+at <unknown> \(https?://|\s*$|"
    # CI advice, a docs link, the code around an error's line (the line itself is kept)
    r"⚠ No build cache found\.|https://nextjs\.org/docs/messages/|  +\d+ \|( |$)|"
    # a caret under the whole line (the position is in the `file:line:col` above), the banner
    r"\s+\| \^+\s*$|▲ Next\.js )")


class Next(Filter):
    name = "next"
    match_command = r"^next (build|lint)(\s|$)"
    description = "next build: errors with code frames, warnings, the route table"

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if _PROGRESS.match(line):
            return
        yield line
