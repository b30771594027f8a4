"""Gemini CLI's Policy Engine as the gate reproduces it (0.61.0). The rows restate what the
real client did in tests/agents/gemini (and its bundled engine): highest priority wins, tiers,
modes, headless, redirections, the rewritten command, `cc-filter run X` typed by the model."""
import json
import os

import pytest

from cc_gate.agents import gemini
from cc_gate.agents import gemini_policy as policy
from cc_gate.rules import ALLOW, ASK, DENY

FILTER_RULE = gemini.filter_rule_text(["cc-filter"])


def rule(decision, priority, extra=""):
    return (f'[[rule]]\ntoolName = "run_shell_command"\n{extra}\ndecision = "{decision}"\n'
            f"priority = {priority}\n")


@pytest.fixture
def client(monkeypatch):
    """A fake running Gemini CLI: its argv (and its terminals, for runs without -p)."""
    state = {"argv": ["node", "/x/bin/gemini", "-p", "go"], "tty": False}
    monkeypatch.setattr(gemini.process, "client_process",
                        lambda names, start=None: (4242, state["argv"])
                        if state["argv"] is not None else None)
    monkeypatch.setattr(gemini.process, "is_terminal", lambda pid, fd: state["tty"])
    return state


def policies(home, *texts, name="user.toml"):
    directory = home / ".gemini" / "policies"
    directory.mkdir(parents=True, exist_ok=True)
    (directory / name).write_text("".join(texts))


def judge(cwd, command, rewritten=None, tool_input=None):
    rules = gemini.load_rules(str(cwd))
    record = {"command": command, "cwd": str(cwd),
              "input": tool_input or {"command": command, "description": "d"}}
    if rewritten is not None:
        record["rewritten"] = rewritten
    return gemini.decide(command, rules, record, ())


USER = (rule("allow", 100, 'commandPrefix = ["git status", "git log"]')
        + rule("deny", 200, 'commandPrefix = "git push"')
        + rule("allow", 100, "commandRegex = 'ls( -la)?\"'")
        + rule("allow", 100, 'commandPrefix = "git diff"\nmodes = ["autoEdit"]'))

CASES = [
    # flags, command, rewritten, expected decision
    ([], "git status", "cc-filter run git status", ALLOW),
    ([], "git status -s", "cc-filter run git status -s", ALLOW),
    ([], "git statusx", None, DENY),                       # headless: no rule → deny
    ([], "git push origin main", None, DENY),
    ([], "/usr/bin/git push", None, DENY),                 # peeled spelling meets the deny
    ([], "git -C . push", None, DENY),
    ([], "git status && git log", "cc-filter run git status && cc-filter run git log", ALLOW),
    ([], "git status && echo hi", None, DENY),             # echo has no rule
    ([], "git status > out.txt", None, ASK),               # redirection: the client asks
    ([], "git status 2>&1", None, ASK),
    ([], "ls -la", None, ALLOW),                           # commandRegex
    ([], "ls -l", None, DENY),
    ([], "git diff", None, DENY),                          # autoEdit-only rule
    (["--approval-mode", "auto_edit"], "git diff", "cc-filter run git diff", ALLOW),
    (["--approval-mode=auto_edit"], "git diff", "cc-filter run git diff", ALLOW),
    (["--yolo"], "rm -rf build", None, ALLOW),             # yolo: everything but the denies
    (["--yolo"], "git push", None, DENY),
    # yolo allows redirections; the gate never allows a write to a file (no rewrite, no answer)
    (["-y"], "echo ok > out.txt", None, ASK),
    (["--approval-mode", "plan"], "git log", "cc-filter run git log", ASK),  # plan: no rule
    # for the rewritten form: the user's allow beats plan's deny for the original only
    (["--approval-mode", "plan"], "rm x", None, DENY),
    ([], "echo $(git status)", None, DENY),                # echo: no rule
    ([], "git status", "FOO=1 cc-filter run git status", ASK),  # rewritten would be denied
    # typed by the model: X's own outcome
    ([], "cc-filter run git status", None, ALLOW),
    ([], "cc-filter run git push origin main", None, DENY),
    ([], "cc-filter run rm -rf build", None, DENY),
    ([], "cc-filter run --filter=git-status -- git status", None, ALLOW),
    ([], "cc-filter run git status > x", None, DENY),
]


