"""When Claude Code surely prompts (agents/claude.py `client_prompts`, the `Prompts` verdict):
the hook may then answer `ask` with the rewritten command, so the approved run is filtered.
Never where the client would run the command unasked, refuse it, or where anything but the user
could answer (measured on 2.1.197 and 2.1.332: tests/agents/claude/test_claude_prompts.py).
Also: plan mode, the tables of the running client's version, rules saved for the rewritten
form."""
import json

import pytest
from hypothesis import given, settings, strategies as st

import cc_gate.agents.claude as claude
from cc_gate.agents import claude_builtin
from cc_gate.rules import ALLOW, ASK, DENY, RuleSet
from settings_files import write_json


def rules(allow=(), ask=(), deny=(), version=None):
    r = RuleSet()
    r.add(ALLOW, [f"Bash({p})" for p in allow], ("Bash",), "t")
    r.add(ASK, [f"Bash({p})" for p in ask], ("Bash",), "t")
    r.add(DENY, [f"Bash({p})" for p in deny], ("Bash",), "t")
    r.extra["client_version"] = version
    r.extra["other_deciders"] = None
    return r


def verdict(command, r=None, mode="default"):
    r = r if r is not None else rules()
    return claude.decide(command, r, {"command": command, "event": {"permission_mode": mode}}, ())


def prompts(command, r=None, mode="default") -> bool:
    v = verdict(command, r, mode)
    return getattr(v, "prompts", False) and v.decision == ASK


# the 15 test/build/install/lint commands of the bench list, and more the client asks about
SURELY = ["pytest", "pytest -q tests", "python -m pytest", "python3 -m pytest -x",
          "cargo test", "cargo build --release", "npm install", "npm test", "npm run build",
          "go test ./...", "go build ./...", "make", "make -j4 test", "ruff check .",
          "mypy src", "eslint .", "tsc --noEmit", "git push origin main", "git commit -m x",
          "git add .", "docker run img", "pip install -e .", "uv run pytest", "node app.js",
          "timeout 60 pytest", "LANG=C cargo test", "git status && pytest",
          "pytest 2>&1 | tail -5", "find . -exec rm {} ;"]


@pytest.mark.parametrize("command", SURELY)
def test_commands_the_client_asks_about_are_marked(command):
    assert prompts(command), verdict(command)


@pytest.mark.parametrize("command", [
    # the client runs these unasked (or may: a table knows the name)
    "git status", "ls -la", "cat x", "python3 --version", "node --version", "jq . a.json",
    "git -C . push", "which pytest", "echo hi", "cd src", "true", "sed -n 1p x", "test -f x",
    "xargs pytest", "git log --format=%G?", "docker ps", "ls -la 2>&1", "ls 2>/dev/null",
    "uniq -c 2>&1",
    # no segment is surely refused by the read-only check
    "git status --porcelain=v1", "ls $HOME",
    # a substitution or a group: not a top-level simple command
    "(pytest)", "echo $(pytest)",
])
def test_commands_the_client_may_run_unasked_are_not(command):
    assert not prompts(command), verdict(command)


@pytest.mark.parametrize("mode, expected", [
    ("default", True), ("acceptEdits", True), ("plan", True),
    # dontAsk refuses (a hook's ask would prompt there: 2.1.332), auto's classifier decides,
    # bypassPermissions runs it
    ("dontAsk", False), ("auto", False), ("bypassPermissions", False), ("no-such-mode", False),
])
def test_only_in_the_modes_that_prompt(mode, expected):
    assert prompts("pytest -q", mode=mode) is expected


def test_accept_edits_lets_file_commands_run():
    assert prompts("mkdir -p build")
    assert not prompts("mkdir -p build", mode="acceptEdits")
    assert not prompts("rm -f x", mode="acceptEdits")


def test_an_allow_rule_on_the_peeled_core_is_doubt():
    assert verdict("pytest -q", rules(allow=["pytest:*"])).decision == ALLOW
    # the gate does not allow `timeout 60 pytest` by `pytest:*`; the client strips `timeout`
    # for its allow rules: it may run it unasked
    assert not prompts("timeout 60 pytest", rules(allow=["pytest:*"]))
    assert not prompts("LANG=C pytest", rules(allow=["pytest:*"]))
    # what the client never strips for an allow rule: it prompts
    assert prompts("sudo make", rules(allow=["make:*"]))
    assert prompts("python -m pytest -x", rules(allow=["pytest:*"]))
    # a rule for another command changes nothing
    assert prompts("pytest", rules(allow=["git add:*"]))


