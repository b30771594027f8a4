"""Settings files and the artifacts init writes: tolerant reading, formatting kept, idempotent
add, exact restore on remove, other entries kept."""
import json
import os

import pytest

from cc_hook.artifacts import UNKNOWN, ConfigValue, JsonRegistration, LineInFile, MarkedBlock, \
    OwnedFile
from cc_hook.settings_file import MalformedSettings, load_settings, parse_settings, write_atomic

SCRIPT = "/data/ctxcrl/hooks/ctxcrl-hook-claude.sh"
OURS = {"matcher": "Bash", "hooks": [{"type": "command", "command": SCRIPT}]}


def claude_registration(path="settings.json"):
    return JsonRegistration(path, ("hooks", "PreToolUse"), OURS, nested=True, description="d")


def cursor_registration(path="hooks.json"):
    return JsonRegistration(path, ("hooks", "preToolUse"),
                            {"command": "/d/ctxcrl-hook-cursor.sh", "matcher": "Shell"},
                            nested=False, description="d", seed={"version": 1})


# -- reading ------------------------------------------------------------------------------

@pytest.mark.parametrize("text, data", [
    (None, {}), ("", {}), ("  \n", {}), ("\ufeff", {}), ("\ufeff{\"a\": 1}", {"a": 1}),
    ('{"b": 1, "a": 2}', {"b": 1, "a": 2}),
])
def test_settings_are_read_tolerantly(text, data):
    settings = parse_settings("s.json", text)
    assert settings.data == data
    assert list(settings.data) == list(data)


@pytest.mark.parametrize("text", ["{", "[]", "1", '"x"', '{"a": 1,}', "// c\n{}"])
def test_malformed_settings_raise(text):
    with pytest.raises(MalformedSettings):
        parse_settings("s.json", text)


@pytest.mark.parametrize("text, indent", [
    ('{\n    "a": 1\n}\n', 4), ('{\n\t"a": 1\n}\n', "\t"), ('{"a": 1}', None), ("{}", 2),
    ('{\n  "a": {\n    "b": 1\n  }\n}', 2),
])
def test_indentation_is_kept(text, indent):
    settings = parse_settings("s.json", text)
    assert settings.indent == indent
    assert settings.render(settings.data) == text


def test_bom_is_kept_on_write():
    settings = parse_settings("s.json", '\ufeff{\n  "a": 1\n}\n')
    assert settings.render({"a": 2}) == '\ufeff{\n  "a": 2\n}\n'


