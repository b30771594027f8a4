"""Claude Code's permission model (agents/claude.py): its decision on the original command,
as the real client (2.1.197, 2.1.332) showed it (tests/agents/claude/scenarios.py has the same facts
measured end to end)."""
import json
import subprocess

import pytest

import cc_gate.agents.claude as claude
from cc_gate.rules import ALLOW, ASK, DENY, RuleSet
from settings_files import claude_settings, write_json


def decide(command, rules=None, mode="default"):
    record = {"command": command, "event": {"permission_mode": mode}}
    return claude.decide(command, rules or RuleSet(), record, ()).decision


@pytest.mark.parametrize("command, expected", [
    # the client's built-in read-only commands run without asking in the default mode
    ("git status", ALLOW), ("git status -s", ALLOW), ("git log --oneline -n 5", ALLOW),
    ("git diff --stat", ALLOW), ("git show --stat HEAD", ALLOW), ("git branch", ALLOW),
    ("ls -la src", ALLOW), ("cat README.md", ALLOW), ("head -50 a.txt", ALLOW),
    ("grep -rn value src", ALLOW), ("rg -n foo", ALLOW), ("find . -name '*.py'", ALLOW),
    ("wc -l a b", ALLOW), ("tree src", ALLOW), ("du -sh src", ALLOW), ("ps aux", ALLOW),
    ("git status && git diff --stat", ALLOW), ("git log --oneline | head -3", ALLOW),
    ("LANG=C git status", ALLOW), ("ls 2>/dev/null", ALLOW),
    # and these the client asks about
    ("env", ASK), ("make -v", ASK), ("git push", ASK), ("git add .", ASK),
    ("git branch newname", ASK), ("git log --format=%G?", ASK), ("git status --porcelain=v1", ASK),
    ("find . -name '*.md' -exec cat {} ;", ASK), ("find . -delete", ASK),
    ("FOO=1 git status", ASK), ("timeout 5 git status", ASK), ("git status &", ASK),
    ("(git status)", ASK), ("{ git status; }", ASK), ("ls $HOME", ASK), ("c=1; ls", ASK),
    ("ls > out.txt", ASK), ("git status && make", ASK), ("cat $(ls)", ASK),
])
def test_default_mode_follows_the_clients_read_only_list(command, expected):
    assert decide(command) == expected


@pytest.mark.parametrize("mode, command, expected", [
    ("bypassPermissions", "make -j4 && git push", ALLOW),
    # plan mode: allowed, but left to the client (it asks about a rewritten command: 2.1.332)
    ("acceptEdits", "git status", ALLOW), ("plan", "git status", ASK),
    ("dontAsk", "make", ASK), ("auto", "git log", ALLOW), ("no-such-mode", "git status", ASK),
])
def test_modes(mode, command, expected):
    assert decide(command, mode=mode) == expected


def rules(allow=(), ask=(), deny=()):
    r = RuleSet()
    r.add(ALLOW, [f"Bash({p})" for p in allow], ("Bash",), "t")
    r.add(ASK, [f"Bash({p})" for p in ask], ("Bash",), "t")
    r.add(DENY, [f"Bash({p})" for p in deny], ("Bash",), "t")
    return r


def test_bypass_still_denies_and_asks():
    r = rules(ask=["git status:*"], deny=["git push:*"])
    assert decide("git push origin main", r, "bypassPermissions") == DENY
    assert decide("git status", r, "bypassPermissions") == ASK
    assert decide("/usr/bin/git -C . push", r, "bypassPermissions") == DENY
    assert decide("cc-filter run git push", r, "bypassPermissions") == DENY


def test_ctxcrl_disabled_is_decided_without_the_prefix():
    assert decide("CTXCRL_DISABLED=1 git status") == ALLOW
    verdict = claude.decide("CTXCRL_DISABLED=1 git status", RuleSet(), {}, ())
    assert verdict.reason == ("without the CTXCRL_DISABLED=1 prefix, auto-allowed read-only "
                              "command: git status")
    assert decide("CTXCRL_DISABLED=1 make") == ASK
    assert decide("CTXCRL_DISABLED=1 git push", rules(deny=["git push:*"])) == DENY


@pytest.mark.parametrize("argv, expected", [
    (["claude", "-p", "x", "--allowedTools", "Bash(git add:*)", "Edit"],
     {"allowed": ["Bash(git add:*)", "Edit"]}),
    (["claude", "--allowedTools=Bash(git add:*),Read", "-p", "x"],
     {"allowed": ["Bash(git add:*)", "Read"]}),
    (["claude", "--disallowed-tools", "Bash(git push:*) Bash(rm:*)"],
     {"disallowed": ["Bash(git push:*)", "Bash(rm:*)"]}),
    (["claude", "--permission-mode", "plan"], {"mode": "plan"}),
    (["claude", "--dangerously-skip-permissions"], {"mode": "bypassPermissions"}),
    (["claude", "--settings", '{"permissions": {}}'],
     {"settings": [('{"permissions": {}}', "--settings")]}),
    (["claude", "--setting-sources", "user,local"], {"setting_sources": {"user", "local"}}),
    (["claude", "-p", "--", "--permission-mode", "x"], {}),
])
def test_client_flags_are_parsed(argv, expected):
    assert claude.parse_client_argv(argv) == expected


@pytest.mark.parametrize("argv", [
    ["claude", "--permission-mode", "nonsense"], ["claude", "--allowedTools", "Bash(git"],
    ["claude", "--settings"], ["claude", "--permission-mode"],
])
def test_unparseable_client_flags_raise(argv):
    with pytest.raises(ValueError):
        claude.parse_client_argv(argv)


