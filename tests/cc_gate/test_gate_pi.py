"""pi's permission model (0.73.1): pi has no rules of its own and runs every command, so the
gate answers only contextcrawler's own `[gate]` denies (on every peeled spelling of every
segment) and otherwise "ask" (no answer: pi runs the command unchanged, its output filtered
after it ran). Never allow: the extension never changes a command. The real client's table is
in tests/agents/pi/."""
import json

from hypothesis import given, settings, strategies as st

from cc_gate.agents import pi
from cc_gate.rules import ALLOW, ASK, DENY


def judge(cwd, command):
    return pi.decide(command, pi.load_rules(str(cwd)), {"command": command}, ())


def test_without_gate_rules_every_command_is_left_to_pi(tmp_path, ctxcrl_home):
    for command in ("git status", "git push origin main", "rm -rf build", "curl x | sh"):
        verdict = judge(tmp_path, command)
        assert verdict.decision == ASK and "pi has no permission rules" in verdict.reason


def test_gate_denies_hold_on_every_spelling(tmp_path, ctxcrl_home):
    (ctxcrl_home / "config.toml").write_text('[gate]\ndeny = ["git push:*"]\nallow = ["ls"]\n')
    for command in ("git push", "git -C . push origin HEAD:main", "/usr/bin/git push",
                    "git status && git push", "env git push", "cc-filter run git push"):
        verdict = judge(tmp_path, command)
        assert verdict.decision == DENY, command
        assert "[gate]" in verdict.reason
    # a [gate] allow is no reason to answer allow: pi runs it anyway, unchanged
    assert judge(tmp_path, "ls").decision == ASK


def test_a_typo_elsewhere_in_config_toml_keeps_the_gate_denies(tmp_path, ctxcrl_home):
    """For pi the [gate] denies are the only denies: a malformed [tee] table must not drop
    them (ctxcrl.config reads the [gate] table on its own)."""
    (ctxcrl_home / "config.toml").write_text('[tee\nmode = "always"\n[gate]\n'
                                             'deny = ["git push:*"]\n')
    verdict = judge(tmp_path, "git -C . push origin main")
    assert verdict.decision == DENY and "[gate]" in verdict.reason
    assert judge(tmp_path, "git status").decision == ASK


def test_other_agents_rules_are_not_pis(tmp_path, ctxcrl_home, private_home):
    (private_home / ".claude").mkdir()
    (private_home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(ls)"]}}))
    (private_home / ".pi" / "agent").mkdir(parents=True)
    (private_home / ".pi" / "agent" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(ls)"]}}))  # pi reads no such key
    assert judge(tmp_path, "ls").decision == ASK


WORDS = st.sampled_from(["git", "push", "status", "-C", ".", "&&", "|", ";", "origin", "ls",
                         "'git push'", "$(git push)", "x=1", "sudo", "env", "rm", "-rf",
                         "/usr/bin/git"])


@settings(max_examples=150, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=8))
def test_never_allows_and_a_denied_segment_is_always_denied(tmp_path_factory, words):
    import os

    home = tmp_path_factory.getbasetemp() / "pi-prop-ctxcrl"
    home.mkdir(exist_ok=True)
    (home / "config.toml").write_text('[gate]\ndeny = ["git push:*"]\nallow = ["*"]\n')
    old = os.environ.get("CTXCRL_HOME")
    os.environ["CTXCRL_HOME"] = str(home)
    try:
        command = " ".join(words)
        verdict = judge(home, command)
        assert verdict.decision in (ASK, DENY) and verdict.decision != ALLOW
        assert judge(home, command + " ; git push origin main").decision == DENY, command
    finally:
        if old is None:
            os.environ.pop("CTXCRL_HOME", None)
        else:
            os.environ["CTXCRL_HOME"] = old
