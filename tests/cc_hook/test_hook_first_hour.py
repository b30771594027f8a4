"""A new user's first hour: init everywhere, uninstall, and nothing of contextcrawler is left
(every scope and project, backups, notes, links, hooks.json); notes for every agent; the
cc-filter link into the agent shell's PATH."""
import json
import os

import pytest

from cc_hook import uninstall as uninstall_module
from cc_hook import awareness, hook_script, install
from cc_hook.manifest import Manifest
from cc_hook.settings_file import parse_settings

from hook_files import read, tree
from test_hook_install import Captured, init, uninstall

HOOKED = ("claude", "cursor", "copilot", "gemini", "codex", "opencode")


def every_file(*roots):
    return {str(root): tree(root) for root in roots}


def test_uninstall_by_default_takes_back_every_scope_and_every_project(fake_home, tmp_path,
                                                                       monkeypatch):
    home, data, project = fake_home
    other = tmp_path / "other"
    (other / ".git").mkdir(parents=True)
    (project / "CLAUDE.md").write_text("# notes")  # no final newline
    (project / ".clinerules").write_text("Use tabs.")
    (project / "AGENTS.md").write_text("Be brief.\r\n")
    (home / ".gemini").mkdir()
    (home / ".gemini" / "settings.json").write_text('{\r\n\t"theme": "dark"\r\n}\r\n')
    before = every_file(home, project, other)
    assert init(*HOOKED)[0] == 0
    assert init(*HOOKED, "cline", "windsurf", scope="project")[0] == 0
    monkeypatch.chdir(other)
    assert init("claude", "codex", scope="project")[0] == 0
    monkeypatch.chdir(project)

    code, text = uninstall()
    assert code == 0
    assert every_file(home, project, other) == before
    assert not os.path.exists(data / "hooks.json") and not os.path.exists(data / "hooks")
    assert "backup made by cc-hook init" in text

    code, text = uninstall()  # a second run finds nothing, and says only that
    assert code == 0 and text == "nothing of contextcrawler to remove here\n"


def test_uninstall_scopes_can_still_be_chosen(fake_home):
    home, _, project = fake_home
    assert init("claude")[0] == 0
    assert init("claude", scope="project")[0] == 0
    assert uninstall(scope="project")[0] == 0
    assert not os.path.exists(project / "CLAUDE.md")
    assert os.path.exists(home / ".claude" / "settings.json")
    assert [i["scope"] for i in Manifest.load().installs] == ["global"]


def test_backups_get_back_what_they_held_before_install(fake_home):
    home, _, _ = fake_home
    path = home / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"model": "opus"}\n')
    (home / ".claude" / "settings.json.bak").write_text("my own backup\n")
    assert init("claude")[0] == 0
    assert "ctxcrl-hook" not in read(str(path) + ".bak")  # init's backup: the user's file
    assert init("claude", "gemini")[0] == 0
    assert uninstall()[0] == 0
    assert read(path) == '{"model": "opus"}\n'
    assert read(str(path) + ".bak") == "my own backup\n"


def test_a_backup_holding_our_hook_goes_even_without_hooks_json(fake_home, monkeypatch):
    home, data, _ = fake_home
    path = home / ".claude" / "settings.json"
    path.parent.mkdir()
    path.write_text('{"model": "opus"}\n')
    assert init("claude")[0] == 0
    monkeypatch.setattr(install, "_record_filter_bin", lambda *a: (a[0], False))
    assert init("claude", "codex")[0] == 0  # a re-install: the backup now holds our hook
    os.unlink(data / "hooks.json")
    (home / ".claude" / "settings.json.bak").write_text(read(path))
    assert uninstall()[0] == 0
    assert json.loads(read(path)) == {"model": "opus"}
    assert not os.path.exists(str(path) + ".bak")


def test_uninstall_dry_run_lists_every_change_first(fake_home):
    home, data, project = fake_home
    (project / "GEMINI.md").write_text("Keep it short.\n")
    assert init("gemini", scope="project")[0] == 0
    before = every_file(home, project, data)
    code, text = uninstall(dry_run=True)
    assert code == 0 and every_file(home, project, data) == before
    assert "would restore" in text and "GEMINI.md" in text and "would delete" in text
    assert "GEMINI.md.bak" in text and "ctxcrl-hook-gemini.sh" in text


