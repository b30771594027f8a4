"""The real Codex CLI (codex-cli 0.171.0 from npm) with and without contextcrawler.

Each scenario is one row: the command the scripted model runs, the user's Codex rules (user
`$CODEX_HOME/rules/*.rules`, project `.codex/rules/*.rules`), Codex's sandbox flags, and the
outcome the real client shows without the hook. Every row runs twice, once without and once
after `cc-hook init --agent codex` (as the agent user would run it), and must give the same
outcome — the hook may only add a deny —, a push that was refused never lands on the bare
remote, and the commands with a filter reach the model compacted.

`codex exec` always runs with approval policy "never" (a prompt is a refusal), its sandbox
read-only by default and workspace-write in a trusted project. The outcomes here were measured
on the client first, without the hook (see the table).
"""
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent))

import harness  # noqa: E402
from codex_client import (CodexRun, codex_env, config_toml, install_hook,  # noqa: E402
                          make_workspace, run_codex)
from harness import PROMPT, RAN, REFUSED  # noqa: E402
from server import ResponsesServer  # noqa: E402

pytestmark = pytest.mark.slow

PUSH = "git push origin HEAD:main"
FORBID_PUSH = 'prefix_rule(pattern=["git", "push"], decision="forbidden", ' \
              'justification="pushes are reviewed")\n'
PROMPT_PUSH = 'prefix_rule(pattern=["git", "push"], decision="prompt")\n'
ALLOW_PUSH = 'prefix_rule(pattern=["git", "push"], decision="allow")\n'
CLAUDE_DENY = json.dumps({"permissions": {"deny": ["Bash(git push:*)", "Bash(git status:*)"]}})


def pytest_cmd(venv: Path) -> str:
    return f"{venv}/python -m pytest -q -p no:cacheprovider test_calc.py"


# name, command ({py} = the agent's python with pytest), setup, codex args,
# outcome without the hook, does the push land without the hook
SCENARIOS = [
    ("status", "git status", {}, (), RAN, None),
    ("log", "git log", {}, (), RAN, None),
    # pytest needs a writable $TMPDIR (its capture files): Codex's workspace-write sandbox
    ("failing pytest", "{pytest}", {}, ("-s", "workspace-write"), RAN, None),
    ("status, workspace-write", "git status", {}, ("-s", "workspace-write"), RAN, None),
    ("push, read-only sandbox", PUSH, {}, (), RAN, False),
    ("push, user forbidden", PUSH, {"user_rules": FORBID_PUSH}, (), REFUSED, False),
    ("push, user forbidden, full access", PUSH, {"user_rules": FORBID_PUSH},
     ("-s", "danger-full-access"), REFUSED, False),
    ("compound push, user forbidden", "git status && " + PUSH, {"user_rules": FORBID_PUSH},
     ("-s", "danger-full-access"), REFUSED, False),
    ("push, trusted project forbidden", PUSH, {"project_rules": FORBID_PUSH, "trusted": True},
     ("-s", "danger-full-access"), REFUSED, False),
    ("push, user prompt", PUSH, {"user_rules": PROMPT_PUSH}, ("-s", "danger-full-access"),
     PROMPT, False),
    ("push, user allow (leaves the sandbox)", PUSH, {"user_rules": ALLOW_PUSH}, (), RAN, True),
    ("push, full access", PUSH, {}, ("-s", "danger-full-access"), RAN, True),
    ("rm -rf, Codex's own guard", "mkdir -p build && rm -rf build", {}, (), REFUSED, None),
    ("status, Claude settings deny (Codex ignores them)", "git status",
     {"claude": CLAUDE_DENY}, (), RAN, None),
]
#: Rows where the hook adds a deny the client itself does not apply (allowed by parity):
#: the gate reads an untrusted project's forbidden rules too.
ADDED_DENY = {"push, untrusted project forbidden"}
SCENARIOS.append(("push, untrusted project forbidden", PUSH, {"project_rules": FORBID_PUSH},
                  ("-s", "danger-full-access"), RAN, True))


@pytest.fixture
def tmp_path(agent_tmp):
    """A scratch directory the agent user can reach (conftest's agent_tmp)."""
    return agent_tmp