def test_an_ask_rule_alone_is_not_enough():
    """The gate holds ask rules the client never reads (~/.claude/settings.local.json, the
    [gate] config): a read-only command they name is left to the client."""
    assert verdict("git status", rules(ask=["git status:*"])).decision == ASK
    assert not prompts("git status", rules(ask=["git status:*"]))
    assert prompts("npm publish", rules(ask=["npm publish:*"]))


def test_a_deny_is_a_deny():
    v = verdict("git push origin main", rules(deny=["git push:*"]))
    assert v.decision == DENY and not getattr(v, "prompts", False)


def test_doubt_never_prompts():
    r = rules()
    r.doubt_about("cannot read a settings file")
    assert not prompts("pytest", r)


def test_ctxcrl_disabled_is_decided_without_the_prefix():
    # the client prompts for it too; cc-rewrite leaves it alone, so the hook answers nothing
    assert prompts("CTXCRL_DISABLED=1 pytest")
    assert not prompts("CTXCRL_DISABLED=1 git status")


@pytest.mark.parametrize("settings, reason", [
    ({"hooks": {"PreToolUse": [{"matcher": "Bash", "hooks": [
        {"type": "command", "command": "/opt/approve-tests.sh"}]}]}}, "another PreToolUse hook"),
    ({"hooks": {"PermissionRequest": [{"matcher": "*", "hooks": [
        {"type": "command", "command": "auto-approve"}]}]}}, "another PermissionRequest hook"),
    ({"enabledPlugins": {"helper@market": True}}, "enabled plugins"),
    ({"sandbox": {"enabled": True}}, "the sandbox"),
])
def test_something_else_that_could_answer_the_prompt_is_doubt(private_home, tmp_path, settings,
                                                              reason):
    write_json(private_home / ".claude" / "settings.json", settings)
    r = claude.load_rules(str(tmp_path))
    r.extra["client_version"] = None
    assert reason in (claude.other_deciders(r) or "")
    assert not prompts("pytest", r)


def test_our_own_hook_is_not_another_decider(private_home, tmp_path):
    write_json(private_home / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": "Bash", "hooks": [{"type": "command",
                                       "command": "/h/.local/share/ctxcrl/hooks/ctxcrl-hook-claude.sh"}]}]}})
    r = claude.load_rules(str(tmp_path))
    r.extra["client_version"] = None
    assert claude.other_deciders(r) is None
    assert prompts("pytest", r)


def test_plan_mode_leaves_allowed_commands_to_the_client():
    # 2.1.332 asks about `cc-filter run git status` in plan mode even with the hook's allow
    v = verdict("git status", mode="plan")
    assert v.decision == ASK and not getattr(v, "prompts", False)
    assert "plan mode" in v.reason
    assert prompts("pytest", mode="plan")


# -- the tables of the running client's version

def test_each_checked_client_has_its_table():
    assert claude_builtin.table_versions()[:2] == ["2.1.332", "2.1.197"]
    for version in ("2.1.332", "2.1.197"):
        assert claude_builtin.table_is_current(version)
        assert claude_builtin.tables(version)["version"] == version
    # 2.1.332 dropped `file -m` and `git rev-parse --show-superproject-working-tree`
    for command in ("file -m magic.db x", "git rev-parse --show-superproject-working-tree"):
        assert verdict(command, rules(version="2.1.197")).decision == ALLOW
        assert verdict(command, rules(version="2.1.332")).decision == ASK


@pytest.mark.parametrize("version", ["2.1.400", "3.0.0", "2.1.250"])
def test_a_client_without_its_table_gets_nothing_on_the_tables_alone(version):
    assert not claude_builtin.table_is_current(version)
    assert claude_builtin.newer_than_tables(version) is (version != "2.1.250")
    r = rules(version=version)
    assert verdict("git status", r).decision == ASK
    assert not prompts("pytest", r)  # its read-only check may know pytest now
    # rules still decide
    assert verdict("pytest", rules(allow=["pytest:*"], version=version)).decision == ALLOW
    assert verdict("git push", rules(deny=["git push:*"], version=version)).decision == DENY


