"""Copilot CLI's model: `--deny-tool` flags of the running copilot process, matched the way
Copilot matches them (measured on 1.0.102), and the gate only ever adds denies."""
import pytest

import cc_gate.agents.copilot as copilot
from cc_gate.agents.copilot import deny_tool_values


def rules_for(monkeypatch, tmp_path, argv):
    monkeypatch.setattr(copilot, "client_argv", lambda names: argv)
    return copilot.load_rules(str(tmp_path))


def decide(monkeypatch, tmp_path, argv, command):
    return copilot.decide(command, rules_for(monkeypatch, tmp_path, argv), None, ()).decision


@pytest.mark.parametrize("argv, values", [
    (["copilot", "-p", "x", "--deny-tool", "shell(git push)"], ["shell(git push)"]),
    (["copilot", "--deny-tool", "shell(git push)", "shell(rm)", "-p", "x"],
     ["shell(git push)", "shell(rm)"]),
    (["copilot", "--deny-tool=shell(git push),shell(npm run a,b)", "--allow-all-tools"],
     ["shell(git push)", "shell(npm run a,b)"]),
    (["copilot", "--allow-tool", "shell(ls)", "-p", "x"], []),
])
def test_deny_tool_values(argv, values):
    assert deny_tool_values(argv) == values


# (deny flag, command, decision): the first group as Copilot 1.0.102 itself decided them
# (tests/agents/copilot), the second what hardening adds.
CASES = [
    ("shell(git push)", "git push -q origin HEAD:main", "deny"),
    ("shell(git push)", "git commit -qm x && git push origin main", "deny"),
    ("shell(git push)", "FOO=1 git push", "deny"),
    ("shell(git push)", "git -C . push", "deny"),
    ("shell(git)", "git push", "ask"),
    ("shell(git push origin)", "git push origin main", "ask"),
    ("shell(git:*)", "git status", "deny"),
    ("shell(git:*)", "gitea status", "ask"),
    ("shell(rm)", "rm -rf x", "deny"),
    ("shell", "ls", "deny"),
    ("shell(git push)", "git status", "ask"),
    # hardening
    ("shell(git push)", "/usr/bin/git push origin main", "deny"),
    ("shell(git push)", "bash -c 'git push'", "deny"),
    ("shell(git push)", "sudo git push", "deny"),
    ("shell(npm publish)", "npm publish --tag next", "deny"),
    ("write(.env)", "rm .env", "ask"),
]


@pytest.mark.parametrize("flag, command, expected", CASES)
def test_copilot_matching(monkeypatch, tmp_path, flag, command, expected):
    argv = ["copilot", "-p", "go", "--allow-all-tools", "--deny-tool", flag]
    assert decide(monkeypatch, tmp_path, argv, command) == expected


def test_deny_names_the_flag(monkeypatch, tmp_path):
    rules = rules_for(monkeypatch, tmp_path, ["copilot", "--deny-tool", "shell(git push)"])
    verdict = copilot.decide("git push", rules, None, ())
    assert verdict.reason == "deny rule --deny-tool 'shell(git push)' in the copilot command line"


def test_allow_flags_never_allow(monkeypatch, tmp_path):
    argv = ["copilot", "--allow-tool", "shell(git status)", "--allow-all-tools"]
    assert decide(monkeypatch, tmp_path, argv, "git status") == "ask"


def test_no_copilot_process_means_doubt_but_gate_denies_hold(monkeypatch, tmp_path, ctxcrl_home):
    (ctxcrl_home / "config.toml").write_text('[gate]\ndeny = ["git push:*"]\n')
    rules = rules_for(monkeypatch, tmp_path, None)
    assert rules.doubt is not None
    assert copilot.decide("git push", rules, None, ()).decision == "deny"
    assert copilot.decide("ls", rules, None, ()).decision == "ask"


def test_claude_files_are_not_copilot_rules(monkeypatch, tmp_path, private_home):
    from settings_files import claude_settings, write_json

    write_json(private_home / ".claude/settings.json", claude_settings(deny=["Bash(ls)"]))
    assert decide(monkeypatch, tmp_path, ["copilot"], "ls") == "ask"
