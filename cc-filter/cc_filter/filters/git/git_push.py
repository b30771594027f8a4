"""git push: where it went and what each ref did, errors whole, hints in one line each.

Kept: `To <remote>`, every ref line without its alignment padding (`main -> main`,
`* [new branch] x -> x`, `! [rejected] main -> main (fetch first)`), `Everything up-to-date`,
upstream set-up lines, `error:`/`fatal:` lines, `remote:` messages (a pull-request URL). Dropped:
transfer progress (`Enumerating objects…`, `Writing objects…`, `Total …`), blank lines, and the
hint boilerplate: each `hint:` paragraph becomes one line without its `See 'git push --help'`
sentence (the hint lines that go are counted: `... (1 hint line omitted)`).
"""
from cc_filter.filters.git._git_text import GitMessageFilter


class GitPush(GitMessageFilter):
    name = "git-push"
    match_command = r"^git push(\s|$)"
    description = "git push: ref results and errors, no progress, hints condensed"
    on_empty = "ok"
