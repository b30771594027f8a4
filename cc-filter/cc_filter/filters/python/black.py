"""black: the files it would reformat (or reformatted) grouped by directory, errors kept.

black prints one `would reformat <path>` / `reformatted <path>` line per file (absolute paths
when given a directory), emoji banners (`Oh no! 💥 💔 💥`, `All done! ✨ 🍰 ✨`) and, with
`-v`, a line per untouched file. The filter lists every reformatted file once, grouped by
directory (paths under the working directory relative to it), keeps `error: cannot format …`
lines with black's own context lines, any diff (`--diff`, timestamps of its `---`/`+++`
lines dropped), and the closing count line (`22 files would be reformatted, 6 files would be
left unchanged.`). Dropped: banners, blank lines, the verbose per-file chatter; each counted at
the end (`... (1 banner line omitted)`, `... (4 verbose lines omitted)`, `... (2 diff-header
timestamps truncated)`; blank lines are not counted), so the runner tees the raw output.

Nothing is injected. Tested with black 26.10 (the same lines since black 22).
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._paths import paths_by_directory
from cc_filter.kit.lines import omitted, strip_ansi, truncated

_BANNERS = ("All done! ", "Oh no! ")
_VERBOSE = ("Identified `", "Found input source directory", "Sources to be formatted",
            "Using configuration", "Skipping .ipynb")
_VERBOSE_ENDINGS = (" wasn't modified on disk since last run.", " already well formatted, good job.",
                    " matches the --exclude regular expression", " is a symbolic link that points outside",
                    " ignored: matches the --extend-exclude regular expression")
_COUNT_WORDS = (" reformatted", " left unchanged", " fail to reformat", " failed to reformat")


class Black(Filter):
    name = "black"
    match_command = r"^black(\s|$)"
    description = "black: reformatted files grouped by directory, banners dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.would: list[str] = []
        self.done: list[str] = []
        self.summary: list[str] = []
        self.in_diff = False  # a context line of a diff may be a lone space: it stays
        self.banners = 0      # `All done! ✨ 🍰 ✨`, `Oh no! 💥 💔 💥` dropped
        self.verbose = 0      # `-v` chatter dropped
        self.stamps = 0       # diff headers whose timestamp was cut

    def feed(self, line: str):
        line = strip_ansi(line)
        if line.startswith("would reformat "):
            self.would.append(line[15:])
            return ()
        if line.startswith("reformatted "):
            self.done.append(line[12:])
            return ()
        if not line or (line.isspace() and not self.in_diff):
            return ()
        if line.startswith(_BANNERS):
            self.banners += 1
            return ()
        if line.startswith(_VERBOSE) or line.endswith(_VERBOSE_ENDINGS):
            self.verbose += 1
            return ()
        if line[:1].isdigit() and any(w in line for w in _COUNT_WORDS):
            self.summary.append(line)
            return ()
        if line.startswith(("--- ", "+++ ")) and "\t" in line:
            self.in_diff = True
            self.stamps += 1
            return (line.split("\t", 1)[0],)  # diff header: the file, without its timestamp
        return (line,)

    def finish(self, exit_code: int):
        out = []
        for label, paths in (("would reformat", self.would), ("reformatted", self.done)):
            if paths:
                out.append(f"{label} ({len(paths)}):")
                out.extend(paths_by_directory(paths))
        out += self.summary
        if self.verbose:
            out.append(omitted(self.verbose, "verbose lines"))
        if self.stamps:
            out.append(truncated(self.stamps, "diff-header timestamps"))
        if self.banners:
            out.append(omitted(self.banners, "banner lines"))
        return out