# -- the awareness note, for every agent that reads one --------------------------------------
NOTES = [("claude", "global", ".claude/CONTEXTCRAWLER.md"),
         ("claude", "project", "CONTEXTCRAWLER.md"),
         ("codex", "global", ".codex/AGENTS.md"), ("codex", "project", "AGENTS.md"),
         ("opencode", "global", ".config/opencode/AGENTS.md"),
         ("opencode", "project", "AGENTS.md"),
         ("gemini", "global", ".gemini/GEMINI.md"), ("gemini", "project", "GEMINI.md"),
         ("copilot", "global", ".copilot/copilot-instructions.md"),
         ("copilot", "project", ".github/copilot-instructions.md"),
         ("cursor", "project", ".cursor/rules/ctxcrl.mdc")]


@pytest.mark.parametrize("agent, scope, where", NOTES)
def test_every_agent_gets_the_note_and_uninstall_takes_it_back(fake_home, agent, scope, where):
    home, _, project = fake_home
    base = home if scope == "global" else project
    assert init(agent, scope=scope)[0] == 0
    note = read(base / where)
    assert awareness.note_text().strip() in note  # the same text everywhere
    for needle in ("[full output:", "CTXCRL_DISABLED=1 git status", "exit code"):
        assert needle in note
    if agent == "cursor":
        assert note.startswith("---\n") and "alwaysApply: true" in note
    assert uninstall(agent)[0] == 0
    assert not os.path.exists(base / where)


def test_cursor_global_install_writes_no_rule_file(fake_home):
    home, _, _ = fake_home
    assert init("cursor")[0] == 0
    assert not os.path.exists(home / ".cursor" / "rules")


def test_a_note_two_agents_share_stays_until_both_are_gone(fake_home):
    _, _, project = fake_home
    (project / "AGENTS.md").write_text("# Team rules\n")
    assert init("codex", "opencode", scope="project")[0] == 0
    assert read(project / "AGENTS.md").count("ctxcrl:begin") == 1
    assert uninstall("codex")[0] == 0
    assert "ctxcrl:begin" in read(project / "AGENTS.md")
    assert uninstall("opencode")[0] == 0
    assert read(project / "AGENTS.md") == "# Team rules\n"


@pytest.mark.parametrize("text, added", [
    ('{"a":1,"b":[1,2]}', '{"a":1,"b":[1,2],"c":3}'),
    ('{"a": 1, "b": 2}', '{"a": 1, "b": 2, "c": 3}'),
    ('{\n\t"a":1\n}\n', '{\n\t"a":1,\n\t"c":3\n}\n'),
])
def test_settings_keep_their_separators(text, added):
    settings = parse_settings("s.json", text)
    assert settings.render(dict(settings.data, c=3)) == added


def test_settings_keep_crlf_line_endings():
    settings = parse_settings("s.json", '{\r\n  "a": 1\r\n}\r\n')
    assert settings.render({"a": 1, "b": [2]}) == '{\r\n  "a": 1,\r\n  "b": [\r\n    2\r\n  ]\r\n}\r\n'


# -- cc-filter as a bare name in the agent's shell -------------------------------------------
def profile_with_bin(home):
    (home / "bin").mkdir()
    (home / ".profile").write_text('PATH="$HOME/bin:$PATH"\n')
    return home / "bin" / "cc-filter"


def test_init_links_cc_filter_into_a_folder_on_the_agent_shells_path(fake_home):
    home, data, project = fake_home
    link = profile_with_bin(home)
    report = Captured()
    assert install.init(["claude"], "global", link=True, report=report) == 0
    ours = hook_script.tool_path("cc-filter")
    assert os.readlink(link) == ours
    assert "filter_bin" not in (read(data / "config.toml") or "")
    assert hook_script.filter_bin_in(read(hook_script.script_path("claude"))) is None
    assert uninstall()[0] == 0
    assert not os.path.lexists(link) and os.path.isdir(home / "bin")


def test_verify_warns_when_the_link_is_gone(fake_home):
    from cc_hook import verify

    home, _, _ = fake_home
    link = profile_with_bin(home)
    assert install.init(["claude"], "global", link=True, report=Captured()) == 0
    report = Captured()
    assert verify.verify(report) == 0 and "PASS  claude" in report.text
    os.unlink(link)
    report = Captured()
    assert verify.verify(report) == 0
    assert "WARN  claude" in report.text and "is gone or changed" in report.text


def test_init_makes_local_bin_when_the_profile_puts_it_on_path(fake_home):
    home, _, _ = fake_home
    (home / ".profile").write_text(
        'if [ -d "$HOME/.local/bin" ] ; then\n    PATH="$HOME/.local/bin:$PATH"\nfi\n')
    report = Captured()
    assert install.init(["claude"], "global", link=True, report=report) == 0
    assert os.path.islink(home / ".local" / "bin" / "cc-filter")
    assert uninstall()[0] == 0
    assert not os.path.exists(home / ".local")


