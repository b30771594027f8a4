"""Claude Code, end to end: `cc-hook init --agent claude` into a temporary HOME, then a whole
scripted session through the installed PreToolUse hook (see system_session.py)."""
import json

from system_agents import AGENTS, Session
from system_session import install, replay_and_report


def test_claude_session(sandbox):
    replay_and_report(sandbox, "claude")


def test_claude_answer_shapes(sandbox):
    """The exact answers ARCHITECTURE §5 and §8 specify: a rewrite (allow, every tool_input field
    kept) only when the rules allow every segment, deny with the rule as reason, otherwise
    nothing."""
    install(sandbox, "claude")
    session = Session(sandbox, AGENTS["claude"])

    def answer(command):
        done = session.ask_hook(command)
        assert done.returncode == 0 and not done.stderr, done
        return json.loads(done.stdout) if done.stdout.strip() else None

    out = answer("git status && python -m pytest -q")["hookSpecificOutput"]
    assert out["hookEventName"] == "PreToolUse"
    assert out["permissionDecision"] == "allow"  # both have allow rules
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
    # no allow rule, and Claude Code's read-only check refuses it: it surely prompts, so the
    # hook asks itself, for the rewritten command (approved, it runs filtered: issue 24)
    out = answer("make")["hookSpecificOutput"]
    assert out["permissionDecision"] == "ask"
    assert out["updatedInput"]["command"].endswith("cc-filter run make")
    assert answer("echo hello") is None
