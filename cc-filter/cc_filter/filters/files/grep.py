"""grep / rg: every match, grouped by file, until the output is genuinely large.

`path:12:text` lines become a `path:` line followed by `  12: text` lines, the text exactly as
the file has it (its indentation kept: a method stays inside its class). While the grouped
answer fits `CHAR_BUDGET` characters (~4,000 tokens) every match is shown. Past that budget
the answer is a map that fills the budget: a first line with the totals and the trigger, then
each file with its match count and, as many as fit, first the matches that stand out
(`cc_filter.kit.standout`: warning and error lines, non-success statuses, lines unlike all the
others — the one WARN among hundreds of look-alike DEBUG matches), then each file's first
matches in turn; `... (N matches omitted)` counts the rest of a file — the runner's tee keeps
them all and the hint says where. More than `FILE_LIMIT` files end with `... (N files
omitted)`. A line longer than `LINE_LIMIT` characters is cut to a window around the first
occurrence of a literal pattern (or its start) with `… [N more chars]`, and the answer ends
with `... (N long lines truncated)` for them. Errors (`grep: x: No such file or directory`,
`binary file matches`) come after the matches, unchanged. Never altered: `-c`/`--count`,
`-l`/`--files-with-matches`, `-L`, `--json`, `-q` output; context output (`-A`/`-B`/`-C`),
`--heading` and single-file output are not regrouped: their lines pass as printed (long lines
cut) up to the same budget, then the lines that stand out among the rest, in place, between
`... (N more lines omitted)` markers.

Memory stays bounded: each file holds at most `HOLD_PER_FILE` matches (`HOLD_TOTAL` in all).
Speed: the runner's chunks go through `feed_lines` in one loop (a cut-mode search past its
budget hands the rest of a chunk to the standout picker whole); the picker looks through the
first `STANDOUT_SCAN` characters of match text (the map's header says where it stopped), and
past it and every budget a file's run of matches is counted at once (`_group_runs`), so a
1M-match search costs a few copies of its output.
"""
from ctxcrl import lean_os as os

from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted, strip_ansi, truncated
from cc_filter.kit.standout import TELLING, Standout

MATCH_BUDGET = 200  # lines of the ungrouped (cut) mode: twice this many at most
CHAR_BUDGET = 16_000
BUDGET_TOKENS = "4,000"  # CHAR_BUDGET in tokens, as the map's first line says it
HOLD_PER_FILE = 400
HOLD_TOTAL = 20_000
STANDOUT_LIMIT = 100  # telling matches remembered for the map (30 in the cut mode)
#: the match text the standout picker looks through (2 MiB: some 40,000 matches); past it the
#: matches are only counted, so a 1M-match search stays near the cost of copying it
STANDOUT_SCAN = 2 << 20
FILE_LIMIT = 300
_BLOCK = 2048  # lines handed to the standout picker at once
ERROR_LIMIT = 50
#: prefix length → a line's start, that many characters (its `path:`), a line number and its
#: colon (`_one_file`); the empty group makes findall return empty strings, not each match
_NUMBERED_AFTER: dict = {}
LINE_LIMIT = 200
WINDOW_BEFORE = 60
WINDOW_AFTER = 140

# options that take a value (so the next word is not the pattern or a path)
_GREP_VALUE = frozenset(("-e", "-f", "-m", "-A", "-B", "-C", "-d", "-D", "--regexp", "--file",
                         "--max-count", "--include", "--exclude", "--exclude-dir", "--label",
                         "--context", "--after-context", "--before-context", "--color",
                         "--colour", "--binary-files", "--devices", "--directories"))
