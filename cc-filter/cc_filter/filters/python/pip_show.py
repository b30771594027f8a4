"""pip show: the facts about each package; empty fields and compiled files dropped.

Kept: every field with a value (`Name`, `Version`, `Summary`, `Location`, `Requires`,
`Required-by`, `License`, …) except `Author-email` and `Home-page`, the `---` separator
between packages, `WARNING: Package(s) not found: …`. Dropped: empty fields
(`Required-by: ` with nothing after it). With `-f`, the file list is grouped by directory
(`dateutil/parser/*.py: __init__ _parser isoparser`) and the compiled `__pycache__/*.pyc`
files are counted, not listed (`  ... (18 compiled __pycache__ files omitted)`). The dropped
fields are counted at the end: `... (3 empty/author-email/home-page fields omitted)`.
Nothing is injected. Tested with pip 23.2 and 26.3.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._paths import paths_by_directory
from cc_filter.kit.lines import omitted, strip_ansi

_DROPPED_FIELDS = ("Author-email:", "Home-page:", "Metadata-Version:")


class PipShow(Filter):
    name = "pip-show"
    match_command = r"^pip3?(\.\d+)? show(\s|$)"
    description = "pip show: fields with values, file lists grouped by directory"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.files: list[str] | None = None
        self.compiled = 0
        self.fields = 0  # empty / Author-email / Home-page / Metadata-Version fields dropped

    def _end_files(self) -> list[str]:
        if self.files is None:
            return []
        out = ["Files:"] + paths_by_directory(self.files)
        if self.compiled:
            out.append("  " + omitted(self.compiled, "compiled __pycache__ files"))
        self.files, self.compiled = None, 0
        return out

    def feed(self, line: str):
        text = strip_ansi(line)
        if self.files is not None:
            if text.startswith("  "):
                path = text.strip()
                if "__pycache__/" in path and path.endswith(".pyc"):
                    self.compiled += 1
                else:
                    self.files.append(path)
                return ()
            out = self._end_files()
        else:
            out = []
        if text == "Files:":
            self.files = []
            return out
        field, sep, value = text.partition(":")
        if sep and " " not in field and not text.startswith(" "):
            if not value.strip() or text.startswith(_DROPPED_FIELDS):
                self.fields += 1
                return out
        out.append(text)
        return out

    def finish(self, exit_code: int):
        out = self._end_files()
        if self.fields:
            out.append(omitted(self.fields, "empty/author-email/home-page fields"))
        return out
