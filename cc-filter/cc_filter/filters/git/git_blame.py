"""git blame: one header per run of lines from the same commit — `<commit> <author> <date>
lines 11-20:` (author and date only the first time a commit shows up) — then the run's code;
every commit, author, date and line range kept. A run longer than RUN_LIMIT lines shows its
first and last lines around a counted marker (the code itself is in the file; the tee file
keeps the whole blame). The time of day and the zone of each line's annotation go: one
`... (N blame lines: time of day, zone truncated)` at the end counts the lines shown so. Lines
of another format (`--porcelain`, `-s`, `-e`, `-t`) pass through as they are."""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, truncated

RUN_LIMIT = 8
RUN_HEAD, RUN_TAIL = 3, 2
_LINE = LazyPattern(r"^(\^?[0-9a-f]{7,40}) (?:(\S+) +)?\((.*?) +(\d{4}-\d\d-\d\d) "
                    r"\d\d:\d\d:\d\d [+-]\d{4} +(\d+)\) ?(.*)$")


class GitBlame(Filter):
    name = "git-blame"
    match_command = r"^git blame(\s|$)"
    description = "git blame: commit, author and date once per run of lines, then the code"

    def __init__(self, argv):
        super().__init__(argv)
        self.block = None  # (head, first number, last number, code lines)
        self.seen: set = set()
        self.cut = 0  # lines shown without their annotation's time of day and zone
        self.dropped = False

    def feed(self, line):
        m = _LINE.match(line)
        if m is None:
            yield from self._flush()
            yield line
            return
        commit, path, author, date, number, code = m.groups()
        head = (commit, path, author, date)
        number = int(number)
        run = self.block
        if run is not None and run[0] == head and number == run[2] + 1:
            run[2] = number
            run[3].append(code)
            return
        yield from self._flush()
        self.block = [head, number, number, [code]]

    def _flush(self):
        run, self.block = self.block, None
        if run is None:
            return
        (commit, path, author, date), first, last, code = run
        who = "" if commit in self.seen else f" {author} {date}"
        self.seen.add(commit)
        where = f" {path}" if path else ""
        lines = f"line {first}" if first == last else f"lines {first}-{last}"
        yield f"{commit}{where}{who} {lines}:"
        if len(code) > RUN_LIMIT:
            self.cut += RUN_HEAD + RUN_TAIL
            yield from code[:RUN_HEAD]
            yield omitted(len(code) - RUN_HEAD - RUN_TAIL)
            yield from code[-RUN_TAIL:]
        else:
            self.cut += len(code)
            yield from code

    def finish(self, exit_code):
        yield from self._flush()
        if self.cut:
            self.dropped = True
            yield truncated(self.cut, "blame lines: time of day, zone")
