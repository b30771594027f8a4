"""git fetch: every updated, new, deleted or rejected ref, without padding or progress.

Kept: `From <remote>`, each ref line (`a1..b2 main -> origin/main`, `* [new branch] x ->
origin/x`, `- [deleted] (none) -> origin/y`, `! [rejected] …`), errors whole. Dropped: transfer
progress, blank lines; `hint:` paragraphs become one line each. Fetching nothing prints nothing.
"""
from cc_filter.filters.git._git_text import GitMessageFilter


class GitFetch(GitMessageFilter):
    name = "git-fetch"
    match_command = r"^git fetch(\s|$)"
    description = "git fetch: ref updates and errors, no progress"
    on_empty = "ok"
