"""`cc-hook test` says in words what the agent does with the hook's answer. The answers here
come from each agent's real encoder (cc_hook.agents.*.encode), so the wording follows what the
hook actually answers."""
import json

import pytest

from cc_hook.agents import load
from cc_hook.outcome import ASKS, CLIENT_DECIDES, FILTERED, FILTERED_AFTER, REFUSED, \
    REWRITTEN_OWN_RULES, Outcome, filters_after, opencode_outcome, outcome_of

ORIGINAL = "git status"
REWRITTEN = "cc-filter run git status"
DENY_REASON = "deny rule Bash(git push:*) in ~/.claude/settings.json"


def record(decision, rewritten=REWRITTEN, **event):
    rec = {"agent": "x", "cwd": "/p", "command": ORIGINAL, "input": {"command": ORIGINAL},
           "decision": decision, "reason": DENY_REASON if decision == "deny" else "r"}
    if rewritten:
        rec["rewritten"] = rewritten
    if event:
        rec["event"] = event
    return rec


def answer_of(agent, rec):
    module = load(agent)
    answer = module.encode(rec)
    return module.NO_ANSWER if answer is None else json.dumps(answer)


ROWS = [
    # agent, record, what the agent does
    ("claude", record("allow"), FILTERED),
    ("claude", record("deny", None), REFUSED),
    ("claude", record("ask", None), CLIENT_DECIDES),
    ("codex", record("allow"), FILTERED),
    ("codex", record("deny", None), REFUSED),
    ("codex", record("ask", None), CLIENT_DECIDES),
    ("codex", record("ask"), CLIENT_DECIDES),  # Codex ignores a rewrite without allow
    ("cursor", record("allow"), FILTERED),
    ("cursor", record("deny", None), REFUSED),
    ("cursor", record("ask", None), CLIENT_DECIDES),
    ("gemini", record("allow"), FILTERED),
    ("gemini", record("deny", None), REFUSED),
    ("gemini", record("ask", None), CLIENT_DECIDES),
    ("copilot", record("deny", None), REFUSED),
    ("copilot", record("ask", None), FILTERED_AFTER),
    ("copilot", record("allow", None), FILTERED_AFTER),
]


@pytest.mark.parametrize("agent, rec, kind", ROWS)
def test_the_words_follow_the_hooks_answer(agent, rec, kind):
    after = kind == FILTERED_AFTER or agent == "copilot"  # an install with an after hook
    outcome = outcome_of(agent, answer_of(agent, rec), ORIGINAL, after=after)
    assert outcome.kind == kind
    if kind == FILTERED:
        assert outcome.runs == REWRITTEN
        assert outcome.words() == f"runs filtered, without asking: {REWRITTEN}"
    if kind == REFUSED:
        assert outcome.runs is None and outcome.words() == f"refused by {DENY_REASON}"
    if kind == CLIENT_DECIDES:
        assert outcome.runs == ORIGINAL and "its own rules (it may ask)" in outcome.words()
        assert "output unfiltered" in outcome.words()
    if kind == FILTERED_AFTER:
        assert outcome.words() == "runs unchanged; its output is filtered after it ran"


@pytest.mark.parametrize("agent, answer, kind", [
    ("claude", {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "updatedInput": {"command": REWRITTEN}}},
     REWRITTEN_OWN_RULES),
    ("claude", {"hookSpecificOutput": {"permissionDecision": "ask",
                                       "updatedInput": {"command": REWRITTEN}}}, ASKS),
    ("cursor", {"continue": True, "permission": "ask", "updated_input": {"command": REWRITTEN}},
     ASKS),
    ("gemini", {"decision": "ask_user", "hookSpecificOutput": {"tool_input": {
        "command": REWRITTEN}}}, REWRITTEN_OWN_RULES),
    ("copilot", {"permissionDecision": "deny", "permissionDecisionReason": "contextcrawler: x"},
     REFUSED),
    ("claude", "not json", CLIENT_DECIDES),
    ("cursor", {}, CLIENT_DECIDES),
])
def test_other_answer_forms(agent, answer, kind):
    text = answer if isinstance(answer, str) else json.dumps(answer)
    assert outcome_of(agent, text, ORIGINAL).kind == kind


def test_every_kind_has_words():
    for kind in (FILTERED, REWRITTEN_OWN_RULES, ASKS, REFUSED, CLIENT_DECIDES, FILTERED_AFTER):
        assert Outcome(kind, REWRITTEN, "r").words()


def test_without_an_after_hook_no_answer_leaves_the_output_unfiltered():
    assert outcome_of("copilot", "", ORIGINAL, after=False).kind == CLIENT_DECIDES
    assert filters_after(['{"hooks": {"postToolUse": [{"command": "x"}]}}'], "copilot")
    assert not filters_after(['{"hooks": {"PreToolUse": []}}', None], "copilot")
    # an agent's own mark only: Claude Code has no after-execution filter of ours
    assert not filters_after(['{"hooks": {"PostToolUse": [{"command": "x"}]}}'], "claude")
    assert filters_after(['{"hooks": {"PostToolUse": [{"command": "x"}]}}'], "codex")
    assert not filters_after(['anything'], "nobody")


@pytest.mark.parametrize("result, after, kind", [
    ({"decision": "deny", "reason": DENY_REASON}, False, REFUSED),
    ({"decision": "allow", "rewritten": REWRITTEN}, False, REWRITTEN_OWN_RULES),
    ({"decision": "ask"}, True, FILTERED_AFTER),
    (None, False, CLIENT_DECIDES),
])
def test_opencode_plugin_results(result, after, kind):
    assert opencode_outcome(result, ORIGINAL, after).kind == kind
