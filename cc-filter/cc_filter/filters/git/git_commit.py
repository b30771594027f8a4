"""git commit: `[branch hash] subject` and its one-line summary; failures kept whole.

Success keeps the `[main 1a2b3c4] subject` line, the `N files changed, X insertions(+)…` line
and the created/deleted/renamed/mode lines (`create mode 100644 src/cli.py` → `create
src/cli.py`, a mode other than 100644 kept: `create run.sh (mode 100755)`; capped at
`FILE_LIMIT` with `+N more files`). When there is nothing to commit, git prints the status:
it gets git-status's compaction (branch line, files by state, no `(use "git add" …)` advice,
counted)
and keeps git's closing line (`nothing added to commit but untracked files present …`), the
reason the commit failed.
Hook output and errors pass unchanged, so a failing pre-commit hook shows every line it printed.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters.git._git_text import HintBlock
from cc_filter.filters.git.git_status import StatusCompactor
from cc_filter.kit.lines import cap, strip_ansi

FILE_LIMIT = 30


class GitCommit(Filter):
    name = "git-commit"
    match_command = r"^git commit(\s|$)"
    description = "git commit: [branch hash] subject + summary; nothing-to-commit as a compact status"

    def __init__(self, argv):
        super().__init__(argv)
        self.status = StatusCompactor(keep_footers=True)
        self.committed = False
        self.files: list[str] = []
        self.hints = HintBlock()
        self.dropped = False

    def feed(self, line):
        line = strip_ansi(line)
        if self.hints.hold(line):
            return []
        out = self.hints.flush()
        if line.startswith("[") and "] " in line and not self.committed:
            self.committed = True
            return out + self.status.finish() + [line]
        if self.committed:
            text = line.strip()
            if text.startswith(("create mode ", "delete mode ")):
                verb, _, rest = text.partition(" mode ")
                mode, _, path = rest.partition(" ")
                self.files.append(f"{verb} {path}" if mode == "100644" else
                                  f"{verb} {path} (mode {mode})")
                return out
            if text.startswith(("rename ", "copy ", "mode change ", "rewrite ")):
                self.files.append(text)
                return out
            if text:
                return out + [text]
            return out
        return out + self.status.feed(line)

    def finish(self, exit_code):
        out = self.hints.flush()
        out += self.status.finish()
        if len(self.files) > FILE_LIMIT:
            self.dropped = True
        files = ["  " + f for f in cap(self.files, FILE_LIMIT, "more files")]
        self.dropped = self.dropped or self.status.dropped
        return files + out
