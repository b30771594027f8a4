"""vite build: the error with its code frame, warnings, `✓ N modules transformed`, `✓ built in`,
and the emitted files — the five largest as vite printed them, the rest counted with their
total size. Dropped: `transforming...` / `rendering chunks...` / `computing gzip size...`,
`error during build:` / `Build failed with 1 error:` (the `✗ Build failed` line and the error
say it), the `vite v8.4.0 building …` banner, blank lines, and the code frame's empty gutter lines,
underlines and closing corner (its labels stay), and the stack frames of vite and its bundler (counted)."""
from cc_filter.filter import Filter
from cc_filter.lines import LazyPattern, omitted, strip_ansi

_ASSET = LazyPattern(r"^(\S+)\s+([\d.,]+) (kB|B|MB)\b")
_STAGE = LazyPattern(r"^((transforming|rendering chunks|computing gzip size)\.\.\.|"
                     r"\s*│\s*|Build failed with \d+ errors?:|error during build:|"
                     # the code frame's drawing: an underline without words, its closing corner
                     r"\s*│\s+[─┬]+\s*|─+╯|vite v[\d.]+ building .*)$")
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

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if not line.strip() or _STAGE.match(line):
            return
        if _TOOL_FRAME.match(line):
            self.frames += 1
            return
        if line in ("  errors: [Getter/Setter]", "}") and self.frames:
            return
        m = _ASSET.match(line)
        if m is not None and ("│" in line or "|" in line or "gzip" in line or
                              m.group(1).startswith("dist")):
            size = float(m.group(2).replace(",", "")) * _UNIT[m.group(3)]
            self.assets.append((size, line))
            return
        if self.frames:
            yield omitted(self.frames, "stack frames of vite and its bundler")
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
            yield f"+{len(rest)} more files ({total:.2f} kB)"

    def finish(self, exit_code):
        if self.frames:
            yield omitted(self.frames, "stack frames of vite and its bundler")
            self.frames = 0
        yield from self._assets()
