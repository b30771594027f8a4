"""prisma validate / format / generate: each schema error on one line with its file:line.

Prisma prints every error as `error: <message>`, then `  -->  prisma/schema.prisma:24` and the
quoted schema lines around it. The filter prints `prisma/schema.prisma:24: error: <message>`
(the location is what the agent opens; the quoted lines are in the file), and a message that
differs from an earlier one only in its quoted names (`Type "Tag" is neither a built-in type…`
after `Type "Team" …`) keeps its names and says `(as above)`. The CLI's banners (`Prisma schema
loaded from`, `[Context: validate]`, `Prisma CLI Version`) go; everything else stays, the error
code and `Validation Error Count: N` included. The quoted schema lines and the banners are
counted at the end (`... (14 excerpt/banner lines omitted)`); `Prisma schema loaded
from <file>` alone is not (the answer names the file: `The schema at <file> is valid`, or
`<file>:24: error: …`).
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

_FINDING = LazyPattern(r"(error|warning): (.*)$")
_LOCATION = LazyPattern(r"\s+-->\s+(\S+)\s*$")
_EXCERPT = LazyPattern(r"\s*\d*\s*\|( .*)?$")
_QUOTED = LazyPattern(r'"[^"]*"')
_BANNERS = ("Prisma schema loaded from ", "[Context: ", "Prisma CLI Version : ",
            "Environment variables loaded from ")


class Prisma(Filter):
    name = "prisma"
    match_command = r"^prisma (validate|format|generate)(\s|$)"
    description = ("prisma validate/format/generate: each schema error as `file:line: error: "
                   "message`, the error code and count; quoted schema lines and banners dropped")

    def __init__(self, argv):
        super().__init__(argv)
        self.pending = None          # (severity, message) waiting for its --> line
        self.seen = set()            # message templates (quoted names blanked) already shown
        self.excerpts = 0            # quoted schema lines and banners dropped

    def _text(self, severity, message):
        template = _QUOTED.sub('""', message)
        if template not in self.seen:
            self.seen.add(template)
            return f"{severity}: {message}"
        names = list(_QUOTED.compiled.finditer(message))
        head = message[:names[-1].end()] if names else ""
        return f"{severity}: {head} (as above)" if head else f"{severity}: (as above)"

    def _flush(self):
        if self.pending is not None:
            severity, message = self.pending
            self.pending = None
            yield self._text(severity, message)

    def feed(self, line):
        line = strip_ansi(line)
        found = _FINDING.match(line)
        if found:
            yield from self._flush()
            self.pending = (found.group(1), found.group(2))
            return
        where = _LOCATION.match(line)
        if where and self.pending is not None:
            severity, message = self.pending
            self.pending = None
            yield f"{where.group(1)}: {self._text(severity, message)}"
            return
        if not line.strip():
            return
        if _EXCERPT.match(line) or line.startswith(_BANNERS):
            if not line.startswith(_BANNERS[0]):  # `loaded from <file>`: the answer names it
                self.excerpts += 1
            return
        yield from self._flush()
        yield line

    def finish(self, exit_code):
        out = list(self._flush())
        if self.excerpts:
            out.append(omitted(self.excerpts, "excerpt/banner lines"))
        return out
