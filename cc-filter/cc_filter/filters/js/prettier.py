"""prettier --check / --write / --list-different: the files, each on its own line, whole.

- `--check`: `Checking formatting...` goes; every `[warn] <file>` is listed once, its whole path
  as prettier printed it, under `check failed: code style issues in N files:` (in place of prettier's
  closing `Code style issues found in N files. Run Prettier with --write to fix.`);
  `All matched files use Prettier code style!` stays, as does every `[error]` line (syntax
  errors with their code frame, `No files matching the pattern …`).
- `--write`: one `<file> 12ms` line per file becomes the list of files it changed (whole
  paths) and a count of the `(unchanged)` ones, whose names go (`... (26 unchanged files
  omitted)`: the runner keeps the raw output); the timings go.
- `--list-different`: the listed files.

Paths stay whole, one per line (`src/lib/auth/session.ts`, not `src/lib/auth/: session.ts`):
the agent pastes them into its next command.

Only these forms are routed here: plain `prettier <file>` prints the formatted source, which is
the answer and must not be touched. Nothing is injected. Tested with prettier 3.10 (the
`(unchanged)` marker exists since 3.0; 2.x prints `<file> 12ms` for every file, all listed).
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._paths import relative
from cc_filter.kit.lines import omitted, strip_ansi

_CHECK = ("--check", "-c")
_LIST = ("--list-different", "-l")


def _timing(word: str) -> bool:
    """`12ms`, `1.2s`."""
    number = word[:-2] if word.endswith("ms") else word[:-1] if word.endswith("s") else ""
    return bool(number) and number.replace(".", "", 1).isdigit()


class Prettier(Filter):
    name = "prettier"
    match_command = r"^prettier(\s.*)?\s(--check|-c|--write|-w|--list-different|-l)(\s|$)"
    description = "prettier --check/--write: files grouped by directory, timings dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.check = any(w in _CHECK for w in argv)
        self.listing = any(w in _LIST for w in argv)
        self.files: list[str] = []
        self.unchanged = 0
        self.issues_line = False
        self.tail: list[str] = []

    def feed(self, line: str):
        line = strip_ansi(line)
        if not line.strip() or line == "Checking formatting...":
            return ()
        if line.startswith("[warn] "):
            text = line[7:]
            if text.startswith("Code style issues found in "):
                self.issues_line = True  # its count heads the list instead (see finish)
            elif text.startswith("Code style issues "):
                self.tail.append(line)
            else:
                self.files.append(text)
            return ()
        if line.startswith("[") or self.check:
            return (line,)
        words = line.rsplit(" ", 2)
        if len(words) == 3 and words[2] == "(unchanged)" and _timing(words[1]):
            self.unchanged += 1
            return ()
        words = line.rsplit(" ", 1)
        if len(words) == 2 and _timing(words[1]):
            self.files.append(words[0])
            return ()
        if self.listing and " " not in line.strip():
            self.files.append(line.strip())
            return ()
        return (line,)

    def finish(self, exit_code: int):
        out = []
        if self.files:
            n = len(self.files)
            if self.issues_line:
                out.append(f"check failed: code style issues in {n} file{'' if n == 1 else 's'}:")
            else:
                out.append(f"{'not formatted' if self.check or self.listing else 'formatted'} ({n}):")
            out.extend("  " + relative(path) for path in dict.fromkeys(self.files))
        if self.unchanged:
            out.append(omitted(self.unchanged, "unchanged files"))
        return out + self.tail