@pytest.fixture(scope="module")
def codex():
    return harness.install_client("codex")


@pytest.fixture(scope="module")
def agent_python():
    """The product venv with pytest in it (the failing-test scenario needs one the agent can
    run; the login shell Codex starts resets PATH, so it is called by its path)."""
    venv = harness.product_venv()
    if subprocess.run([str(venv / "python"), "-c", "import pytest"],
                      capture_output=True).returncode != 0:
        version = pytest.__version__
        done = subprocess.run([str(venv / "python"), "-m", "pip", "install", "-q",
                               f"pytest=={version}"], capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip(f"cannot install pytest=={version} for the agent: {done.stderr[-300:]}")
        harness._writable_tree(venv.parent)
    return venv


@pytest.mark.parametrize("name, command, setup, args, expected, lands", SCENARIOS,
                         ids=[s[0] for s in SCENARIOS])
def test_same_outcome_with_and_without_the_hook(codex, agent_python, tmp_path, name, command,
                                                setup, args, expected, lands):
    command = command.format(pytest=pytest_cmd(agent_python))
    plain = run_codex(codex, tmp_path / "plain", [command], setup, args, hooked=False)
    assert plain.outcome == expected, plain.output

    hooked = run_codex(codex, tmp_path / "hooked", [command], setup, args, hooked=True)
    if name in ADDED_DENY:
        assert hooked.outcome == REFUSED, hooked.output
        assert "contextcrawler" in hooked.output
    else:
        assert hooked.outcome == plain.outcome, (plain.output, hooked.output)
        assert hooked.exit_code == plain.exit_code
    for run in (plain, hooked):
        pushed = remote_head(run.ws) == local_head(run.ws)
        if run.outcome != RAN:
            assert not pushed, f"a refused push landed: {run.output}"
        elif lands is not None:
            assert pushed == lands, run.output


def local_head(ws) -> str:
    return subprocess.run(["git", "-c", "safe.directory=*", "rev-parse", "HEAD"], cwd=ws.project,
                          capture_output=True, text=True).stdout.strip()


def remote_head(ws) -> str:
    return subprocess.run(["git", "-c", "safe.directory=*", "--git-dir", str(ws.remote),
                           "rev-parse", "main"], capture_output=True, text=True).stdout.strip()


@pytest.mark.parametrize("command, args, must_keep", [
    ("git status", (), ["draft_0.txt", "README.md"]),
    ("git log", (), ["note 11: keep a record", "note 0: keep a record"]),
    ("{pytest}", ("-s", "workspace-write"), ["test_add", "1 failed", "assert"]),
])
def test_the_model_receives_compacted_output(codex, agent_python, tmp_path, command, args,
                                             must_keep):
    command = command.format(pytest=pytest_cmd(agent_python))
    plain = run_codex(codex, tmp_path / "plain", [command], {}, args, hooked=False)
    hooked = run_codex(codex, tmp_path / "hooked", [command], {}, args, hooked=True)
    assert (plain.outcome, hooked.outcome) == (RAN, RAN)
    assert hooked.exit_code == plain.exit_code
    assert len(hooked.text) < len(plain.text), (plain.text, hooked.text)
    for needle in must_keep:
        assert needle in hooked.text, hooked.text


@pytest.mark.parametrize("command, rule, must_keep", [
    # an allow rule runs the command outside the sandbox: the hook cannot rewrite it (the
    # rewritten spelling would match no rule and run inside), so it runs as it is and the
    # PostToolUse hook filters its output, exit code kept
    ("{pytest}", '["{python}", "-m", "pytest"]', ["test_add", "1 failed", "assert"]),
    ("git log", '["git", "log"]', ["note 11: keep a record", "note 0: keep a record"]),
])
def test_a_command_left_alone_before_execution_is_filtered_after_it(
        codex, agent_python, tmp_path, command, rule, must_keep):
    command = command.format(pytest=pytest_cmd(agent_python))
    rules = {"user_rules": f'prefix_rule(pattern={rule.format(python=agent_python / "python")}, '
                           'decision="allow")\n'}
    plain = run_codex(codex, tmp_path / "plain", [command], rules, (), hooked=False)
    hooked = run_codex(codex, tmp_path / "hooked", [command], rules, (), hooked=True)
    assert (plain.outcome, hooked.outcome) == (RAN, RAN), (plain.output, hooked.output)
    assert hooked.exit_code == plain.exit_code, (plain.output, hooked.output)
    assert "hook: PostToolUse Blocked" in hooked.proc.stderr  # the answer that replaced it
    assert len(hooked.text) < len(plain.text), (plain.text, hooked.text)
    for needle in must_keep:
        assert needle in hooked.text, hooked.text


def test_an_untrusted_hook_is_skipped_and_verify_fails(codex, tmp_path):
    """What the issue found: without the trust entry Codex never runs the hook; verify says so."""
    ws = make_workspace(tmp_path, {})
    with ResponsesServer(["git status"], lifetime=120) as server:
        ws.write(".codex/config.toml", config_toml(server.url, ws, {}))
        install_hook(ws)
        config = ws.home / ".codex" / "config.toml"
        text = config.read_text()
        config.write_text(text.replace('trusted_hash = "sha256:', 'trusted_hash = "sha256:0'))
        venv = harness.product_venv()
        verify = harness.run_as_agent([str(venv / "cc-hook"), "verify"], ws, env=codex_env(ws))
        assert verify.returncode == 1 and "FAIL  codex" in verify.stdout, verify.stdout
        proc = harness.run_as_agent([str(codex), "exec", "--skip-git-repo-check", "go"], ws,
                                    env=codex_env(ws), timeout=120)
    run = CodexRun(ws, server, proc)
    assert "hook: PreToolUse" not in proc.stderr  # skipped without a word
    assert run.outcome == RAN and "Untracked files:" in run.text  # raw, unfiltered


def test_uninstall_gives_back_the_users_config(codex, tmp_path):
    ws = make_workspace(tmp_path, {})
    ws.write(".codex/config.toml", config_toml("http://127.0.0.1:9", ws, {}) +
             "\n# my own comment\n[tui]\nnotifications = true   # keep\n")
    before = (ws.home / ".codex" / "config.toml").read_bytes()
    install_hook(ws)
    assert (ws.home / ".codex" / "config.toml").read_bytes() != before
    venv = harness.product_venv()
    done = harness.run_as_agent([str(venv / "cc-hook"), "uninstall", "--agent", "codex"], ws,
                                env=codex_env(ws))
    assert done.returncode == 0, done.stdout + done.stderr
    assert (ws.home / ".codex" / "config.toml").read_bytes() == before


def test_tee_hint_and_tracking_survive_the_workspace_write_sandbox(codex, agent_python,
                                                                  tmp_path):
    """Codex's workspace-write sandbox lets the command write the workspace and $TMPDIR only, so
    the data dir (~/.local/share/ctxcrl) is read-only there (this HOME lives under /tmp, which
    the sandbox would allow too, so /tmp is excluded): the tee file and the spool record
    go to $TMPDIR/ctxcrl-<uid>, the hint names it, one line says so, and cc-track (run outside
    the sandbox) ingests the record."""
    command = pytest_cmd(agent_python) + " -vv"
    run = run_codex(codex, tmp_path, [command], {"long_failure": True, "tmp_not_writable": True},
                    ("-s", "workspace-write"), hooked=True)
    assert run.outcome == RAN and run.exit_code == 1, run.output
    fallback = Path(run.ws.env()["TMPDIR"]) / f"ctxcrl-{run.ws.user.uid}"
    hint = re.search(r"\[full output: ([^\]]+)\]", run.text)
    assert hint, run.text
    assert hint.group(1).startswith(str(fallback / "tee")), hint.group(1)
    assert "1 failed" in Path(hint.group(1)).read_text()
    assert run.text.count("is not writable here") == 1
    venv = harness.product_venv()
    report = harness.run_as_agent([str(venv / "cc-track"), "report", "--format=json"], run.ws,
                                  env=codex_env(run.ws))
    assert report.returncode == 0, report.stderr
    assert json.loads(report.stdout)["totals"]["commands"] >= 1
