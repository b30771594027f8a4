"""Where each agent's rules come from, and what happens when a file is broken."""
import os
import subprocess

import pytest
from cc_gate.agents import load_rules
from cc_gate.rules import strip_jsonc
from settings_files import claude_settings, write_json


def triples(rules):
    return [(r.kind, r.text, r.source) for r in rules.all()]


def test_claude_user_files(private_home, tmp_path):
    write_json(private_home / ".claude/settings.json",
               claude_settings(allow=["Bash(git status)", "Read(*)"], deny=["Bash(rm -rf:*)"]))
    write_json(private_home / ".claude/settings.local.json", claude_settings(ask=["Bash(git push:*)"]))
    rules = load_rules("claude", str(tmp_path))
    assert triples(rules) == [
        ("deny", "Bash(rm -rf:*)", "~/.claude/settings.json"),
        ("ask", "Bash(git push:*)", "~/.claude/settings.local.json"),
        ("allow", "Bash(git status)", "~/.claude/settings.json"),
    ]
    assert rules.warnings == []


def test_claude_project_found_from_a_subdirectory(private_home, tmp_path):
    project = tmp_path / "app"
    write_json(project / ".claude/settings.json", claude_settings(deny=["Bash(make deploy)"]))
    write_json(project / ".claude/settings.local.json", claude_settings(allow=["Bash(make:*)"]))
    sub = project / "src" / "pkg"
    sub.mkdir(parents=True)
    subprocess.run(["git", "init", "-q", str(project)], check=True)  # the file is not tracked
    rules = load_rules("claude", str(sub))
    assert [(r.kind, r.text) for r in rules.all()] == [
        ("deny", "Bash(make deploy)"), ("allow", "Bash(make:*)")]
    assert rules.all()[0].source.endswith("app/.claude/settings.json")


def test_home_claude_dir_is_not_read_twice_as_a_project(private_home):
    write_json(private_home / ".claude/settings.json", claude_settings(deny=["Bash(x)"]))
    work = private_home / "work"
    work.mkdir()
    assert len(load_rules("claude", str(work)).deny) == 1


def test_nearest_project_wins(private_home, tmp_path):
    write_json(tmp_path / "outer/.claude/settings.json", claude_settings(deny=["Bash(outer)"]))
    write_json(tmp_path / "outer/inner/.claude/settings.json", claude_settings(deny=["Bash(inner)"]))
    rules = load_rules("claude", str(tmp_path / "outer/inner"))
    assert [r.text for r in rules.deny] == ["Bash(inner)"]


def test_claude_config_dir_and_managed_policy(private_home, tmp_path, monkeypatch):
    write_json(tmp_path / "cfg/settings.json", claude_settings(allow=["Bash(ls)"]))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "cfg"))
    write_json(tmp_path / "managed.json", claude_settings(deny=["Bash(curl:*)"]))
    rules = load_rules("claude", str(tmp_path))
    assert [(r.kind, r.text) for r in rules.all()] == [("deny", "Bash(curl:*)"), ("allow", "Bash(ls)")]


@pytest.mark.parametrize("content, problem", [
    ('{"permissions": {"deny": ["Bash(x)"],}}', "malformed JSON"),
    ("not json", "malformed JSON"),
    ("[1, 2]", "not a JSON object"),
    (b"\xff\xfe{}", "not UTF-8"),
])
def test_malformed_file_is_skipped_with_a_warning(content, problem, private_home, tmp_path):
    path = private_home / ".claude/settings.json"
    os.makedirs(path.parent, exist_ok=True)
    path.write_bytes(content if isinstance(content, bytes) else content.encode())
    write_json(private_home / ".claude/settings.local.json", claude_settings(deny=["Bash(y)"]))
    rules = load_rules("claude", str(tmp_path))
    assert [r.text for r in rules.deny] == ["Bash(y)"]
    assert len(rules.warnings) == 1
    assert rules.warnings[0].startswith("skipping ~/.claude/settings.json: " + problem)


def test_unreadable_file_is_skipped_with_a_warning(private_home, tmp_path):
    (private_home / ".claude/settings.json").mkdir(parents=True)  # a directory: cannot be read
    rules = load_rules("claude", str(tmp_path))
    assert rules.all() == []
    assert rules.warnings and "~/.claude/settings.json" in rules.warnings[0]


@pytest.mark.parametrize("content", ["", "   \n", "\ufeff{}", '\ufeff{"permissions": {}}'])
def test_empty_and_bom_files_are_fine(content, private_home, tmp_path):
    write_json(private_home / ".claude/settings.json", content)
    rules = load_rules("claude", str(tmp_path))
    assert rules.warnings == [] and rules.all() == []


