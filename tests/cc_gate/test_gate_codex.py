"""Codex's permission model (cc_gate/agents/codex.py), as measured on codex-cli 0.171.0 by
tests/agents/codex/: which sources it reads, and when a rewrite keeps Codex's own outcome."""
import pytest
from settings_files import claude_settings, write_json

from cc_gate.agents import codex

EXEC = {"event": {"permission_mode": "bypassPermissions"}}  # what `codex exec` reports
RULES = '''
prefix_rule(pattern=["git", "push"], decision="forbidden", justification="pushes are reviewed")
prefix_rule(pattern=["make", "deploy"], decision="prompt")
prefix_rule(pattern=["npm", "publish"], decision="allow")
'''


@pytest.fixture
def no_client(monkeypatch):
    """Decide as if the hook runs under a codex process with these flags (None: no process)."""
    def with_argv(argv):
        import cc_gate.process as process

        monkeypatch.setattr(process, "client_argv", lambda names, start=None: argv)
    return with_argv


def load(tmp_path, **files):
    for relative, text in files.items():
        write_json(tmp_path / relative.replace("__", "/"), text)
    return codex.load_rules(str(tmp_path / "project"))


# command → (decision, words the reason must hold), under RULES in $CODEX_HOME, codex exec
EXEC_CASES = [
    ("git status", "allow", "no Codex rule matches"),
    ("git log --oneline | head -5", "allow", "no Codex rule matches"),
    ("git push origin main", "deny", "pushes are reviewed"),
    ("git status && git push", "deny", "forbidden"),
    ("/usr/bin/git -C x push", "deny", "forbidden"),             # hardening: peeled core
    ("make deploy", "ask", "decision=prompt"),                   # Codex asks (exec: refuses)
    ("npm publish", "ask", "outside its sandbox"),               # an allow rule lifts the sandbox
    ("git status; npm publish --dry-run", "ask", "outside its sandbox"),
    ("echo $(git push)", "deny", "forbidden"),
    ("echo $(date)", "ask", ""),                                 # substitution: never allowed
]


@pytest.mark.parametrize("command, decision, reason", EXEC_CASES)
def test_codex_exec_decisions(private_home, tmp_path, no_client, command, decision, reason):
    no_client(None)
    write_json(private_home / ".codex/rules/default.rules", RULES)
    verdict = codex.decide(command, codex.load_rules(str(tmp_path)), EXEC, ())
    assert verdict.decision == decision and reason in verdict.reason, verdict


def test_no_answer_reason_is_never_a_misleading_allow(private_home, tmp_path, no_client):
    no_client(None)
    verdict = codex.decide("git status", codex.load_rules(str(tmp_path)), EXEC, ())
    assert "no allow rule matches" not in verdict.reason


@pytest.mark.parametrize("argv, decision", [
    (None, "ask"),                                                   # not under codex: unknown
    (["codex", "exec", "go"], "allow"),                              # exec: approval never
    (["codex"], "allow"),                                            # interactive: on-request
    (["codex", "-a", "untrusted"], "ask"),                           # only known-safe run unasked
    (["codex", "--ask-for-approval=never"], "allow"),
    (["codex", "-c", 'approval_policy="untrusted"'], "ask"),
    (["codex", "-p", "work"], "ask"),                                # a profile: not known
    (["node", "/x/bin/codex.js", "exec", "go"], "allow"),
])
def test_approval_policy_outside_bypass(private_home, tmp_path, no_client, argv, decision):
    no_client(argv)
    verdict = codex.decide("git status", codex.load_rules(str(tmp_path)),
                           {"event": {"permission_mode": "default"}}, ())
    assert verdict.decision == decision, verdict


def test_config_toml_approval_policy(private_home, tmp_path, no_client):
    no_client(["codex"])
    write_json(private_home / ".codex/config.toml", 'approval_policy = "untrusted"\n')
    verdict = codex.decide("git status", codex.load_rules(str(tmp_path)),
                           {"event": {"permission_mode": "default"}}, ())
    assert verdict.decision == "ask" and "untrusted" in verdict.reason


