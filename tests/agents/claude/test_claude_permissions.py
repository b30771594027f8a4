"""Permission parity on the real Claude Code (issue 12): every scenario of scenarios.py runs
on `claude -p` against a scripted model, without and with contextcrawler's hook.

Each scenario is right when:
- without the hook, the client shows the outcome recorded in the table (if the client changed,
  this fails first: re-measure with measure.py and re-check ARCHITECTURE §8);
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


class Setup:
    """The scenarios that share one setup, run together: one session without the hook, then
    (the remote put back) one with it, in the same workspace."""

    def __init__(self, scenarios):
        self.scenarios = scenarios
        self.commands = [s.command for s in scenarios]
        self.ws = client.fresh_workspace()
        self.before = self.ws.remote_head()
        self.plain = client.run_scenario(self.ws, scenarios[0], hook=False,
                                         commands=self.commands, timeout=240)
        if self.ws.remote_head() != self.before:
            client.reset_remote(self.ws, self.before)  # the client let a push through
        self.hooked = client.run_scenario(self.ws, scenarios[0], hook=True,
                                          commands=self.commands, timeout=240)
        self.after = self.ws.remote_head()


_SETUPS: dict = {}


def setup_of(scenario) -> tuple:
    key = client.setup_key(scenario)
    if key not in _SETUPS:
        group = [s for s in SCENARIOS if client.setup_key(s) == key]
        _SETUPS[key] = Setup(group)
    setup = _SETUPS[key]
    return setup, setup.scenarios.index(scenario)


@pytest.mark.parametrize("scenario", SCENARIOS, ids=[s.id for s in SCENARIOS])
def test_same_outcome_with_and_without_the_hook(claude_exe, scenario):
    if any(w.startswith("managed") and w != "managed-flag" for w in scenario.rules) and \
            not harness.can_bind_mount():
        pytest.skip("managed settings need root and `unshare -m` (a private /etc/claude-code)")
    setup, index = setup_of(scenario)
    plain_outcome, plain_text = setup.plain.outcome_at(index), setup.plain.text_at(index)
    assert plain_outcome == scenario.outcome, (
        f"Claude Code without the hook: {plain_outcome}, the table says {scenario.outcome} "
        f"(the model got {plain_text[:300]!r}; stderr {setup.plain.stderr[-500:]!r})")
    outcome, text = setup.hooked.outcome_at(index), setup.hooked.text_at(index)
    assert outcome in scenario.expected_with_hook(), (
        f"with the hook: {outcome}, expected {scenario.expected_with_hook()} "
        f"(the model got {text[:300]!r}; stderr {setup.hooked.stderr[-500:]!r})")
    if scenario.pushes and scenario.denied():
        assert setup.after == setup.before, "a denied push landed on the remote"
    if outcome == REFUSED and plain_outcome != REFUSED:
        assert "contextcrawler" in text  # the hook's deny names itself and the rule
    if scenario.compacted and outcome == RAN:
        for fact in scenario.compacted:
            assert fact in text, (fact, text)
            assert fact in plain_text, (fact, plain_text)
        assert len(text) < len(plain_text), (
            f"not compacted: {len(text)} chars with the hook, {len(plain_text)} without")
