"""git log: one line per commit — hash, date, author, subject — merges kept and marked.

The default (medium) format becomes `<hash10> [(<refs>)] <YYYY-MM-DD> <author>: <subject>`, with
`(merge <p1> <p2>)` for a merge commit, then up to `BODY_LIMIT` non-blank body lines indented
by two spaces (`+N more lines` past that). E-mail addresses, the time of day and blank lines
are dropped; one `... (N Author/Date lines: e-mail, time truncated)` at the end says
so. Stat lines (`--stat`) keep each file and its count, without the `++++--` bar that draws it;
patches (`-p`) go through git-diff's
compaction. What the user chose is respected: with `--oneline`, `--format`/`--pretty` or `--graph` every
line but a patch's passes through (only ANSI colours removed), `-n`/`--max-count`/`-<N>` and every other
limit stay the user's. Nothing is injected. Only a log with no limit of the user's and more than
`LOG_LIMIT` commits is capped, with `... (N lines of M more commits omitted)` (the runner's tee
keeps all).

`LogCompactor` and `CommitFilter` (the filter around it) are shared with git-show.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters.git.git_diff import DiffCompactor, wants_context, wants_word_diff
from cc_filter.kit.lines import cap, omitted, strip_ansi, truncated

LOG_LIMIT = 200
BODY_LIMIT = 4
STAT_LIMIT = 40
#: Abbreviated hashes as git's own default (`--oneline`, push, status) in most repositories; an
#: ambiguous one in a huge repository makes git list the candidates.
HASH_LENGTH = 7

_MONTHS = {m: i for i, m in enumerate(
    ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"), 1)}
_FORMAT_FLAGS = ("--oneline", "--format", "--pretty", "--graph")
_LIMIT_FLAGS = ("-n", "--max-count", "--since", "--after", "--until", "--before", "--skip")
_HEX = frozenset("0123456789abcdef")


def short_date(text: str) -> str:
    """`Sat Mar 2 16:00:00 2024 +0000` → `2024-03-02`; any other date format is kept."""
    parts = text.split()
    if len(parts) == 6 and parts[1] in _MONTHS and parts[2].isdigit() and parts[4].isdigit():
        return f"{parts[4]}-{_MONTHS[parts[1]]:02d}-{int(parts[2]):02d}"
    return text.strip()


def stat_line(line: str) -> str:
    """` src/app.py |  4 ++--` → `src/app.py | 4`: the bar only draws the count (and the
    commit's `[1 file +3 -1]` gives the insertions and deletions); `Bin 0 -> 12 bytes` stays."""
    text = " ".join(line.split())
    head, bar, graph = text.rpartition(" ")
    if graph and set(graph) <= {"+", "-"} and head.rpartition(" ")[2].isdigit():
        return head
    return text


def stat_summary(line: str) -> str:
    """` 5 files changed, 5 insertions(+), 1 deletion(-)` → `5 files, +5 -1`; else ""."""
    if not line.startswith(" ") or " changed" not in line:
        return ""
    out = []
    for part in line.strip().split(", "):
        number, _, what = part.partition(" ")
        if not number.isdigit():
            return ""
        if what.startswith(("file changed", "files changed")):
            out.append(f"{number} {what.split(' ')[0]}")
        elif what.startswith("insertion"):
            out.append(f"+{number}")
        elif what.startswith("deletion"):
            out.append(f"-{number}")
        else:
            return ""
    return ", ".join(out[:1]) + (" " + " ".join(out[1:]) if len(out) > 1 else "")


def user_format(argv: list[str]) -> bool:
    """The user chose the output shape: respect it."""
    return any(a.startswith(_FORMAT_FLAGS) for a in argv)


def user_limit(argv: list[str]) -> bool:
    for a in argv:
        if a == "--":
            break
        if a.startswith(_LIMIT_FLAGS) or (len(a) > 1 and a[0] == "-" and a[1:].isdigit()):
            return True
    return False


class LogCompactor:
    """Streams the medium commit format (git log / git show) into one line per commit."""

    __slots__ = ("diff", "limit", "body_limit", "raw_headers", "commits", "hidden", "hash", "refs",
                 "merge", "author", "date", "extra", "message", "stat", "summary", "in_header",
                 "dropped", "hidden_lines", "cut_headers")

    def __init__(self, keep_context: bool = False, limit: int | None = None,
                 body_limit: int = BODY_LIMIT, raw_headers: bool = False):
        self.diff = DiffCompactor(keep_context=keep_context)
        self.limit = limit
        self.body_limit = body_limit
        #: the user chose the commit format: everything but patches passes unchanged
        self.raw_headers = raw_headers
        self.commits = 0
        self.hidden = 0
        self.hidden_lines = 0  # raw lines of the commits past the limit
        self.cut_headers = 0  # Author: / Date: lines shown without e-mail / time of day
        self.hash: str | None = None
        self.dropped = False

    def _start(self, line: str) -> bool:
        parts = line.split(" ", 2)
        if len(parts) < 2 or len(parts[1]) < 7 or not set(parts[1]) <= _HEX:
            return False
        self.hash = parts[1][:HASH_LENGTH]
        self.refs = parts[2] if len(parts) > 2 else ""
        self.merge = ""
        self.author = ""
        self.date = ""
        self.extra: list[str] = []
        self.message: list[str] = []
        self.stat: list[str] = []
        self.summary = ""
        self.in_header = True
        self.commits += 1
        return True

    def _end(self) -> list[str]:
        """The finished commit's lines (none while only counting past the limit)."""
        if self.hash is None:
            return []
        if self.limit is not None and self.commits > self.limit:
            self.hidden += 1
            self.hash = None
            return []
        head = self.hash
        if self.refs:
            head += " " + self.refs
        if self.date:
            head += " " + self.date
        if self.author:
            head += " " + self.author + ":"
        subject, body = (self.message[0], self.message[1:]) if self.message else ("", [])
        if subject:
            head += " " + subject
        if self.merge:
            head += f" (merge {self.merge})"
        if self.summary:
            head += f" [{self.summary}]"
        if len(body) > self.body_limit:
            self.dropped = True
            body = cap(body, self.body_limit, "more lines")
        stat = self.stat
        if len(stat) > STAT_LIMIT:
            self.dropped = True
            stat = cap(stat, STAT_LIMIT, "more files")
        self.hash = None
        return [head] + ["  " + line for line in self.extra + body + stat]

    def feed(self, line: str) -> list[str]:
        line = strip_ansi(line)
        if self.limit is None or self.raw_headers:
            return self._feed(line)
        counts = list(self.diff.counts)
        cut = self.cut_headers
        out = self._feed(line)
        if self.commits > self.limit:  # a hidden commit's line: counted as such, only
            self.diff.counts[:] = counts
            self.cut_headers = cut
            if line.strip() and line not in out:
                self.hidden_lines += 1
        return out

    def _feed(self, line: str) -> list[str]:
        if self.raw_headers:
            if self.diff.in_diff or line.startswith(("diff --git ", "diff --cc ", "diff --combined ")):
                return self.diff.feed(line)
            return [line]
        if line.startswith("commit "):
            out = self.diff.finish_file() + self._end()
            if self._start(line):
                return out
            out.append(line)
            return out
        if self.diff.in_diff or line.startswith(("diff --git ", "diff --cc ", "diff --combined ")):
            out = self._end() if self.hash is not None else []
            shown = self.diff.feed(line)
            if self.limit is not None and self.commits > self.limit:
                return out  # past the cap: the diff state stays right, nothing is shown
            if not line and shown and shown[-1] == "":
                shown.pop()  # the blank line between a patch and the next commit
            return out + shown
        if self.hash is None:
            return [line] if line else []
        if self.in_header:
            if not line:
                self.in_header = False
            elif line.startswith("Author: "):
                self.author = line[8:].split(" <", 1)[0].strip()
                self.cut_headers += 1
            elif line.startswith("Date: "):
                self.date = short_date(line[6:])
                self.cut_headers += 1
            elif line.startswith("Merge: "):
                self.merge = line[7:].strip()
            else:
                self.extra.append(line.strip())
            return []
        if line.startswith("    ") or not line:
            if line.strip():
                self.message.append(line[4:].rstrip())
            return []
        if line.startswith(" ") and " | " in line:  # --stat: " src/app.py | 4 ++--"
            self.stat.append(stat_line(line))
            return []
        summary = stat_summary(line)
        if summary:
            self.summary = summary
            return []
        # anything else after the message: shown after the commit's own line
        out = self._end()
        if self.limit is not None and self.commits > self.limit:
            return out
        out.append(line)
        return out

    def finish(self) -> list[str]:
        out = self.diff.finish_file() + self._end() + self.diff.markers()
        if self.cut_headers:
            self.dropped = True
            out.append(truncated(self.cut_headers, "Author/Date lines: e-mail, time"))
            self.cut_headers = 0
        if self.hidden:
            self.dropped = True
            out.append(omitted(self.hidden_lines, f"lines of {self.hidden} more "
                                                  f"commit{'s' if self.hidden != 1 else ''}"))
        if self.diff.dropped:
            self.dropped = True
        return out


class CommitFilter(Filter):
    """Base of git-log and git-show: the output goes through a `LogCompactor` (context lines
    kept when the user asked for them, headers as the user shaped them), or, with
    `passthrough` (word diffs, and whatever the subclass adds), every line passes with only its
    ANSI colours removed."""

    def __init__(self, argv: list[str], passthrough: bool = False, limit: int | None = None,
                 body_limit: int = BODY_LIMIT):
        super().__init__(argv)
        self.passthrough = passthrough or wants_word_diff(argv)
        self.log = LogCompactor(keep_context=wants_context(argv), limit=limit,
                                body_limit=body_limit, raw_headers=user_format(argv))
        self.dropped = False

    def feed(self, line):
        if self.passthrough:
            return [strip_ansi(line)]
        return self.log.feed(line)

    def finish(self, exit_code):
        if self.passthrough:
            return []
        out = self.log.finish()
        self.dropped = self.log.dropped
        return out


class GitLog(CommitFilter):
    name = "git-log"
    match_command = r"^git log(\s|$)"
    description = "git log: one line per commit (hash, date, author, subject), merges kept"

    def __init__(self, argv):
        super().__init__(argv, limit=None if user_limit(argv) else LOG_LIMIT)
