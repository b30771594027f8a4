"""OpenCode's model: `permission.bash` from every config level, last matching rule wins, and
the gate only ever adds denies (OpenCode filters after execution)."""
import json

import pytest
from settings_files import write_json

import cc_gate.agents.opencode as opencode
from cc_gate.agents.opencode import wildcard_match


@pytest.fixture(autouse=True)
def no_client(monkeypatch, tmp_path):
    for name in ("XDG_CONFIG_HOME", "OPENCODE_CONFIG", "OPENCODE_CONFIG_DIR",
                 "OPENCODE_CONFIG_CONTENT", "OPENCODE_PERMISSION",
                 "OPENCODE_DISABLE_PROJECT_CONFIG"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setattr(opencode, "MANAGED_DIR", str(tmp_path / "etc-opencode"))
    monkeypatch.setattr(opencode, "client_argv", lambda names: ["opencode", "run", "x"])


# (text, pattern, matches) — OpenCode's Wildcard.match (1.18.33): ^pattern$ with `*` → `.*`,
# `?` → `.`, a trailing ` .*` made optional, dot-all.
WILDCARD = [
    ("git push origin main", "git push *", True),
    ("git push", "git push *", True),
    ("git pushy", "git push *", False),
    ("git push", "git push", True),
    ("git push origin", "git push", False),
    ("rm -rf /tmp/x", "rm *", True),
    ("ls", "l?", True),
    ("ls -la", "l?", False),
    ("echo a\nb", "echo *", True),
    ("anything", "*", True),
    ("git status", "git * --force", False),
    ("git push x --force", "git * --force", True),
    ("cat a.txt", "cat *.txt", True),
]


@pytest.mark.parametrize("text, pattern, expected", WILDCARD)
def test_wildcard_match(text, pattern, expected):
    assert wildcard_match(text, pattern) is expected


def decide(command, cwd):
    rules = opencode.load_rules(str(cwd))
    return opencode.decide(command, rules, None, ())


GLOBAL = {"permission": {"bash": {"*": "allow", "git push *": "deny", "rm *": "ask",
                                  "rm -f build/*": "allow"}}}

# (command, decision) under GLOBAL
CASES = [
    ("git push origin main", "deny"),
    ("git status && git push", "deny"),
    ("FOO=1 /usr/bin/git -C x push --force", "deny"),   # hardening: OpenCode sees FOO=1 …
    ("bash -c 'git push'", "deny"),
    ("git pushy", "ask"),
    ("rm -rf x", "ask"),           # OpenCode asks: no answer, it decides
    ("rm -f build/a", "ask"),      # allowed by OpenCode, but the gate never allows
    ("ls", "ask"),
]


@pytest.mark.parametrize("command, expected", CASES)
def test_global_config(private_home, tmp_path, command, expected):
    write_json(private_home / ".config/opencode/opencode.json", GLOBAL)
    assert decide(command, tmp_path).decision == expected


def test_deny_names_the_rule_and_the_file(private_home, tmp_path):
    write_json(private_home / ".config/opencode/opencode.json", GLOBAL)
    verdict = decide("git push origin main", tmp_path)
    assert verdict.reason == ('deny rule "bash": {"git push *": "deny"} in '
                              '~/.config/opencode/opencode.json')


def test_the_last_matching_rule_wins(private_home, tmp_path):
    write_json(private_home / ".config/opencode/opencode.json",
               {"permission": {"bash": {"git *": "deny", "git status *": "allow"}}})
    assert decide("git status", tmp_path).decision == "ask"
    assert decide("git log", tmp_path).decision == "deny"


def test_project_files_override_global_keys_in_place(private_home, tmp_path):
    project = tmp_path / "proj"
    (project / ".git").mkdir(parents=True)
    write_json(private_home / ".config/opencode/opencode.json",
               {"permission": {"bash": {"git push *": "allow", "*": "allow"}}})
    # the project turns the push rule into a deny; its key keeps its first place, so the
    # later "*": "allow" still wins for every command, push included — as in OpenCode
    write_json(project / "opencode.json", {"permission": {"bash": {"git push *": "deny"}}})
    assert decide("git push", project / "sub").decision == "ask"
    write_json(project / ".opencode/opencode.jsonc",
               '{\n  // comments and trailing commas are fine\n'
               '  "permission": {"bash": {"make deploy*": "deny",}},\n}')
    assert decide("make deploy-prod", project).decision == "deny"


def test_every_source(private_home, tmp_path, monkeypatch):
    write_json(tmp_path / "explicit.json", {"permission": {"bash": {"a *": "deny"}}})
    monkeypatch.setenv("OPENCODE_CONFIG", str(tmp_path / "explicit.json"))
    write_json(tmp_path / "cfgdir/opencode.json", {"permission": {"bash": {"b *": "deny"}}})
    monkeypatch.setenv("OPENCODE_CONFIG_DIR", str(tmp_path / "cfgdir"))
    monkeypatch.setenv("OPENCODE_CONFIG_CONTENT", json.dumps(
        {"permission": {"bash": {"c *": "deny"}}}))
    write_json(tmp_path / "etc-opencode/opencode.json", {"permission": {"bash": {"d *": "deny"}}})
    monkeypatch.setenv("OPENCODE_PERMISSION", json.dumps({"bash": {"e *": "deny"}}))
    for program in "abcde":
        assert decide(f"{program} x", tmp_path).decision == "deny", program
    assert decide("f x", tmp_path).decision == "ask"


def test_a_plain_string_and_the_legacy_tools_switch(private_home, tmp_path):
    write_json(private_home / ".config/opencode/opencode.json", {"permission": {"bash": "deny"}})
    assert decide("ls", tmp_path).decision == "deny"
    write_json(private_home / ".config/opencode/opencode.json", {"tools": {"bash": False}})
    assert decide("ls", tmp_path).decision == "deny"
    write_json(private_home / ".config/opencode/opencode.json", {"permission": {"*": "deny"}})
    assert decide("ls", tmp_path).decision == "deny"


def test_the_running_agents_own_permission(private_home, tmp_path, monkeypatch):
    write_json(private_home / ".config/opencode/opencode.json",
               {"agent": {"build": {"permission": {"bash": {"npm publish*": "deny"}}},
                          "review": {"permission": {"bash": {"*": "deny"}}}}})
    assert decide("npm publish", tmp_path).decision == "deny"
    assert decide("ls", tmp_path).decision == "ask"
    monkeypatch.setattr(opencode, "client_argv",
                        lambda names: ["opencode", "run", "--agent", "review", "x"])
    assert decide("ls", tmp_path).decision == "deny"


def test_a_malformed_file_warns_and_never_allows(private_home, tmp_path):
    write_json(private_home / ".config/opencode/opencode.json", "{not json")
    rules = opencode.load_rules(str(tmp_path))
    assert rules.warnings and rules.warnings[0].startswith(
        "skipping ~/.config/opencode/opencode.json: malformed JSON")
    assert rules.doubt is not None


def test_gate_config_allow_is_never_an_allow(ctxcrl_home, tmp_path):
    (ctxcrl_home / "config.toml").write_text('[gate]\nallow = ["ls"]\ndeny = ["curl:*"]\n')
    assert decide("ls", tmp_path).decision == "ask"
    assert decide("curl x", tmp_path).decision == "deny"