def test_without_a_link_the_warning_says_what_to_do(fake_home):
    home, data, _ = fake_home
    link = profile_with_bin(home)
    code, text = init("claude", "codex")
    assert code == 0 and not os.path.lexists(link)
    ours = hook_script.tool_path("cc-filter")
    assert f"ln -s {ours} {link} && cc-hook init --agent claude --agent codex" in text
    assert "--link" in text and "full path" in text
    assert f'filter_bin = "{ours}"' in read(data / "config.toml")


def test_a_later_init_with_the_link_drops_the_full_path(fake_home):
    home, data, _ = fake_home
    profile_with_bin(home)
    assert init("claude")[0] == 0
    assert "filter_bin" in read(data / "config.toml")
    assert install.init(["claude"], "global", link=True, report=Captured()) == 0
    assert "filter_bin" not in (read(data / "config.toml") or "")
    assert uninstall()[0] == 0
    assert read(data / "config.toml") is None


def test_purge_deletes_the_tracking_data(fake_home):
    home, data, _ = fake_home
    assert init("claude")[0] == 0
    (data / "tracking.db").write_bytes(b"x")
    (data / "tee").mkdir()
    (data / "config.toml").write_text('[tee]\nmode = "always"\n')
    code, text = uninstall()
    assert "--purge" in text and os.path.exists(data / "tracking.db")
    report = Captured()
    assert uninstall_module.uninstall([], purge=True, report=report) == 0
    assert sorted(os.listdir(data)) == ["config.toml"]  # CTXCRL_HOME holds the config too


def test_init_asks_in_a_terminal_and_links_on_yes(fake_home, monkeypatch):
    home, _, _ = fake_home
    link = profile_with_bin(home)
    monkeypatch.setattr(install.sys.stdin, "isatty", lambda: True, raising=False)
    monkeypatch.setattr(install.sys.stdout, "isatty", lambda: True, raising=False)
    monkeypatch.setattr("builtins.input", lambda prompt: "")
    report = Captured()
    assert install.init(["claude"], "global", report=report) == 0
    assert os.path.islink(link)
    assert f"ln -s {hook_script.tool_path('cc-filter')} {link}" in report.text


def test_a_users_config_and_its_backup_come_back_as_they_were(fake_home):
    _, data, _ = fake_home
    config = data / "config.toml"
    config.write_text('# mine\n[tee]\nmode = "always"\n')
    assert init("claude")[0] == 0
    assert "filter_bin" in read(config) and os.path.exists(str(config) + ".bak")
    assert uninstall()[0] == 0
    assert read(config) == '# mine\n[tee]\nmode = "always"\n'
    assert not os.path.exists(str(config) + ".bak")


def test_caches_go_with_the_last_install(fake_home):
    _, data, _ = fake_home
    assert init("claude")[0] == 0
    for name in ("filters.index", "config.cache"):
        (data / name).write_bytes(b"x")
    assert uninstall()[0] == 0
    assert not (data / "filters.index").exists() and not (data / "config.cache").exists()


def test_a_project_deleted_since_install_is_not_recreated(fake_home, tmp_path, monkeypatch):
    import shutil

    gone = tmp_path / "gone"
    (gone / ".git").mkdir(parents=True)
    (gone / "GEMINI.md").write_text("mine\n")
    monkeypatch.chdir(gone)
    assert init("gemini", scope="project")[0] == 0
    monkeypatch.chdir(tmp_path)
    shutil.rmtree(gone)
    assert uninstall()[0] == 0
    assert not gone.exists()
    assert Manifest.load().installs == []


def test_files_the_agent_module_no_longer_lists_still_come_back(fake_home, monkeypatch):
    home, _, _ = fake_home
    moved = home / "elsewhere"
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(moved))
    moved.mkdir()
    (moved / "settings.json").write_text('{"model": "opus"}\n')
    assert init("claude")[0] == 0
    assert "ctxcrl-hook" in read(moved / "settings.json")
    monkeypatch.delenv("CLAUDE_CONFIG_DIR")  # uninstall now looks in ~/.claude
    assert uninstall()[0] == 0
    assert read(moved / "settings.json") == '{"model": "opus"}\n'
    assert not os.path.exists(moved / "CONTEXTCRAWLER.md")
    assert not os.path.exists(moved / "settings.json.bak")
