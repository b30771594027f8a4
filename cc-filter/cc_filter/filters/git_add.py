"""git add: silent on success; errors, warnings and the ignored-path list kept, hints condensed.

`git add` prints nothing when it works, so this filter mostly guards what it does print:
`fatal: pathspec 'x' did not match any files`, the paths ignored by .gitignore, line-ending
warnings, and `-v`/`-n` lists (`add 'x'`, capped at `LIST_LIMIT` with `+N more`). `hint:` blocks
lose their advice-toggle boilerplate (`Turn this message off by running …`).
"""
from cc_filter.filter import Filter
from cc_filter.filters._git_text import GitMessages

LIST_LIMIT = 60


class GitAdd(Filter):
    name = "git-add"
    match_command = r"^git add(\s|$)"
    description = "git add: errors and ignored paths kept, hint boilerplate dropped"

    def __init__(self, argv):
        super().__init__(argv)
        self.messages = GitMessages()
        self.listed = 0
        self.dropped = False

    def _take(self, lines):
        out = []
        for line in lines:
            if line.startswith(("add '", "remove '")):
                self.listed += 1
                if self.listed > LIST_LIMIT:
                    continue
            out.append(line)
        return out

    def feed(self, line):
        return self._take(self.messages.feed(line))

    def finish(self, exit_code):
        out = self._take(self.messages.flush())
        if self.listed > LIST_LIMIT:
            self.dropped = True
            out.append(f"+{self.listed - LIST_LIMIT} more files")
        return out
