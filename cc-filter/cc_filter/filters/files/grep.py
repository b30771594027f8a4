"""grep / rg: every match, grouped by file, until the output is genuinely large.

`path:12:text` lines become a `path:` line followed by `  12: text` lines, the text exactly as
the file has it (its indentation kept: a method stays inside its class). Up to `MATCH_BUDGET`
matches or `CHAR_BUDGET` characters (~4,000 tokens) every match is shown. Past that budget
the answer is a map: a first line with the totals, then each file with its match count and its
first matches (an even share of `SHOWN_OVER_BUDGET`, at least one), and `... (N matches
omitted)` for the rest of that file — the runner's tee keeps them all and the hint says where.
More than `FILE_LIMIT` files end with `... (N files omitted)`. A line longer than `LINE_LIMIT`
characters is cut to a window around the first occurrence of a literal pattern (or its start)
with `… [N more chars]`, and the answer ends with `... (N long lines truncated)` for them.
Errors (`grep: x: No such file or directory`, `binary file matches`)
come after the matches, unchanged. Never altered: `-c`/`--count`, `-l`/`--files-with-matches`,
`-L`, `--json`, `-q` output; context output (`-A`/`-B`/`-C`), `--heading` and single-file
output are not regrouped: their lines pass as printed (long lines cut) up to the same budget,
then `... (N lines omitted)`.

Memory stays bounded: past the budget only the first matches of each file are held.
"""
import os

from cc_filter.filter import Filter
from cc_filter.lines import omitted, strip_ansi, truncated

MATCH_BUDGET = 200
CHAR_BUDGET = 16_000
SHOWN_OVER_BUDGET = 60
PER_FILE_MAX = 5
FILE_LIMIT = 300
ERROR_LIMIT = 50
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
        self.total = 0
        self.chars = 0  # of the grouped answer so far
        self.over = False  # past the budget: keep only each file's first matches
        self.cut_hidden = 0  # lines of the "cut" mode past the budget
        self.errors: list[str] = []
        self.hidden_errors = 0
        self.cut_shown = 0  # long lines shown cut (cut mode; grouped: counted when shown)
        self.dropped = False

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
            # the first ":<digits>:" after a non-empty path
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

    def _cut_mode(self, line: str):
        if self.over:
            self.cut_hidden += 1
            return []
        prefix, text = self._prefix(line)
        text, cut = cut_line(text, self.args.pattern, self.args.ignore_case)
        self.dropped = self.dropped or cut
        self.cut_shown += cut
        self.total += 1
        self.chars += len(prefix) + len(text) + 1
        if self.total > MATCH_BUDGET * 2 or self.chars > CHAR_BUDGET:
            self.over = True  # this line still shows: the budget is what came before it
        return [prefix + text]

    def feed(self, line):
        args = self.args
        line = strip_ansi(line)
        if args.mode == "untouched":
            return [line]
        if args.mode == "cut":
            return self._cut_mode(line)
        parts = self._split(line)
        if parts is None or parts[0].startswith(("grep: ", "rg: ")) or (
                line.startswith(("grep: ", "rg: ", "Binary file "))):
            if len(self.errors) < ERROR_LIMIT:
                self.errors.append(line)
            else:
                self.hidden_errors += 1
            return []
        path, number, text = parts
        self.total += 1
        entry = self.files.get(path)
        if entry is None:
            if len(self.files) >= FILE_LIMIT:
                self.hidden_files += 1
                self.hidden_matches += 1
                return []
            entry = self.files[path] = [[], 0]
            self.chars += len(path) + 2
        entry[1] += 1
        if self.over and len(entry[0]) >= PER_FILE_MAX:
            return []
        text, cut = cut_line(text.rstrip(), args.pattern, args.ignore_case)
        self.dropped = self.dropped or cut
        shown = f"{number}: {text}" if number else text
        entry[0].append((shown, cut))
        if not self.over:
            self.chars += len(shown) + 3
            if self.total > MATCH_BUDGET or self.chars > CHAR_BUDGET:
                self._go_over()
        return []

    def _go_over(self) -> None:
        """Past the budget: from now on only each file's first matches are kept."""
        self.over = True
        for entry in self.files.values():
            del entry[0][PER_FILE_MAX:]

    def _cut_marker(self) -> list[str]:
        if not self.cut_shown:
            return []
        return [truncated(self.cut_shown, "long lines")]

    def finish(self, exit_code):
        if self.args.mode == "cut":
            out = self._cut_marker()
            if self.cut_hidden:
                self.dropped = True
                out.insert(0, omitted(self.cut_hidden, "more lines"))
            return out
        if self.args.mode != "group":
            return []
        out = []
        if self.over:
            files = len(self.files) + self.hidden_files
            out.append(f"{self.total} matches in {files} files (over {MATCH_BUDGET} matches: "
                       f"each file's count and first matches shown; all in the full output)")
            share = max(1, min(PER_FILE_MAX, SHOWN_OVER_BUDGET // max(len(self.files), 1)))
        for path, (lines, count) in self.files.items():
            if not self.over:
                out.append(f"{path}:")
                out.extend("  " + l for l, _ in lines)
                self.cut_shown += sum(cut for _, cut in lines)
                continue
            out.append(f"{path}: {count} match{'es' if count != 1 else ''}")
            shown = lines if count <= share + 1 else lines[:share]  # "1 omitted" saves nothing
            out.extend("  " + l for l, _ in shown)
            self.cut_shown += sum(cut for _, cut in shown)
            if count > len(shown):
                self.dropped = True
                out.append("  " + omitted(count - len(shown), "matches"))
        if self.hidden_files:
            self.dropped = True
            out.append(omitted(self.hidden_files, f"files with {self.hidden_matches} matches"))
        out.extend(self.errors)
        if self.hidden_errors:
            self.dropped = True
            out.append(omitted(self.hidden_errors, "error lines"))
        return out + self._cut_marker()