@pytest.mark.parametrize("flags, command, rewritten, expected", CASES,
                         ids=[f"{' '.join(c[0])}:{c[1]}" for c in CASES])
def test_gemini_decides_as_its_policy_engine(private_home, tmp_path, client, flags, command,
                                             rewritten, expected):
    policies(private_home, USER)
    policies(private_home, FILTER_RULE, name="ctxcrl.toml")
    client["argv"] = ["node", "/x/bin/gemini", "-p", "go", *flags]
    verdict = judge(tmp_path, command, rewritten)
    assert verdict.decision == expected, verdict.reason


def test_higher_priority_wins_whatever_the_decision(private_home, tmp_path, client):
    policies(private_home, rule("deny", 100, 'commandPrefix = "git push"'),
             rule("allow", 200, 'commandPrefix = "git"'), FILTER_RULE)
    assert judge(tmp_path, "git push", "cc-filter run git push").decision == ALLOW
    policies(private_home, rule("deny", 300, 'commandPrefix = "git push"'),
             rule("allow", 200, 'commandPrefix = "git"'), FILTER_RULE)
    assert judge(tmp_path, "git push").decision == DENY


def test_admin_tier_beats_user_tier(private_home, tmp_path, client):
    admin = tmp_path / "admin"
    admin.mkdir()
    (admin / "a.toml").write_text(rule("deny", 0, 'commandPrefix = "git status"'))
    policies(private_home, rule("allow", 999, 'commandPrefix = "git status"'))
    client["argv"] = ["gemini", "-p", "go", "--admin-policy", str(admin)]
    verdict = judge(tmp_path, "git status")
    assert verdict.decision == DENY and "admin tier" in verdict.reason


def test_the_workspace_tier_is_not_read(private_home, tmp_path, client):
    """Gemini CLI 0.61.0 never loads `.gemini/policies/` of the project (measured)."""
    policies(private_home, rule("allow", 100, 'commandPrefix = "git log"'), FILTER_RULE)
    (tmp_path / ".gemini" / "policies").mkdir(parents=True)
    (tmp_path / ".gemini" / "policies" / "ws.toml").write_text(
        rule("deny", 999, 'commandPrefix = "git log"'))
    assert judge(tmp_path, "git log", "cc-filter run git log").decision == ALLOW


def test_policy_paths_replace_the_user_directory(private_home, tmp_path, client):
    other = tmp_path / "mine.toml"
    other.write_text(rule("allow", 1, 'commandPrefix = "make"'))
    policies(private_home, rule("allow", 1, 'commandPrefix = "git log"'))
    client["argv"] = ["gemini", "-p", "go", "--policy", str(other)]
    assert judge(tmp_path, "make").decision == ALLOW
    # the rule for rewrites lives in ~/.gemini/policies, which --policy replaces: no rewrite
    assert judge(tmp_path, "make", "cc-filter run make").decision == ASK
    assert judge(tmp_path, "git log").decision == DENY


def test_without_the_rule_for_rewrites_nothing_is_rewritten(private_home, tmp_path, client):
    policies(private_home, rule("allow", 100, 'commandPrefix = "git status"'))
    verdict = judge(tmp_path, "git status", "cc-filter run git status")
    assert verdict.decision == ASK and "rewritten" in verdict.reason
    assert judge(tmp_path, "git status").decision == ALLOW  # nothing to rewrite: allowed


def test_interactive_sessions_are_never_rewritten(private_home, tmp_path, client):
    policies(private_home, rule("allow", 100, 'commandPrefix = "git status"'))
    client["argv"] = ["gemini", "-i", "go", "--yolo"]
    assert judge(tmp_path, "git status", "cc-filter run git status").decision == ASK
    client["argv"], client["tty"] = ["gemini", "--yolo"], True
    assert judge(tmp_path, "git status", "cc-filter run git status").decision == ASK
    client["tty"] = False  # no terminal: headless
    assert judge(tmp_path, "git status", "cc-filter run git status").decision == ALLOW