_RG_VALUE = frozenset(("-e", "-f", "-m", "-A", "-B", "-C", "-g", "-t", "-T", "-j", "-M", "-E",
                       "--regexp", "--file", "--max-count", "--glob", "--iglob", "--type",
                       "--type-not", "--threads", "--max-columns", "--encoding", "--context",
                       "--after-context", "--before-context", "--color", "--colors",
                       "--max-depth", "--max-filesize", "--sort", "--sortr", "--type-add",
                       "--ignore-file", "--path-separator", "--pre", "--pre-glob", "--replace",
                       "-r", "--engine", "--field-match-separator", "--field-context-separator"))
_UNTOUCHED_LONG = ("--count", "--files-with-matches", "--files-without-match", "--json",
                   "--quiet", "--silent", "--null", "--count-matches", "--files", "--stats",
                   "--type-list", "--help", "--version", "--null-data")
_UNTOUCHED_SHORT = frozenset("clLqZ")
_CUT_ONLY_LONG = ("--context", "--after-context", "--before-context", "--heading",
                  "--no-filename", "--vimgrep", "--passthru", "--passthrough")
_CUT_ONLY_SHORT = frozenset("ABCh")
_REGEX_CHARS = frozenset("\\^$.*+?()[]{}|")


class GrepArgs:
    """What a grep/rg command line says about the shape of its output."""

    __slots__ = ("rg", "mode", "pattern", "ignore_case", "with_names", "numbers")

    def __init__(self, argv: list[str]):
        self.rg = bool(argv) and os.path.basename(argv[0]) == "rg"  # a pipe has no argv
        value_options = _RG_VALUE if self.rg else _GREP_VALUE
        letters: set[str] = set()
        longs: list[str] = []
        operands: list[str] = []
        pattern = None
        i = 1
        only_operands = False
        while i < len(argv):
            a = argv[i]
            i += 1
            if only_operands or not a.startswith("-") or a == "-":
                operands.append(a)
                continue
            if a == "--":
                only_operands = True
                continue
            if a.startswith("--"):
                name = a.split("=", 1)[0]
                longs.append(name)
                if name in value_options and "=" not in a:
                    value = argv[i] if i < len(argv) else ""
                    i += 1
                    if name in ("--regexp",) and pattern is None:
                        pattern = value
                continue
            # a short cluster: -rn, -e PAT, -A3, -m5
            for j, letter in enumerate(a[1:], 1):
                if f"-{letter}" in value_options:
                    value = a[j + 1:] or (argv[i] if i < len(argv) else "")
                    if not a[j + 1:]:
                        i += 1
                    if letter == "e" and pattern is None:
                        pattern = value
                    letters.add(letter)
                    break
                letters.add(letter)
        if pattern is None and operands and "f" not in letters and "--file" not in longs:
            pattern = operands.pop(0)
        self.pattern = pattern
        self.ignore_case = bool(letters & {"i"}) or "--ignore-case" in longs or (
            self.rg and ("S" in letters or "--smart-case" in longs) and pattern is not None
            and pattern.lower() == pattern)
        if (letters & _UNTOUCHED_SHORT or any(l in _UNTOUCHED_LONG for l in longs)
                or (self.rg and "--files" in longs)):
            self.mode = "untouched"
        elif letters & _CUT_ONLY_SHORT or any(l.startswith(_CUT_ONLY_LONG) for l in longs):
            self.mode = "cut"
        else:
            self.mode = "group"
        recursive = bool(letters & {"r", "R"}) or any(
            l in ("--recursive", "--dereference-recursive") for l in longs)
        searches_dirs = not operands or any(_looks_like_dir(o) for o in operands)
        if self.rg:
            self.with_names = (len(operands) > 1 or searches_dirs
                               or "H" in letters or "--with-filename" in longs)
            self.numbers = "n" in letters or "--line-number" in longs or "--vimgrep" in longs
        else:
            self.with_names = ("H" in letters or "--with-filename" in longs or len(operands) > 1
                               or (recursive and searches_dirs))
            self.numbers = "n" in letters or "--line-number" in longs
        if not self.with_names and self.mode == "group":
            self.mode = "cut"
        # a literal pattern can be found in a long line to centre the cut on it
        if self.pattern and (set(self.pattern) & _REGEX_CHARS) and "F" not in letters \
                and "--fixed-strings" not in longs:
            self.pattern = None