def test_a_bad_flag_is_doubt(monkeypatch, tmp_path):
    import cc_gate.process

    monkeypatch.setattr(cc_gate.process, "client_argv",
                        lambda names: ["claude", "--permission-mode", "nonsense"])
    r = claude.load_rules(str(tmp_path))
    assert r.doubt and "cannot parse the running claude's flags" in r.doubt
    assert claude.decide("git status", r, {}, ()).decision == ASK


def test_flags_of_the_running_client_are_rules(monkeypatch, tmp_path):
    import cc_gate.process

    settings = tmp_path / "flag.json"
    settings.write_text(json.dumps(claude_settings(deny=["Bash(rm:*)"])))
    monkeypatch.setattr(cc_gate.process, "client_argv", lambda names: [
        "claude", "-p", "x", "--allowedTools", "Bash(make:*)", "--disallowedTools",
        "Bash(git push:*)", "--settings", str(settings), "--permission-mode", "acceptEdits"])
    r = claude.load_rules(str(tmp_path))
    assert decide("make -j4", r) == ALLOW
    assert decide("git push", r) == DENY and decide("rm -rf x", r) == DENY
    assert claude.mode_of(r, {}) == "acceptEdits"


def _project(tmp_path, name="app", git=True):
    project = tmp_path / name
    project.mkdir()
    if git:
        subprocess.run(["git", "init", "-q", str(project)], check=True)
    return project


def test_untrusted_workspace_drops_the_shared_project_allow_rules(private_home, tmp_path):
    project = _project(tmp_path)
    write_json(project / ".claude/settings.json",
               claude_settings(allow=["Bash(make:*)"], deny=["Bash(git push:*)"]))
    r = claude.load_rules(str(project))
    assert [x.text for x in r.allow] == [] and [x.text for x in r.deny] == ["Bash(git push:*)"]
    write_json(private_home / ".claude.json",
               {"projects": {str(project): {"hasTrustDialogAccepted": True}}})
    assert [x.text for x in claude.load_rules(str(project)).allow] == ["Bash(make:*)"]


def test_local_project_allow_rules_need_an_untracked_file(private_home, tmp_path):
    project = _project(tmp_path)
    write_json(project / ".claude/settings.local.json", claude_settings(allow=["Bash(make:*)"]))
    assert len(claude.load_rules(str(project)).allow) == 1
    subprocess.run(["git", "-C", str(project), "add", "-f", ".claude/settings.local.json"],
                   check=True)
    assert claude.load_rules(str(project)).allow == []  # tracked: the client drops them


def test_user_settings_local_gives_no_allow(private_home, tmp_path):
    write_json(private_home / ".claude/settings.local.json",
               claude_settings(allow=["Bash(make:*)"], deny=["Bash(git push:*)"]))
    r = claude.load_rules(str(tmp_path))
    assert r.allow == [] and [x.text for x in r.deny] == ["Bash(git push:*)"]


def test_managed_drop_ins_and_managed_only(private_home, tmp_path):
    write_json(tmp_path / "managed-settings.d/10-a.json", claude_settings(deny=["Bash(curl:*)"]))
    write_json(tmp_path / "managed-settings.d/.hidden.json", claude_settings(deny=["Bash(x)"]))
    write_json(private_home / ".claude/settings.json", claude_settings(allow=["Bash(make:*)"]))
    r = claude.load_rules(str(tmp_path))
    assert [x.text for x in r.deny] == ["Bash(curl:*)"] and len(r.allow) == 1
    write_json(tmp_path / "managed.json", {"allowManagedPermissionRulesOnly": True})
    assert claude.load_rules(str(tmp_path)).allow == []


def test_a_broken_settings_file_is_doubt(private_home, tmp_path):
    (private_home / ".claude").mkdir()
    (private_home / ".claude/settings.json").write_text("{nope")
    r = claude.load_rules(str(tmp_path))
    assert r.doubt and claude.decide("git status", r, {}, ()).decision == ASK


def test_builtin_tables_name_their_client_version():
    from cc_gate.agents import claude_builtin

    sys_path_harness = __import__("pathlib").Path(__file__).parents[1] / "agents" / "harness.py"
    pinned = [line for line in sys_path_harness.read_text().splitlines()
              if '"claude": ("@anthropic-ai/claude-code"' in line][0]
    assert f'"{claude_builtin.version()}"' in pinned


@pytest.mark.parametrize("command, expected", [
    # issue 12: with `git:*` allowed and `git push:*` denied, none of these may run unasked
    ("git ${c:-push}", DENY), ("git ${c:=push}", DENY), ('git "${c:-push}" origin', DENY),
    ("for c in push; do git $c; done", DENY), ("c=push; git $c origin", DENY),
    ("(case a in a) git push;; esac)", DENY), ("cc-filter run git push origin main", DENY),
    ("/usr/bin/git push", DENY), ("git -C . push", DENY), ("git --no-pager push", DENY),
    ("bash -c 'git push'", DENY), ("sh -c 'git push'", DENY),
    # a word that may expand to something else is never allowed
    ("git ${c:-status}", ASK), ("for f in a b; do git log $f; done", ASK),
    ("git status", ALLOW), ("git log --oneline", ALLOW),
])
def test_spellings_of_a_denied_push(command, expected):
    r = rules(allow=["git:*"], deny=["git push:*"])
    assert decide(command, r) == expected


def test_a_broken_file_the_client_never_reads_is_no_doubt(private_home, tmp_path):
    (private_home / ".claude").mkdir()
    (private_home / ".claude/settings.local.json").write_text("{nope")
    r = claude.load_rules(str(tmp_path))
    assert r.warnings and r.doubt is None
    assert claude.decide("git status", r, {}, ()).decision == ALLOW
