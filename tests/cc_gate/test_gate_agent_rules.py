"""The agents' own rule formats beyond `Bash(…)` lists: Codex `.rules`."""
import pytest
from settings_files import claude_settings, write_json

from cc_gate.agents.codex import parse_rules
from cc_gate.decision import decide
from cc_gate.agents import load_rules

CODEX_RULES = '''
# Codex execpolicy rules
prefix_rule(
    pattern = ["git", ["push", "reset"]],
    decision = "forbidden",
    justification = "history is shared",   # trailing comment
)
prefix_rule(pattern=['npm', 'test'], decision='allow')
prefix_rule(pattern = ["gh", "pr", "merge"], decision = "prompt", match = ["gh pr merge 1"])
prefix_rule(pattern = ["rm"])   # no decision: Codex reads it as allow
prefix_rule(pattern = [], decision = "allow")
other_call(pattern = ["ls"], decision = "allow")
'''


def test_parse_codex_rules():
    rules = parse_rules(CODEX_RULES, "~/.codex/rules/default.rules")
    assert [(r.kind, r.pattern, r.text) for r in rules] == [
        ("deny", "git push", 'prefix_rule(pattern=["git", ["push", "reset"]], decision=forbidden)'
                             ' (history is shared)'),
        ("deny", "git reset", 'prefix_rule(pattern=["git", ["push", "reset"]], decision=forbidden)'
                              ' (history is shared)'),
        ("allow", "npm test", 'prefix_rule(pattern=["npm", "test"], decision=allow)'),
        ("ask", "gh pr merge", 'prefix_rule(pattern=["gh", "pr", "merge"], decision=prompt)'),
        ("allow", "rm", 'prefix_rule(pattern=["rm"], decision=allow)'),
    ]


@pytest.mark.parametrize("text", ['prefix_rule(pattern = ["x"', 'prefix_rule(pattern = ["x)'])
def test_bad_codex_rules_raise(text):
    with pytest.raises(ValueError):
        parse_rules(text, "f")


# (command, decision) under the Codex rules above
CODEX_CASES = [
    ("git push origin main", "deny"),
    ("FOO=1 /usr/bin/git -C x push", "deny"),
    ("git reset --hard", "deny"),
    ("git pushy", "ask"),
    ("npm test -- --watch", "allow"),
    ("npm testing", "ask"),
    ("gh pr merge 1", "ask"),
    ("rm x", "allow"),
    ("ls", "ask"),
]


@pytest.mark.parametrize("command, decision", CODEX_CASES)
def test_codex_agent_uses_its_rules(private_home, tmp_path, command, decision):
    write_json(private_home / ".codex/rules/default.rules", CODEX_RULES)
    rules = load_rules("codex", str(tmp_path))
    assert decide(command, rules).decision == decision


def test_codex_rules_reason_and_codex_home(private_home, tmp_path, monkeypatch):
    write_json(tmp_path / "ch/rules/team.rules", 'prefix_rule(pattern=["make", "deploy"], '
                                                  'decision="forbidden")')
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "ch"))
    write_json(private_home / ".claude/settings.json", claude_settings(allow=["Bash(make:*)"]))
    verdict = decide("make deploy", load_rules("codex", str(tmp_path)))
    assert (verdict.decision, verdict.reason) == (
        "deny", f'deny rule prefix_rule(pattern=["make", "deploy"], decision=forbidden) '
                f'in {tmp_path}/ch/rules/team.rules')
    assert load_rules("claude", str(tmp_path)).deny == []  # only for --agent codex


def test_unparsable_codex_file_is_skipped_with_a_warning(private_home, tmp_path):
    write_json(private_home / ".codex/rules/bad.rules", 'prefix_rule(pattern=["x"')
    write_json(private_home / ".codex/rules/good.rules", 'prefix_rule(pattern=["y"], '
                                                         'decision="forbidden")')
    rules = load_rules("codex", str(tmp_path))
    assert [r.pattern for r in rules.deny] == ["y"]
    assert rules.warnings == ["skipping ~/.codex/rules/bad.rules: cannot parse it (unclosed [)"]


def test_a_second_load_reads_each_file_once_and_repeats_its_rules_and_warnings(
        private_home, tmp_path, monkeypatch):
    write_json(private_home / ".codex/rules/bad.rules", 'prefix_rule(pattern=["x"')
    write_json(private_home / ".codex/rules/good.rules", 'prefix_rule(pattern=["y"], '
                                                         'decision="forbidden")')
    write_json(private_home / ".codex/rules/worse.rules", 'prefix_rule(pattern=["z"],')
    write_json(private_home / ".codex/rules/more.rules", 'prefix_rule(pattern=["w"], '
                                                         'decision="forbidden")')
    first = load_rules("codex", str(tmp_path))
    import builtins

    def no_open(*args, **kwargs):
        raise AssertionError(f"read again: {args[0]}")

    monkeypatch.setattr(builtins, "open", no_open)  # unchanged files come from the cache
    again = load_rules("codex", str(tmp_path))
    assert [r.text for r in again.deny] == [r.text for r in first.deny] == [
        'prefix_rule(pattern=["y"], decision=forbidden)',
        'prefix_rule(pattern=["w"], decision=forbidden)']
    assert again.warnings == first.warnings
    assert len(first.warnings) == 2
    assert first.warnings[0] == "skipping ~/.codex/rules/bad.rules: cannot parse it (unclosed [)"
    assert first.warnings[1].startswith("skipping ~/.codex/rules/worse.rules: cannot parse it")
    assert again.files == first.files
