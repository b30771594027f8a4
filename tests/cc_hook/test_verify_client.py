"""`cc-hook verify` checks what the client will really run (issue 23 item 4): settings that
switch the hook off, another hook on the same tool, an `env` that overrides contextcrawler's
variables. Each case once said PASS; each finding names the file and the fix."""
import io
import json

import pytest

from cc_hook import install, verify
from cc_hook.install import Reporter


class Captured(Reporter):
    def __init__(self):
        super().__init__(io.StringIO(), io.StringIO())

    @property
    def text(self):
        return self.out.getvalue() + self.err.getvalue()


@pytest.fixture
def managed(tmp_path, monkeypatch):
    import cc_gate.agents.claude as claude_gate

    path = tmp_path / "managed" / "managed-settings.json"
    path.parent.mkdir()
    monkeypatch.setattr(claude_gate, "MANAGED_SETTINGS", [str(path)])
    return path


def _init(*agents):
    report = Captured()
    assert install.init(list(agents), "global", False, report=report) == 0, report.text
    return report.text


def _verify():
    report = Captured()
    code = verify.verify(report)
    return code, report.text


def _edit(path, change):
    data = json.loads(path.read_text()) if path.exists() else {}
    change(data)
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(data, indent=2))


def test_a_clean_install_passes(fake_home, managed):
    _init("claude")
    code, text = _verify()
    assert code == 0 and text.startswith("PASS  claude (global)"), text


@pytest.mark.parametrize("where", ["project", "local", "user", "managed"])
def test_disable_all_hooks_fails_with_the_fix(fake_home, managed, where):
    home, _, project = fake_home
    _init("claude")
    path = {"project": project / ".claude" / "settings.json",
            "local": project / ".claude" / "settings.local.json",
            "user": home / ".claude" / "settings.json", "managed": managed}[where]
    _edit(path, lambda d: d.update(disableAllHooks=True))
    code, text = _verify()
    assert code == 1 and "FAIL  claude (global)" in text, text
    assert '"disableAllHooks": true: Claude Code runs no hook' in text
    if where == "managed":
        assert "ask whoever manages" in text
    else:
        assert f'fix: remove "disableAllHooks" from {"~" if where == "user" else ""}' in text
    _edit(path, lambda d: d.update(disableAllHooks=False))
    assert _verify()[0] == 0


def test_managed_hooks_only_fails(fake_home, managed):
    _init("claude")
    _edit(managed, lambda d: d.update(allowManagedHooksOnly=True))
    code, text = _verify()
    assert code == 1 and "allowManagedHooksOnly" in text


@pytest.mark.parametrize("matcher", ["Bash", "*", "", None, "Bash|Edit", "Ba.*"])
def test_a_foreign_bash_hook_warns(fake_home, managed, matcher):
    _, _, project = fake_home
    _init("claude")
    group = {"hooks": [{"type": "command", "command": "./scripts/guard.sh"}]}
    if matcher is not None:
        group["matcher"] = matcher
    _edit(project / ".claude" / "settings.json",
          lambda d: d.setdefault("hooks", {}).setdefault("PreToolUse", []).append(group))
    code, text = _verify()
    assert code == 0 and text.startswith("WARN  claude (global)"), text
    assert "another PreToolUse hook on Bash (./scripts/guard.sh)" in text
    assert "fix: remove it from hooks.PreToolUse in" in text


def test_hooks_on_other_tools_or_events_are_fine(fake_home, managed):
    _, _, project = fake_home
    _init("claude")
    _edit(project / ".claude" / "settings.json", lambda d: d.update(hooks={
        "PreToolUse": [{"matcher": "Edit|Write", "hooks": [{"type": "command",
                                                             "command": "fmt"}]}],
        "PostToolUse": [{"matcher": "Bash", "hooks": [{"type": "command", "command": "log"}]}]}))
    assert _verify()[1].startswith("PASS")


@pytest.mark.parametrize("key, value", [("CTXCRL_HOME", "./.ctx"), ("XDG_DATA_HOME", "./x"),
                                        ("CTXCRL_FILTER_BIN", "./evil.sh"),
                                        ("CLAUDE_CONFIG_DIR", "./c"), ("CTXCRL_DISABLED", "1")])
def test_a_project_env_block_over_our_variables_fails(fake_home, managed, key, value):
    _, _, project = fake_home
    _init("claude")
    _edit(project / ".claude" / "settings.json", lambda d: d.update(env={key: value,
                                                                         "FOO": "bar"}))
    code, text = _verify()
    assert code == 1, text
    assert f'fix: remove "{key}" from the "env" block of project settings' in text
    assert "FOO" not in text


