"""npm install / ci / add / update / uninstall: the change summary, warnings and errors.

Kept: `added 104 packages` (timing dropped), `up to date, audited …`, `removed …`, `changed …`,
every `npm warn` line (deprecations included), the vulnerability count, and every
`npm error` with its explanation — ERESOLVE's `Found:`/`Could not resolve dependency:` lines,
EUSAGE's message. Dropped: blank lines, funding lines (`21 packages are looking for funding`,
`run \\`npm fund\\``), `npm notice` lines, audit advice (`To address all issues…`, `npm audit
fix`, `Run \\`npm audit\\` for details.`), the usage text npm appends to EUSAGE (from `Usage:`
on, plus the one-line command description before it), the `A complete log of this run…`
pointer to npm's debug log. Each kind is counted at the end (`... (2 funding/advice lines
omitted)`, `usage lines`, `log-pointer lines`). The error's first line keeps its `npm error` prefix, its other
lines are indented under it with their own indentation (ERESOLVE's dependency chain nests),
and `For a full report see: <path>` stays on one line: the report holds the whole tree.

Nothing is injected. Tested with npm 11.19 (npm ≤ 8 prints `npm ERR!`; it is read the same).
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted, strip_ansi

_ERROR_PREFIXES = ("npm error", "npm ERR!")
_NOISE = ("npm notice", "run `npm fund` for details", "To address all issues", "To address issues",
          "npm audit fix", "Run `npm audit` for details.", "Some issues need review")
_LOG_POINTERS = ("A complete log of this run can be found in", "Log files were not written")
_REPORT = "For a full report see:"


def _drop_timing(text: str) -> str:
    """`added 104 packages in 15s` → `added 104 packages`."""
    head, sep, tail = text.rpartition(" in ")
    if sep and tail[:1].isdigit() and tail.rstrip("ms").replace(".", "").isdigit():
        return head
    return text


class NpmInstall(Filter):
    name = "npm-install"
    match_command = (r"^npm (install|i|in|ins|isntall|add|ci|clean-install|install-clean|"
                     r"update|up|upgrade|uninstall|un|remove|rm|r|unlink)(\s|$)")
    description = "npm install/ci: change summary, warnings and errors; funding and usage text dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.errors: list[str] = []  # error message lines, prefix removed ("" = paragraph break)
        self.counts: dict[str, int] = {}

    def _count(self, kind: str, n: int = 1) -> None:
        if n:
            self.counts[kind] = self.counts.get(kind, 0) + n

    def _counted(self) -> list[str]:
        return [omitted(n, kind) for kind, n in self.counts.items()]

    def feed(self, line: str):
        text = strip_ansi(line).rstrip()
        for prefix in _ERROR_PREFIXES:
            if text.startswith(prefix):
                rest = text[len(prefix):]
                self.errors.append(rest[1:] if rest.startswith(" ") else rest.strip())
                return ()
        stripped = text.strip()
        if not stripped:
            return ()
        if stripped.startswith(_NOISE) or " looking for funding" in stripped:
            self._count("funding/advice lines")
            return ()
        if stripped.startswith(("added ", "removed ", "changed ", "up to date", "audited ")):
            return (_drop_timing(stripped),)
        return (text,)

    def finish(self, exit_code: int):
        if not self.errors:
            return self._counted()
        paragraphs: list[list[str]] = [[]]
        for text in self.errors:
            if text:
                paragraphs[-1].append(text)
            elif paragraphs[-1]:
                paragraphs.append([])
        for i, paragraph in enumerate(paragraphs):
            if paragraph and paragraph[0] == "Usage:":
                # EUSAGE appends the command's help: its one-line description, usage, options
                if i > 0 and len(paragraphs[i - 1]) == 1:
                    i -= 1
                usage = sum(len(p) for p in paragraphs[i:])
                pointers = sum(1 for p in paragraphs[i:] for t in p if t.startswith(_LOG_POINTERS))
                self._count("usage lines", usage - pointers)
                self._count("log-pointer lines", pointers)
                paragraphs = paragraphs[:i]
                break
        lines = []
        skip_next = join_next = False
        for paragraph in paragraphs:
            for text in paragraph:
                if join_next:
                    join_next = False
                    if text.startswith("/") or ":\\" in text:
                        lines[-1] += " " + text.strip()
                        continue
                if skip_next:
                    skip_next = False
                    if text.startswith("/") or ":\\" in text:
                        self._count("log-pointer lines")
                        continue
                if text.startswith(_REPORT):
                    lines.append(text.strip())
                    join_next = text.strip() == _REPORT
                    continue
                if text.startswith(_LOG_POINTERS):
                    skip_next = text.endswith(":")
                    self._count("log-pointer lines")
                    continue
                lines.append(text)
        if not lines:
            return self._counted()
        return [f"npm error {lines[0]}"] + [f"  {text}" for text in lines[1:]] + self._counted()
