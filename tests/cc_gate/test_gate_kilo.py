"""Kilo CLI's model: OpenCode's `permission.bash` format (opencode.py) under Kilo's file
names, folders and variables, measured on Kilo CLI 7.7.7; the gate only ever adds denies."""
import json

import pytest
from settings_files import write_json

import cc_gate.agents.kilo as kilo
import cc_gate.agents.opencode as opencode

VARIABLES = ("XDG_CONFIG_HOME", "KILO_CONFIG", "KILO_CONFIG_DIR", "KILO_CONFIG_CONTENT",
             "KILO_PERMISSION", "KILO_DISABLE_PROJECT_CONFIG", "OPENCODE_CONFIG",
             "OPENCODE_CONFIG_DIR", "OPENCODE_PERMISSION")


@pytest.fixture(autouse=True)
def no_client(monkeypatch, tmp_path):
    for name in VARIABLES:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(kilo.LAYOUT, "managed_dir", str(tmp_path / "etc-kilo"))
    monkeypatch.setattr(opencode, "client_argv", lambda names: ["kilo", "run", "x"])


def decide(command, cwd):
    return kilo.decide(command, kilo.load_rules(str(cwd)), None, ())


GLOBAL = {"permission": {"bash": {"*": "allow", "git push *": "deny", "rm *": "ask"}}}


@pytest.mark.parametrize("name", ["config.json", "kilo.json", "kilo.jsonc", "opencode.json",
                                  "opencode.jsonc"])
def test_each_global_file_name(private_home, tmp_path, name):
    write_json(private_home / ".config/kilo" / name, GLOBAL)
    verdict = decide("git push origin main", tmp_path)
    assert verdict.decision == "deny"
    assert verdict.reason == f'deny rule "bash": {{"git push *": "deny"}} in ~/.config/kilo/{name}'
    assert decide("rm -rf x", tmp_path).decision == "ask"
    assert "Kilo CLI filters after execution" in decide("ls", tmp_path).reason


def test_opencodes_own_folder_is_not_kilos(private_home, tmp_path):
    write_json(private_home / ".config/opencode/opencode.json", GLOBAL)
    assert decide("git push", tmp_path).decision == "ask"


@pytest.mark.parametrize("where", ["kilo.json", "opencode.jsonc", ".kilo/kilo.jsonc",
                                   ".kilocode/kilo.json", ".kilo/opencode.json"])
def test_project_files(private_home, tmp_path, where):
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    write_json(project / where, {"permission": {"bash": {"git tag *": "deny"}}})
    assert decide("git tag v1", project / "sub").decision == "deny"
    assert decide("git tag v1", tmp_path).decision == "ask"


def test_every_variable_and_the_managed_folder(private_home, tmp_path, monkeypatch):
    write_json(tmp_path / "explicit.json", {"permission": {"bash": {"a *": "deny"}}})
    monkeypatch.setenv("KILO_CONFIG", str(tmp_path / "explicit.json"))
    write_json(tmp_path / "cfgdir/kilo.json", {"permission": {"bash": {"b *": "deny"}}})
    monkeypatch.setenv("KILO_CONFIG_DIR", str(tmp_path / "cfgdir"))
    monkeypatch.setenv("KILO_CONFIG_CONTENT", json.dumps(
        {"permission": {"bash": {"c *": "deny"}}}))
    write_json(tmp_path / "etc-kilo/kilo.json", {"permission": {"bash": {"d *": "deny"}}})
    monkeypatch.setenv("KILO_PERMISSION", json.dumps({"bash": {"e *": "deny"}}))
    monkeypatch.setenv("OPENCODE_PERMISSION", json.dumps({"bash": {"f *": "deny"}}))
    for program in "abcde":
        assert decide(f"{program} x", tmp_path).decision == "deny", program
    assert decide("f x", tmp_path).decision == "ask"  # OpenCode's variable is not Kilo's


def test_the_default_agent_is_code(private_home, tmp_path, monkeypatch):
    write_json(private_home / ".config/kilo/kilo.json",
               {"agent": {"code": {"permission": {"bash": {"npm publish*": "deny"}}},
                          "review": {"permission": {"bash": {"*": "deny"}}}}})
    assert decide("npm publish", tmp_path).decision == "deny"
    assert decide("ls", tmp_path).decision == "ask"
    monkeypatch.setattr(opencode, "client_argv",
                        lambda names: ["kilo", "run", "--agent", "review", "x"])
    assert decide("ls", tmp_path).decision == "deny"


def test_a_malformed_file_never_allows(private_home, tmp_path):
    write_json(private_home / ".config/kilo/kilo.json", "{not json")
    rules = kilo.load_rules(str(tmp_path))
    assert rules.warnings and rules.doubt is not None
    assert "Kilo CLI config file" in rules.doubt
