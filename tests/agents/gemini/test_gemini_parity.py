"""Permission parity on the real Gemini CLI (0.61.0), headless (`gemini -p`), with and without
contextcrawler's hook.

Each setup is one set of Gemini's own rules (Policy Engine TOML at user, admin and workspace
level, the deprecated `tools.*` settings, the approval mode from flags) and a script of shell
commands the scripted model asks for, one after the other, in one session. Each row says what
the real client did without contextcrawler (measured, then written down) and what it must do
with the hook: the same, except where the hook adds a deny. Whatever the hook does, a push
the rules deny never reaches the bare remote, and the commands marked `compact` reach the
model compacted.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from dataclasses import dataclass, field
from pathlib import Path

import pytest

import harness
from gemini_client import RAN, REFUSED, GeminiRun, outcome_of, pytest_venv, response_text

pytestmark = pytest.mark.skipif(os.name != "posix", reason="real clients run on Linux here")

PUSH = "git push origin HEAD:main"


@dataclass
class Row:
    command: str
    without: str                  # the real client's outcome without contextcrawler
    with_hook: str | None = None  # with the hook, when it differs (only ever an added deny)
    compact: bool = False         # the model must get compacted output (hook run)
    why: str = ""

    @property
    def expected(self) -> str:
        return self.with_hook or self.without


@dataclass
class Setup:
    name: str
    rows: list
    user_policy: str = ""
    admin_policy: str = ""
    workspace_policy: str = ""
    settings: dict = field(default_factory=dict)
    flags: tuple = ()
    push_lands: bool = False      # a push the rules allow is expected on the remote


def rule(decision: str, priority: int, **match) -> str:
    lines = ["[[rule]]", 'toolName = "run_shell_command"']
    for key, value in match.items():
        if isinstance(value, list):
            lines.append(f"{key} = [{', '.join(_q(v) for v in value)}]")
        else:
            lines.append(f"{key} = {_q(value)}")
    lines += [f'decision = "{decision}"', f"priority = {priority}", ""]
    return "\n".join(lines)


def _q(value) -> str:
    return "'" + value + "'" if isinstance(value, str) else str(value).lower()


SETUPS = [
    Setup(
        "default mode: user policies with prefixes, regex, argsPattern and priorities",
        user_policy=(rule("allow", 100, commandPrefix=["git status", "git commit", "pytest -q"])
                     + rule("allow", 100, commandRegex="git (log|show)")
                     + rule("allow", 100, argsPattern='"command":"git branch')
                     + rule("deny", 200, commandPrefix="git push")
                     + rule("allow", 100, commandPrefix="git diff").replace(
                         'priority = 100', 'priority = 100\nmodes = ["autoEdit"]')),
        rows=[
            Row("git status", RAN, compact=True),
            Row("git log", RAN, compact=True),
            Row("pytest -q", RAN, compact=True, why="a failing test run"),
            Row("git branch", RAN),
            Row("git commit --allow-empty -qm wip", RAN),
            Row(PUSH, REFUSED, why="deny commandPrefix at a higher priority"),
            Row("git diff", REFUSED, why="allowed in autoEdit mode only"),
            Row("git status > status.txt", REFUSED, why="a redirection asks: refused headless"),
            Row("git status && echo done", REFUSED, why="echo has no allow rule"),
            Row("rm -rf build", REFUSED, why="no rule: headless denies"),
            Row("cc-filter run " + PUSH, REFUSED, why="typed by the model: X is denied"),
            Row("cc-filter run rm -rf build", REFUSED, why="typed by the model: X has no rule"),
            Row("cc-filter run git status", REFUSED, RAN,
                why="typed by the model: X (git status) runs, so this does too"),
        ]),
    Setup(
        "priorities: a higher allow beats a lower deny",
        user_policy=(rule("deny", 100, commandPrefix="git push")
                     + rule("allow", 200, commandPrefix="git")),
        push_lands=True,
        rows=[
            Row("git status", RAN, compact=True),
            Row("git commit --allow-empty -qm wip", RAN),
            Row(PUSH, RAN, why="allow at 4.200 beats deny at 4.100, as the client decides"),
        ]),
    Setup(
        "yolo: user, admin and workspace denies, deprecated tools.exclude",
        flags=("--yolo",),
        user_policy=rule("deny", 100, commandPrefix="git push"),
        admin_policy=rule("deny", 0, commandRegex="git reset"),
        workspace_policy=rule("deny", 900, commandPrefix="git show"),
        settings={"tools": {"exclude": ["run_shell_command(git tag)"]}},
        rows=[
            Row("git status", RAN, compact=True),
            Row("git log", RAN, compact=True),
            Row("git show --stat HEAD", RAN, why="the workspace tier is off in 0.61.0"),
            Row("git commit --allow-empty -qm wip", RAN),
            Row(PUSH, REFUSED, why="user deny (the old hook let it land)"),
            Row("git reset --hard HEAD", REFUSED, why="admin deny (--admin-policy)"),
            Row("git tag v1", RAN, REFUSED,
                why="tools.exclude with arguments names no tool in 0.61.0; the gate keeps it"),
            Row("echo ok > out.txt", RAN, why="yolo allows redirections"),
            Row("git -C . push origin HEAD:main", RAN, REFUSED,
                why="the client's prefix misses `git -C . push`; the hook's peeled check"),
        ],
        push_lands=True),  # only in the run without the hook: the `git -C . push` row
    Setup(
        "autoEdit mode and the deprecated tools.allowed",
        flags=("--approval-mode", "auto_edit"),
        user_policy=rule("allow", 100, commandPrefix="git diff").replace(
            'priority = 100', 'priority = 100\nmodes = ["autoEdit"]'),
        settings={"tools": {"allowed": ["run_shell_command(git status)",
                                        "run_shell_command(git log)"]}},
        rows=[
            Row("git status", RAN, compact=True, why="tools.allowed"),
            Row("git log", RAN, compact=True),
            Row("git diff", REFUSED, why="tools.allowed's deny of every other shell command "
                                         "(4.29) beats the autoEdit-only allow (4.100)"),
            Row("ls", REFUSED, why="tools.allowed denies every other shell command"),
        ]),
    Setup(
        "plan mode",
        flags=("--approval-mode", "plan"),
        user_policy=rule("allow", 100, commandPrefix="git status"),
        rows=[
            Row("git status", RAN, why="a user rule beats plan mode's default deny"),
            Row("git log", REFUSED),
        ]),
]


def _dirty(run: GeminiRun) -> None:
    """A working tree with something to report (git status), owned by the agent user."""
    project = run.ws.project
    run.ws.commit_history(10, "CHANGES.md")  # a log worth compacting
    (project / "calc.py").write_text("def add(a, b):\n    return a - b  # wrong\n")
    for name in ("notes.txt", "todo.md", "draft.py"):
        (project / name).write_text("x\n")
    harness.chown_tree(project, run.ws.user)


def _session(tmp_path, setup: Setup, hook: bool):
    bin_dir = harness.product_venv()
    run = GeminiRun(tmp_path / ("hook" if hook else "plain"), hook=hook)
    _dirty(run)
    if setup.user_policy:
        run.user_policy(setup.user_policy)
    if setup.admin_policy:
        run.admin_policy(setup.admin_policy)
    if setup.workspace_policy:
        run.workspace_policy(setup.workspace_policy)
    run.settings.update(setup.settings)
    if hook:
        run.install_hook(bin_dir)
    path = f"{pytest_venv()}:{bin_dir}:/usr/local/bin:/usr/bin:/bin"
    before = run.ws.remote_head()
    server, proc = run.run([r.command for r in setup.rows], flags=setup.flags,
                           env={"PATH": path})
    return run, server, proc, before


@pytest.fixture(scope="module")
def sessions():
    harness.install_client("gemini")
    done = {}
    roots = []

    def get(index: int, hook: bool):
        key = (index, hook)
        if key not in done:
            roots.append(Path(tempfile.mkdtemp(prefix=f"ctxcrl-gemini{index}-")))
            os.chmod(roots[-1], 0o755)
            done[key] = _session(roots[-1], SETUPS[index], hook)
        return done[key]
    yield get
    for root in roots:
        shutil.rmtree(root, ignore_errors=True)


def _outcomes(setup, server, proc):
    responses = server.function_responses()
    assert len(responses) == len(setup.rows), (
        f"the client answered {len(responses)} of {len(setup.rows)} calls\n"
        f"stderr: {proc.stderr[-2000:]}")
    return responses


@pytest.mark.parametrize("index", range(len(SETUPS)), ids=[s.name.split(":")[0] for s in SETUPS])
def test_without_the_hook_the_client_decides_as_the_table_says(sessions, index):
    setup = SETUPS[index]
    run, server, proc, before = sessions(index, False)
    responses = _outcomes(setup, server, proc)
    got = [outcome_of(r) for r in responses]
    table = [r.without for r in setup.rows]
    assert got == table, "\n".join(
        f"{r.command!r}: table {r.without}, client {g}: {response_text(x)[:200]!r}"
        for r, g, x in zip(setup.rows, got, responses) if g != r.without)


@pytest.mark.parametrize("index", range(len(SETUPS)), ids=[s.name.split(":")[0] for s in SETUPS])
def test_with_the_hook_outcomes_match_except_added_denies(sessions, index):
    setup = SETUPS[index]
    run, server, proc, before = sessions(index, True)
    responses = _outcomes(setup, server, proc)
    plain_run, plain_server, _proc, _ = sessions(index, False)
    plain = plain_server.function_responses()
    problems = []
    for row, response, raw in zip(setup.rows, responses, plain):
        got = outcome_of(response)
        if row.with_hook is not None:
            assert row.with_hook == REFUSED or row.command.startswith("cc-filter run "), \
                "the hook may only add denies"
        if got != row.expected:
            problems.append(f"{row.command!r}: expected {row.expected}, got {got}: "
                            f"{response_text(response)[:300]!r}")
        elif row.compact and got == RAN:
            text, plain_text = response_text(response), response_text(raw)
            if "modified by a hook" not in text or len(text) >= len(plain_text):
                problems.append(f"{row.command!r}: not compacted ({len(text)} chars with the "
                                f"hook, {len(plain_text)} without): {text[:300]!r}")
    assert not problems, "\n".join(problems)
    if not setup.push_lands:
        assert run.ws.remote_head() == before, "a denied push landed on the remote"


def test_no_denied_push_lands_with_the_hook(sessions):
    """The yolo setup denies every push (`git -C . push` too, through the hook)."""
    index = next(i for i, s in enumerate(SETUPS) if s.name.startswith("yolo"))
    run, server, proc, before = sessions(index, True)
    assert run.ws.remote_head() == before


def test_compacted_output_keeps_what_matters(sessions):
    run, server, proc, before = sessions(0, True)
    by_command = dict(zip([r.command for r in SETUPS[0].rows], server.function_responses()))
    status = response_text(by_command["git status"])
    assert "calc.py" in status and "notes.txt" in status
    tests = response_text(by_command["pytest -q"])
    assert "test_add" in tests and "1 failed" in tests and "Exit Code: 1" in tests
    log = response_text(by_command["git log"])
    assert "initial" in log


def test_a_failing_pipeline_refuses_what_mentions_cc_filter(agent_tmp):
    """CTXCRL_DISABLED=1 (or a stage that cannot run) leaves the installed rule for
    `cc-filter run …` unguarded: the hook script then denies such a command."""
    harness.install_client("gemini")
    bin_dir = harness.product_venv()
    run = GeminiRun(agent_tmp / "disabled", hook=True)
    run.user_policy(rule("allow", 100, commandPrefix="git status"))
    run.install_hook(bin_dir)
    before = run.ws.remote_head()
    assert harness.run_as_agent(["git", "commit", "--allow-empty", "-qm", "wip"],
                                run.ws).returncode == 0
    server, proc = run.run(["git status", "cc-filter run " + PUSH, "cc-filter run git status"],
                           env={"CTXCRL_DISABLED": "1"})
    got = [outcome_of(r) for r in server.function_responses()]
    assert got == [RAN, REFUSED, REFUSED], proc.stderr[-1500:]
    assert "modified by a hook" not in response_text(server.function_responses()[0])
    assert run.ws.remote_head() == before