def test_the_users_own_env_block_warns(fake_home, managed):
    home, _, _ = fake_home
    _init("claude")
    _edit(home / ".claude" / "settings.json", lambda d: d.update(env={"CTXCRL_TEE_DIR": "/t"}))
    code, text = _verify()
    assert code == 0 and text.startswith("WARN") and "CTXCRL_TEE_DIR" in text, text


def test_gemini_hooks_off_and_project_env_file(fake_home):
    home, _, project = fake_home
    _init("gemini")
    assert _verify()[1].startswith("PASS"), _verify()[1]
    _edit(project / ".gemini" / "settings.json",
          lambda d: d.update(hooksConfig={"enabled": False}))
    code, text = _verify()
    assert code == 1 and "hooksConfig.enabled to false" in text
    (project / ".gemini" / "settings.json").unlink()
    (project / ".env").write_text("# project\nexport CTXCRL_HOME=./.ctx\nAPI=1\n")
    code, text = _verify()
    assert code == 1 and 'remove "CTXCRL_HOME" from project env file' in text
    (project / ".env").unlink()
    _edit(home / ".gemini" / "settings.json", lambda d: d.setdefault("hooks", {}).setdefault(
        "BeforeTool", []).append({"matcher": "run_shell_command",
                                  "hooks": [{"type": "command", "command": "other"}]}))
    code, text = _verify()
    assert code == 0 and "another BeforeTool hook on run_shell_command (other)" in text


def test_codex_foreign_hook_warns(fake_home):
    home, _, _ = fake_home
    _init("codex")
    assert _verify()[1].startswith("PASS"), _verify()[1]
    _edit(home / ".codex" / "hooks.json", lambda d: d["hooks"]["PreToolUse"].append(
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "their-guard"}]}))
    code, text = _verify()
    assert "another PreToolUse hook on Bash (their-guard)" in text


def test_cline_disabled_plugin_warns(fake_home, monkeypatch):
    home, _, _ = fake_home
    for var in ("CLINE_DIR", "CLINE_DATA_DIR", "CLINE_GLOBAL_SETTINGS_PATH"):
        monkeypatch.delenv(var, raising=False)
    _init("cline")
    settings = home / ".cline" / "data" / "settings" / "global-settings.json"
    _edit(settings, lambda d: d.update(toolAutoApprove=False, disabledPlugins=["/else.js"]))
    assert _verify()[1].startswith("PASS  cline (global)"), _verify()[1]
    plugin = str(home / ".cline" / "plugins" / "ctxcrl.js")
    _edit(settings, lambda d: d["disabledPlugins"].append(plugin))
    code, text = _verify()
    assert "list the plugin ~/.cline/plugins/ctxcrl.js in disabledPlugins" in text, text
    assert "fix: remove it from disabledPlugins" in text
    settings.write_text("{not json")
    assert _verify()[1].startswith("PASS  cline (global)")  # unreadable: nothing to say


def test_malformed_client_settings_never_raise(fake_home, managed):
    _, _, project = fake_home
    _init("claude")
    (project / ".claude").mkdir(exist_ok=True)
    (project / ".claude" / "settings.json").write_text('{"hooks": {"PreToolUse": "x"}, "env": 3')
    code, text = _verify()
    assert "Traceback" not in text
    (project / ".claude" / "settings.json").write_text(
        '{"hooks": {"PreToolUse": ["x", {"matcher": "(", "hooks": [1]}]}, "env": [1]}')
    code, text = _verify()
    assert code == 0 and "Traceback" not in text


def test_init_warns_when_its_home_would_trust_nothing(fake_home, managed, monkeypatch):
    _, _, project = fake_home
    monkeypatch.setenv("CTXCRL_HOME", str(project / ".ctx"))
    report = Captured()
    assert install.init(["claude"], "global", True, report=report) == 0
    assert "lies inside the project" in report.text and "will use no config.toml" in report.text


@pytest.mark.parametrize("trust, verdict", [
    (None, "WARN"), ('trusted = ["{project}"]', "PASS"), ('trusted = ["{home}"]', "PASS"),
    ('untrusted = ["{project}"]', "WARN"),
    ('trusted = ["{home}"]\nuntrusted = ["{project}"]', "WARN"),  # the closest decision wins
])
def test_vibe_project_install_needs_a_trusted_folder(fake_home, monkeypatch, trust, verdict):
    home, _, project = fake_home
    monkeypatch.delenv("VIBE_HOME", raising=False)
    report = Captured()
    assert install.init(["vibe"], "project", False, report=report) == 0, report.text
    if trust is not None:
        (home / ".vibe").mkdir(exist_ok=True)
        (home / ".vibe" / "trusted_folders.toml").write_text(
            trust.format(project=project, home=home.parent) + "\n")
    code, text = _verify()
    assert code == 0 and text.startswith(f"{verdict}  vibe (project"), text
    if verdict == "WARN":
        assert "--trust" in text and "hooks.toml" in text