def test_write_atomic_backs_up_and_keeps_mode(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text("old")
    os.chmod(path, 0o600)
    write_atomic(str(path), "new")
    assert path.read_text() == "new"
    assert (tmp_path / "settings.json.bak").read_text() == "old"
    assert os.stat(path).st_mode & 0o777 == 0o600
    assert sorted(os.listdir(tmp_path)) == ["settings.json", "settings.json.bak"]


def test_write_atomic_follows_a_symlinked_settings_file(tmp_path):
    target = tmp_path / "dotfiles" / "settings.json"
    target.parent.mkdir()
    target.write_text("{}")
    link = tmp_path / "settings.json"
    link.symlink_to(target)
    write_atomic(str(link), '{"a": 1}')
    assert link.is_symlink()
    assert target.read_text() == '{"a": 1}'


def test_write_atomic_none_deletes(tmp_path):
    path = tmp_path / "f"
    path.write_text("x")
    write_atomic(str(path), None, backup=False)
    assert not path.exists()


# -- JSON registrations -------------------------------------------------------------------

OTHER_HOOK = {"matcher": "Bash", "hooks": [{"type": "command", "command": "~/bin/audit.sh"}]}
USER_SETTINGS = json.dumps({
    "model": "opus",
    "permissions": {"allow": ["Bash(git status:*)"], "deny": ["Bash(rm -rf:*)"]},
    "hooks": {"PreToolUse": [OTHER_HOOK], "Stop": [{"hooks": [{"type": "command",
                                                                "command": "say done"}]}]},
    "env": {"A": "1"},
}, indent=2) + "\n"


def test_add_to_a_missing_file_creates_the_registration():
    text = claude_registration().add(None)
    assert json.loads(text) == {"hooks": {"PreToolUse": [OURS]}}
    assert text.endswith("}\n")


def test_add_keeps_every_other_key_and_hook_in_order():
    text = claude_registration().add(USER_SETTINGS)
    data = json.loads(text)
    assert list(data) == ["model", "permissions", "hooks", "env"]
    assert data["hooks"]["PreToolUse"] == [OTHER_HOOK, OURS]
    assert list(data["hooks"]) == ["PreToolUse", "Stop"]
    assert data["permissions"] == json.loads(USER_SETTINGS)["permissions"]


def test_add_twice_changes_nothing():
    once = claude_registration().add(USER_SETTINGS)
    assert claude_registration().add(once) is once


def test_add_replaces_a_stale_entry_of_ours():
    stale = {"matcher": "Bash", "hooks": [{"type": "command",
                                           "command": "/old/place/ctxcrl-hook-claude.sh"}]}
    text = json.dumps({"hooks": {"PreToolUse": [stale, OTHER_HOOK]}})
    assert json.loads(claude_registration().add(text))["hooks"]["PreToolUse"] == [OTHER_HOOK,
                                                                                  OURS]


def test_add_keeps_a_users_hook_sharing_our_group():
    shared = {"matcher": "Bash", "hooks": [{"type": "command", "command": SCRIPT},
                                           {"type": "command", "command": "mine.sh"}]}
    text = json.dumps({"hooks": {"PreToolUse": [shared]}})
    hooks = json.loads(claude_registration().add(text))["hooks"]["PreToolUse"]
    assert hooks == [{"matcher": "Bash", "hooks": [{"type": "command", "command": "mine.sh"}]},
                     OURS]


@pytest.mark.parametrize("text", ['{"hooks": []}', '{"hooks": {"PreToolUse": {}}}',
                                  '{"hooks": "x"}'])
def test_add_refuses_settings_of_the_wrong_shape(text):
    with pytest.raises(MalformedSettings):
        claude_registration().add(text)


@pytest.mark.parametrize("original", [None, "", "{}", USER_SETTINGS, "\ufeff{\"a\": 1}",
                                      '{\n    "hooks": {}\n}'])
def test_remove_gives_back_the_original_bytes(original):
    registration = claude_registration()
    installed = registration.add(original)
    assert registration.remove(installed, original) == original


def test_remove_without_a_record_of_the_original_strips_only_ours():
    registration = claude_registration()
    installed = registration.add(USER_SETTINGS)
    assert json.loads(registration.remove(installed, UNKNOWN)) == json.loads(USER_SETTINGS)


def test_remove_keeps_changes_made_after_install():
    registration = claude_registration()
    installed = json.loads(registration.add(USER_SETTINGS))
    installed["model"] = "sonnet"
    installed["hooks"]["PreToolUse"].append({"matcher": "Write", "hooks": []})
    removed = json.loads(registration.remove(json.dumps(installed, indent=2), USER_SETTINGS))
    assert removed["model"] == "sonnet"
    assert removed["hooks"]["PreToolUse"] == [OTHER_HOOK, {"matcher": "Write", "hooks": []}]


def test_remove_deletes_a_file_we_created_when_nothing_else_is_left():
    registration = cursor_registration()
    installed = registration.add(None)
    assert json.loads(installed) == {"version": 1, "hooks": {"preToolUse": [
        {"command": "/d/ctxcrl-hook-cursor.sh", "matcher": "Shell"}]}}
    edited = installed.replace('"version": 1', '"version": 1,\n  "x": 2')
    assert registration.remove(installed, None) is None
    assert json.loads(registration.remove(edited, None)) == {"version": 1, "x": 2}


def test_flat_registration_keeps_other_hooks():
    text = json.dumps({"version": 1, "hooks": {"preToolUse": [{"command": "a.sh"}],
                                               "stop": [{"command": "b.sh"}]}})
    registration = cursor_registration()
    installed = registration.add(text)
    assert json.loads(installed)["hooks"]["preToolUse"][0] == {"command": "a.sh"}
    assert registration.remove(installed, text) == text
    assert json.loads(registration.strip(installed)) == json.loads(text)


# -- text artifacts -----------------------------------------------------------------------

@pytest.mark.parametrize("original", [None, "", "# Project\n", "# Project", "a\n\nb\n"])
def test_line_in_file_round_trips(original):
    line = LineInFile("CLAUDE.md", "@CONTEXTCRAWLER.md", "d")
    installed = line.add(original)
    assert "@CONTEXTCRAWLER.md" in installed.splitlines()
    assert line.add(installed) == installed
    assert line.remove(installed, original) == original
    assert line.remove(installed, UNKNOWN).strip() == (original or "").strip()


def test_line_in_file_is_not_added_twice():
    line = LineInFile("CLAUDE.md", "@CONTEXTCRAWLER.md", "d")
    assert line.add("x\n@CONTEXTCRAWLER.md\ny\n") == "x\n@CONTEXTCRAWLER.md\ny\n"


@pytest.mark.parametrize("original", [None, "Use tabs.\n", "Use tabs."])
def test_marked_block_round_trips(original):
    block = MarkedBlock(".clinerules", "Run cc-filter run.", "d")
    installed = block.add(original)
    assert block.add(installed) == installed
    assert block.remove(installed, original) == original
    assert block.remove(installed + "More rules.\n", original) == \
        (original or "") + ("\n" if original and not original.endswith("\n") else "") + \
        ("\n" if original else "") + "More rules.\n"


def test_marked_block_is_updated_in_place():
    old = MarkedBlock(".windsurfrules", "old text", "d").add("a\n") + "b\n"
    new = MarkedBlock(".windsurfrules", "new text", "d").add(old)
    assert new.startswith("a\n") and new.endswith("b\n")
    assert "new text" in new and "old text" not in new


def test_owned_file_round_trips():
    note = OwnedFile("NOTE.md", "hello\n", "d")
    assert note.add(None) == "hello\n"
    assert note.remove("hello\n", None) is None
    assert note.remove("edited\n", UNKNOWN) is None
    assert note.remove("hello\n", "theirs\n") == "theirs\n"


# -- config.toml --------------------------------------------------------------------------

CONFIG = '''# my config
[tee]
mode = "always"

[hooks]
exclude_commands = [
  "make deploy",
]

[gate]
deny = ["git push --force"]
'''


@pytest.mark.parametrize("original", [None, "", CONFIG, '[tee]\nmode = "never"',
                                      '[hooks]\nfilter_bin = "/old/cc-filter"\n'])
def test_config_value_round_trips(original):
    value = ConfigValue("config.toml", "filter_bin", "/venv/bin/cc-filter", "d")
    installed = value.add(original)
    import tomllib
    data = tomllib.loads(installed)
    assert data["hooks"]["filter_bin"] == "/venv/bin/cc-filter"
    assert value.add(installed) is installed
    assert value.remove(installed, original) == original


def test_config_value_keeps_the_rest_of_the_file():
    installed = ConfigValue("config.toml", "filter_bin", "/v/cc-filter", "d").add(CONFIG)
    assert installed == CONFIG.replace("[hooks]\n", '[hooks]\nfilter_bin = "/v/cc-filter"\n')


def test_config_value_refuses_a_malformed_config():
    with pytest.raises(MalformedSettings):
        ConfigValue("config.toml", "filter_bin", "/v", "d").add("[hooks\n")


def test_config_value_leaves_a_value_the_user_changed():
    value = ConfigValue("config.toml", "filter_bin", "/v/cc-filter", "d")
    changed = '[hooks]\nfilter_bin = "/mine/cc-filter"\n'
    assert value.remove(changed, None) == changed


def test_settings_file_round_trip_on_disk(tmp_path):
    path = tmp_path / "settings.json"
    path.write_text(USER_SETTINGS)
    registration = claude_registration(str(path))
    write_atomic(str(path), registration.add(load_settings(str(path)).text))
    assert registration.present(path.read_text())
    write_atomic(str(path), registration.remove(path.read_text(), USER_SETTINGS))
    assert path.read_text() == USER_SETTINGS
