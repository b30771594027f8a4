"""git branch: every branch kept; -v/-vv alignment padding and remote prefixes compacted.

Plain lists pass as they are (`* main`, `  feature/x`). With `-v`/`-vv` the padding that aligns
the hash and subject columns goes (`* main 3b35ca3 [origin/main: ahead 1] Subject`). With `-a`/
`-r` the `remotes/<remote>/` branches of one remote are listed on one line
(`remotes/origin: hotfix, main`). Lists longer than `LIST_LIMIT` are capped with `+N more
branches`.
Errors (`fatal: a branch named 'x' already exists`, `error: … not fully merged`) and
`Deleted branch x (was 1a2b3c4).` pass unchanged; hints are condensed.
"""
from cc_filter.filters.git._git_text import GitMessageFilter
from cc_filter.kit.lines import cap

LIST_LIMIT = 150


class GitBranch(GitMessageFilter):
    name = "git-branch"
    match_command = r"^git branch(\s|$)"
    description = "git branch: every branch, padding and remote prefixes compacted"

    def __init__(self, argv):
        super().__init__(argv)
        self.branches: list[str] = []
        self.remotes: dict[str, list[str]] = {}
        self.other: list[str] = []
        self.dropped = False

    def take(self, lines):
        for line in lines:
            if len(line) > 2 and line[:2] in ("* ", "  ", "+ ") and not line[2].isspace():
                mark, rest = line[:2], line[2:]
                words = rest.split()
                name = words[0]
                if name.startswith("remotes/") and name.count("/") >= 2 and len(words) == 1:
                    remote, _, branch = name[len("remotes/"):].partition("/")
                    self.remotes.setdefault(remote, []).append(branch)
                    continue
                self.branches.append(mark + " ".join(words))
            else:
                self.other.append(line)
        return []  # all is shown at the end, branches first

    def summary(self):
        out = list(self.branches)
        for remote, names in self.remotes.items():
            out.append(f"  remotes/{remote}: " + ", ".join(names))
        if len(out) > LIST_LIMIT:
            self.dropped = True
            out = cap(out, LIST_LIMIT, "more branches")
        return out + self.other
