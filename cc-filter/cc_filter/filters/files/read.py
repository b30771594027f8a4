"""read: `cat`/`head`/`tail`/`sed -n` of files — verbatim up to `VERBATIM_LIMIT` lines (what
Claude Code's own Read tool returns by default: an agent reading a file to edit it gets it in
one call), else head + tail.

A longer output keeps its first `HEAD` lines (printed as they arrive) and its last `TAIL`
lines around one marker that names the omitted range and the exact command that prints it:
`... lines 101–870 omitted (sed -n '101,870p' data/app.log)` — for `tail` or several files,
`tail -n 500 app.log | sed -n '101,470p'`. A file that reads like a log (most of its first
lines start with a timestamp or a level: `standout.looks_like_log`) keeps, from the cut
middle, the lines that stand out first (`cc_filter.kit.standout`: warning and error lines with a
neighbour each side, non-success statuses, lines unlike all the others), in place, each gap
around them its own marker with its own `sed -n` range; a log past the picker's window (its
first 8 MB) says where it stopped looking. Source code keeps head and tail. A line longer than `LINE_LIMIT` characters is cut
with `… [N more chars]` (the Read tool's bound too). Memory stays bounded (`CappedLines`: the
tail is a rolling window).

Only the plain forms are touched: `cat FILE…`, `head`/`tail` with `-n N`/`-N`/`--lines=N`
(`-q`/`-v` too), `sed -n 'A,Bp' FILE` (one range, printed: its marker names the range in the
file's own line numbers). Anything else — other options (`cat -A`, `head -c`), `tail -f`,
other sed scripts, reading stdin — passes through unchanged.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import CappedLines, strip_ansi
from cc_filter.kit.standout import Standout, looks_like_log

VERBATIM_LIMIT = 2000
HEAD = 200
TAIL = 50
LINE_LIMIT = 2000
#: telling lines kept from a log's cut middle (each with a neighbour before and after)
STANDOUT_LIMIT = 40
#: first lines that decide whether the output reads like a log
LOG_SAMPLE = 50
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+/@%,=:")


def _quote(word: str) -> str:
    if word and all(c in _SAFE for c in word):
        return word
    return "'" + word.replace("'", "'\\''") + "'"


def sed_range(argv: list[str]):
    """`sed -n 'A,Bp' FILE` (or `-n Ap`, `--quiet`, `-n -e 'A,Bp'`) → (FILE, A); None for any
    other sed command."""
    words = argv[1:]
    quiet = False
    script = None
    files = []
    i = 0
    while i < len(words):
        w = words[i]
        i += 1
        if w in ("-n", "--quiet", "--silent"):
            quiet = True
        elif w in ("-e", "--expression") and i < len(words) and script is None:
            script = words[i]
            i += 1
        elif w.startswith("-"):
            return None
        elif script is None:
            script = w
        else:
            files.append(w)
    if not quiet or script is None or len(files) != 1 or not script.endswith("p"):
        return None
    first, _, last = script[:-1].partition(",")
    if not first.isdigit() or (last and not last.isdigit() and last != "$"):
        return None
    return files[0], int(first)


def parse_read(argv: list[str]):
    """(files, plain) — plain is False for any form this filter must leave alone."""
    program = argv[0].rsplit("/", 1)[-1]
    if program == "sed":
        found = sed_range(argv)
        return ([found[0]], True) if found else ([], False)
    files: list[str] = []
    i = 1
    operands_only = False
    while i < len(argv):
        a = argv[i]
        i += 1
        if operands_only or not a.startswith("-") or a == "-":
            if a == "-":
                return files, False
            files.append(a)
            continue
        if a == "--":
            operands_only = True
            continue
        if program == "cat":
            return files, False
        if a in ("-n", "--lines") and i < len(argv):
            i += 1
            continue
        if a.startswith("--lines=") or a in ("-q", "-v", "--quiet", "--silent", "--verbose"):
            continue
        if a[1:].isdigit() or (a.startswith("-n") and a[2:].lstrip("+-").isdigit()):
            continue
        return files, False
    return files, bool(files)


class Read(Filter):
    name = "read"
    match_command = r"^(cat|head|tail|sed)(\s|$)"
    description = "cat/head/tail/sed -n: verbatim up to 2,000 lines, else head + tail with the sed command for the rest"

    def __init__(self, argv):
        super().__init__(argv)
        self.files, self.plain = parse_read(argv)
        self.lines = CappedLines(VERBATIM_LIMIT, HEAD, TAIL)
        self.dropped = False
        self.log: bool | None = None  # None: not decided yet (LOG_SAMPLE lines)
        self._sample: list[str] = []
        self.standout = Standout(STANDOUT_LIMIT)

    def _watch(self, lines: list[str], first: int) -> None:
        """Show the standout picker lines `first`, `first`+1 … (1-based) once the output reads
        like a log; only those past the head, which is shown anyway."""
        if self.log is None:
            self._sample.extend(lines[:LOG_SAMPLE - len(self._sample)])
            if len(self._sample) < LOG_SAMPLE:
                return  # a shorter output is never cut
            self.log = looks_like_log(self._sample)
            self._sample = []
        if not self.log:
            return
        skip = max(HEAD + 1 - first, 0)
        if skip >= len(lines):
            return
        block = lines[skip:] if skip else lines
        if self.standout.past_window():
            self.standout.count_past(first + skip, len(block))
            return
        texts = block  # judged without colour: `\x1b[33mWARN` is a WARN (shown as it is)
        if "\x1b" in "\n".join(block):
            texts = [strip_ansi(line) for line in block]
        self.standout.add_block(first + skip, texts, block)

    def _cut(self, line: str) -> str:
        if len(line) <= LINE_LIMIT:
            return line
        self.dropped = True
        return f"{line[:LINE_LIMIT]} … [{len(line) - LINE_LIMIT} more chars]"

    def feed(self, line):
        if not self.plain:
            return [line]
        self.lines.add(line)
        self._watch([line], self.lines.count)
        return [self._cut(line)] if self.lines.count <= HEAD else []

    def feed_lines(self, lines):
        if not self.plain:
            return lines
        room = HEAD - self.lines.count
        self._watch(lines, self.lines.count + 1)
        self.lines.extend(lines)
        return [self._cut(line) for line in lines[:room]] if room > 0 else []

    def _hint(self, first: int, last: int) -> str:
        program = self.argv[0].rsplit("/", 1)[-1]
        if program == "sed":  # in the file's own line numbers
            offset = sed_range(self.argv)[1] - 1
            return f"sed -n '{first + offset},{last + offset}p' {_quote(self.files[0])}"
        sed = f"sed -n '{first},{last}p'"
        if len(self.files) == 1 and program in ("cat", "head"):
            return f"{sed} {_quote(self.files[0])}"
        return " ".join(_quote(a) for a in self.argv) + " | " + sed

    def finish(self, exit_code):
        if not self.plain:
            return []
        head, left_out, tail = self.lines.parts()
        rest = [self._cut(line) for line in head[HEAD:]]  # the first HEAD are printed already
        if not self.lines.capped:
            return rest
        self.dropped = True
        first, last = HEAD + 1, HEAD + left_out
        middle = []
        if self.log:
            for index, line in self.standout.picks():
                if index > last:
                    break
                if index > first:
                    middle.append(self._marker(first, index - 1))
                middle.append(self._cut(line))
                first = index + 1
        unscanned = self.standout.unscanned_from if self.log else None
        if unscanned is not None and first < unscanned <= last:  # past the window: say so
            middle.append(self._marker(first, unscanned - 1))
            first = unscanned
        if first <= last:
            middle.append(self._marker(first, last, unscanned is not None and first >= unscanned))
        return rest + middle + [self._cut(line) for line in tail]

    def _marker(self, first: int, last: int, unscanned: bool = False) -> str:
        if unscanned:  # past the standout picker's window
            return (f"... lines {first}–{last} omitted, not looked through for warnings "
                    f"(past the first {self.standout.scan_chars >> 20} MB; {self._hint(first, last)})")
        return f"... lines {first}–{last} omitted ({self._hint(first, last)})"
