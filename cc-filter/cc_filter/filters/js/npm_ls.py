"""npm ls: the dependency tree with one space per level; repeated (deduped) entries dropped.

npm draws the tree with box characters two columns per level (`│ ├─┬ body-parser@1.20.3`).
The filter keeps every package name@version, one space of indent per level (packages with
no dependencies of their own that follow each other under one parent share a line:
`bytes@3.1.2, destroy@1.2.0`), and every problem marker (`UNMET DEPENDENCY`, `invalid`,
`extraneous`, `UNMET OPTIONAL`, `overridden`).
For a whole-tree listing (`npm ls --all` without package names) the `deduped` entries go: each
names a package already shown elsewhere in the tree with the same version. When the user asks
about packages (`npm ls debug`), every path is the answer and stays. `npm error` lines stay
without the log-file pointer. Both are counted at the end (`... (12 deduped entries
omitted)`, `... (1 log-pointer line omitted)`). `--json` and `--parseable` output passes
through unchanged.

Nothing is injected. Tested with npm 11.19 (the tree format is the same since npm 7).
"""
from cc_filter.kit.lines import TrimmedLineFilter, omitted

_GLYPHS = frozenset("│├└─┬ ")
_PASSTHROUGH = ("--json", "--parseable", "-p", "--long", "-l")
_OPTIONS_WITH_VALUE = ("--depth", "-w", "--workspace", "--omit", "--include")


def _asks_about_packages(argv: list[str]) -> bool:
    words = argv[2:] if len(argv) > 1 else []
    skip = False
    for word in words:
        if skip:
            skip = False
            continue
        if word in _OPTIONS_WITH_VALUE:
            skip = True
            continue
        if not word.startswith("-"):
            return True
    return False


class NpmLs(TrimmedLineFilter):
    name = "npm-ls"
    match_command = r"^npm (ls|list|la|ll)(\s|$)"
    description = "npm ls: compact tree, deduped repeats dropped from whole-tree listings"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(w in _PASSTHROUGH or w.startswith(("--json=", "--parseable="))
                               for w in argv)
        self.drop_deduped = not _asks_about_packages(argv)
        self.deduped = 0
        self.pointers = 0  # `A complete log of this run …` lines dropped
        self.nodes: list[tuple[int, str]] = []  # (depth, "name@version …") of the tree

    def feed_trimmed(self, text: str, stripped: str):
        if text.startswith(("npm error", "npm ERR!")):
            if "A complete log of this run" in text:
                self.pointers += 1
                return ()
            return self._tree() + [text]
        if text[0] not in _GLYPHS:
            return self._tree() + [text]
        start = 0
        while start < len(text) and text[start] in _GLYPHS:
            start += 1
        body = text[start:]
        if not body:
            return ()
        if self.drop_deduped and body.endswith(" deduped") and " " not in body[:-8].strip():
            self.deduped += 1
            return ()
        depth = max(1, (start - 2) // 2)
        self.nodes.append((depth, body))
        return ()

    def _tree(self) -> list[str]:
        """The buffered tree; leaves that follow each other under one parent share a line."""
        out: list[str] = []
        nodes = self.nodes
        last_leaf_depth = 0
        for i, (depth, body) in enumerate(nodes):
            is_leaf = i + 1 == len(nodes) or nodes[i + 1][0] <= depth
            if is_leaf and last_leaf_depth == depth and out:
                out[-1] += f", {body}"
            else:
                out.append(" " * depth + body)
            last_leaf_depth = depth if is_leaf else 0
        self.nodes = []
        return out

    def finish(self, exit_code: int):
        out = self._tree()
        if self.deduped:
            out.append(omitted(self.deduped, "deduped entries"))
        if self.pointers:
            out.append(omitted(self.pointers, "log-pointer lines"))
        return out
