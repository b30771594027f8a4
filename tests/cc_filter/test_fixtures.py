"""The fixture harness (ARCHITECTURE §6.5): every tests/fixtures/<ecosystem>/<filter>/<case>.toml +
<case>.out, the ecosystem folder mirroring the filter's (cc_filter/filters/<ecosystem>/).

Each case's raw output goes through its filter under the runner's own safety rules (the code
path `cc-filter run` uses, cc_filter/run/guard.py) and must satisfy what the case states plus the
invariants (routing, never empty, never worse, failure visible, tee hint, chunking-independent
output, savings ≥ 60 % on 20+ raw lines) — see cc_filter/cases.py. The full filtered output is
kept as a pytest-snapshot snapshot in tests/snapshots/<ecosystem>/<filter>/<case>.txt; refresh with
`pytest tests/cc_filter/test_fixtures.py --snapshot-update -k <filter>`.
"""
import os

import pytest

from cc_filter import cases

from cc_filter.choose import catalogue

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "tests", "fixtures")
SNAPSHOTS = os.path.join(REPO, "tests", "snapshots")
CASES = cases.discover(FIXTURES)


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(REPO)  # routing is checked from the repo (no project filter tier there)
    catalogue.reset()


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_fixture_case(case, snapshot, tmp_path):
    result = cases.run_fixture_case(case, tee_dir=str(tmp_path / "tee"))
    assert not result.failures, "\n".join(result.failures)
    snapshot.snapshot_dir = os.path.join(SNAPSHOTS, case.folder)
    snapshot.assert_match(result.output, f"{case.name}.txt")


def test_every_fixture_folder_names_a_filter():
    names = {e.name for e in catalogue.all_entries(REPO)}
    orphans = sorted({c.filter_name for c in CASES} - names)
    assert not orphans, f"fixture folders without a filter: {orphans}"


def test_fixture_folders_mirror_the_filter_folders():
    """`filters/git/git_status.py` has its cases in `fixtures/git/git-status/`."""
    where = {e.name: os.path.basename(os.path.dirname(e.source))
             for e in catalogue.all_entries(REPO) if e.tier == "built-in"}
    misplaced = sorted(f"{c.folder} (filter in filters/{where[c.filter_name]}/)" for c in CASES
                       if c.filter_name in where
                       and c.folder != f"{where[c.filter_name]}/{c.filter_name}")
    assert not misplaced, f"fixture folders outside their filter's ecosystem: {misplaced}"


def test_every_snapshot_belongs_to_a_case():
    """A renamed or deleted case must not leave its snapshot behind."""
    known = {(c.folder, f"{c.name}.txt") for c in CASES}
    stale = []
    for root, _dirs, files in os.walk(SNAPSHOTS):
        folder = os.path.relpath(root, SNAPSHOTS)
        stale += [f"{folder}/{name}" for name in sorted(files)
                  if name.endswith(".txt") and (folder, name) not in known]
    assert not stale, f"snapshots without a fixture case: {sorted(stale)}"


@pytest.mark.parametrize("body, problem", [
    ('source = "published"', "needs origin"),
    ('source = "published"\norigin = " "', "needs origin"),
    ('source = "captured"\norigin = "x/y@1:z"', "origin is only for"),
])
def test_a_published_case_names_where_it_was_published(tmp_path, body, problem):
    folder = tmp_path / "git" / "git-status"
    folder.mkdir(parents=True)
    (folder / "c.toml").write_text(f'command = "git status"\nexit_code = 0\n{body}\n')
    (folder / "c.out").write_text("On branch main\n")
    [case] = cases.discover(str(tmp_path), "git-status")
    assert case.error and problem in case.error


def test_every_published_case_names_its_origin():
    published = [c for c in CASES if c.data.get("source") == "published"]
    assert all(c.data.get("origin") for c in published)