def test_no_client_found_means_only_denies(private_home, tmp_path, client):
    policies(private_home, rule("allow", 100, 'commandPrefix = "git status"'),
             rule("deny", 100, 'commandPrefix = "git push"'), FILTER_RULE)
    client["argv"] = None
    assert judge(tmp_path, "git status", "cc-filter run git status").decision == ASK
    assert judge(tmp_path, "git push").decision == DENY
    assert judge(tmp_path, "cc-filter run git status").decision == DENY


@pytest.mark.parametrize("text, problem", [
    ("[[rule]\n", "TOML"),
    (rule("allow", 1000, 'commandPrefix = "ls"'), "priority"),
    (rule("allow", 1, 'commandPrefix = "ls"\ncommandRegex = "ls"'), "together"),
    ('[[rule]]\ntoolName = "run_shell_command"\ndecision = "maybe"\npriority = 1\n', "decision"),
    (rule("allow", 1, "commandRegex = '(?<!x'"), "regex"),
])
def test_a_policy_file_the_gate_cannot_reproduce_means_doubt(private_home, tmp_path, client,
                                                             text, problem):
    policies(private_home, rule("allow", 100, 'commandPrefix = "git status"'), FILTER_RULE,
             name="good.toml")
    policies(private_home, text, name="bad.toml")
    rules = gemini.load_rules(str(tmp_path))
    assert rules.doubt and any(problem in w for w in rules.warnings), rules.warnings
    record = {"command": "git status", "rewritten": "cc-filter run git status"}
    assert gemini.decide("git status", rules, record, ()).decision == ASK


def test_tools_allowed_narrows_and_tools_exclude_with_arguments_is_kept(private_home, tmp_path,
                                                                        client):
    (private_home / ".gemini").mkdir()
    (private_home / ".gemini" / "settings.json").write_text(json.dumps(
        {"tools": {"allowed": ["run_shell_command(git status)"],
                   "exclude": ["run_shell_command(git tag)"]}}))
    policies(private_home, FILTER_RULE, name="ctxcrl.toml")
    assert judge(tmp_path, "git status", "cc-filter run git status").decision == ALLOW
    assert judge(tmp_path, "ls").decision == DENY  # the client's narrowing deny (4.29)
    client["argv"] = ["gemini", "-p", "go", "--yolo"]
    assert judge(tmp_path, "git tag v1").decision == DENY  # a deny the gate adds


def test_dir_path_is_never_rewritten(private_home, tmp_path, client):
    policies(private_home, rule("allow", 100, 'commandPrefix = "git status"'), FILTER_RULE)
    verdict = judge(tmp_path, "git status", "cc-filter run git status",
                    {"command": "git status", "dir_path": "/elsewhere"})
    assert verdict.decision == ASK


def test_parsed_policies_are_cached(private_home, tmp_path, client, monkeypatch):
    policies(private_home, rule("allow", 100, 'commandPrefix = "git status"'), FILTER_RULE)
    assert judge(tmp_path, "git status", "cc-filter run git status").decision == ALLOW
    assert os.path.exists(policy.cache_path())
    monkeypatch.setattr(policy, "parse_policy", lambda *a: pytest.fail("parsed again"))
    assert judge(tmp_path, "git status", "cc-filter run git status").decision == ALLOW


@pytest.mark.parametrize("prefix, command, matches", [
    ("git status", "git status", True),
    ("git status", "git status -s", True),
    ("git status", "git statusx", False),
    ("git status", "git status\nrm -rf /", False),   # the newline is written \n in JSON
    ("git status", 'git status"x', True),
    ("git", "git\tlog", False),                      # a tab is written \t
])
def test_command_prefix_is_the_engines_regex(prefix, command, matches):
    r = policy.PolicyRule("allow", 4.1, kind="prefix", text=prefix)
    assert r.matches(policy.stable_args({"command": command}), command) is matches