def test_odd_shapes_are_ignored_quietly(private_home, tmp_path):
    write_json(private_home / ".claude/settings.json",
               {"permissions": {"allow": "Bash(ls)", "deny": {"x": 1}, "ask": [1, None, "Bash(rm)"]}})
    rules = load_rules("claude", str(tmp_path))
    assert [(r.kind, r.text) for r in rules.all()] == [("ask", "Bash(rm)"), ("allow", "Bash(ls)")]
    write_json(private_home / ".claude/settings.json", {"permissions": ["Bash(ls)"]})
    assert load_rules("claude", str(tmp_path)).all() == []


def test_gemini_sources(private_home, tmp_path):
    """The deprecated settings keys: entries with arguments are tool names Gemini CLI 0.61.0
    matches against no tool, so the gate keeps them as denies/asks of its own; tools.allowed
    becomes the client's allow rules (priority 4.3) plus its deny of every other shell command
    (4.29), inside Gemini's model (rules.extra)."""
    write_json(private_home / ".gemini/settings.json", """{
      // comments are allowed in Gemini settings
      "tools": {
        "allowed": ["run_shell_command(git status)", "read_file"],
        "confirmationRequired": ["run_shell_command(git push)"],
        "exclude": ["run_shell_command(rm -rf)",],
      },
    }""")
    write_json(tmp_path / "proj/.gemini/settings.json",
               {"excludeTools": ["ShellTool(curl)"], "allowedTools": ["run_shell_command(ls)"]})
    write_json(tmp_path / "gemini-system.json", {"tools": {"exclude": ["run_shell_command(dd)"]}})
    rules = load_rules("gemini", str(tmp_path / "proj"))
    assert [(r.kind, r.text) for r in rules.all()] == [
        ("deny", "run_shell_command(dd)"),
        ("deny", "ShellTool(curl)"),
        ("deny", "run_shell_command(rm -rf)"),
        ("ask", "run_shell_command(git push)"),
    ]
    policies = [(r.decision, r.priority, r.kind, r.text) for r in rules.extra["gemini"].policies]
    assert ("allow", 4.3, "prefix", "git status") in policies
    assert ("deny", 4.29, None, None) in policies
    assert rules.warnings == []


def test_gemini_ignores_claude_files(private_home, tmp_path):
    write_json(private_home / ".claude/settings.json", claude_settings(deny=["Bash(ls)"]))
    assert load_rules("gemini", str(tmp_path)).all() == []


def test_cursor_sources(private_home, tmp_path):
    write_json(private_home / ".cursor/cli-config.json",
               {"permissions": {"allow": ["Shell(ls)", "Read(**)"], "deny": ["Shell(rm)"]}})
    write_json(tmp_path / "proj/.cursor/cli.json", {"permissions": {"deny": ["Shell(git push)"]}})
    rules = load_rules("cursor", str(tmp_path / "proj"))
    assert [(r.kind, r.text, r.source) for r in rules.all()] == [
        ("deny", "Shell(rm)", "~/.cursor/cli-config.json"),
        ("deny", "Shell(git push)", str(tmp_path / "proj/.cursor/cli.json")),
        ("allow", "Shell(ls)", "~/.cursor/cli-config.json"),
    ]


def test_gate_config_rules_apply_to_every_agent(ctxcrl_home, tmp_path):
    (ctxcrl_home / "config.toml").write_text(
        '[gate]\ndeny = ["git push --force:*", "Bash(rm -rf:*)", "Read(x)"]\n'
        'ask = ["Shell(kubectl:*)"]\nallow = ["run_shell_command(ls)"]\n')
    for agent in ("claude", "cursor", "gemini", "codex", "copilot"):
        rules = load_rules(agent, str(tmp_path))
        assert [(r.kind, r.pattern) for r in rules.all()] == [
            ("deny", "git push --force:*"), ("deny", "rm -rf:*"), ("ask", "kubectl:*"),
            ("allow", "ls")], agent
        assert rules.deny[0].source == f"[gate] of {ctxcrl_home}/config.toml"


def test_strip_jsonc_keeps_strings():
    text = '{"a": "// not a comment", /* c */ "b": [1, 2,], "c": "x,}" // end\n}'
    assert strip_jsonc(text) == '{"a": "// not a comment",  "b": [1, 2], "c": "x,}" \n}'
