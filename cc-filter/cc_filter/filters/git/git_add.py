"""git add: silent on success; errors, warnings and the ignored-path list kept, hints condensed.

`git add` prints nothing when it works, so this filter mostly guards what it does print:
`fatal: pathspec 'x' did not match any files`, the paths ignored by .gitignore, line-ending
warnings, and `-v`/`-n` lists (`add 'x'`, capped at `LIST_LIMIT` with `+N more`). `hint:` blocks
lose their advice-toggle boilerplate (`Turn this message off by running …`).
"""
from cc_filter.filters.git._git_text import GitMessageFilter

LIST_LIMIT = 60


class GitAdd(GitMessageFilter):
    name = "git-add"
    match_command = r"^git add(\s|$)"
    description = "git add: errors and ignored paths kept, hint boilerplate dropped"

    def __init__(self, argv):
        super().__init__(argv)
        self.listed = 0
        self.dropped = False

    def take(self, lines):
        out = []
        for line in lines:
            if line.startswith(("add '", "remove '")):
                self.listed += 1
                if self.listed > LIST_LIMIT:
                    continue
            out.append(line)
        return out

    def summary(self):
        if self.listed > LIST_LIMIT:
            self.dropped = True
            return [f"+{self.listed - LIST_LIMIT} more files"]
        return []