def _looks_like_dir(path: str) -> bool:
    """A directory operand (its matches are printed with file names): one on disk, or a name
    without an extension that is not a file here."""
    if os.path.isdir(path):
        return True
    return "." not in os.path.basename(path.rstrip("/")) and not os.path.isfile(path)


def cut_line(text: str, pattern: str | None, ignore_case: bool) -> tuple[str, bool]:
    """A window of a long line around the match; (text, cut)."""
    if len(text) <= LINE_LIMIT:
        return text, False
    at = -1
    if pattern:
        at = (text.lower().find(pattern.lower()) if ignore_case else text.find(pattern))
    start = max(0, at - WINDOW_BEFORE) if at >= 0 else 0
    end = min(len(text), start + WINDOW_BEFORE + WINDOW_AFTER)
    word = TELLING.search(text)  # a warning or error word stays in the window (a log's level)
    if word is not None and not start <= word.start() < end:
        if word.start() < start:
            start = max(0, word.start() - 20)
        end = min(len(text), max(end, word.end() + 20))
    shown = text[start:end]
    before, after = start, len(text) - end
    if before:
        shown = f"[{before} chars] …" + shown
    if after:
        shown += f" … [{after} more chars]"
    return shown, True


class Grep(Filter):
    name = "grep"
    match_command = r"^(grep|egrep|fgrep|rg)(\s|$)"
    description = "grep/rg: every match grouped by file (a counted map past a large budget)"

    def __init__(self, argv):
        super().__init__(argv)
        self.args = GrepArgs(argv)
        self.files: dict[str, list] = {}  # path -> [shown lines, count], in first-seen order
        self.hidden_files = 0
        self.hidden_matches = 0  # matches of files past FILE_LIMIT
        self.last_hidden = None  # the last of those files
        self.total = 0
        self.chars = 0  # of the grouped answer so far
        self.over = False  # past the budget: keep only each file's first matches
        self.cut_hidden = 0  # lines of the "cut" mode past the budget
        self.errors: list[str] = []
        self.hidden_errors = 0
        self.cut_shown = 0  # long lines shown cut (cut mode; grouped: counted when shown)
        self.dropped = False
        self.held = 0  # matches held for the map
        self.all_chars = 0  # of the whole grouped answer
        self.standout = Standout(STANDOUT_LIMIT if self.args.mode == "group" else 30,
                                 neighbours=0, scan_chars=STANDOUT_SCAN)
        self._pending: tuple = ([], [])  # lines (and payloads) not yet handed to it
        self._pending_first = 0

    def _prefix(self, line: str) -> tuple[str, str]:
        """(`path:12:` or `12:`, the rest) — kept whole when a long line is cut."""
        if len(line) <= LINE_LIMIT:
            return "", line
        if self.args.with_names:
            parts = self._split(line)
            if parts is not None and len(parts[0]) < 300:
                path, number, text = parts
                head = f"{path}:{number}:" if number else f"{path}:"
                return head, text
            return "", line
        i = 0
        while i < len(line) and line[i].isdigit():
            i += 1
        if 0 < i < len(line) and line[i] in ":-":
            return line[:i + 1], line[i + 1:]
        return "", line

    def _split(self, line: str):
        """`path:12:text` → (path, "12", text); None when the line is not a match line."""
        if self.args.numbers:
            # the first ":<digits>:" after a non-empty path; most often the first two colons
            colon = line.find(":", 1)
            if colon > 0:
                end = line.find(":", colon + 2)
                if end > 0 and line[colon + 1:end].isdigit():
                    return line[:colon], line[colon + 1:end], line[end + 1:]
            start = 1
            while True:
                colon = line.find(":", start)
                if colon < 0:
                    return None
                end = colon + 1
                while end < len(line) and line[end].isdigit():
                    end += 1
                if end > colon + 1 and end < len(line) and line[end] == ":":
                    return line[:colon], line[colon + 1:end], line[end + 1:]
                start = colon + 1
        colon = line.find(":", 1)
        if colon < 0:
            return None
        return line[:colon], "", line[colon + 1:]

    def _flush(self) -> None:
        texts, payloads = self._pending
        if texts:
            self.standout.add_block(self._pending_first, texts, payloads)
            self._pending = ([], [])

    def _cut_mode(self, line: str):
        """A line of the cut mode while under the budget (`_cut_lines` takes those past it)."""
        prefix, text = self._prefix(line)
        text, cut = cut_line(text, self.args.pattern, self.args.ignore_case)
        self.dropped = self.dropped or cut
        self.cut_shown += cut
        self.total += 1
        self.chars += len(prefix) + len(text) + 1
        if self.total > MATCH_BUDGET * 2 or self.chars > CHAR_BUDGET:
            self.over = True  # this line still shows: the budget is what came before it
        return [prefix + text]

    def feed_lines(self, lines: list[str]) -> list[str]:
        """A chunk of lines (the runner's; `feed` is one line of it): in one loop with the
        state in locals, and a cut-mode search past its budget hands the rest of the chunk to
        the standout picker at once — a 1M-match search costs about what it did before the
        picker."""
        joined = "\n".join(lines)
        if "\x1b" in joined or "\r" in joined:
            lines = [strip_ansi(line) for line in lines]
        mode = self.args.mode
        if mode == "untouched":
            return list(lines)
        if mode == "cut":
            return self._cut_lines(lines)
        self._group_lines(lines)
        return []

    def feed(self, line):
        return self.feed_lines([line])

    def _cut_lines(self, lines: list[str]) -> list[str]:
        out: list[str] = []
        for at, line in enumerate(lines):
            if self.over:
                rest = lines[at:]
                pending = self._pending
                if not pending[0]:
                    self._pending_first = self.cut_hidden + 1
                self.cut_hidden += len(rest)
                pending[0].extend(rest)
                pending[1].extend(rest)
                if len(pending[0]) >= _BLOCK:
                    self._flush()
                break
            out.extend(self._cut_mode(line))
        return out

    def _group_lines(self, lines: list[str]) -> None:
        """Each line under its file; past every budget, whole runs of one file at once."""
        if self.over and self.held >= HOLD_TOTAL:
            self._group_runs(lines)
        else:
            self._group_each(lines)

    def _group_runs(self, lines: list[str]) -> None:
        """Once the map is decided and its matches held (`over`, HOLD_TOTAL), a match of a file
        past FILE_LIMIT is only counted among the omitted, and any other, once the standout
        picker's window is behind, only counted under its file. A file's matches come
        together, so a run of lines that begin with the same `path:` (and, with -n, a line
        number) is counted at once: its end found by bisection and checked by one count over
        the run's text, its size by `map` — at C speed, where a loop judges each line in
        Python. What is not such a run (an error line, a file that is still held) takes the
        one-line way, `_group_each`: the answer is the same either way
        (tests/cc_filter/filters/test_files_filters.py)."""
        from bisect import bisect_left

        numbers, files, standout = self.args.numbers, self.files, self.standout
        i, n = 0, len(lines)
        while i < n:
            line = lines[i]
            parts = self._split(line)
            if parts is None or line.startswith(("grep: ", "rg: ", "Binary file ")) \
                    or parts[0] in ("grep", "rg"):
                self._group_each(lines[i:i + 1])
                i += 1
                continue
            path = parts[0]
            prefix = path + ":"
            entry = files.get(path)
            hidden = entry is None and len(files) >= FILE_LIMIT
            end = i + 1 + bisect_left(range(i + 1, n), True,
                                      key=lambda k: not lines[k].startswith(prefix))
            run = lines[i:end]
            if not self._one_file(run, prefix):
                self._group_each(run[:1])  # another file's lines among them: one by one
                i += 1
                continue
            if not hidden:
                if not standout.past_window():
                    self._group_each(run)  # matches the picker still looks through
                    i = end
                    continue
                self._flush()  # past the window: what it was handed is only counted
            k = len(run)
            first = self.total + 1
            self.total += k
            if hidden:
                if path != self.last_hidden:
                    self.hidden_files += 1
                    self.last_hidden = path
                self.hidden_matches += k
            else:
                lengths = list(map(len, map(str.rstrip, run)))
                if max(lengths) - len(prefix) > LINE_LIMIT:  # a long text: counted as cut
                    self.total -= k
                    self._group_each(run)
                    i = end
                    continue
                if entry is None:
                    entry = files[path] = [[], 0]
                    self.chars += len(path) + 2
                entry[1] += k
                self.chars += sum(lengths) - k * (len(prefix) + (1 if numbers else 0) - 5)
                standout.count_past(first, k)
            i = end

    def _one_file(self, run: list[str], prefix: str) -> bool:
        """Does every line of `run` begin with `prefix` (and, with -n, a line number and a
        colon after it)? One count over the run's text, and with -n one regex pass that steps
        over each line's prefix (the lines hold no newline, so `.` cannot leave a line)."""
        text = "\n" + "\n".join(run)
        if text.count("\n" + prefix) != len(run):
            return False
        return not self.args.numbers or len(_numbered_after(len(prefix)).findall(text)) == len(run)

    def _group_each(self, lines: list[str]) -> None:
        files, numbers, split = self.files, self.args.numbers, self._split
        texts, payloads = self._pending
        for line in lines:
            parts = None
            if numbers:  # the common `path:12:text`, without a call
                colon = line.find(":", 1)
                if colon > 0:
                    end = line.find(":", colon + 2)
                    if end > 0 and line[colon + 1:end].isdigit():
                        parts = line[:colon], line[colon + 1:end], line[end + 1:]
            if parts is None:
                parts = split(line)
            if parts is None or line.startswith(("grep: ", "rg: ", "Binary file ")):
                if len(self.errors) < ERROR_LIMIT:
                    self.errors.append(line)
                else:
                    self.hidden_errors += 1
                continue
            path, number, text = parts
            self.total += 1
            entry = files.get(path)
            if entry is None:
                if len(files) >= FILE_LIMIT:
                    if path != self.last_hidden:  # a file's matches come together
                        self.hidden_files += 1
                        self.last_hidden = path
                    self.hidden_matches += 1
                    continue
                entry = files[path] = [[], 0]
                self.chars += len(path) + 2
            entry[1] += 1
            text = text.rstrip()
            if len(entry[0]) < HOLD_PER_FILE and self.held < HOLD_TOTAL:
                match = self._match(number, text)
                entry[0].append(match)
                self.held += 1
                self.chars += len(match[1]) + 3
            else:  # not all held: the answer must be the counted map
                self.over = True
                self.chars += min(len(text), LINE_LIMIT) + len(number) + 5
            if self.chars > CHAR_BUDGET:
                self.over = True
            if not texts:
                self._pending_first = self.total
            texts.append(text)
            payloads.append((path, number, text, self.total))
            if len(texts) >= _BLOCK:
                self._flush()
                texts, payloads = self._pending

    def _match(self, number: str, text: str, seq: int | None = None) -> tuple:
        """(its place among the matches, `12: text` with a long text cut, cut or not)."""
        shown, cut = cut_line(text, self.args.pattern, self.args.ignore_case)
        self.dropped = self.dropped or cut
        return (self.total if seq is None else seq,
                f"{number}: {shown}" if number else shown, cut)

    def _unscanned(self) -> str:
        """What the header says when the standout picker's window ended before the matches."""
        at = self.standout.unscanned_from
        if at is None:
            return ""
        return (f"; matches past the first {at - 1:,} were not looked through for those that "
                "stand out")

    def _map(self) -> list[str]:
        """Past the budget: per file its count, then as many matches as fill the budget —
        first those that stand out, then each file's first ones in turn."""
        files = len(self.files) + self.hidden_files
        out = [f"{self.total} matches in {files} files (grouped, about "
               f"{(self.chars + 3) // 4:,} tokens: over the {BUDGET_TOKENS}-token budget; each "
               "file's count, then the matches that stand out and the first ones, as many as "
               f"fit; all in the full output{self._unscanned()})"]
        # the first line, each file's `path: N matches` line and its `... (N matches omitted)`
        used = len(out[0]) + 1 + sum(len(path) + 2 * len(str(entry[1])) + 37
                                     for path, entry in self.files.items())
        chosen: dict[str, dict] = {path: {} for path in self.files}

        def take(path, match) -> bool:
            nonlocal used
            if match[0] in chosen[path]:
                return True
            cost = len(match[1]) + 3
            if used + cost > CHAR_BUDGET:
                return False
            chosen[path][match[0]] = match
            used += cost
            return True

        for _, (path, number, text, seq) in self.standout.picks():
            if path in chosen and not take(path, self._match(number, text, seq)):
                break
        held = [(path, entry[0]) for path, entry in self.files.items()]
        depth, full = 0, False
        while not full and any(depth < len(matches) for _, matches in held):
            for path, matches in held:
                if depth < len(matches) and not take(path, matches[depth]):
                    full = True
                    break
            depth += 1
        for path, (_, count) in self.files.items():
            out.append(f"{path}: {count} match{'es' if count != 1 else ''}")
            shown = [chosen[path][seq] for seq in sorted(chosen[path])]
            out.extend("  " + line for _, line, _ in shown)
            self.cut_shown += sum(cut for _, _, cut in shown)
            if count > len(shown):
                self.dropped = True
                out.append("  " + omitted(count - len(shown), "matches"))
        return out

    def _cut_marker(self) -> list[str]:
        if not self.cut_shown:
            return []
        return [truncated(self.cut_shown, "long lines")]

    def _cut_rest(self) -> list[str]:
        """The cut mode's lines past the budget: those that stand out, in place, between
        markers counting the others."""
        out, last = [], 0
        for index, line in self.standout.picks():
            if index - last > 1:
                out.append(omitted(index - last - 1, "more lines"))
            prefix, text = self._prefix(line)
            text, cut = cut_line(text, self.args.pattern, self.args.ignore_case)
            self.cut_shown += cut
            out.append(prefix + text)
            last = index
        if self.cut_hidden > last:
            out.append(omitted(self.cut_hidden - last, "more lines"))
        return out

    def finish(self, exit_code):
        self._flush()
        if self.args.mode == "cut":
            out = []
            if self.cut_hidden:
                self.dropped = True
                out = self._cut_rest()
            return out + self._cut_marker()
        if self.args.mode != "group":
            return []
        if self.over:
            out = self._map()
        else:
            out = []
            for path, (matches, _) in self.files.items():
                out.append(f"{path}:")
                out.extend("  " + line for _, line, _ in matches)
                self.cut_shown += sum(cut for _, _, cut in matches)
        if self.hidden_files:
            self.dropped = True
            out.append(omitted(self.hidden_files, f"files with {self.hidden_matches} matches"))
        out.extend(self.errors)
        if self.hidden_errors:
            self.dropped = True
            out.append(omitted(self.hidden_errors, "error lines"))
        return out + self._cut_marker()


def _numbered_after(length: int):
    pattern = _NUMBERED_AFTER.get(length)
    if pattern is None:
        import re

        pattern = _NUMBERED_AFTER[length] = re.compile("\n.{%d}[0-9]+:()" % length)
    return pattern
