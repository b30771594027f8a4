"""make: what the recipes said when something failed, compiler diagnostics, make's own verdict.

Keeps: make's messages (`make: *** [Makefile:12: build/div.o] Error 1`, `No rule to make
target`, `Nothing to be done for …`, `… is up to date`, `Target … not remade because of
errors`) verbatim; compiler diagnostics grouped as the gcc filter shows them; the recipes' own
output in full when make failed (capped at 200 lines with one marker), and its last 10 lines
when make succeeded (`... (N lines of recipe output omitted)` above them); a success that would
show nothing but markers keeps its last step (the last echoed command, cmake's and ninja's last
progress line: `[14/14] Linking C executable test_parse`), so the answer says what was done.
Drops, and counts in one marker per kind at the end: `make[1]: Entering / Leaving directory`
lines, echoed compiler / archiver / file commands (`cc -Wall -c src/x.c -o build/x.o`, `ar rcs
…`, `mkdir -p build`, `rm -f …`) and kbuild-style progress (`  CC      kernel/fork.o`) as
`... (21 echoed build commands omitted)`, and the diagnostics' excerpts and notes (`_ccdiag.py`).
Passes everything through for `-n` / `--dry-run` / `-p` / `--print-data-base` / `--help` /
`-v` / `--version` / `-q` (the user asked for the commands or make's own report).
Injects nothing. Tested with GNU Make 4.3 (Debian bookworm) with gcc 12.2 recipes: builds,
`make test` recipes passing and failing, recursive `make -C`, `-k`, a missing target.
"""
from cc_filter.filters._tally import Tally
from cc_filter.filters.c._ccdiag import CDiagnostics
from cc_filter.kit.lines import TrimmedLineFilter, omitted

_PASSTHROUGH = frozenset(("-n", "--dry-run", "--just-print", "--recon", "-p", "--print-data-base",
                          "--help", "-h", "-v", "--version", "-q", "--question"))
_TOOLS = frozenset((
    "cc", "gcc", "g++", "c++", "clang", "clang++", "ld", "ar", "ranlib", "as", "nasm", "strip",
    "objcopy", "mkdir", "rm", "cp", "mv", "ln", "install", "touch", "chmod", "libtool", "ccache",
    "windres", "rustc", "javac", "protoc", "bison", "flex", "yacc", "lex", "sed", "m4", "tar",
))
_KBUILD = frozenset(("CC", "CXX", "LD", "AR", "AS", "CCLD", "CXXLD", "GEN", "HOSTCC", "HOSTLD",
                     "LINK", "INSTALL", "STRIP", "OBJCOPY", "CHK", "UPD", "MKDIR", "RM"))
DIRECTORIES = "Entering/Leaving directory lines"
_FAILED_LIMIT = 200
_SUCCESS_TAIL = 10


def _make_message(stripped: str) -> bool:
    if not stripped.startswith(("make", "gmake")):
        return False
    head = stripped.split(":", 1)[0]
    return head in ("make", "gmake") or (
        head.startswith(("make[", "gmake[")) and head.endswith("]"))


def _build_command(stripped: str) -> bool:
    """An echoed recipe command of a compiler / archiver / file tool, or a kbuild progress line."""
    words = stripped.split()
    if not words:
        return False
    first = words[0]
    if "=" in first and len(words) > 1 and not first.startswith("-"):
        first = words[1]  # `CC=gcc gcc -c …`
    tool = first.rsplit("/", 1)[-1]
    if tool in _TOOLS or tool.endswith(("-gcc", "-g++", "-ld", "-ar", "-cc")) or (
            tool.startswith(("gcc-", "g++-", "clang-", "clang++-")) and tool[-1].isdigit()):
        return len(words) > 1
    return len(words) == 2 and words[0] in _KBUILD


class Make(TrimmedLineFilter):
    name = "make"
    match_command = r"^(make|gmake)(\s|$)"
    description = "make: recipe output on failure, diagnostics grouped, commands and dirs dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in _PASSTHROUGH for a in argv)
        self.tally = Tally()
        self.progress: dict[str, int] = {}  # cmake / ninja: `Building` … → progress lines
        self.diagnostics = CDiagnostics(self.tally)
        self.output: list[str] = []  # recipe output, in order
        self.output_dropped = 0
        self.recent: list[str] = []  # the last lines past the cap (a success shows its tail)
        self.messages: list[tuple[int, str]] = []  # (line number in the recipe output, text)
        # the last echoed command / progress line: a success that shows nothing else keeps it
        self.last_step: tuple[str, str] | None = None  # (kind it was counted as, line)

    def feed_trimmed(self, line: str, stripped: str):
        if _make_message(stripped):
            if "Entering directory" in stripped or "Leaving directory" in stripped:
                self.tally.add(DIRECTORIES)
                return
            self.messages.append((len(self.output) + self.output_dropped, stripped))
            self.diagnostics.interrupt()
            return
        if self.diagnostics.feed(line):
            return
        if _build_command(stripped):
            self.tally.add("echoed build commands")
            self.last_step = ("echoed build commands", stripped)
            return
        if len(self.output) < _FAILED_LIMIT:
            self.output.append(line)
        else:
            self.output_dropped += 1
            self.recent.append(line)
            if len(self.recent) > 4 * _SUCCESS_TAIL:
                del self.recent[:-_SUCCESS_TAIL]

    def finish(self, exit_code: int):
        if exit_code == 0 and not self.output and not self.messages and self.last_step:
            # nothing else says it succeeded: the last step done does (`[14/14] Linking C
            # executable app`, `[100%] Built target app`, `cc -o app main.o`)
            kind, line = self.last_step
            if kind in self.progress:
                self.progress[kind] -= 1
                if not self.progress[kind]:
                    del self.progress[kind]
            else:
                self.tally.counts[kind] -= 1
                if not self.tally.counts[kind]:
                    del self.tally.counts[kind]
            self.messages.append((0, line))
        output = self.output
        total = len(output) + self.output_dropped
        if exit_code == 0 and total > _SUCCESS_TAIL:
            cut = total - _SUCCESS_TAIL
            yield omitted(cut, "lines of recipe output")
            output = (output + self.recent[-_SUCCESS_TAIL:])[-_SUCCESS_TAIL:]
            messages = [(max(0, at - cut), text) for at, text in self.messages]
        else:
            messages = self.messages
        yield from self.diagnostics.finish(markers=False)
        at = 0
        for position, text in messages:
            while at < min(position, len(output)):
                yield output[at]
                at += 1
            yield text
        while at < len(output):
            yield output[at]
            at += 1
        if exit_code != 0 and self.output_dropped:
            yield omitted(self.output_dropped, "more lines of recipe output")
        if self.progress:
            yield omitted(sum(self.progress.values()), "/".join(self.progress) + " lines")
        yield from self.tally.markers()
