"""vite build: the error with its code frame, warnings, `✓ N modules transformed`, `✓ built in`,
and the emitted files — the five largest as vite printed them, the rest counted with their
total size (`+12 more files (1140 B)`). Dropped: `transforming...` / `rendering chunks...` /
`computing gzip size...` and the `vite v8.4.0 building …` banner, `error during build:` /
`Build failed with 1 error:` (the `✗ Build failed` line and the error say it), blank lines, the
code frame's empty gutter lines, underlines and closing corner (its labels stay), and the stack
frames of vite and its bundler with the rest of its error object. Counted at the end, one
marker per kind (`... (4 banner/stage lines omitted)`, `code-frame drawing lines`, `stack
frames of vite and its bundler`), in a failed build one for all."""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

_ASSET = LazyPattern(r"^(\S+)\s+([\d.,]+) (kB|B|MB)\b")
_STAGE = LazyPattern(r"^((transforming|rendering chunks|computing gzip size)\.\.\.|"
                     r"vite v[\d.]+ building .*)$")
# said by the `✗ Build failed` line and the error itself; an empty gutter line: not counted
_SAID = LazyPattern(r"^(\s*│\s*|Build failed with \d+ errors?:|error during build:)$")
# the code frame's drawing: an underline without words, its closing corner
_DRAWING = LazyPattern(r"^(\s*│\s+[─┬]+\s*|─+╯)$")
_TOOL_FRAME = LazyPattern(r"^\s+at .*(node_modules|node:internal)")
_SHOWN_ASSETS = 5
_UNIT = {"B": 1 / 1000, "kB": 1.0, "MB": 1000.0}


class Vite(Filter):
    name = "vite"
    match_command = r"^vite build(\s|$)"
    description = "vite build: errors with their code frame, warnings, the largest files, totals"

    def __init__(self, argv):
        super().__init__(argv)
        self.assets: list[tuple[float, str]] = []
        self.frames = 0
        self.counts: dict[str, int] = {}

    def _count(self, kind: str) -> None:
        self.counts[kind] = self.counts.get(kind, 0) + 1

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if not line.strip() or _SAID.match(line):
            self.dropped = True
            return
        if _STAGE.match(line):
            self._count("banner/stage lines")
            return
        if _DRAWING.match(line):
            self._count("code-frame drawing lines")
            return
        if _TOOL_FRAME.match(line) or (
                line in ("  errors: [Getter/Setter]", "}") and self.frames):
            self.frames += 1
            self._count("stack frames of vite and its bundler")
            return
        m = _ASSET.match(line)
        if m is not None and ("│" in line or "|" in line or "gzip" in line or
                              m.group(1).startswith("dist")):
            size = float(m.group(2).replace(",", "")) * _UNIT[m.group(3)]
            self.assets.append((size, line))
            return
        self.frames = 0
        if line.startswith("✓ built in") or line.startswith("built in"):
            yield from self._assets()
        yield line

    def _assets(self):
        assets, self.assets = self.assets, []
        if not assets:
            return
        largest = sorted(assets, key=lambda a: -a[0])[:_SHOWN_ASSETS]
        keep = {id(a) for a in largest}
        for asset in assets:  # in vite's order
            if id(asset) in keep:
                yield asset[1]
        rest = [a for a in assets if id(a) not in keep]
        if rest:
            total = sum(a[0] for a in rest)
            self.dropped = True  # the size in bytes keeps `+N more files (…)` a cap marker
            yield f"+{len(rest)} more files ({round(total * 1000)} B)"

    def finish(self, exit_code):
        yield from self._assets()
        if exit_code != 0 and len(self.counts) > 1:
            yield omitted(sum(self.counts.values()), "banner, stage, drawing and stack lines")
            return
        for kind, n in self.counts.items():
            yield omitted(n, kind)
