"""Qwen Code's rules as the gate reads them (0.24.4): `permissions.allow / ask / deny` in the
system, project and user settings, Claude Code's rule format with Qwen's shell-tool names.
The hook can only refuse (the client ignores a changed tool input), so the gate answers deny
or ask, never allow — the real client's table is in tests/agents/qwen/."""
import json

import pytest

from hypothesis import given, settings, strategies as st

from cc_gate.agents import qwen
from cc_gate.rules import ASK, DENY


def write_settings(folder, **permissions):
    (folder / ".qwen").mkdir(parents=True, exist_ok=True)
    (folder / ".qwen" / "settings.json").write_text(
        "// Qwen Code reads comments in its settings\n" + json.dumps({"permissions": permissions}))


@pytest.fixture
def no_system(tmp_path, monkeypatch):
    monkeypatch.setenv("QWEN_CODE_SYSTEM_SETTINGS_PATH", str(tmp_path / "no-system.json"))


def judge(cwd, command):
    return qwen.decide(command, qwen.load_rules(str(cwd)), {"command": command}, ())


def test_user_project_and_system_denies_all_count(private_home, tmp_path, monkeypatch):
    project = tmp_path / "proj"
    project.mkdir()
    system = tmp_path / "system.json"
    system.write_text(json.dumps({"permissions": {"deny": ["ShellTool(git reset:*)"]}}))
    monkeypatch.setenv("QWEN_CODE_SYSTEM_SETTINGS_PATH", str(system))
    write_settings(private_home, deny=["Bash(git push)"], allow=["Bash(git status)"])
    write_settings(project, deny=["run_shell_command(rm -rf *)"], ask=["Shell(git tag)"])
    assert judge(project, "git push origin main").decision == DENY
    assert judge(project, "git reset --hard").decision == DENY
    assert judge(project, "rm -rf build").decision == DENY
    verdict = judge(project, "git tag v1")
    assert verdict.decision == ASK and "Bash" not in verdict.reason
    assert judge(project, "git status").decision == ASK  # allowed: the client runs it itself
    assert "Bash(git push)" in judge(project, "git push").reason


def test_spellings_the_client_misses_are_denied(private_home, tmp_path, no_system):
    write_settings(private_home, deny=["Bash(git push)"])
    for command in ("git -C . push origin HEAD:main", "/usr/bin/git push",
                    "git status && git push", "cc-filter run git push", "env git push"):
        assert judge(tmp_path, command).decision == DENY, command


def test_rules_for_other_tools_are_not_shell_rules(private_home, tmp_path, no_system):
    write_settings(private_home, deny=["Edit(*)", "Read(~/.ssh/**)", "WebFetch(domain:x.org)"])
    assert judge(tmp_path, "git status").decision == ASK


def test_an_unreadable_settings_file_never_allows(private_home, tmp_path, no_system):
    (private_home / ".qwen").mkdir()
    (private_home / ".qwen" / "settings.json").write_text("{not json")
    rules = qwen.load_rules(str(tmp_path))
    assert qwen.decide("git status", rules, None, ()).decision == ASK
    assert any("settings.json" in w for w in rules.warnings)


WORDS = st.sampled_from(["git", "push", "status", "-C", ".", "&&", "|", ";", "origin", "ls",
                         "'git push'", "$(git push)", "x=1", "sudo", "env", "rm", "-rf"])


@settings(max_examples=150, deadline=None)
@given(st.lists(WORDS, min_size=1, max_size=8))
def test_never_allows_and_a_plain_push_segment_is_always_denied(tmp_path_factory, words):
    home = tmp_path_factory.getbasetemp() / "qwen-prop-home"
    if not (home / ".qwen").exists():
        write_settings(home, deny=["Bash(git push)"], allow=["Bash"])
    import os

    old = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        command = " ".join(words)
        verdict = judge(home, command)
        assert verdict.decision in (ASK, DENY)
        denied = judge(home, command + " ; git push origin main")
        assert denied.decision == DENY, command
    finally:
        os.environ["HOME"] = old if old is not None else ""
