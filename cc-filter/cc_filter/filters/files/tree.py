"""tree: the same structure, one line per directory — `src/shop/: {a,b,c}.py README.md`.

The drawing (`│   ├── `) becomes one line per directory with the names directly in it (as
find's grouping does: shell-quoted when needed, `{a,b,c}.py` for three or more names sharing an
extension, `link -> target` kept); a directory that has entries of its own gets its own line
instead of appearing in its parent's. Cache and dependency directories (`node_modules`,
`__pycache__`, `.git`, `.venv`, `.tox`, `.mypy_cache`, `.pytest_cache`, `.ruff_cache`) are shown
by name, their contents left out with a marker line under their parent's line,
`... (N entries under node_modules/ omitted)`. The closing `N directories, M
files` line is kept, and so are errors. Outputs that are not a drawing (`-J`, `-X`, `-H`,
`-i`, `-f`) and drawings with per-entry details (`-p`, `-s`, `-h`, `-u`, `-g`, `-D`, `--du`)
pass through unchanged.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters.files.find import PathGroups
from cc_filter.kit.lines import omitted, strip_ansi

NOISE_DIRS = frozenset(("node_modules", "__pycache__", ".git", ".venv", "venv", ".tox",
                        ".mypy_cache", ".pytest_cache", ".ruff_cache"))
_CONNECTORS = ("├── ", "└── ", "|-- ", "`-- ")
_PASSTHROUGH_LETTERS = frozenset("JXHifpsugDQ")


def _passthrough(argv: list[str]) -> bool:
    for a in argv[1:]:
        if a.startswith("--"):
            if a.split("=")[0] in ("--du", "--json", "--xml", "--html", "--noindent", "--fullpath"):
                return True
        elif a.startswith("-") and set(a[1:]) & _PASSTHROUGH_LETTERS:
            return True
        elif a == "-h":
            return True
    return False


def _entry(line: str):
    """`│   ├── name` → (depth, name); None for a line that is not an entry."""
    best = -1
    for connector in _CONNECTORS:
        at = line.find(connector)
        if at >= 0 and (best < 0 or at < best):
            best = at
    if best < 0 or best % 4:
        return None
    return best // 4, line[best + 4:]


class Tree(Filter):
    name = "tree"
    match_command = r"^tree(\s|$)"
    description = "tree: one line per directory with its names, caches summarised"

    def __init__(self, argv):
        super().__init__(argv)
        self.passthrough = _passthrough(argv)
        self.groups = PathGroups()
        self.root: str | None = None
        self.stack: list[str] = []  # directory paths by depth
        self.pending = None  # (depth, name): the previous entry, a directory if the next is deeper
        self.noise_depth = -1
        self.noise_count = 0
        self.noise_path = ""
        self.tail: list[str] = []
        self.dropped = False

    def _prefix(self, depth: int) -> str:
        return self.stack[depth - 1] + "/" if depth > 0 else (
            "" if self.root in (None, ".") else self.root.rstrip("/") + "/")

    def _settle(self, next_depth: int) -> None:
        """Decide what the pending entry was, now that the next entry's depth is known."""
        if self.pending is None:
            return
        depth, name = self.pending
        self.pending = None
        del self.stack[depth:]
        target = ""
        if " -> " in name:
            name, _, target = name.partition(" -> ")
        path = self._prefix(depth) + name
        if next_depth > depth:  # a directory with entries: its own line
            self.stack.append(path)
            if name in NOISE_DIRS:
                self.noise_depth = depth
                self.noise_path = path
                self.noise_count = 0
            return
        self.groups.add(path, f" -> {target}" if target else "")

    def _end_noise(self) -> None:
        if self.noise_depth >= 0:
            name = self.noise_path.rpartition("/")[2]
            self.groups.add(self.noise_path + "/", marker=omitted(
                self.noise_count, f"entr{'y' if self.noise_count == 1 else 'ies'} under {name}/"))
            self.dropped = True
            self.noise_depth = -1

    def feed(self, line):
        if self.passthrough:
            return [line]
        line = strip_ansi(line)
        entry = _entry(line)
        if entry is None:
            if self.root is None and line and not self.tail:
                self.root = line
                if "[error opening dir]" in line:
                    self.tail.append(line)
                return []
            if line:
                self.tail.append(line)
            return []
        depth, name = entry
        if self.noise_depth >= 0:
            if depth > self.noise_depth:
                self.noise_count += 1
                return []
            self._end_noise()
        self._settle(depth)
        if self.noise_depth >= 0 and depth > self.noise_depth:  # the first entry of a cache dir
            self.noise_count += 1
            return []
        self.pending = entry
        return []

    def finish(self, exit_code):
        if self.passthrough:
            return []
        self._settle(-1)
        self._end_noise()
        out = self.groups.render() + self.tail
        self.dropped = self.dropped or self.groups.dropped
        return out