@pytest.mark.parametrize("argv, config, decision", [
    (["codex", "exec", "go"], "", "ask"),                                   # read-only default
    (["codex", "exec", "-s", "workspace-write", "go"], "", "ask"),
    (["codex", "exec", "-s", "danger-full-access", "go"], "", "allow"),     # no sandbox to lose
    (["codex", "exec", "--sandbox=danger-full-access", "go"], "", "allow"),
    (["codex", "exec", "--dangerously-bypass-approvals-and-sandbox", "go"], "", "allow"),
    (["codex", "exec", "go"], 'sandbox_mode = "danger-full-access"\n', "allow"),
    (["codex", "exec", "-s", "read-only", "go"], 'sandbox_mode = "danger-full-access"\n', "ask"),
])
def test_an_allow_rule_is_rewritten_only_without_a_sandbox(private_home, tmp_path, no_client,
                                                           argv, config, decision):
    no_client(argv)
    write_json(private_home / ".codex/rules/default.rules", RULES)
    if config:
        write_json(private_home / ".codex/config.toml", config)
    verdict = codex.decide("npm publish", codex.load_rules(str(tmp_path)), EXEC, ())
    assert verdict.decision == decision, verdict


def test_project_rules_from_the_root_down_and_codex_home(private_home, tmp_path, monkeypatch,
                                                         no_client):
    no_client(None)
    (tmp_path / "repo/.git").mkdir(parents=True)
    write_json(tmp_path / "repo/.codex/rules/a.rules",
               'prefix_rule(pattern=["rm"], decision="forbidden")')
    write_json(tmp_path / "repo/sub/.codex/rules/b.rules",
               'prefix_rule(pattern=["curl"], decision="forbidden")')
    write_json(tmp_path / ".codex/rules/above.rules",  # above the project root: not read
               'prefix_rule(pattern=["ls"], decision="forbidden")')
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "ch"))
    write_json(tmp_path / "ch/rules/u.rules", 'prefix_rule(pattern=["dd"], decision="forbidden")')
    rules = codex.load_rules(str(tmp_path / "repo/sub/deeper"))
    assert [r.pattern for r in rules.deny] == ["dd", "rm", "curl"]
    assert codex.decide("ls", rules, EXEC, ()).decision == "allow"


def test_claude_settings_are_not_codex_rules(private_home, tmp_path, no_client):
    """Measured: Codex runs `git status` under a `.claude/settings.json` deny."""
    no_client(None)
    write_json(private_home / ".claude/settings.json", claude_settings(deny=["Bash(git status)"]))
    write_json(tmp_path / ".claude/settings.json", claude_settings(deny=["Bash(git status)"]))
    rules = codex.load_rules(str(tmp_path))
    assert rules.deny == [] and codex.decide("git status", rules, EXEC, ()).decision == "allow"


def test_managed_requirements_rules(private_home, tmp_path, no_client):
    no_client(None)
    write_json(tmp_path / "codex-requirements.toml", '''
[rules]
prefix_rules = [
  { pattern = [{ token = "git" }, { any_of = ["push", "reset"] }], decision = "forbidden" },
  { pattern = [{ token = "terraform" }], decision = "prompt" },
]
''')
    rules = codex.load_rules(str(tmp_path))
    assert [(r.kind, r.pattern) for r in rules.all()] == [
        ("deny", "git push"), ("deny", "git reset"), ("ask", "terraform")]
    assert codex.decide("git reset --hard", rules, EXEC, ()).decision == "deny"


@pytest.mark.parametrize("relative, text", [
    ("codex-requirements.toml", "[rules\nprefix_rules = 1"),
    ("codex-requirements.toml", '[rules]\nprefix_rules = [{ pattern = [{ tok = "x" }] }]'),
    ("home/.codex/rules/bad.rules", 'prefix_rule(pattern=["x"'),
])
def test_an_unreadable_source_is_doubt(private_home, tmp_path, no_client, relative, text):
    no_client(None)
    write_json(tmp_path / relative, text)
    rules = codex.load_rules(str(tmp_path))
    assert rules.doubt and rules.warnings
    verdict = codex.decide("git status", rules, EXEC, ())
    assert verdict.decision == "ask"


def test_a_rules_file_with_no_decision_is_an_allow_rule():
    """`codex execpolicy check` answers "allow" for a prefix_rule without a decision."""
    (rule,) = codex.parse_rules('prefix_rule(pattern=["git", "push"])', "f")
    assert rule.kind == "allow"
