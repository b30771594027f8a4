"""git status: the branch and its upstream on one line, files grouped by state, every file named.

Kept: the branch (or detached HEAD) with ahead/behind/diverged, an operation in progress
(merge, rebase, cherry-pick, revert, bisect, am) with its continue/abort commands on one line,
every file of every section with its state (`M`, `A`, `D`, `R`, `T`, `C`; conflicts keep git's
words: `both modified`), and any line this filter does not know. Dropped, and counted by one
`... (N advice lines omitted)` at the end: the `(use "git add <file>..." …)` advice and the
closing `no changes added to commit` reminders (an operation's advice is restated as its
`next:` line); a rebase's `Last command done (…):` / `No commands remaining.` headers are
counted as `rebase todo headers` (the todo lines stay). A section of more than
`SECTION_LIMIT` files is capped with `+N more files`. `--short`, `--porcelain` and `-z`
output is already compact: it passes through.

`StatusCompactor` is shared with git-commit and git-stash, which print the same long format.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import cap, omitted, strip_ansi

SECTION_LIMIT = 60

_SECTIONS = {
    "Changes to be committed:": "staged:",
    "Changes not staged for commit:": "unstaged:",
    "Untracked files:": "untracked:",
    "Unmerged paths:": "unmerged:",
    "Ignored files:": "ignored:",
}
_CODES = {"modified": "M", "new file": "A", "deleted": "D", "renamed": "R", "copied": "C",
          "typechange": "T"}
_FOOTERS = ("no changes added to commit", "nothing added to commit but untracked files present")
_TRACKING = "Your branch "
_PROGRESS_LINES = (
    "You have unmerged paths.", "All conflicts fixed but you are still merging.",
    "You are currently ", "rebase in progress", "interactive rebase in progress",
    "You are in the middle of an am session", "The current patch is empty.",
    "cherry-pick in progress", "revert in progress", "You are in a sparse checkout",
)
_PASSTHROUGH_FLAGS = ("-s", "--short", "--porcelain", "-z", "--null")


def _quoted_commands(advice: str) -> list[str]:
    """`(use "git rebase --abort" to check out …)` → ["git rebase --abort"]."""
    parts = advice.split('"')
    return [p for p in parts[1::2] if p.startswith("git ")]


class StatusCompactor:
    """Streams git's long status format into the compact one; unknown lines pass unchanged."""

    __slots__ = ("section", "items", "branch", "tracking", "pending_tracking", "hints",
                 "fix_first", "dropped", "last_kind", "keep_footers", "_head_done",
                 "advice_dropped", "todo_headers")

    def __init__(self, keep_footers: bool = False):
        #: git commit ends a failed commit with the status footer: that line is its reason
        self.keep_footers = keep_footers
        self.section: str | None = None
        self.items: list[str] = []
        self.branch: str | None = None
        self.tracking: list[str] = []
        self.pending_tracking = False
        self.hints: list[str] = []
        self.fix_first = False
        self.dropped = False
        self.last_kind = "other"
        self._head_done = False
        self.advice_dropped = 0  # advice and reminder lines left out
        self.todo_headers = 0  # `Last command done (…):`, `No commands remaining.`

    # -- output helpers ----------------------------------------------------------------------
    def _head(self) -> list[str]:
        """The branch line, once every tracking line is known."""
        if self._head_done or (self.branch is None and not self.tracking):
            return []
        self._head_done = True
        text = self.branch or ""
        if self.tracking:
            text = f"{text}, {' '.join(self.tracking)}" if text else " ".join(self.tracking)
        return [text]

    def _end_section(self) -> list[str]:
        if self.section is None:
            return []
        out = [self.section]
        items = self.items
        if len(items) > SECTION_LIMIT:
            self.dropped = True
            items = cap(items, SECTION_LIMIT, "more files")
        out.extend("  " + item for item in items)
        self.section = None
        self.items = []
        return out

    def _end_hints(self) -> list[str]:
        if not self.hints:
            return []
        first, rest = self.hints[0], self.hints[1:]
        text = ("fix conflicts, then " if self.fix_first else "") + first
        if rest:
            text += " (or " + ", ".join(rest) + ")"
        self.hints = []
        self.fix_first = False
        return ["  next: " + text]

    def _flush(self) -> list[str]:
        return self._head() + self._end_hints() + self._end_section()

    # -- the state machine -------------------------------------------------------------------
    def feed(self, line: str) -> list[str]:
        line = strip_ansi(line).rstrip()
        if self.pending_tracking:
            # "Your branch and 'origin/main' have diverged,\nand have 1 and 2 different commits…"
            self.pending_tracking = False
            if line.startswith("and have "):
                counts = line[len("and have "):].split(" ")
                if len(counts) > 2 and counts[1] == "and":
                    self.tracking[-1] += f" (ahead {counts[0]}, behind {counts[2]})"
                else:
                    self.tracking[-1] += " " + line
                return []
        if line.startswith("  (") and line.endswith(")"):
            return self._advice(line)
        if self.section is not None and line.startswith("\t"):
            self.items.append(self._item(line[1:]))
            return []
        if not line:
            return []
        kind = "other"
        out: list[str]
        if line.startswith(("On branch ", "HEAD detached ")):
            out = self._flush()
            self.branch = line
            self.tracking = []
            self._head_done = False
            line = None
        elif line.startswith(_TRACKING):
            text = line[len(_TRACKING):]
            self.tracking.append(self._tracking(text))
            self.pending_tracking = text.endswith("diverged,")
            out = []
            line = None
            kind = "tracking"
        elif line in _SECTIONS:
            out = self._flush()
            self.section = _SECTIONS[line]
            line = None
            kind = "section"
        elif line.startswith(_FOOTERS):
            out = self._flush()
            if not self.keep_footers:
                self.advice_dropped += 1
                line = None
        elif line == "nothing to commit (use -u to show untracked files)":
            out = self._flush()
            line = "nothing to commit (untracked files not listed)"
        elif line.startswith("nothing to commit (create/copy files"):
            out = self._flush()
            line = "nothing to commit"
        elif line in ("Last command done:", "No commands remaining.") or line.startswith(
                ("Last commands done (", "Last command done (", "Next command to do (",
                 "Next commands to do (")):
            out = self._flush()
            line = None
            kind = "progress"
            self.todo_headers += 1
        elif line.startswith("   ") and self.last_kind == "progress":
            # a rebase todo line: "   pick 362cfed Say local in README"
            out = self._flush()
            line = "  " + line.strip()
            kind = "progress"
        else:
            out = self._flush()
            if line.startswith(_PROGRESS_LINES):
                kind = "progress"
        if line is not None:
            out.append(line)
        self.last_kind = kind
        return out

    def _advice(self, line: str) -> list[str]:
        """`(use "git add <file>..." …)` under a file section or the upstream line is dropped;
        under an operation in progress its commands are kept, as one `next:` line."""
        if self.section is not None or self.last_kind != "progress":
            self.advice_dropped += 1
            return []
        advice = line[3:-1]
        restated = False
        if advice.startswith("fix conflicts"):
            self.fix_first = restated = True
        for command in _quoted_commands(advice):
            if "--edit-todo" not in command:
                restated = True
                if command not in self.hints:
                    self.hints.append(command)
        if not restated:
            self.advice_dropped += 1
        return []

    @staticmethod
    def _tracking(text: str) -> str:
        text = text.rstrip(".")
        if text.startswith("is "):
            text = text[3:]
        if text.startswith("and '") and text.endswith("have diverged,"):
            return "diverged from " + text[4:-len(" have diverged,")]
        return text.replace(", and can be fast-forwarded", ", can fast-forward")

    @staticmethod
    def _item(text: str) -> str:
        state, sep, path = text.partition(":")
        if sep and (state in _CODES or state.startswith(("both ", "added by ", "deleted by "))):
            path = path.strip()
            code = _CODES.get(state)
            return f"{code} {path}" if code else f"{state}: {path}"
        return text

    def markers(self) -> list[str]:
        """The counts of what was left out so far (then reset)."""
        out = []
        for count, kind in ((self.todo_headers, "rebase todo headers"),
                            (self.advice_dropped, "advice lines")):
            if count:
                out.append(omitted(count, kind))
        if out:
            self.dropped = True
        self.todo_headers = self.advice_dropped = 0
        return out

    def finish(self) -> list[str]:
        self.pending_tracking = False
        return self._flush() + self.markers()


class GitStatus(Filter):
    name = "git-status"
    match_command = r"^git status(\s|$)"
    description = "git status: branch and upstream on one line, files grouped by state"

    def __init__(self, argv):
        super().__init__(argv)
        self.passthrough = any(a in _PASSTHROUGH_FLAGS or (a.startswith("-") and not a.startswith("--")
                                                           and "s" in a[1:] and a[1:].isalpha())
                               or a.startswith("--porcelain") for a in argv[2:])
        self.status = StatusCompactor()
        self.dropped = False

    def feed(self, line):
        if self.passthrough:
            return [line]
        return self.status.feed(line)

    def finish(self, exit_code):
        if self.passthrough:
            return []
        out = self.status.finish()
        self.dropped = self.status.dropped
        return out
