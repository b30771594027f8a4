"""Gemini CLI, end to end: `cc-hook init --agent gemini` into a settings file that already
holds the user's tool rules (all kept), the same scripted session through the installed
BeforeTool hook, with Gemini's event and answer shapes (ARCHITECTURE §8)."""
import json

from system_agents import AGENTS, Session
from system_session import install, replay_and_report


def test_gemini_session(sandbox):
    replay_and_report(sandbox, "gemini")


def test_gemini_answer_shapes(sandbox):
    install(sandbox, "gemini")
    session = Session(sandbox, AGENTS["gemini"])

    def answer(command):
        done = session.ask_hook(command)
        assert done.returncode == 0, done
        return json.loads(done.stdout) if done.stdout.strip() else None

    out = answer("git status")
    assert out["decision"] == "allow"
    assert out["hookSpecificOutput"]["tool_input"]["command"].endswith("cc-filter run git status")
    assert out["hookSpecificOutput"]["tool_input"]["description"] == "system test step"
    out = answer("python -m pytest -q")
    assert out["decision"] == "allow"
    # no allow rule: headless Gemini refuses it (tools.allowed denies every other shell command)
    out = answer("make")
    assert out["decision"] == "deny"
    out = answer("git push --force")
    assert out["decision"] == "deny" and "git push --force" in out["reason"]
    assert answer("git ls-files | wc -l")["decision"] == "deny"  # `wc`: no rule