def test_stable_args_sort_keys_and_wrap_pairs_in_nul():
    assert policy.stable_args({"description": "d", "command": "ls"}) == \
        '{\0"command":"ls"\0,\0"description":"d"\0}'


def test_the_relaunched_client_is_found_by_its_script_name():
    """Gemini CLI relaunches itself as `node --max-old-space-size=N …/gemini …` (measured):
    the hook's parent is that child."""
    from cc_gate import process

    argv = ["/usr/bin/node", "--max-old-space-size=12052", "/x/node_modules/.bin/gemini", "-p"]
    assert "gemini" in process.program_names(argv)
    assert process.program_names(["node", "/x/bin/claude"]) == ("node", "claude")


def test_yolo_false_is_not_yolo(private_home, tmp_path, client):
    policies(private_home, FILTER_RULE)
    client["argv"] = ["gemini", "-p", "go", "--yolo", "false"]
    assert judge(tmp_path, "rm -rf build").decision == DENY
    client["argv"] = ["gemini", "-p", "go", "--yolo=false"]
    assert judge(tmp_path, "rm -rf build").decision == DENY
    client["argv"] = ["gemini", "--yolo", "true", "-p", "go"]
    assert judge(tmp_path, "rm -rf build").decision == ALLOW


def test_gemini_cli_home_moves_the_user_tier(private_home, tmp_path, client, monkeypatch):
    other = tmp_path / "other"
    policies(other, rule("deny", 100, 'commandPrefix = "git status"'))
    policies(private_home, rule("allow", 100, 'commandPrefix = "git status"'))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(other))
    assert judge(tmp_path, "git status").decision == DENY


# --- interactive sessions (the default setup): measured in tests/agents/gemini/test_gemini_interactive.py

INTERACTIVE = [
    # command, decision, rewritten on ask
    ("git status", ALLOW, False),        # known safe: runs unasked, rewritten runs unasked too
    ("git log --oneline -5", ALLOW, False),
    ("ls", ALLOW, False),
    ("cat README.md", ALLOW, False),
    ("pytest -q", ASK, True),            # asks: the rewritten command asks (rule at 4.998)
    ("npm install", ASK, True),
    ("cargo test", ASK, True),
    ("make test", ASK, True),
    ("git status && pytest -q", ASK, True),  # a compound command always asks
    ("ls /etc", ASK, False),             # outside the workspace: asks, but the rewritten
    ("git diff --output=x", ASK, False),  # spelling would run unasked: left alone
    ("git status \"a $b\"", ASK, False),  # a variable: the gate cannot tell for sure
    ("ls ~", ASK, False),                # tilde expansion: likewise
    ("git diff HEAD~1", ALLOW, False),   # a `~` inside a word is plain
    ("find . -name '*.py'", ALLOW, False),  # a quoted word the shell does not expand
    ("git commit -m \"wip\"", ASK, True),
    ("rg foo", ASK, True),               # rg by its name is never trusted (asks)
    ("/usr/bin/rg foo", ASK, False),     # rg by its path: trusted or not, the gate cannot tell
    ("git branch -D x", ASK, False),     # dangerous; the rewritten spelling would run
]


def _interactive(client, private_home, *extra):
    client["argv"], client["tty"] = ["node", "/x/bin/gemini"], True
    policies(private_home, FILTER_RULE, name="ctxcrl.toml")
    if extra:
        policies(private_home, *extra)


@pytest.mark.parametrize("command,expected,on_ask", INTERACTIVE)
def test_interactive_default_mode_rewrites_where_the_client_decides_the_same(
        private_home, tmp_path, client, command, expected, on_ask):
    import shlex

    (tmp_path / "README.md").write_text("x\n")
    _interactive(client, private_home)
    rewritten = " && ".join("cc-filter run " + part.strip() for part in command.split("&&"))
    verdict = judge(tmp_path, command, rewritten)
    assert (verdict.decision, verdict.prompts) == (expected, on_ask), verdict.reason
    assert shlex.split(command)  # a real command line


