"""helm and firebase filters: the parts their published/captured fixtures are too short to show
(manifest folding past the budget, NOTES and [INFO] caps, machine formats, firebase's error
tail). Long inputs are built by repeating the real fixture text, never written by hand."""
import os

from cc_filter.filters.infra.firebase import Firebase
from cc_filter.filters.infra.helm import HelmCommand

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "fixtures", "infra")


def _lines(case: str, tool: str = "helm") -> list[str]:
    with open(os.path.join(FIXTURES, tool, case + ".out"), encoding="utf-8") as f:
        return f.read().split("\n")


def _run(cls, argv, lines, code=0):
    return list(cls(argv).run(lines, code))


def test_template_under_budget_is_verbatim():
    lines = _lines("template-success")
    out = _run(HelmCommand, ["helm", "template", "x"], lines)
    assert [l for l in out if l.strip()] == [l for l in lines if l.strip()]


def test_template_over_budget_folds_each_document_with_a_count():
    doc = _lines("template-success")
    lines = doc * 12  # 12 × 121 lines of real manifests: far past the 400-line budget
    out = _run(HelmCommand, ["helm", "template", "x"], lines)
    assert len(out) < 0.6 * len(lines)
    assert out[:len(doc) - 1] == doc[:len(doc) - 1]  # the first renders stay whole
    folded = [l for l in out if l.startswith("... (") and l.endswith(" omitted)")]
    assert "... (15 lines of Service subcharta omitted)" in folded
    assert "... (4 lines of ServiceAccount subchart-sa omitted)" in folded
    # every # Source: line survives, in order
    assert [l for l in out if l.startswith("# Source: ")] == \
        [l for l in lines if l.startswith("# Source: ")]
    # counted lines + shown lines account for every non-blank raw line
    shown = sum(1 for l in out if l.strip() and not l.startswith("... ("))
    counted = sum(int(l.split("(")[1].split()[0]) for l in folded)
    assert shown + counted == sum(1 for l in lines if l.strip())


def test_error_after_manifest_is_kept():
    lines = _lines("template-success") * 5 + _lines("template-invalid-yaml")
    out = _run(HelmCommand, ["helm", "template", "x"], lines, 1)
    assert any(l.startswith("Error: YAML parse error on chart-with-template") for l in out)


def test_notes_are_capped_and_counted():
    header = _lines("upgrade-success")
    notes = ["NOTES:"] + [f"{i}. " + l for i, l in enumerate(_lines("lint-subcharts-failed"))
                          if l.strip()]
    out = _run(HelmCommand, ["helm", "upgrade", "web", "./chart"], header + notes)
    assert "STATUS: deployed" in out and "NOTES:" in out
    body = len(notes) - 1
    assert f"... ({body - 15} lines of NOTES omitted)" in out


def test_info_lines_past_three_are_counted_warnings_never():
    lines = _lines("lint-subcharts-failed") * 3
    out = _run(HelmCommand, ["helm", "lint", "x"], lines, 1)
    infos = sum(1 for l in lines if l.startswith("[INFO] "))
    assert sum(1 for l in out if l.startswith("[INFO] ")) == 3
    assert f"... ({infos - 3} [INFO] lines omitted)" in out
    assert sum(1 for l in out if l.startswith(("[WARNING] ", "[ERROR] "))) == \
        sum(1 for l in lines if l.startswith(("[WARNING] ", "[ERROR] ")))
    assert "\tvalidation: chart.metadata.name is required" in out


def test_helm_machine_output_passes_untouched():
    lines = _lines("lint-subcharts-failed")
    for argv in (["helm", "install", "x", "c", "-o", "json"], ["helm", "upgrade", "--output=yaml"]):
        assert _run(HelmCommand, argv, lines) == lines


def test_firebase_keeps_everything_after_an_error():
    lines = _lines("deploy-bad-config", "firebase")
    out = _run(Firebase, ["firebase", "deploy"], lines, 1)
    assert out == [l for l in lines if l.strip()]


def test_firebase_debug_passes_untouched():
    lines = _lines("hosting-channel-deploy", "firebase")
    assert _run(Firebase, ["firebase", "deploy", "--debug"], lines) == lines


def test_firebase_counts_progress_in_place():
    lines = _lines("hosting-channel-deploy", "firebase")
    out = _run(Firebase, ["firebase", "hosting:channel:deploy", "basic"], lines)
    assert out[1] == "... (7 progress lines omitted)"
    assert "Hosting URL: https://PROJECT_ID.web.app" in out
