"""RSpec: each failure with its description, the failing line, expected/got or the exception,
and the project's own frames (`# ./spec/cart_spec.rb:14`); the totals and the rerun list.

A failure like the one before it (same failing line, same frames: a table of examples) is
said in one line, `4) Cart discounts keeps item b at its price: expected: 2, got: 3`. The rerun
list becomes one runnable line in RSpec's own forms for several places of a file,
`rspec ./spec/x_spec.rb:12:22 ./spec/x_spec.rb[1:6:1,1:6:2]` (each description was said
above). Dropped: the
progress dots, blank lines, the `Failures:` and `Failed examples:` headings, `(compared using
==)`, `Finished in …`, the `in 'block (2 levels) in <top (required)>'` of a frame, frames of
gems and Ruby itself (counted after their failure), the code line and carets error_highlight
prints under an exception when the `Failure/Error:` line shows the same code, and the
`Failure/Error:` line and frames of a failure said in one line (the same as above). Counted at
the end: the progress lines, headings and `Finished in …` (`... (2 progress/timing/heading
lines omitted)`), with the notes, code highlights and repeated lines of the failures when
there are any (`... (23 progress, note and repeated lines omitted)`).
Anything outside the failure report (load errors, other formatters' output) passes through."""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

_PROGRESS = LazyPattern(r"^[.F*E]+$")
_HEADER = LazyPattern(r"^\s+\d+\) \S")
_FRAME = LazyPattern(r"^(\s+# (\S+?:\d+))(:in .*)?$")
_RERUN = LazyPattern(r"^(rspec \S+) # ")
_NOTE = LazyPattern(r"^\s*\(compared using [^)]*\)$")
_HEADING = LazyPattern(r"^(Failures|Failed examples):$")
_FINISHED = LazyPattern(r"^\s*Finished in [\d.]+ seconds.*$")


class Rspec(Filter):
    name = "rspec"
    match_command = r"^(rspec|bin/rspec|\./bin/rspec)(\s|$)"
    description = "RSpec: failures with expected/got and spec locations, totals, rerun list"

    def __init__(self, argv):
        super().__init__(argv)
        self.block: list[str] | None = None  # the failure being read: header, then body
        self.previous_signature = None
        self.frames_dropped = 0
        self.rerun: list[str] = []
        self.progress = 0  # progress dots, headings and `Finished in …` lines dropped
        self.details = 0  # notes, code highlights and repeated lines of the failures dropped

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if not line.strip():
            return
        if _NOTE.match(line):
            self.details += 1
            return
        if _PROGRESS.match(line) or _FINISHED.match(line) or _HEADING.match(line):
            self.progress += 1
            return
        if _HEADER.match(line):
            yield from self._close()
            self.block = [line]
            return
        frame = _FRAME.match(line)
        if frame is not None:
            if not frame.group(2).startswith("./"):  # a gem's or Ruby's own frame
                self.frames_dropped += 1
                return
            if self.block is not None:
                line = frame.group(1) + (frame.group(3) or "" if "`block " not in
                                         (frame.group(3) or "") else "")
        if self.block is not None and not line.startswith(" "):
            yield from self._close()
        if self.block is not None:
            self.block.append(line)
            return
        rerun = _RERUN.match(line)
        if rerun is not None:  # one runnable line: `rspec ./a_spec.rb:12 ./a_spec.rb[1:2:1]`
            self.dropped = True
            self.rerun.append(rerun.group(1)[len("rspec "):])
            return
        yield line

    def _close(self):
        block, self.block = self.block, None
        if block is None:
            yield from self._frames()
            return
        header, body = block[0], _without_repeated_code(block[1:])
        self.details += len(block) - 1 - len(body)
        fixed = tuple(x for x in body if x.lstrip().startswith(("Failure/Error:", "# ")))
        varying = [x.strip() for x in body if x.lstrip() and x not in fixed]
        if fixed and fixed == self.previous_signature and len(varying) <= 4:
            self.details += len(fixed)  # the same failing line and frames as above
            yield f"{header.strip()}: {', '.join(varying)}"
        else:
            yield header.strip()
            yield from _compact(body)
        self.previous_signature = fixed
        yield from self._frames()

    def _frames(self):
        if self.frames_dropped:
            yield omitted(self.frames_dropped, "frames of gems and Ruby")
            self.frames_dropped = 0

    def finish(self, exit_code):
        yield from self._close()
        if self.rerun:
            yield "rspec " + " ".join(_merged(self.rerun))
        if self.details:  # one marker: a failed run's answer is short
            yield omitted(self.details + self.progress, "progress, note and repeated lines")
        elif self.progress:
            yield omitted(self.progress, "progress/timing/heading lines")


def _merged(locations: list[str]) -> list[str]:
    """`a:12`, `a:22`, `a[1:6:1]`, `a[1:6:2]` → `a:12:22`, `a[1:6:1,1:6:2]`: RSpec's own forms
    for several lines and several example ids of one file."""
    lines: dict = {}
    ids: dict = {}
    order: list = []
    for location in locations:
        if location.endswith("]") and "[" in location:
            path, _, example = location[:-1].partition("[")
            key = ("ids", path)
            ids.setdefault(path, []).append(example)
        else:
            path, _, number = location.rpartition(":")
            if not number.isdigit():
                key = ("as is", location)
            else:
                key = ("lines", path)
                lines.setdefault(path, []).append(number)
        if key not in order:
            order.append(key)
    out = []
    for kind, path in order:
        if kind == "ids":
            out.append(f"{path}[{','.join(ids[path])}]")
        elif kind == "lines":
            out.append(path + "".join(f":{n}" for n in lines[path]))
        else:
            out.append(path)
    return out


def _without_repeated_code(body: list[str]) -> list[str]:
    """The body without error_highlight's code line + carets when they repeat the code of the
    `Failure/Error:` line (Ruby ≥ 3.1: `@items.map(&:nam).uniq` / `      ^^^^`)."""
    code = next((x.strip()[len("Failure/Error:"):].strip() for x in body
                 if x.lstrip().startswith("Failure/Error:")), None)
    if not code:
        return body
    for i in range(len(body) - 1):
        if body[i].strip() == code and body[i + 1].strip() and not body[i + 1].strip().strip("^~"):
            return body[:i] + body[i + 2:]
    return body


def _compact(body: list[str]) -> list[str]:
    """The body of a failure, indented by two spaces (relative indentation kept: carets stay
    under their code), `expected: …` and `got: …` on one line."""
    indent = min((len(x) - len(x.lstrip()) for x in body if x.strip()), default=0)
    out: list[str] = []
    for line in body:
        text = "  " + line[indent:]
        if out and line.lstrip().startswith("got:") and out[-1].lstrip().startswith("expected:"):
            out[-1] = f"{out[-1]}, {line.strip()}"
            continue
        out.append(text)
    return out
