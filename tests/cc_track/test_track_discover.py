"""discover on Claude Code session-log fixtures (tests/fixtures/claude-sessions/)."""
import json
import os
import shutil
import subprocess

import pytest

from cc_track import discover
from track_records import CC_TRACK, DAY, NOW

SESSIONS = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "claude-sessions")
SNAPSHOTS = os.path.join(os.path.dirname(__file__), "snapshots")

#: A fixed catalogue, so these tests do not move when cc-filter gains filters.
FILTERS = {"git status": "git-status", "git log": "git-log", "git diff": "git-diff",
           "pytest": "pytest", "cargo test": "cargo-test", "npm test": "npm-test",
           "make": "make"}


def fixed_lookup(key, cwd=None):
    for prefix, name in FILTERS.items():
        if key == prefix or key.startswith(prefix + " "):
            return name
    return None


@pytest.fixture
def snap(snapshot):
    snapshot.snapshot_dir = SNAPSHOTS
    return snapshot


def run_discover(db=None, **kwargs):
    kwargs.setdefault("all_projects", True)
    return discover.build_discover(SESSIONS, now=NOW, db=db,
                                   integrations=discover.Integrations(lookup=fixed_lookup),
                                   **kwargs)


def test_scan_counts_bash_calls_and_skips_malformed_lines():
    scan = discover.scan_sessions(SESSIONS)
    assert scan.files == 3
    assert scan.malformed == 4  # broken mid-file, not JSON, a JSON array, the truncated tail
    commands = sorted(c.command for c in scan.calls.values())
    assert "git status" in commands and "cat app/models.py" not in commands  # Read is no Bash
    by_command = {c.command: c for c in scan.calls.values()}
    assert by_command["uv run pytest -q"].failed
    assert by_command["uv run pytest -q"].output_chars > 5000  # list-form content
    # no tool_result content: the size comes from toolUseResult.stdout/stderr
    assert by_command["kubectl get pods -n staging"].output_chars > 200


def test_since_limits_to_recent_lines():
    recent = discover.scan_sessions(SESSIONS, since=NOW - 30 * DAY)
    everything = discover.scan_sessions(SESSIONS)
    assert "terraform plan" not in {c.command for c in recent.calls.values()}
    assert "terraform plan" in {c.command for c in everything.calls.values()}


def test_project_scope_is_the_current_project_and_its_subdirectories():
    data = run_discover(all_projects=False, cwd="/home/dev/app", since_days=365)
    families = {r["family"] for r in data["missed"]} | {r["family"] for r in data["unfiltered"]}
    assert "terraform plan" in families  # /home/dev/app/subdir belongs to the project
    assert "npm test" not in families  # /home/dev/web does not
    assert data["scope"] == "project" and data["project"] == "/home/dev/app"


def test_missed_savings_use_tracking_medians_else_the_default(fixed_db):
    data = run_discover(db=fixed_db, since_days=30)
    missed = {r["family"]: r for r in data["missed"]}
    # rewritable commands with a filter, but run raw
    assert {"git status", "git log", "pytest", "git diff", "cargo test", "npm test",
            "make build"} <= set(missed)
    assert missed["git status"]["commands"] == 2
    assert missed["git status"]["rewritten"] == "cc-filter run git status"
    assert missed["pytest"]["rewritten"] == "cc-filter run pytest -q tests/test_models.py"
    assert missed["cargo test"]["rewritten"] == \
        "cc-filter run --then=tail:20 cargo test 2>&1 | tail -20"
    assert missed["pytest"]["ratio_source"] == "tracking"  # fixed_db has pytest runs
    assert missed["make build"]["ratio_source"] == "default"
    assert missed["make build"]["savings_ratio"] == discover.DEFAULT_SAVINGS_RATIO
    for row in data["missed"]:
        assert row["estimated_saved_tokens"] == round(row["output_tokens"] * row["savings_ratio"])
    # never "missed": already through cc-filter, a file redirect, a substitution
    assert data["already_filtered"] == 1
    examples = {r["example"] for r in data["missed"]}
    assert "git diff > fix.patch" not in examples
    assert not any("$(" in e for e in examples)


def test_the_generic_fallback_is_no_filter_of_its_own():
    """A command only cc-filter's generic fallback would take (head, errors and tail of any
    output) is counted among the commands without a filter, not as "had a filter"."""
    def with_fallback(key, cwd=None):
        return fixed_lookup(key, cwd) or "generic"

    data = discover.build_discover(SESSIONS, now=NOW, all_projects=True, since_days=30,
                                   integrations=discover.Integrations(lookup=with_fallback))
    assert not [r for r in data["missed"] if r["filter"] == "generic"]
    unfiltered = {r["family"]: r for r in data["unfiltered"]}
    assert unfiltered["docker ps"]["commands"] == 3 and "kubectl get" in unfiltered
    plain = run_discover(since_days=30)
    assert data["missed_commands"] == plain["missed_commands"]
    assert [r["family"] for r in data["unfiltered"]] == [r["family"] for r in plain["unfiltered"]]


def test_commands_without_a_filter_are_ranked_by_frequency():
    data = run_discover(since_days=30)
    unfiltered = [r["family"] for r in data["unfiltered"]]
    assert unfiltered[0] == "docker ps" and data["unfiltered"][0]["commands"] == 3
    assert "ls" in unfiltered and "kubectl get" in unfiltered
    assert "cd" not in unfiltered  # shell builtins are not worth a filter


def test_discover_snapshots(fixed_db, snap):
    data = run_discover(db=fixed_db, since_days=30)
    data["projects_dir"] = "tests/fixtures/claude-sessions"
    snap.assert_match(json.dumps(data, indent=2, ensure_ascii=False) + "\n", "discover.json")
    snap.assert_match(discover.render_discover(data) + "\n", "discover.txt")


def test_no_session_logs(tmp_path):
    data = discover.build_discover(str(tmp_path / "nothing"), now=NOW, all_projects=True)
    text = discover.render_discover(data)
    assert data["session_files"] == 0 and "No session logs found" in text


@pytest.mark.parametrize("words, expected", [
    ("git log -n 5", "git log"), ("pytest -q tests/", "pytest"), ("./gradlew build", "gradlew build"),
    ("docker ps -a", "docker ps"), ("ls", "ls"), ("python3 script.py", "python3"),
    ("kubectl get pods", "kubectl get"),
])
def test_family(words, expected):
    assert discover.family(words) == expected


def test_with_the_real_tools_and_the_cli(tmp_path):
    """The real cc_peel / cc_rewrite / catalogue, through the CLI, with CLAUDE_CONFIG_DIR."""
    pytest.importorskip("cc_rewrite.rewrite")
    claude = tmp_path / "claude"
    shutil.copytree(SESSIONS, claude / "projects")
    env = {**os.environ, "CLAUDE_CONFIG_DIR": str(claude)}
    done = subprocess.run([CC_TRACK, "discover", "--all", "--since=3650", "--format=json"],
                          capture_output=True, text=True, env=env)
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert data["malformed_lines"] == 4 and data["session_files"] == 3
    assert data["integrations"] == {"peel": True, "catalogue": True, "rewrite": "cc_rewrite"}
    missed = {r["family"]: r for r in data["missed"]}
    assert missed["git status"]["filter"] == "git-status"
    assert missed["git status"]["rewritten"] == "cc-filter run git status"
    table = subprocess.run([CC_TRACK, "discover", "--all", "--since=3650"],
                           capture_output=True, text=True, env=env)
    assert table.returncode == 0 and "Missed:" in table.stdout
