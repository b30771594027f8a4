"""The protocol every Python filter follows.

A filter only transforms lines. The runner (runner.py) owns every safety rule of ARCHITECTURE §6.2
(exit code, never worse, never empty, failures visible, tee, tracking), so a filter never
re-implements them.

    class GitStatus(Filter):
        name = "git-status"
        match_command = r"^git status(\\s|$)"
        description = "Compact git status"

        def feed(self, line):          # called once per raw line, as the child produces it
            ...                         # yield zero or more output lines (no trailing newline)
        def finish(self, exit_code):   # called once at the end, knows the exit code
            ...                         # yield the remaining lines / a summary

`argv` is the command as run (after argument injection), so a filter can honour the user's own
flags (`-n 5`, `--oneline`). Lines arrive decoded as UTF-8 with invalid bytes replaced, without
their line terminator and with `\\r` progress redraws already resolved (`50%\\r100%` → `100%`);
a line longer than 256 KiB arrives cut, ending in `… [N more bytes]`. The raw bytes stay with
the runner (tee, never-worse fallback).

Optional extensions (the runner checks for them):
- `feed_lines(lines) -> list[str]`: a batch of lines at once (the runner calls it per chunk
  of output; the default loops over `feed`). Override it for throughput.
- `feed_text(text) -> list[str]`: the same batch as one string, lines joined by `\\n` (no
  trailing newline); when defined, the runner calls it instead of `feed_lines` (the TOML
  engine uses it to run one regex pass over a whole chunk).
- `dropped = True`: set it when the filter left something out without writing one of the
  omission markers of `cc_filter.kit.lines` (`+N more`, `... (N lines omitted)`), so the runner
  keeps the raw output in the tee directory and prints the `[full output: …]` hint.

Imports nothing: runs on every filtered command.
"""


class Filter:
    name: str = ""
    match_command: str = ""
    description: str = ""
    #: Short text printed when the filtered output would be empty but the raw was not
    #: (ARCHITECTURE §6.2 rule 5), e.g. "ok main" for a push. None: the runner decides.
    on_empty: str | None = None
    #: Set to True when output was left out without an omission marker (see above).
    dropped: bool = False

    def __init__(self, argv: list[str]):
        self.argv = argv

    @classmethod
    def inject(cls, argv: list[str]) -> list[str]:
        """Arguments to run instead of `argv`. May only change the answer's encoding
        (`--porcelain`, `--json`), never its scope (ARCHITECTURE §6.2 rule 11)."""
        return argv

    def feed(self, line: str):
        yield line

    def feed_lines(self, lines: list[str]) -> list[str]:
        """A batch of lines; the default feeds them one by one."""
        out: list[str] = []
        feed = self.feed
        for line in lines:
            produced = feed(line)
            if produced is not None:
                out.extend(produced)
        return out

    def finish(self, exit_code: int):
        return ()

    def run(self, lines, exit_code: int):
        """Whole-text convenience used by tests and `cc-filter <name>`."""
        for line in lines:
            yield from self.feed(line)
        yield from self.finish(exit_code)


#: Arguments a filter may add with `inject` (ARCHITECTURE §6.2 rule 11): they change how the answer
#: is encoded, never what it covers. Anything else is refused by the runner.
REENCODING_ARGS = frozenset({
    "--porcelain", "--porcelain=v1", "--porcelain=v2", "--branch", "-b", "-z",
    "--json", "--format=json", "--output-format=json", "--message-format=json",
    "--message-format=short", "--reporter=json", "--json-output", "-ojson", "--output=json",
    "--no-color", "--no-colour", "--color=never", "--colour=never", "--no-ansi",
    "--no-progress", "--progress=plain", "--no-pager", "--show-stash",
    "--show-current-patch",
})
#: `-c <config>` pairs git accepts before its subcommand that only turn colour/pager off.
_REENCODING_CONFIG_PREFIXES = ("color.", "core.pager=", "advice.")


def is_reencoding(original: list[str], injected: list[str]) -> bool:
    """True when `injected` is `original` plus only re-encoding arguments (in any position),
    with every original argument kept, in order."""
    i = 0
    added: list[str] = []
    for word in injected:
        if i < len(original) and word == original[i]:
            i += 1
        else:
            added.append(word)
    if i != len(original):
        return False
    j = 0
    while j < len(added):
        word = added[j]
        value = added[j + 1] if j + 1 < len(added) else ""
        if word == "-c" and value.startswith(_REENCODING_CONFIG_PREFIXES):
            j += 2
            continue
        if word not in REENCODING_ARGS:
            return False
        j += 1
    return True
