"""git pull: the fetched refs, how the branch moved, every changed file and every conflict.

Kept: ref updates (as git-fetch), `Updating a..b` + `Fast-forward` on one line, the per-file
stat lines (padding collapsed, capped at `STAT_LIMIT` with `+N more files`) and the summary
line, `Already up to date.`, `CONFLICT (…): Merge conflict in <file>`, `Automatic merge failed…`,
merge/rebase results, errors. Dropped, and counted at the end by one marker per kind:
`Auto-merging <file>` (a conflict names its file itself), `create mode`/`delete mode`/`mode
change` lines, transfer progress; blank lines go; `hint:` paragraphs become one line each (the
commands a hint lists stay lines of their own; the hint lines of the advice-toggle sentences it
drops are counted, `... (4 hint lines omitted)`).
"""
from cc_filter.filters.git._git_text import GitMessageFilter, is_git_noise
from cc_filter.kit.lines import cap, omitted, strip_ansi

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
        #: lines left out, counted: progress, Auto-merging, create/delete mode
        self.counts = {"progress lines": 0, "Auto-merging lines": 0, "create/delete mode lines": 0}

    def feed(self, line):
        if is_git_noise(strip_ansi(line).rstrip()):
            self.counts["progress lines"] += 1
        return super().feed(line)

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
                self.counts["Auto-merging lines"] += 1
                continue
            if line.startswith(" ") and " | " in line:
                self.stat.append(" ".join(line.split()))
                continue
            text = line.strip()
            if text.startswith(("create mode ", "delete mode ", "mode change ")):
                self.counts["create/delete mode lines"] += 1
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
        out += self._stat()
        for kind, count in self.counts.items():
            if count:
                self.dropped = True
                out.append(omitted(count, kind))
        return out
