"""Claude Code, end to end: `cc-hook init --agent claude` into a temporary HOME, then a whole
scripted session through the installed PreToolUse hook (see system_session.py)."""
import json

from system_agents import AGENTS, Session
from system_session import install, replay_and_report


def test_claude_session(sandbox):
    replay_and_report(sandbox, "claude")


def test_claude_answer_shapes(sandbox):
    """The exact answers DESIGN §8 specifies: rewrite with every tool_input field, allow only on
    an allow rule, deny with the rule as reason, nothing when unchanged."""
    install(sandbox, "claude")
    session = Session(sandbox, AGENTS["claude"])

    def answer(command):
        done = session.ask_hook(command)
        assert done.returncode == 0 and not done.stderr, done
        return json.loads(done.stdout) if done.stdout.strip() else None

    # make has no allow rule: Claude Code would ask, so the hook gives no answer (issue 12)
    assert answer("git status && make -v") is None
    out = answer("git status && python -m pytest -q")["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse"
    assert out["permissionDecision"] == "allow"  # git status: read-only; pytest: allow rule
    command = out["updatedInput"]["command"]
    assert command.count("cc-filter run ") == 2
    assert out["updatedInput"]["description"] == "system test step"
    assert out["updatedInput"]["timeout"] == 120000
    assert out["permissionDecisionReason"]

    out = answer("git status")["hookSpecificOutput"]
    assert out["permissionDecision"] == "allow"
    assert out["updatedInput"]["command"].endswith("cc-filter run git status")

    out = answer("git push --force origin main")["hookSpecificOutput"]
    assert out["permissionDecision"] == "deny"
    assert "git push --force" in out["permissionDecisionReason"]
    assert "updatedInput" not in out

    assert answer("git ls-files | wc -l") is None
    assert answer("echo hello") is None
