"""find: paths grouped by directory — `dir/: a.py b.py c.py` — every path kept, errors kept.

A result list of more than `GROUP_MIN` paths is grouped: one line per directory, in the order
find reached it, with the names found directly in it (names with spaces or quotes are
single-quoted; three or more names with one extension are written `{a,b,c}.py`, shell brace
syntax that expands back to exactly those names). A directory with more than `NAMES_LIMIT` names keeps the first ones and says
`+N more names` on a line of its own under it; the paths of directories past `DIR_LIMIT` are
left out with `... (N paths in M more directories omitted)` at the end (the runner's tee keeps
the full list). Errors (`find: 'x': Permission denied`) come after the list, unchanged.
Actions whose output is not a path list (`-exec`, `-ls`, `-printf`, `-print0`, `-delete`, …)
pass through unchanged; so do short lists.

`PathGroups` is shared with the tree filter.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted, strip_ansi

GROUP_MIN = 12
NAMES_LIMIT = 60
DIR_LIMIT = 400
_ACTIONS = ("-exec", "-execdir", "-ok", "-okdir", "-ls", "-fls", "-printf", "-fprintf",
            "-print0", "-fprint", "-fprint0", "-delete")
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789._-+/@%,=:~")


def brace_names(names: list[str]) -> str:
    """`a.py b.py c.py README` → `{a,b,c}.py README`: names sharing an extension (3 or more)
    are written once with shell brace syntax, which expands back to exactly the same names."""
    by_ext: dict[str, list[str]] = {}
    for name in names:
        stem, dot, ext = name.rpartition(".")
        if dot and stem and "/" not in ext and all(c in _SAFE and c not in ",{}" for c in name):
            by_ext.setdefault(ext, []).append(stem)
    out: list[str] = []
    done: set[str] = set()
    for name in names:
        stem, dot, ext = name.rpartition(".")
        stems = by_ext.get(ext) if dot and stem else None
        if stems is not None and len(stems) >= 3 and stem in stems:
            if ext not in done:
                done.add(ext)
                out.append("{" + ",".join(stems) + "}." + ext)
        else:
            out.append(name)
    return " ".join(out)


def shell_word(name: str) -> str:
    """The name as a shell word: as is when plain, else single-quoted."""
    if name and all(c in _SAFE for c in name):
        return name
    return "'" + name.replace("'", "'\\''") + "'"


class PathGroups:
    """Collects paths; renders one `dir/: names` line per directory (bounded memory)."""

    __slots__ = ("dirs", "hidden_dirs", "hidden_paths", "dropped", "markers")

    def __init__(self):
        self.dirs: dict[str, list] = {}  # dir -> [names, count], in first-seen order
        self.hidden_dirs: set[str] = set()  # past DIR_LIMIT (only counted)
        self.hidden_paths = 0
        self.dropped = False
        self.markers: dict[str, list[str]] = {}  # dir -> marker lines shown under its line

    def add(self, path: str, note: str = "", marker: str = "") -> None:
        """One path (`note` appended to its name); `marker`: an omission marker line shown
        under its directory's line (tree's `... (N entries under node_modules/ omitted)`)."""
        head, sep, name = path.rstrip("/").rpartition("/")
        key = head + "/" if sep else ""
        if path.endswith("/") and path != "/":
            name += "/"
        entry = self.dirs.get(key)
        if entry is None:
            if len(self.dirs) >= DIR_LIMIT:
                if len(self.hidden_dirs) < 100_000:  # bounded: the count stays a lower bound
                    self.hidden_dirs.add(key)
                self.hidden_paths += 1
                self.dropped = True
                return
            entry = self.dirs[key] = [[], 0]
        entry[1] += 1
        if len(entry[0]) < NAMES_LIMIT:
            entry[0].append(shell_word(name) + note)
            if marker:
                self.markers.setdefault(key, []).append(marker)

    def render(self) -> list[str]:
        out = []
        for key, (names, count) in self.dirs.items():
            text = brace_names(names)
            out.append(f"{key}: {text}" if key else text)
            if count > len(names):  # a marker line of its own: one per left-out path
                self.dropped = True
                out.append(f"  +{count - len(names)} more names")
            out.extend("  " + m for m in self.markers.get(key, ()))
        if self.hidden_paths:
            dirs = len(self.hidden_dirs)
            out.append(omitted(self.hidden_paths, f"paths in {dirs} more "
                                                  f"director{'y' if dirs == 1 else 'ies'}"))
        return out


class Find(Filter):
    name = "find"
    match_command = r"^find(\s|$)"
    description = "find: paths grouped by directory, errors kept"

    def __init__(self, argv):
        super().__init__(argv)
        self.passthrough = any(a in _ACTIONS for a in argv[1:])
        self.paths: list[str] = []
        self.groups: PathGroups | None = None
        self.errors: list[str] = []
        self.dropped = False

    def feed(self, line):
        if self.passthrough:
            return [line]
        line = strip_ansi(line)
        if line.startswith("find: "):
            self.errors.append(line)
            return []
        if self.groups is None:
            self.paths.append(line)
            if len(self.paths) > GROUP_MIN:
                self.groups = PathGroups()
                for path in self.paths:
                    self.groups.add(path)
                self.paths = []
        else:
            self.groups.add(line)
        return []

    def finish(self, exit_code):
        if self.passthrough:
            return []
        if self.groups is None:
            return self.paths + self.errors
        out = self.groups.render()
        self.dropped = self.groups.dropped
        return out + self.errors