def test_the_version_of_the_running_client(tmp_path, monkeypatch):
    package = tmp_path / "node_modules" / "@anthropic-ai" / "claude-code"
    (package / "bin").mkdir(parents=True)
    write_json(package / "package.json", {"name": "@anthropic-ai/claude-code",
                                          "version": "2.1.332"})
    assert claude._version_near(str(package / "bin" / "claude.exe")) == "2.1.332"
    assert claude._version_near("/home/u/.local/share/claude/versions/2.1.333") == "2.1.333"
    assert claude._version_near(str(tmp_path / "claude")) is None
    monkeypatch.setattr("cc_gate.process.client_process", lambda names, start=None: None)
    monkeypatch.setenv("AI_AGENT", "claude-code_2-1-332_harness")
    assert claude.running_client_version() == "2.1.332"
    monkeypatch.setenv("AI_AGENT", "something-else")
    assert claude.running_client_version() is None


# -- a rule saved for the rewritten form

@pytest.mark.parametrize("saved, command, expected", [
    ("Bash(cc-filter run pytest:*)", "pytest -q", ALLOW),
    ("Bash(cc-filter run python3 -m pytest:*)", "python3 -m pytest -x", ALLOW),
    ("Bash(/opt/ctxcrl/bin/cc-filter run npm install)", "npm install", ALLOW),
    ("Bash(cc-filter run npm install)", "npm install lodash", ALLOW),
    ("Bash(cc-filter run pytest:*)", "make", ASK),
    # never a rule that names cc-filter alone: that is not a rule for one command
    ("Bash(cc-filter run:*)", "pytest", ASK), ("Bash(cc-filter:*)", "pytest", ASK),
    ("Bash(cc-filter run *)", "pytest", ASK),
])
def test_a_rule_saved_for_the_rewritten_form_allows_the_original(private_home, tmp_path, saved,
                                                                 command, expected):
    write_json(private_home / ".claude" / "settings.json", {"permissions": {"allow": [saved]}})
    r = claude.load_rules(str(tmp_path))
    r.extra["client_version"] = None
    assert verdict(command, r).decision == expected
    if expected == ALLOW:
        assert "saved for the rewritten command" in verdict(command, r).reason


def test_a_saved_rule_never_outweighs_a_deny(private_home, tmp_path):
    write_json(tmp_path / ".claude" / "settings.local.json", {"permissions": {
        "allow": ["Bash(cc-filter run git push:*)"], "deny": ["Bash(git push:*)"]}})
    r = claude.load_rules(str(tmp_path))
    assert verdict("git push origin main", r).decision == DENY


# -- properties

_WORDS = sorted({w for k in claude_builtin.tables()["flag_commands"] for w in k.split()}
                | set(claude_builtin.tables()["any_args_set"]) | {"pytest", "make", "npm",
                "cargo", "go", "git", "python3", "-m", "-v", "--version", "install", "test",
                "push", "status", "-la", "x", "/usr/bin/git", "mkdir", "rm", "echo"})


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=5),
       st.sampled_from(["default", "acceptEdits", "plan"]),
       st.sampled_from(["2.1.332", "2.1.197"]))
def test_never_both_surely_refused_and_read_only(argv, mode, version):
    """The two sides of the client's read-only check never overlap: what the tables may allow
    is never "surely asks"."""
    text = " ".join(argv)
    if claude_builtin.surely_asks(argv, text, mode, version):
        assert not claude_builtin.segment_is_read_only(argv, text, client_version=version)


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4),
       st.sampled_from([" && ", " | ", "; ", " || "]),
       st.lists(st.sampled_from(_WORDS), min_size=1, max_size=4),
       st.sampled_from(["default", "acceptEdits", "plan", "dontAsk", "auto",
                        "bypassPermissions"]))
def test_a_prompt_mark_only_on_an_ask(first, separator, second, mode):
    command = " ".join(first) + separator + " ".join(second)
    v = verdict(command, mode=mode)
    if getattr(v, "prompts", False):
        assert v.decision == ASK and mode in claude.PROMPT_MODES


def test_a_hook_for_other_tools_is_not_a_decider(private_home, tmp_path):
    write_json(private_home / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": "Write|Edit", "hooks": [{"type": "command", "command": "fmt.sh"}]}]}})
    r = claude.load_rules(str(tmp_path))
    r.extra["client_version"] = None
    assert claude.other_deciders(r) is None
    write_json(private_home / ".claude" / "settings.json", {"hooks": {"PreToolUse": [
        {"matcher": "Ba.*", "hooks": [{"type": "command", "command": "fmt.sh"}]}]}})
    r = claude.load_rules(str(tmp_path))
    assert claude.other_deciders(r)
