"""A live check of what the committed histories show: the real Claude Code client, driven
offline, runs commands through `cc-filter run`; the client writes its transcript and
contextcrawler its spool, and `cc-track session` and `learn` must agree with both. Uses the
shared real-client bench (tests/agents/harness.py) and the scripted Messages API server of the
capture script. (The model types `cc-filter run` itself, so the check does not depend on what
the hook decides to rewrite.)"""
import importlib.util
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
sys.path.insert(0, str(ROOT / "tests" / "agents"))

import harness  # noqa: E402

from cc_track import learn, sessions, store  # noqa: E402
from cc_track.history import read_history  # noqa: E402
from track_records import CC_TRACK  # noqa: E402

pytestmark = pytest.mark.slow

SCRIPT = [
    ("git stauts", "misspelled"),
    ("git status", "the fix"),
    ("cc-filter run git log -n 2", "filtered"),
    ("cc-filter run git status && cc-filter run git diff", "two filtered runs in one call"),
    ("CTXCRL_DISABLED=1 git log -n 2", "re-run unfiltered"),
]


def capture_module():
    path = ROOT / "tests" / "fixtures" / "capture" / "agent_transcripts.py"
    spec = importlib.util.spec_from_file_location("agent_transcripts", path)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_live_claude_session_agrees_with_its_spool(monkeypatch):
    capture = capture_module()
    exe = harness.install_client("claude")
    root = Path(tempfile.mkdtemp(prefix="ctxcrl-live-history-"))
    try:
        ws = harness.Workspace(root, harness.agent_user())
        venv = harness.product_venv()
        check = harness.run_as_agent([str(venv / "python"), "-c", "pass"], ws)
        if check.returncode != 0:
            pytest.skip("the product venv's interpreter is not executable by the agent user "
                        f"({check.stderr.strip()[-200:]})")
        capture.run_claude(exe, ws, SCRIPT, "Check the repository.")

        history = read_history({"claude": str(ws.home / ".claude" / "projects"),
                                "codex": str(root / "no-codex"),
                                "gemini": str(root / "no-gemini")})
        (session,) = history.sessions
        assert [c.command for c in session.calls] == [c for c, _ in SCRIPT]
        monkeypatch.setenv("CTXCRL_HOME", str(root / "ctxcrl"))
        spool = ws.home / ".local" / "share" / "ctxcrl" / "spool.jsonl"
        with open(spool, "rb") as f:
            subprocess.run([CC_TRACK, "record"], input=f.read(), check=True,
                           capture_output=True, env=dict(os.environ))
        db = store.connect()
        count, saved = db.execute(
            "SELECT count(*), coalesce(sum(saved_tokens), 0) FROM records").fetchone()
        (row,) = sessions.build_sessions(history, db)["sessions"]
        assert row["spool_records"] == count == 3 and row["saved_tokens"] == saved
        assert row["through_ctxcrl"] == 2 and row["commands"] == 5
        linked, unlinked, _records = sessions.link_history(history, db)
        assert not unlinked
        assert [len(linked.get(c.id, [])) for c in session.calls] == [0, 0, 1, 2, 0]
        data = learn.build_learn(history)
        # one correction, seen once: found, never proposed
        assert [p["class"] for p in data["pairs"]] == ["misspelled-subcommand"]
        assert data["rules"] == [] and data["held_back"] == {"seen_once": 1, "unsafe": 0}
        assert [r["command"] for r in data["exclude_commands"]] == ["git log"]

    finally:
        shutil.rmtree(root, ignore_errors=True)
