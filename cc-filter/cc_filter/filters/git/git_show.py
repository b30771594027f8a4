"""git show: the commit on one line, its message, and its patch compacted like git diff.

The commit header becomes git-log's line (`<hash> [(<refs>)] <date> <author>: <subject>`, with
`(merge <parents>)`), the whole message body follows (up to `BODY_LIMIT` lines), and the patch
goes through git-diff's compaction (every file and change kept, as `-U0` would show it, long
changes capped). Passed through unchanged: `--stat`, `--name-only`, `--name-status`,
`--numstat`, `--shortstat`, `--raw`, `--summary`, `--check` output, word diffs, and
`git show <rev>:<path>` (a file's content). With `--format`/`--pretty`/`--oneline` the header
stays as the user shaped it; only the patch is compacted.
"""
from cc_filter.filters.git.git_log import CommitFilter

BODY_LIMIT = 30
_SUMMARY_FLAGS = ("--stat", "--name-only", "--name-status", "--numstat", "--shortstat", "--raw",
                  "--summary", "--check", "--dirstat", "--compact-summary", "-s", "--no-patch")


def shows_a_file(argv: list[str]) -> bool:
    """`git show HEAD:README.md` prints a blob (or a tree), not a commit."""
    for a in argv[2:]:
        if a == "--":
            return False
        if not a.startswith("-") and ":" in a and not a.startswith(":/"):
            return True
    return False


class GitShow(CommitFilter):
    name = "git-show"
    match_command = r"^git show(\s|$)"
    description = "git show: commit on one line, message, patch compacted like git diff"

    def __init__(self, argv):
        summary_only = any(a.startswith(_SUMMARY_FLAGS) for a in argv[2:])
        super().__init__(argv, passthrough=shows_a_file(argv) or summary_only,
                         body_limit=BODY_LIMIT)
