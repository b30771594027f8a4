"""The per-agent models' shared contract: doubt never allows, and the client's argv is found
up the parent chain."""
import json
import subprocess
import sys

import pytest

from cc_gate.agents import AGENTS, model
from cc_gate.decision import decide
from cc_gate.rules import ALLOW, ASK, DENY, RuleSet


def _rules(allow=(), deny=()):
    rules = RuleSet()
    rules.add(ALLOW, [f"Bash({p})" for p in allow], ("Bash",), "test")
    rules.add(DENY, [f"Bash({p})" for p in deny], ("Bash",), "test")
    return rules


def test_doubt_turns_an_allow_into_ask_but_keeps_denies():
    rules = _rules(allow=["git:*"], deny=["git push:*"])
    assert decide("git status", rules).decision == ALLOW
    rules.doubt_about("cannot parse --settings")
    verdict = decide("git status", rules)
    assert (verdict.decision, verdict.reason) == (ASK, "cannot parse --settings")
    assert decide("git push", rules).decision == DENY


@pytest.mark.parametrize("agent", AGENTS)
def test_every_agent_model_loads_and_decides(agent, tmp_path):
    m = model(agent)
    assert m.NAME == agent
    rules = m.load_rules(str(tmp_path))
    verdict = m.decide("make", rules, {"command": "make", "cwd": str(tmp_path)}, ())
    assert verdict.decision == ASK  # no rule: never allowed


PROBE = ("import json, cc_gate.process as p; "
         "print(json.dumps([p.client_argv(('sh',)), p.client_argv(('no-such-client',))]))")


def test_client_argv_finds_the_nearest_matching_ancestor():
    # sh -c '<python>; true' keeps sh alive as the python's parent (no exec optimisation)
    script = f"{sys.executable} -c \"{PROBE}\"; true"
    proc = subprocess.run(["sh", "-c", script, "sh", "marker-arg"], capture_output=True,
                          text=True, check=True)
    found, missing = json.loads(proc.stdout)
    assert found[:2] == ["sh", "-c"] and found[-1] == "marker-arg"
    assert missing is None
