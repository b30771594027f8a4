"""git pull: the fetched refs, how the branch moved, every changed file and every conflict.

Kept: ref updates (as git-fetch), `Updating a..b` + `Fast-forward` on one line, the per-file
stat lines (padding collapsed, capped at `STAT_LIMIT` with `+N more files`) and the summary
line, `Already up to date.`, `CONFLICT (…): Merge conflict in <file>`, `Automatic merge failed…`,
merge/rebase results, errors. Dropped: `Auto-merging <file>` (a conflict names its file
itself), `create mode` lines, transfer progress, blank lines; `hint:` paragraphs become one line
each (the commands a hint lists stay lines of their own).
"""
from cc_filter.filters.git._git_text import GitMessageFilter
from cc_filter.lines import cap

STAT_LIMIT = 40


class GitPull(GitMessageFilter):
    name = "git-pull"
    match_command = r"^git pull(\s|$)"
    description = "git pull: refs, fast-forward/merge result, changed files, conflicts"

    def __init__(self, argv):
        super().__init__(argv)
        self.updating = ""
        self.stat: list[str] = []
        self.dropped = False

    def take(self, lines):
        out = []
        for line in lines:
            if line.startswith("Updating ") and ".." in line:
                self.updating = line[len("Updating "):]
                continue
            if line == "Fast-forward" and self.updating:
                out.append(f"Fast-forward {self.updating}")
                self.updating = ""
                continue
            if line.startswith("Auto-merging "):
                continue
            if line.startswith(" ") and " | " in line:
                self.stat.append(" ".join(line.split()))
                continue
            text = line.strip()
            if text.startswith(("create mode ", "delete mode ", "mode change ")):
                continue
            if self.updating:
                out.append(f"Updating {self.updating}")
                self.updating = ""
            out.extend(self._stat())
            out.append(text if line.startswith(" ") and " changed" in line else line)
        return out

    def _stat(self):
        if not self.stat:
            return []
        stat, self.stat = self.stat, []
        if len(stat) > STAT_LIMIT:
            self.dropped = True
        return ["  " + s for s in cap(stat, STAT_LIMIT, "more files")]

    def summary(self):
        out = [f"Updating {self.updating}"] if self.updating else []
        return out + self._stat()
