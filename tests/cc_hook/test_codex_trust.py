"""Codex runs a hook only when `$CODEX_HOME/config.toml` trusts it (measured on codex-cli
0.171.0: an untrusted hook is skipped without a word; tests/agents/codex/ checks the hash on the
real client). init writes the trust entry, verify FAILs without it, uninstall takes it back."""
import hashlib
import io
import json
import tomllib

import pytest

from cc_hook import hook_script, install, uninstall as uninstalling, verify
from cc_hook.install import Reporter


class Captured(Reporter):
    def __init__(self):
        super().__init__(io.StringIO(), io.StringIO())

    @property
    def text(self):
        return self.out.getvalue() + self.err.getvalue()


def run(fn, *args):
    report = Captured()
    code = fn(*args, report=report)
    return code, report.text


USER_CONFIG = '''# my Codex settings
model = "o3"            # keep this comment
approval_policy = "on-request"

[projects."/work/app"]
trust_level = "trusted"

[hooks.state."/elsewhere/hooks.json:pre_tool_use:0:0"]
trusted_hash = "sha256:0000"
'''


def trust_of(config_text: str) -> dict:
    return tomllib.loads(config_text).get("hooks", {}).get("state", {})


def expected_trust(home) -> tuple:
    """The recipe, restated: sha256 of the compact key-sorted identity of our handler."""
    hooks_json = home / ".codex" / "hooks.json"
    group = json.loads(hooks_json.read_text())["hooks"]["PreToolUse"][-1]
    index = len(json.loads(hooks_json.read_text())["hooks"]["PreToolUse"]) - 1
    handler = group["hooks"][0]
    identity = {"event_name": "pre_tool_use", "matcher": "Bash",
                "hooks": [{"type": "command", "command": handler["command"],
                           "timeout": handler["timeout"], "async": False}]}
    blob = json.dumps(identity, sort_keys=True, separators=(",", ":")).encode()
    return (f"{hooks_json}:pre_tool_use:{index}:0",
            "sha256:" + hashlib.sha256(blob).hexdigest())


@pytest.fixture
def codex_home(fake_home):
    home = fake_home[0]
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(USER_CONFIG)
    (home / ".codex" / "hooks.json").write_text(json.dumps({"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command", "command": "audit.sh"}]}]}}))
    return home


def test_init_trusts_the_hook_and_keeps_the_users_config(codex_home):
    assert run(install.init, ["codex"], "global", False)[0] == 0
    text = (codex_home / ".codex" / "config.toml").read_text()
    assert text.startswith(USER_CONFIG)  # every byte of the user's kept, ours appended
    key, digest = expected_trust(codex_home)
    assert key.endswith(":pre_tool_use:1:0")  # after the user's own hook group
    assert trust_of(text)[key] == {"trusted_hash": digest}
    assert trust_of(text)["/elsewhere/hooks.json:pre_tool_use:0:0"] == {
        "trusted_hash": "sha256:0000"}
    handler = json.loads((codex_home / ".codex/hooks.json").read_text())["hooks"]["PreToolUse"][1]
    assert handler["hooks"][0]["timeout"] == 10 and handler["hooks"][0]["command"] == \
        hook_script.hook_command(hook_script.script_path("codex"))
    assert run(verify.verify)[0] == 0
    # twice changes nothing
    assert run(install.init, ["codex"], "global", False)[0] == 0
    assert (codex_home / ".codex" / "config.toml").read_text() == text


@pytest.mark.parametrize("tamper", [
    lambda t: t.rsplit("trusted_hash", 1)[0] + 'trusted_hash = "sha256:dead"\n',  # stale hash
    lambda t: t.split("# contextcrawler:")[0],                                   # no entry
], ids=["stale", "missing"])
def test_verify_fails_an_untrusted_or_stale_hook(codex_home, tamper):
    run(install.init, ["codex"], "global", False)
    config = codex_home / ".codex" / "config.toml"
    config.write_text(tamper(config.read_text()))
    code, text = run(verify.verify)
    assert code == 1 and "FAIL  codex" in text and "Codex will not run the hook" in text
    assert run(install.init, ["codex"], "global", False)[0] == 0  # init repairs it
    assert run(verify.verify)[0] == 0


def test_a_changed_registration_is_no_longer_trusted(codex_home):
    run(install.init, ["codex"], "global", False)
    hooks_json = codex_home / ".codex" / "hooks.json"
    data = json.loads(hooks_json.read_text())
    data["hooks"]["PreToolUse"].pop(0)  # the user removes their own group: ours moves to 0
    hooks_json.write_text(json.dumps(data))
    code, text = run(verify.verify)
    assert code == 1 and "not trusted" in text


def test_uninstall_gives_back_the_exact_bytes(codex_home):
    before = (codex_home / ".codex" / "config.toml").read_bytes()
    run(install.init, ["codex"], "global", False)
    assert run(uninstalling.uninstall, ["codex"], "global", False)[0] == 0
    assert (codex_home / ".codex" / "config.toml").read_bytes() == before


def test_uninstall_after_the_user_edited_keeps_their_edit(codex_home):
    run(install.init, ["codex"], "global", False)
    config = codex_home / ".codex" / "config.toml"
    config.write_text(config.read_text() + '\n[tui]\nnotifications = true\n')
    run(uninstalling.uninstall, ["codex"], "global", False)
    text = config.read_text()
    assert "contextcrawler" not in text and "notifications = true" in text
    assert list(trust_of(text)) == ["/elsewhere/hooks.json:pre_tool_use:0:0"]


def test_a_config_that_is_not_toml_is_left_alone_with_instructions(codex_home):
    config = codex_home / ".codex" / "config.toml"
    config.write_text("model = \n")
    code, text = run(install.init, ["codex"], "global", False)
    assert code == 1 and "is not valid TOML" in text and "trusted_hash" in text
    assert config.read_text() == "model = \n"


def test_a_project_install_needs_a_trusted_project(codex_home, fake_home):
    """Measured: Codex loads `<project>/.codex/hooks.json` only in a trusted project (and with
    the hook's trusted_hash in $CODEX_HOME/config.toml, keyed by that hooks.json)."""
    project = fake_home[2]
    assert run(install.init, ["codex"], "project", False)[0] == 0
    config = codex_home / ".codex" / "config.toml"
    key = next(k for k in trust_of(config.read_text()) if k.startswith(str(project)))
    assert key == f"{project}/.codex/hooks.json:pre_tool_use:0:0"
    code, text = run(verify.verify)
    assert code == 1 and "only in a trusted project" in text
    config.write_text(config.read_text() + f'\n[projects."{project}"]\ntrust_level = "trusted"\n')
    assert run(verify.verify)[0] == 0


def test_global_and_project_installs_keep_their_own_trust(codex_home, fake_home):
    project = fake_home[2]
    run(install.init, ["codex"], "global", False)
    run(install.init, ["codex"], "project", False)
    config = codex_home / ".codex" / "config.toml"
    # PreToolUse and PostToolUse, each for the global and the project hooks.json
    assert len([k for k in trust_of(config.read_text()) if "/elsewhere/" not in k]) == 4
    run(uninstalling.uninstall, ["codex"], "project", False)
    keys = list(trust_of(config.read_text()))
    assert keys == ["/elsewhere/hooks.json:pre_tool_use:0:0",
                    f"{codex_home}/.codex/hooks.json:pre_tool_use:1:0",
                    f"{codex_home}/.codex/hooks.json:post_tool_use:0:0"]
    assert str(project) not in config.read_text()
    assert run(verify.verify)[0] == 0
