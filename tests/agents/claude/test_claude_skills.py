"""Skills' shell commands on the real Claude Code (issue 24): from 2.1.332 the commands a
skill's text runs (`` !`cmd` ``) fire `PreSkillShellCommand`, not the Bash PreToolUse hook.
Its answer can only stop the command, so the hook answers the gate's deny there and nothing
else: a denied push a skill runs in a spelling the client misses (`git -C . push`) lands on the
remote without the hook and not with it; a harmless one runs both ways.
"""
import json

import pytest

import client
import harness
from scenarios import _key

DENY = {"permissions": {"deny": ["Bash(git push:*)"]}}


def run_skill(command: str, hook: bool):
    ws = client.fresh_workspace()
    ws.write(".claude.json", json.dumps({"projects": {str(ws.project): {
        "hasTrustDialogAccepted": True}}}))
    ws.write("project/.claude/settings.json", json.dumps(DENY))
    ws.write("project/.claude/skills/pushit/SKILL.md",
             f"---\nname: pushit\ndescription: run the test command\n---\n"
             f"Output: !`{command}`\n")
    if hook:
        client.install_hook(ws)
    before = ws.remote_head()
    exe = harness.install_client("claude")
    with client.MessagesServer([], lifetime=200) as server:
        env = dict(client.OFFLINE_ENV, ANTHROPIC_BASE_URL=server.url)
        argv = [str(exe), "-p", "/pushit", "--output-format", "json", "--model", client.MODEL,
                "--permission-mode", "bypassPermissions"]
        proc = harness.run_as_agent(argv, ws, env=env, timeout=150)
        prompts = [json.dumps(b.get("messages")) for b in server._main_bodies()]
    return ws.remote_head() != before, proc, prompts


@pytest.fixture(scope="module")
def claude_exe():
    exe = harness.install_client("claude")
    if _key(harness.CLIENTS["claude"][1]) < _key("2.1.332"):
        pytest.skip("PreSkillShellCommand exists from Claude Code 2.1.332")
    return exe


def test_a_denied_push_in_a_skill_is_refused_with_the_hook(claude_exe):
    command = "git -C . push origin HEAD:main"
    pushed, proc, _ = run_skill(command, hook=False)
    assert pushed, "the client now refuses this spelling itself: re-measure " + proc.stderr[-500:]
    pushed, proc, _ = run_skill(command, hook=True)
    assert not pushed, proc.stdout[-800:] + proc.stderr[-500:]


def test_a_harmless_skill_command_runs_both_ways(claude_exe):
    for hook in (False, True):
        _, proc, prompts = run_skill("git log -1 --format=SKILL-%s", hook=hook)
        assert any("SKILL-step 7" in p for p in prompts), (hook, proc.stderr[-500:])
