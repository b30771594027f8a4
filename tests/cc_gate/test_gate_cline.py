"""Cline CLI's model (measured on 3.0.65): Cline has no command rules, only approval of every
tool at once, and filters after execution; so the gate never allows, and denies exactly what
contextcrawler's own `[gate]` deny rules name, on every spelling the hardening peels."""
from hypothesis import given, settings, strategies as st

import cc_gate.agents.cline as cline
from cc_gate.rules import ASK, DENY


def decide(command, cwd):
    return cline.decide(command, cline.load_rules(str(cwd)), None, ())


def write_gate(ctxcrl_home, *deny):
    import ctxcrl.config

    listed = ", ".join(f'"{d}"' for d in deny)
    (ctxcrl_home / "config.toml").write_text(f"[gate]\ndeny = [{listed}]\nallow = [\"ls\"]\n")
    ctxcrl.config._loaded = None


def test_no_rule_leaves_everything_to_cline(private_home, tmp_path):
    for command in ("git status", "git push origin main", "rm -rf build", "ls"):
        verdict = decide(command, tmp_path)
        assert verdict.decision == ASK, command
        assert "Cline decides" in verdict.reason and "after execution" in verdict.reason


def test_the_gate_config_denies_and_never_allows(private_home, ctxcrl_home, tmp_path):
    write_gate(ctxcrl_home, "git push:*")
    verdict = decide("git push -q origin HEAD:main", tmp_path)
    assert verdict.decision == DENY
    assert "[gate]" in verdict.reason and "config.toml" in verdict.reason
    # spellings a plain prefix match misses are denied too
    for spelled in ("/usr/bin/git push", "git -C . push", "env git push", "cd x && git push",
                    "bash -c 'git push'"):
        assert decide(spelled, tmp_path).decision == DENY, spelled
    assert decide("ls", tmp_path).decision == ASK  # [gate] allow: still Cline's own decision


def test_clines_own_folders_are_not_read(private_home, tmp_path):
    settings_dir = private_home / ".cline" / "data" / "settings"
    settings_dir.mkdir(parents=True)
    (settings_dir / "global-settings.json").write_text("{not json")
    rules = cline.load_rules(str(tmp_path))
    assert rules.warnings == [] and rules.doubt is None
    assert decide("git status", tmp_path).decision == ASK


WORDS = st.sampled_from(["git", "push", "status", "-C", ".", "&&", "|", ";", "origin", "ls",
                         "'git push'", "$(git push)", "x=1", "sudo", "env", "rm", "-rf",
                         "/usr/bin/git", "cd", "sub"])


@settings(max_examples=150, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=8))
def test_never_allows_and_a_denied_segment_is_always_denied(words):
    import os

    import ctxcrl.config

    home = os.environ["CTXCRL_HOME"]
    with open(os.path.join(home, "config.toml"), "w") as f:
        f.write('[gate]\ndeny = ["git push:*"]\nallow = ["git:*", "ls"]\n')
    ctxcrl.config._loaded = None
    command = " ".join(words)
    rules = cline.load_rules(home)
    assert cline.decide(command, rules, None, ()).decision in (ASK, DENY)
    assert cline.decide(command + " ; git push origin main", rules, None, ()).decision == DENY
