"""Cursor, end to end: `cc-hook init --agent cursor`, the same scripted session through the
installed preToolUse hook, with Cursor's event and answer shapes (ARCHITECTURE §8)."""
import json

from system_agents import AGENTS, Session
from system_session import install, replay_and_report


def test_cursor_session(sandbox):
    replay_and_report(sandbox, "cursor")


def test_cursor_answer_shapes(sandbox):
    install(sandbox, "cursor")
    session = Session(sandbox, AGENTS["cursor"])

    def answer(command, body=None):
        done = session.ask_hook(command, body)
        assert done.returncode == 0, done
        return json.loads(done.stdout)

    out = answer("git status")
    assert out["continue"] is True and out["permission"] == "allow"
    assert out["updated_input"]["command"].endswith("cc-filter run git status")
    out = answer("python -m pytest -q")
    assert out["permission"] == "allow"
    assert out["updated_input"]["command"].endswith("cc-filter run python -m pytest -q")
    assert answer("make") == {}  # no allow rule: Cursor's own flow decides, on the original
    out = answer("git push --force")
    assert out["permission"] == "deny" and "updated_input" not in out
    assert answer("git ls-files | wc -l") == {}
    # Cursor may send a UTF-8 BOM; a broken body still gets `{}`.
    event = AGENTS["cursor"].event("git status", str(sandbox.project))
    out = answer("", b"\xef\xbb\xbf" + json.dumps(event).encode())
    assert out["updated_input"]["command"].endswith("cc-filter run git status")
    assert answer("", b"{not json") == {}
