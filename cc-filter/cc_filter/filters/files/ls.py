"""ls: long listings without the columns nobody reads, recursive listings one line per directory.

`-l` (`-la`, `-lh`, …): each entry becomes `name  size` (`name/` for a directory, `name ->
target` for a link, `name*` for an executable); the columns dropped from every entry line are
the link count, owner, group, date and mode — except what is unusual: a mode other than the
usual `rw-r--r--`/`rwxr-xr-x` family is kept as `[drwx------]`, an owner:group other than the
listing's first one is kept, and dates are kept when the listing is sorted by time (`-t`).
The `total N`, `.` and `..` lines go, counted by one `... (N total/./.. lines omitted)` at
the end.
`-R`: one `dir/: names` line per directory (`{a,b,c}.py` for names sharing an extension), with
cache and dependency directories (`node_modules`, `__pycache__`, …) shown by name and their
listing (its entries and its subdirectories' headers) left out, counted by one line at the
end: `... (101 lines inside 4 __pycache__/ and 1 node_modules/ omitted)`. A directory past `NAMES_LIMIT` names says `+N more names` under its
line; sections past `SECTION_LIMIT` end with `... (N lines of M more directories omitted)`.
Errors pass unchanged. Plain `ls` is already one name per line: it passes through, as does any
option this filter does not know (`-i`, `-s`, `-n`, `--full-time`, …).
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters.files.find import brace_names, shell_word
from cc_filter.filters.files.tree import NOISE_DIRS
from cc_filter.kit.lines import omitted, strip_ansi

NAMES_LIMIT = 80
SECTION_LIMIT = 500

_KNOWN_LETTERS = frozenset("alAhFptrSR1dXUvcuLHG")
_KNOWN_LONG = ("--all", "--almost-all", "--human-readable", "--classify", "--recursive",
               "--reverse", "--color", "--group-directories-first", "--sort", "--time",
               "--no-group", "--dereference", "--directory", "--si")
_USUAL_MODES = frozenset(("-rw-r--r--", "-rw-rw-r--", "-rwxr-xr-x", "-rwxrwxr-x", "drwxr-xr-x",
                          "drwxrwxr-x", "lrwxrwxrwx"))
_MONTHS = frozenset(("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct",
                     "Nov", "Dec"))


def _options(argv: list[str]):
    """(letters, known) for the ls options in argv."""
    letters: set[str] = set()
    known = True
    for a in argv[1:]:
        if a == "--":
            break
        if a.startswith("--"):
            if a.startswith(_KNOWN_LONG):
                if a.startswith(("--all", "--almost-all")):
                    letters.add("a")
                elif a.startswith("--recursive"):
                    letters.add("R")
                elif a.startswith("--time"):
                    letters.add("t")
            else:
                known = False
        elif a.startswith("-") and len(a) > 1:
            letters.update(a[1:])
    if letters - _KNOWN_LETTERS:
        known = False
    return letters, known


def _section_key(header: str) -> str:
    """`./src/shop:` → `src/shop`; `.:` → ``."""
    key = header.rstrip(":").rstrip("/")
    if key.startswith("./"):
        key = key[2:]
    return "" if key == "." else key


def _noise_root(key: str) -> str | None:
    """`web/node_modules/lodash` → `web/node_modules` (the outermost cache directory)."""
    parts = key.split("/")
    for i, part in enumerate(parts):
        if part in NOISE_DIRS:
            return "/".join(parts[:i + 1])
    return None


class Ls(Filter):
    name = "ls"
    match_command = r"^ls(\s|$)"
    description = "ls: -l without the noise columns, -R one line per directory"

    def __init__(self, argv):
        super().__init__(argv)
        letters, known = _options(argv)
        self.long = known and "l" in letters
        self.recursive = known and "R" in letters
        self.by_time = bool(letters & {"t", "c", "u"})
        self.section: str | None = None
        self.names: list[str] = []
        self.owner: str | None = None
        self.section_count = 0
        self.sections: list[tuple] = []
        self.noise: dict[str, list[int]] = {}  # cache dir -> [raw lines, entries]
        self.hidden_sections = 0
        self.hidden_lines = 0  # raw lines of the sections past SECTION_LIMIT
        self.skipped = 0  # `total N`, `.` and `..` lines
        self.dropped = False

    # -- long entries -----------------------------------------------------------------------
    def _long_entry(self, line: str) -> str | None:
        parts = line.split(None, 8)
        if len(parts) < 9 or len(parts[0]) < 10 or parts[0][0] not in "-dlbcps":
            return None
        mode, _, owner, group, size, month, day, when, name = parts
        if month not in _MONTHS:
            return None
        if name in (".", ".."):
            return ""
        kind = mode[0]
        target = ""
        if kind == "l" and " -> " in name:
            name, _, target = name.partition(" -> ")
        text = shell_word(name)
        if kind == "d":
            text += "/"
        elif kind == "l":
            text += " -> " + target
        elif kind == "-":
            if "x" in mode[1:10]:
                text += "*"
            text += "  " + size
        else:  # devices, sockets, pipes: keep what ls said about them
            text += f"  {mode[:10]} {size}"
        if mode[:10] not in _USUAL_MODES and kind in "-d":
            text += f" [{mode}]"
        who = f"{owner}:{group}"
        if self.owner is None:
            self.owner = who
        elif who != self.owner:
            text += " " + who
        if self.by_time:
            text += f" {month} {day} {when}"
        return text

    # -- sections ---------------------------------------------------------------------------
    def _end_section(self) -> list[str]:
        """Close the current section; long listings print at once, recursive ones at the end
        (a cache directory's count is only known after its own sections)."""
        names, self.names = self.names, []
        section, self.section = self.section, None
        if section is None and not self.recursive:
            return names
        key = _section_key(section or ".")
        if self.recursive:
            noise = _noise_root(key)
            if noise is not None:  # its header and entries
                counts = self.noise.setdefault(noise, [0, 0])
                counts[0] += self.section_count + 1
                counts[1] += self.section_count
                return []
            if len(self.sections) >= SECTION_LIMIT:
                self.hidden_sections += 1
                self.hidden_lines += self.section_count + 1
                return []
            self.sections.append((key, names, self.section_count))
            return []
        out = [f"{key}/:" if key else ".:"]
        out.extend("  " + n for n in names)
        return out

    def _render_recursive(self) -> list[str]:
        out = []
        for key, names, count in self.sections:
            prefix = key + "/" if key else ""
            shown = []
            for name in names:
                bare = name.split("  ", 1)[0].rstrip("/")
                if prefix + bare in self.noise:
                    name = bare + "/"
                shown.append(name)
            if self.long:
                out.append(f"{prefix}:" if prefix else ".:")
                out.extend("  " + n for n in shown)
            else:
                out.append(f"{prefix}: {brace_names(shown)}" if prefix else brace_names(shown))
            if count > len(names):
                self.dropped = True
                out.append(f"  +{count - len(names)} more names")
        if self.noise:  # one summary: `... (101 lines inside 4 __pycache__/ and 1 node_modules/ omitted)`
            self.dropped = True
            kinds: dict[str, int] = {}
            for path in self.noise:
                base = path.rpartition("/")[2] + "/"
                kinds[base] = kinds.get(base, 0) + 1
            what = " and ".join(f"{n} {base}" for base, n in kinds.items())
            out.append(omitted(sum(lines for lines, _ in self.noise.values()), f"lines inside {what}"))
        if self.hidden_sections:
            self.dropped = True
            dirs = self.hidden_sections
            out.append(omitted(self.hidden_lines, f"lines of {dirs} more "
                                                  f"director{'y' if dirs == 1 else 'ies'}"))
        return out

    def feed(self, line):
        if not (self.long or self.recursive):
            return [line]
        line = strip_ansi(line)
        if not line:
            return []
        if line.startswith("total ") and line[6:].replace(".", "").rstrip("KMGTkB").isdigit():
            self.skipped += 1
            return []
        if line.endswith(":") and not line.startswith(("ls: ", "total ")) and (
                self.section is not None or not self.names):
            out = self._end_section() if (self.section is not None or self.names) else []
            self.section = line
            self.section_count = 0
            self.owner = None
            return out
        if line.startswith("ls: "):
            return [line]
        if self.long:
            entry = self._long_entry(line)
            if entry is None:  # a device ("1, 3" size) or a shape we do not know: as it is
                self._add(line)
                return []
            if entry:
                self._add(entry)
            else:
                self.skipped += 1
            return []
        self._add(line)
        return []

    def _add(self, name: str) -> None:
        self.section_count += 1
        if not self.recursive or len(self.names) < NAMES_LIMIT:
            self.names.append(name)

    def finish(self, exit_code):
        if not (self.long or self.recursive):
            return []
        out = self._end_section()
        if self.recursive:
            out += self._render_recursive()
        if self.skipped:
            self.dropped = True
            out.append(omitted(self.skipped, "total/./.. lines"))
        return out
