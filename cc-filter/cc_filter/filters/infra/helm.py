"""helm install / upgrade / lint / template / dependency: the release, its NOTES, every error
and lint finding; rendered manifests as printed until they are genuinely large.

install/upgrade: the release header (`NAME:`, `NAMESPACE:`, `STATUS:`, `REVISION:` …) and
`Release "x" has been upgraded…` stay as printed (eight short lines: dropping the timestamp
would cost more in its marker than it saves). NOTES keep their first 15 lines (the chart's own text: how to reach
the release), the rest counted. `USER-SUPPLIED VALUES:` / `COMPUTED VALUES:` (`--debug`) are
counted, not shown.
lint: `==> Linting <chart>`, every `[WARNING]` and
`[ERROR]` with its tab-indented detail lines, `N chart(s) linted, N chart(s) failed`; `[INFO]`
advice (`icon is recommended`) past the first 3 is counted (fewer cost less than their marker).
template (and the MANIFEST/HOOKS of `install --dry-run`): the manifests are the answer the
agent asked for, so they are kept as printed up to 400 manifest lines; past that, each further
document keeps its `# Source:` line and says `... (N lines of Kind name omitted)`.
dependency: `dependency list`'s table is kept; `update`/`build` keep `Saving N charts`, the
`Downloading x from repo y` lines and every error; the repository refresh chatter (`Hang
tight…`, `...Successfully got an update…`, `Update Complete.`, `Deleting outdated charts`) is
counted. Every line of an unknown shape (warnings such as `coalesce.go:…: warning: …`, `Error:
…`) passes through. `-o json|yaml` output passes untouched. Nothing is injected.
Written against the golden files of helm's own test suite (helm/helm pkg/cmd/testdata/output).
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted, strip_ansi

_NOTES_LIMIT = 15
_INFO_SHOWN = 3  # [INFO] lines shown before they are counted (a marker costs as much as 3)
_MANIFEST_LIMIT = 400
_DEP_CHATTER = ("Hang tight while we grab the latest from your chart repositories",
                "...Successfully got an update from the", "Update Complete.",
                "Deleting outdated charts")


class HelmCommand(Filter):
    name = "helm"
    match_command = r"^helm (install|upgrade|lint|template|dependency|dep)(\s|$)"
    description = "helm install/upgrade/lint/template/dependency: release, NOTES, errors, findings"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = _machine_output(argv)
        self.section = ""  # "", "notes", "values", "manifest"
        self.notes_shown = 0
        self.notes_dropped = 0
        self.values_dropped = 0
        self.info_dropped = 0
        self.chatter_dropped = 0
        self.info_seen = 0
        self.in_finding = False  # the last line was a shown [WARNING]/[ERROR] (tab details follow)
        self.manifest_lines = 0
        self.folding = False  # past the manifest budget
        self.doc_kind = ""
        self.doc_name = ""
        self.doc_lines = 0

    def _flush_section(self):
        out = []
        if self.notes_dropped:
            out.append(omitted(self.notes_dropped, "lines of NOTES"))
            self.notes_dropped = 0
        if self.values_dropped:
            out.append(omitted(self.values_dropped, "lines of values"))
            self.values_dropped = 0
        out.extend(self._flush_doc())
        return out

    # --- manifests -----------------------------------------------------------------------------
    def _flush_doc(self):
        if not self.doc_lines:
            return []
        what = " ".join(w for w in (self.doc_kind, self.doc_name) if w) or "the document"
        count = self.doc_lines
        self.doc_lines, self.doc_kind, self.doc_name = 0, "", ""
        return [omitted(count, f"lines of {what}")]

    def _manifest_line(self, line: str):
        stripped = line.strip()
        if not self.folding and self.manifest_lines >= _MANIFEST_LIMIT and line == "---":
            self.folding = True
        if not self.folding:
            self.manifest_lines += 1
            return [line]
        if line == "---":
            out = self._flush_doc()
            out.append(line)
            return out
        if line.startswith("# Source: "):
            out = self._flush_doc()
            out.append(line)
            return out
        if not stripped:
            return []
        if line.startswith("kind: ") and not self.doc_kind:
            self.doc_kind = line[6:].strip()
        elif line.startswith("  name: ") and not self.doc_name:
            self.doc_name = line[8:].strip().strip('"')
        self.doc_lines += 1
        return []

    # --- lines ---------------------------------------------------------------------------------
    def feed(self, line: str):
        if self.passthrough:
            return (line,)
        line = strip_ansi(line).rstrip()
        stripped = line.strip()
        if self.section == "manifest":
            if line.startswith(("NOTES:", "Error: ")):
                out = self._flush_section()
                self.section = ""
                return out + list(self._line(line, stripped))
            return self._manifest_line(line)
        if not stripped:
            self.in_finding = False
            return ()
        return self._line(line, stripped)

    def _line(self, line: str, stripped: str):
        out = []
        if line in ("NOTES:", "HOOKS:", "MANIFEST:", "USER-SUPPLIED VALUES:", "COMPUTED VALUES:"):
            out.extend(self._flush_section())
            if line == "NOTES:":
                self.section, self.notes_shown = "notes", 0
                out.append(line)
            elif line in ("HOOKS:", "MANIFEST:"):
                self.section = "manifest"
                out.append(line)
            else:
                self.section = "values"
                self.values_dropped += 1
            return out
        if self.section == "values" and not line.startswith("Error: "):
            self.values_dropped += 1
            return out
        if self.section == "notes" and not line.startswith("Error: "):
            if self.notes_shown < _NOTES_LIMIT:
                self.notes_shown += 1
                out.append(line)
            else:
                self.notes_dropped += 1
            return out
        if line == "---" or line.startswith("# Source: "):  # helm template's first document
            self.section = "manifest"
            out.extend(self._manifest_line(line))
            return out
        # lint
        if line.startswith("==> Linting "):
            self.in_finding = False
            return (line,)
        if line.startswith("[INFO] "):
            self.info_seen += 1
            self.in_finding = self.info_seen <= _INFO_SHOWN
            if self.in_finding:
                return (line,)
            self.info_dropped += 1
            return ()
        if line.startswith(("[WARNING] ", "[ERROR] ")):
            self.in_finding = True
            return (line,)
        if self.in_finding and line.startswith("\t"):
            out.append(line)
            return out
        self.in_finding = False
        # dependency update/build
        if stripped.startswith(_DEP_CHATTER):
            self.chatter_dropped += 1
            return out
        out.append(line)
        return out

    def finish(self, exit_code: int):
        out = self._flush_section()
        if self.info_dropped:
            out.append(omitted(self.info_dropped, "[INFO] lines"))
        if self.chatter_dropped:
            out.append(omitted(self.chatter_dropped, "repository update lines"))
        return out


def _machine_output(argv: list[str]) -> bool:
    """`-o json|yaml` / `--output=json`: the caller wants the machine format as printed."""
    for i, word in enumerate(argv):
        if word in ("-o", "--output") and i + 1 < len(argv):
            return argv[i + 1] in ("json", "yaml")
        if word.startswith(("--output=", "-o=")) or (word.startswith("-o") and len(word) > 2):
            return word.split("=", 1)[-1].removeprefix("-o") in ("json", "yaml")
    return False
