"""Permission parity on the real Claude Code (issue 12): every scenario of scenarios.py runs
on `claude -p` against a scripted model, without and with contextcrawler's hook.

Each scenario is right when:
- without the hook, the client shows the outcome recorded in the table (if the client changed,
  this fails first: re-measure with measure.py and re-check DESIGN §8);
- with the hook, the outcome is the same, except that the hook may add a deny;
- a denied push never lands on the workspace's bare remote (with the hook);
- where the command ran with the hook and the row names facts, the model received the
  compacted output: every fact present, and smaller than what it got without the hook.
"""
import pytest

import client
import harness
from scenarios import REFUSED, SCENARIOS, RAN


@pytest.fixture(scope="module")
def claude_exe():
    return harness.install_client("claude")


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_same_outcome_with_and_without_the_hook(claude_exe, scenario):
    if any(w.startswith("managed") and w != "managed-flag" for w in scenario.rules) and \
            not harness.can_bind_mount():
        pytest.skip("managed settings need root and `unshare -m` (a private /etc/claude-code)")
    ws = client.fresh_workspace()
    before = ws.remote_head()
    plain = client.run_scenario(ws, scenario, hook=False)
    assert plain.outcome == scenario.outcome, (
        f"Claude Code without the hook: {plain.outcome}, the table says {scenario.outcome} "
        f"(the model got {plain.tool_text[:300]!r}; stderr {plain.stderr[-500:]!r})")

    if ws.remote_head() != before:
        client.reset_remote(ws, before)  # the client let a push through: undo it for the hook
    hooked = client.run_scenario(ws, scenario, hook=True)
    assert hooked.outcome in scenario.expected_with_hook(), (
        f"with the hook: {hooked.outcome}, expected {scenario.expected_with_hook()} "
        f"(the model got {hooked.tool_text[:300]!r}; stderr {hooked.stderr[-500:]!r})")
    if scenario.pushes and scenario.denied():
        assert ws.remote_head() == before, "a denied push landed on the remote"
    if hooked.outcome == REFUSED and plain.outcome != REFUSED:
        assert "contextcrawler" in hooked.tool_text  # the hook's deny names itself and the rule
    if scenario.compacted and hooked.outcome == RAN:
        for fact in scenario.compacted:
            assert fact in hooked.tool_text, (fact, hooked.tool_text)
            assert fact in plain.tool_text, (fact, plain.tool_text)
        assert len(hooked.tool_text) < len(plain.tool_text), (
            f"not compacted: {len(hooked.tool_text)} chars with the hook, "
            f"{len(plain.tool_text)} without")