def test_interactive_user_allow_is_left_alone_when_the_rewrite_would_ask(
        private_home, tmp_path, client):
    """A user allow names `pytest`, not `cc-filter run pytest`: the rewritten command would ask
    where the original runs, so it is not rewritten (runs unasked, unfiltered)."""
    _interactive(client, private_home, rule("allow", 100, 'commandPrefix = "pytest"'))
    verdict = judge(tmp_path, "pytest -q", "cc-filter run pytest -q")
    assert verdict.decision == ASK and not verdict.prompts
    assert "would ask about the rewritten" in verdict.reason


def test_interactive_deny_and_typed_filter_runs(private_home, tmp_path, client):
    _interactive(client, private_home, rule("deny", 200, 'commandPrefix = "git push"'))
    assert judge(tmp_path, "git push", "cc-filter run git push").decision == DENY
    assert judge(tmp_path, "cc-filter run git status").decision == ALLOW  # X runs unasked
    assert judge(tmp_path, "cc-filter run pytest").decision == DENY       # X would ask


def test_interactive_without_the_installed_rule_nothing_is_rewritten(
        private_home, tmp_path, client):
    client["argv"], client["tty"] = ["node", "/x/bin/gemini"], True
    verdict = judge(tmp_path, "pytest -q", "cc-filter run pytest -q")
    assert verdict.decision == ASK and not verdict.prompts


def test_installed_rule_prefixes_are_the_known_safe_commands():
    from cc_gate.agents import gemini_safe

    prefixes = gemini.interactive_safe_prefixes()
    assert "git status" in prefixes and "ls" in prefixes and "pytest" not in prefixes
    assert set(prefixes) >= gemini_safe.SAFE


from hypothesis import given, settings, strategies as st  # noqa: E402

_WORDS = st.sampled_from(["git", "status", "log", "diff", "branch", "-D", "-c", "x=1", "ls",
                          "cat", "README.md", "/etc", "..", "pytest", "-q", "npm", "install",
                          "find", ".", "-exec", "rm", "-rf", "sed", "-n", "1p", "--output=x",
                          "&&", "|", ";", ">", "out.txt", "2>&1", "'a b'", "$HOME", "*.py"])


@settings(max_examples=150, deadline=None)
@given(st.lists(_WORDS, min_size=1, max_size=6))
def test_interactive_rewrite_never_changes_the_engines_decision(tmp_path_factory, words):
    """Property: whatever the command, when the gate lets the hook rewrite it in an
    interactive session, the reproduced engine decides the same about the rewritten command
    as about the original, in every approval mode; and a rewrite on ask is only ever an ask."""
    from cc_gate.agents.gemini import _Engine
    from cc_rewrite.rewrite import rewrite

    command = " ".join(words)
    home = tmp_path_factory.mktemp("home")
    policies(home, FILTER_RULE, name="ctxcrl.toml")
    rewritten = rewrite(command).text
    if not rewritten or rewritten == command:
        return
    old = {k: os.environ.get(k) for k in ("HOME", "GEMINI_CLI_HOME")}
    os.environ["HOME"] = os.environ["GEMINI_CLI_HOME"] = str(home)
    saved = (gemini.process.client_process, gemini.process.is_terminal)
    gemini.process.client_process = lambda names, start=None: (1, ["node", "/x/bin/gemini"])
    gemini.process.is_terminal = lambda pid, fd: True
    try:
        rules = gemini.load_rules(str(home))
        record = {"command": command, "cwd": str(home), "input": {"command": command},
                  "rewritten": rewritten}
        verdict = gemini.decide(command, rules, record, ())
        state = rules.extra["gemini"]
        if verdict.decision == ALLOW or verdict.prompts:
            assert verdict.decision != ALLOW or not verdict.prompts
            for mode in policy.MODES:
                engine = _Engine(state.in_mode(mode), (), str(home))
                a = engine.check(command, {"command": command})[0]
                b = engine.check(rewritten, {"command": rewritten})[0]
                assert a == b and not engine.unsure, (mode, command, rewritten)
        if verdict.prompts:
            assert verdict.decision == ASK
    finally:
        gemini.process.client_process, gemini.process.is_terminal = saved
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
