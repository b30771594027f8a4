"""The real Gemini CLI (0.61.0) in its default setup: an interactive session in default
approval mode, no policy of the user's, driven in tmux; every prompt approved by keystroke
("Allow once"). The same scripted commands run without and with contextcrawler's hook.

Measured without the hook: the client runs its known-safe commands (`git status`, `git log`,
`ls`, `cat`) unasked and asks about every other one (`pytest`, `npm install`, `make test`,
`ls /etc`, a compound command). With the hook: the same prompts, at the same places, now
naming the rewritten command (`…/cc-filter run pytest -q`); every approved run and every
unasked one reaches the model compacted, failures included (the 12,000-test pytest run, a
failing `npm install`, `make test` and, where the agent user can run cargo, `cargo test`); a command the gate cannot match
exactly (`ls /etc`: outside the workspace; `git status && git log -3`: a compound command of
known-safe parts; both ask, but their rewritten spellings would run unasked) keeps its prompt
and stays raw.
"""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

import pytest

import harness
from gemini_client import RAN, outcome_of, pytest_venv, response_text
from gemini_tmux import InteractiveRun, tmux
from projects import (BIG_PYTEST, BUILD_FACTS, CARGO_TEST, MAKE_TEST, NPM_INSTALL,
                      add_build_projects, build_commands)

pytestmark = pytest.mark.skipif(os.name != "posix", reason="real clients run on Linux here")

ROWS = [
    # command, asks without the hook, compacted with it. The large run comes first: a file
    # name that an earlier output showed makes the client warn of "untrusted flags".
    (BIG_PYTEST, True, True),                     # 12,000 tests, three failing
    ("python3 -m pytest -q", True, True),         # a failing test run
    (NPM_INSTALL, True, True),                    # a failing install (local package folder)
    (MAKE_TEST, True, True),                      # a failing build step
    ("git status", False, True),
    ("git log", False, True),
    ("git log -3 && python3 -m pytest -q", True, True),  # compound: always asks
    # both parts known safe: the client asks (a compound command), but the rewritten parts
    # would each run unasked, so it is left alone
    ("git status && git log -3", True, False),
    ("ls -la", False, True),
    ("ls /etc", True, False),                     # asks; not rewritten (see the docstring)
    # a failing `cargo test`, where the agent user can run cargo (harness.rust_bin())
    *([(CARGO_TEST, True, True)] if CARGO_TEST in build_commands() else []),
]
COMMANDS = [r[0] for r in ROWS]


def _session(root: Path, hook: bool):
    run = InteractiveRun(root, hook=hook)
    run.ws.commit_history(12, "CHANGES.md")
    (run.ws.project / "calc.py").write_text("def add(a, b):\n    return a - b  # wrong\n")
    (run.ws.project / "notes.txt").write_text("x\n")
    add_build_projects(run.ws)
    bin_dir = harness.product_venv()
    if hook:
        run.install_hook(bin_dir)
    server, prompts = run.run(COMMANDS, env={"PATH": harness.agent_path(pytest_venv())},
                              timeout=600)
    return run, server, prompts


@pytest.fixture(scope="module")
def sessions():
    tmux()
    harness.install_client("gemini")
    root = Path(tempfile.mkdtemp(prefix="ctxcrl-gemini-tty-"))
    os.chmod(root, 0o755)
    done = {}

    def get(hook: bool):
        if hook not in done:
            done[hook] = _session(root / ("hook" if hook else "plain"), hook)
        return done[hook]
    yield get
    shutil.rmtree(root, ignore_errors=True)


def _responses(server, prompts, run):
    responses = server.function_responses()
    assert len(responses) == len(ROWS), (
        f"the client answered {len(responses)} of {len(ROWS)} calls; prompts {prompts}\n"
        f"{getattr(run, 'last_screen', '')[-2500:]}")
    return responses


def test_without_the_hook_the_client_asks_where_the_table_says(sessions):
    run, server, prompts = sessions(False)
    responses = _responses(server, prompts, run)
    assert [outcome_of(r) for r in responses] == [RAN] * len(ROWS)
    assert len(prompts) == sum(asks for _c, asks, _k in ROWS), prompts


def test_with_the_hook_the_same_prompts_and_compacted_output(sessions):
    run, server, prompts = sessions(True)
    responses = _responses(server, prompts, run)
    _plain_run, plain_server, plain_prompts = sessions(False)
    plain = plain_server.function_responses()
    assert [outcome_of(r) for r in responses] == [RAN] * len(ROWS)
    assert len(prompts) == len(plain_prompts), (prompts, plain_prompts)
    asked = [c for c, asks, _k in ROWS if asks]
    for prompt, command in zip(prompts, asked):  # each dialog names the command (rewritten)
        assert command.split()[0] in prompt, (prompt, command)
    problems = []
    for (command, _asks, compact), got, raw in zip(ROWS, responses, plain):
        text, raw_text = response_text(got), response_text(raw)
        if compact and ("modified by a hook" not in text or len(text) >= len(raw_text)):
            problems.append(f"{command!r}: not compacted ({len(text)} chars with the hook, "
                            f"{len(raw_text)} without): {text[:300]!r}")
        if not compact and "modified by a hook" in text:
            problems.append(f"{command!r}: rewritten, though the table says it stays raw")
    assert not problems, "\n".join(problems)


def test_failures_stay_visible_in_the_compacted_output(sessions):
    run, server, prompts = sessions(True)
    by_command = dict(zip(COMMANDS, (response_text(r) for r in server.function_responses())))
    tests = by_command["python3 -m pytest -q"]
    # the whole project: test_calc.py's failure and test_many.py's three
    assert "test_add" in tests and "4 failed" in tests and "Exit Code: 1" in tests
    for command in (BIG_PYTEST, NPM_INSTALL, MAKE_TEST, CARGO_TEST):
        if command not in by_command:
            continue  # no cargo here
        facts, code = BUILD_FACTS[command]
        text = by_command[command]
        assert f"Exit Code: {code}" in text and all(fact in text for fact in facts), \
            (command, text[-800:])
