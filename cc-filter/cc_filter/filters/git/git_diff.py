"""git diff: every file and every change, without the context lines and the header noise.

A unified diff becomes what `git diff -U0` would print: one `@@ -a,b +c,d @@ func` header per
run of changed lines (exact line numbers, git's own function-context rule: the last line before
the change that starts with a letter, `_` or `$`; shown only when it differs from the previous
header's in the same file) followed by its `-`/`+` lines. Each file keeps
one header line, `diff <path>` (`diff <old> -> <new>` for a rename or copy) with what git said
about it in parentheses: `new file`, `deleted`, `renamed 95%`, `mode 100644 -> 100755`,
`binary`; a new or deleted file's mode only when it is not 100644. Dropped, and counted at the
end of the diff by one marker per kind: context lines (`... (N context lines omitted)`) and
the `index …`, `--- a/…`, `+++ b/…` lines (`... (N index/---/+++ lines omitted)`); a binary
patch's lines are counted under its file's line. A side (removed or added lines) of one
change longer than `SIDE_LIMIT` keeps its first `SIDE_HEAD` and last `SIDE_TAIL` lines around
`... (N removed lines omitted)`; the runner's tee keeps the full diff.

Passed through as they are: everything that is not a patch (`--stat`, `--name-only`,
`--name-status`, `--numstat`, `--raw`, `--check` output), word diffs (`--word-diff`,
`--color-words`). With `-U<n>`, `--unified`, `-W`/`--function-context` or
`--inter-hunk-context` the user asked for context: hunks keep git's shape and their context
lines, only capped at `HUNK_LIMIT` lines. ANSI colours (`--color`) are removed.

`DiffCompactor` is shared with git-show, git-log (`-p`) and git-stash (`show -p`).
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import CappedLines, omitted, strip_ansi

SIDE_LIMIT = 30
SIDE_HEAD = 15
SIDE_TAIL = 5
HUNK_LIMIT = 120
HUNK_HEAD = 90
HUNK_TAIL = 20

_OUT, _HEADER, _FILE, _HUNK, _COMBINED, _BINARY = range(6)
_CONTEXT_FLAGS = ("-U", "--unified", "-W", "--function-context", "--inter-hunk-context")
_WORD_FLAGS = ("--word-diff", "--color-words")


def _range(start: int, count: int) -> str:
    return str(start) if count == 1 else f"{start},{count}"


def _parse_range(text: str):
    """`-13,7` → (13, 7); `+5` → (5, 1)."""
    start, _, count = text[1:].partition(",")
    return int(start), int(count) if count else 1


def _split_git_names(rest: str):
    """`a/x.py b/x.py` → ("x.py", "x.py"), also with spaces in the name or no prefixes."""
    n = len(rest)
    if n % 2 == 1:
        half = n // 2
        left, right = rest[:half], rest[half + 1:]
        if rest[half] == " ":
            if left.startswith("a/") and right.startswith("b/") and left[2:] == right[2:]:
                return left[2:], right[2:]
            if left == right:
                return left, right
    left, sep, right = rest.partition(" b/")
    if sep and left.startswith("a/"):
        return left[2:], right
    return rest, rest


def _strip_prefix(name: str) -> str:
    name = name.split("\t", 1)[0]
    if name.startswith(("a/", "b/")):
        return name[2:]
    return name


def _is_funcname(text: str) -> bool:
    return bool(text) and (text[0].isalpha() or text[0] in "_$")


class DiffCompactor:
    """Streams diff lines (`feed` → output lines); lines outside a diff pass unchanged."""

    __slots__ = ("keep_context", "state", "old_name", "new_name", "tags", "header_done",
                 "old_pos", "new_pos", "rem_old", "rem_new", "func", "block_old", "block_new",
                 "removed", "added", "hunk", "combined_width", "binary_lines", "next_func",
                 "shown_func", "counts",
                 "dropped")

    def __init__(self, keep_context: bool = False):
        self.keep_context = keep_context
        self.state = _OUT
        self.dropped = False
        self.removed: CappedLines | None = None
        self.added: CappedLines | None = None
        self.hunk: CappedLines | None = None
        self.binary_lines = 0
        self.next_func: str | None = None
        #: lines left out, counted: [context lines, index/---/+++ lines]
        self.counts = [0, 0]

    @property
    def in_diff(self) -> bool:
        return self.state != _OUT

    # -- file headers ------------------------------------------------------------------------
    def _start_file(self, line: str) -> None:
        if line.startswith("diff --git "):
            self.old_name, self.new_name = _split_git_names(line[len("diff --git "):])
        else:  # diff --cc <path> / diff --combined <path>
            self.old_name = self.new_name = line.split(" ", 2)[2]
        self.tags: list[str] = []
        self.header_done = False
        self.shown_func = ""
        self.state = _HEADER

    def _file_header(self) -> list[str]:
        if self.header_done:
            return []
        self.header_done = True
        if self.old_name != self.new_name:
            text = f"diff {self.old_name} -> {self.new_name}"
        else:
            text = f"diff {self.new_name}"
        if self.tags:
            text += " (" + ", ".join(self.tags) + ")"
        if self.binary_lines:  # a marker line of its own, under the file's line
            lines, self.binary_lines = self.binary_lines, 0
            return [text, "  " + omitted(lines, "binary patch lines")]
        return [text]

    def _header_line(self, line: str) -> bool:
        """Takes an extended header line; False when `line` is not one."""
        if line.startswith("index ") or line.startswith(("similarity index ", "dissimilarity index ")):
            if line.startswith("index "):
                self.counts[1] += 1
            elif line.startswith("similarity"):
                self.tags.append("similarity " + line.rsplit(" ", 1)[-1])
            elif line.startswith("dissimilarity"):
                self.tags.append("dissimilarity " + line.rsplit(" ", 1)[-1])
            return True
        if line.startswith("new file mode "):
            mode = line[len("new file mode "):]
            self.tags.append("new file" if mode == "100644" else "new file mode " + mode)
        elif line.startswith("deleted file mode "):
            mode = line[len("deleted file mode "):]
            self.tags.append("deleted" if mode == "100644" else "deleted file mode " + mode)
        elif line.startswith("old mode "):
            self.tags.append("mode " + line[len("old mode "):])
        elif line.startswith("new mode "):
            if self.tags and self.tags[-1].startswith("mode "):
                self.tags[-1] += " -> " + line[len("new mode "):]
            else:
                self.tags.append("new mode " + line[len("new mode "):])
        elif line.startswith(("rename from ", "copy from ")):
            self.old_name = line.split(" ", 2)[2]
        elif line.startswith(("rename to ", "copy to ")):
            self.new_name = line.split(" ", 2)[2]
            verb = "renamed" if line.startswith("rename") else "copied"
            similarity = [t for t in self.tags if t.startswith("similarity ")]
            self.tags = [t for t in self.tags if not t.startswith("similarity ")]
            self.tags.append(verb + (" " + similarity[0].split(" ")[1] if similarity else ""))
        elif line.startswith("--- ") and self.state == _HEADER:
            self.counts[1] += 1
            if line != "--- /dev/null":
                self.old_name = _strip_prefix(line[4:])
        elif line.startswith("+++ ") and self.state == _HEADER:
            self.counts[1] += 1
            if line != "+++ /dev/null":
                self.new_name = _strip_prefix(line[4:])
            elif not any(t.startswith("deleted") for t in self.tags):
                self.tags.append("deleted")
        elif line.startswith("Binary files ") and line.endswith(" differ"):
            self.tags.append("binary")
        elif line == "GIT binary patch":
            self.tags.append("binary")
            self.state = _BINARY
            self.dropped = True
        else:
            return False
        return True

    # -- hunks -------------------------------------------------------------------------------
    def _start_hunk(self, line: str) -> list[str] | None:
        parts = line.split(" ", 4)
        try:
            if parts[0] != "@@" or parts[3] != "@@":
                return None
            old_start, old_count = _parse_range(parts[1])
            new_start, new_count = _parse_range(parts[2])
        except (IndexError, ValueError):
            return None
        out = self._file_header()
        # an empty side (`-0,0`, `+12,0`) names the line before: the next line is one further
        self.old_pos = old_start + (old_count == 0)
        self.new_pos = new_start + (new_count == 0)
        self.rem_old, self.rem_new = old_count, new_count
        self.func = parts[4] if len(parts) > 4 else ""
        self.next_func = None
        self.state = _HUNK
        if self.keep_context:
            self.hunk = CappedLines(HUNK_LIMIT, HUNK_HEAD, HUNK_TAIL)
            out.append(line)
        if self.rem_old <= 0 and self.rem_new <= 0:
            out.extend(self._end_hunk())
        return out

    def _end_block(self) -> list[str]:
        if self.removed is None:
            return []
        removed, added = self.removed, self.added
        self.removed = self.added = None
        head = f"@@ -{_range(self.block_old if removed.count else self.block_old - 1, removed.count)}" \
               f" +{_range(self.block_new if added.count else self.block_new - 1, added.count)} @@"
        if self.func and self.func != self.shown_func:  # a repeat adds nothing: dropped
            head += " " + self.func
            self.shown_func = self.func
        if self.next_func is not None:
            self.func, self.next_func = self.next_func, None
        if removed.capped or added.capped:
            self.dropped = True
        return [head] + removed.render("removed lines") + added.render("added lines")

    def _end_hunk(self) -> list[str]:
        self.state = _FILE
        if self.keep_context:
            hunk, self.hunk = self.hunk, None
            if hunk is None:
                return []
            if hunk.capped:
                self.dropped = True
            return hunk.render()
        return self._end_block()

    def _hunk_line(self, line: str) -> list[str] | None:
        """A line inside a hunk; None when it cannot belong to the hunk."""
        c = line[:1]
        if c == "\\":  # "\ No newline at end of file"
            if self.keep_context:
                self.hunk.attach(line)
                return []
            if self.removed is not None:
                (self.added if self.added.count else self.removed).attach(line)
                return []
            return [line]
        if self.rem_old <= 0 and self.rem_new <= 0:
            return None
        if c == " " or not line:
            if self.keep_context:
                self.hunk.add(line)
                out = []
            else:
                out = self._end_block()
                if line.strip():  # a blank context line carries nothing
                    self.counts[0] += 1
                if _is_funcname(line[1:]):
                    self.func = line[1:81].rstrip()
            self.old_pos += 1
            self.new_pos += 1
            self.rem_old -= 1
            self.rem_new -= 1
        elif c == "-" or c == "+":
            if self.keep_context:
                self.hunk.add(line)
                out = []
            else:
                out = []
                if self.removed is None or (c == "-" and self.added.count):
                    out = self._end_block()
                    self.block_old, self.block_new = self.old_pos, self.new_pos
                    self.removed = CappedLines(SIDE_LIMIT, SIDE_HEAD, SIDE_TAIL)
                    self.added = CappedLines(SIDE_LIMIT, SIDE_HEAD, SIDE_TAIL)
                (self.removed if c == "-" else self.added).add(line)
            if c == "-":
                if not self.keep_context and _is_funcname(line[1:]):
                    # names the changes after this one; this block's header is already fixed
                    self.next_func = line[1:81].rstrip()
                self.old_pos += 1
                self.rem_old -= 1
            else:
                self.new_pos += 1
                self.rem_new -= 1
        else:
            return None
        return out

    # -- the stream --------------------------------------------------------------------------
    def feed(self, line: str) -> list[str]:
        line = strip_ansi(line)
        state = self.state
        if state == _HUNK:
            out = self._hunk_line(line)
            if out is not None:
                return out
            out = self._end_hunk()
            return out + self.feed(line)
        if line.startswith(("diff --git ", "diff --cc ", "diff --combined ")):
            out = self.finish_file()
            self._start_file(line)
            return out
        if state == _BINARY:
            if line.startswith(("literal ", "delta ")) or not line or line[0] not in " \t":
                self.binary_lines += bool(line.strip())
                return []
        if state in (_HEADER, _FILE, _BINARY):
            if line.startswith("@@@"):
                return self._start_combined(line)
            if line.startswith("@@ "):
                out = self._start_hunk(line)
                if out is not None:
                    return out
            elif state == _HEADER and self._header_line(line):
                return []
        if state == _COMBINED:
            width = self.combined_width
            prefix = line[:width]
            if len(prefix) == width and all(ch in " +-" for ch in prefix):
                if self.keep_context or "+" in prefix or "-" in prefix:
                    self.hunk.add(line)
                elif line[width:].strip():
                    self.counts[0] += 1
                return []
            out = self._end_combined()
            return out + self.feed(line)
        out = self.finish_file()
        out.append(line)
        return out

    def _start_combined(self, line: str) -> list[str]:
        out = self._file_header()
        self.combined_width = len(line) - len(line.lstrip("@")) - 1
        self.hunk = CappedLines(HUNK_LIMIT, HUNK_HEAD, HUNK_TAIL)
        self.state = _COMBINED
        out.append(line)
        return out

    def _end_combined(self) -> list[str]:
        self.state = _FILE
        hunk, self.hunk = self.hunk, None
        if hunk.capped:
            self.dropped = True
        return hunk.render()

    def finish_file(self) -> list[str]:
        """End the current file (at the next file, the end of the diff or the stream)."""
        if self.state == _OUT:
            return []
        if self.state == _HUNK:
            out = self._end_hunk()
        elif self.state == _COMBINED:
            out = self._end_combined()
        else:
            out = []
        out = self._file_header() + out if not self.header_done else out
        self.state = _OUT
        return out

    def markers(self) -> list[str]:
        """One marker per kind of line left out so far (then reset)."""
        out = []
        for count, kind in zip(self.counts, ("context lines", "index/---/+++ lines")):
            if count:
                out.append(omitted(count, kind))
        if out:
            self.dropped = True
        self.counts = [0, 0]
        return out

    def finish(self) -> list[str]:
        return self.finish_file() + self.markers()


def wants_context(argv: list[str]) -> bool:
    return any(a.startswith(_CONTEXT_FLAGS) for a in argv)


def wants_word_diff(argv: list[str]) -> bool:
    return any(a.startswith(_WORD_FLAGS) for a in argv)


class GitDiff(Filter):
    name = "git-diff"
    match_command = r"^git diff(\s|$)"
    description = "git diff: every file and change as with -U0, long changes capped"

    def __init__(self, argv):
        super().__init__(argv)
        self.passthrough = wants_word_diff(argv)
        self.diff = DiffCompactor(keep_context=wants_context(argv))
        self.dropped = False

    def feed(self, line):
        if self.passthrough:
            return [line]
        return self.diff.feed(line)

    def finish(self, exit_code):
        out = [] if self.passthrough else self.diff.finish()
        self.dropped = self.diff.dropped
        return out
