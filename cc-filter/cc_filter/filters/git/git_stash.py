"""git stash: what was saved, listed, applied or dropped; conflicts and the status after a pop.

`push`/`save` keep `Saved working directory and index state …`, `list` passes unchanged,
`pop`/`apply` print a status (compacted as git-status does: branch line, files by state, no
advice) plus `Dropped refs/stash@{0} (…)`, or `CONFLICT (…)` lines and `The stash entry is kept
…` on a conflict. `show -p` is a patch: git-diff's compaction. `Auto-merging <file>` lines are
dropped (a conflict names its file itself), counted by `... (N Auto-merging lines omitted)`;
hints are condensed. The status's advice lines are counted as git-status counts them.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters.git._git_text import HintBlock
from cc_filter.filters.git.git_diff import DiffCompactor, wants_context
from cc_filter.filters.git.git_status import StatusCompactor
from cc_filter.kit.lines import omitted, strip_ansi


class GitStash(Filter):
    name = "git-stash"
    match_command = r"^git stash(\s|$)"
    description = "git stash: saved/applied/dropped lines, compact status, patches as git diff"

    def __init__(self, argv):
        super().__init__(argv)
        self.status = StatusCompactor()
        self.diff = DiffCompactor(keep_context=wants_context(argv))
        self.hints = HintBlock()
        self.listing = len(argv) > 2 and argv[2] == "list"
        self.merging = 0  # `Auto-merging <file>` lines left out
        self.dropped = False

    def feed(self, line):
        if self.listing:
            return [line]
        line = strip_ansi(line)
        if self.hints.hold(line):
            return []
        out = self.hints.flush()
        if self.diff.in_diff or line.startswith(("diff --git ", "diff --cc ")):
            return out + self.diff.feed(line)
        if line.startswith("Auto-merging "):
            self.merging += 1
            return out
        return out + self.status.feed(line)

    def finish(self, exit_code):
        out = self.hints.flush()
        out += self.diff.finish() + self.status.finish()
        if self.merging:
            out.append(omitted(self.merging, "Auto-merging lines"))
        self.dropped = self.diff.dropped or self.status.dropped or bool(self.merging)
        return out
