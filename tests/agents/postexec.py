"""What the OpenCode, Kilo CLI and Copilot real-client tests share: all filter after
execution, so the same story holds for each (ARCHITECTURE §5 rule 1): the command is never
changed, the outcome of every scenario is the same with and without the hook except that the
hook may add a deny, no denied push lands, and the model receives compacted output for
`git status`, a failing pytest and `git log` (`assert_compacted`).

The two OpenCode-lineage clients (OpenCode, Kilo CLI) also share the driver:
`plugin_session` runs the whole scenario table in one headless `run`, and `plugin_table`
reads each scenario's outcome off the tool results the model received.

`prepare_project(ws)` gives the workspace's project something to show: twelve commits (for
`git log`), a modified and an untracked file (for `git status`), and the harness's failing
test (`add` subtracts). `product_with_pytest()` is the product venv plus pytest, so the agent
user can run `python3 -m pytest` from its PATH.
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from harness import (PROMPT, RAN, REFUSED, Workspace, agent_user, chown_tree, install_client,
                     product_venv, run_as_agent)

SUBJECTS = [f"Add step {n} of the calculator" for n in range(1, 13)]
UNTRACKED = "notes_draft.txt"


def fresh_root(name: str) -> Path:
    """A folder the agent user can reach (pytest's own tmp folders sit under a 0700 one)."""
    return Path(tempfile.mkdtemp(prefix=f"ctxcrl-{name}-", dir="/tmp"))


def product_with_pytest():
    bin_dir = product_venv()
    if not (bin_dir / "pytest").exists():
        done = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "pytest"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            import pytest

            pytest.skip("cannot install pytest into the product venv from the package "
                        f"registry: {done.stderr.strip()[-300:]}")
    return bin_dir


def prepare_project(ws) -> None:
    def git(*args):
        done = run_as_agent(["git", *args], ws, timeout=60)
        assert done.returncode == 0, done.stderr

    for n, subject in enumerate(SUBJECTS, 1):
        with (ws.project / "steps.txt").open("a") as f:
            f.write(f"step {n}\n")
        chown_tree(ws.project, ws.user)
        git("add", "steps.txt")
        git("commit", "-q", "-m", subject, "-m", f"Longer description of step {n}, wrapped\n"
            "over two lines.")
    git("push", "-q", "origin", "HEAD:main")
    (ws.project / "calc.py").write_text("def add(a, b):\n    # TODO: fix\n    return a - b\n")
    (ws.project / UNTRACKED).write_text("draft\n")
    chown_tree(ws.root, ws.user)


def outcomes_match(without: dict, with_hook: dict, added_denies: set) -> list:
    """The scenarios whose outcome differs other than by a deny the hook added."""
    bad = []
    for name, outcome in without.items():
        hooked = with_hook.get(name)
        if hooked == outcome:
            continue
        if name in added_denies and hooked == "refused":
            continue
        bad.append((name, outcome, hooked))
    return bad


def plugin_outcome(text: str) -> str:
    """One scenario's outcome from the tool result an OpenCode-lineage client (OpenCode, Kilo
    CLI) gave the model."""
    if text.startswith("The user rejected permission"):
        return PROMPT
    if text.startswith("The user has specified a rule which prevents") or \
            "contextcrawler: deny rule" in text:
        return REFUSED
    return RAN


def plugin_session(agent: str, hooked: bool, scenarios: list, config_file: str,
                   project_file: str, config: dict, project_config: dict, env: dict) -> dict:
    """One headless `<client> run` of an OpenCode-lineage client through every scenario
    (one tool call each) against the scripted model: `config` (its provider entry is added
    here) in HOME's `config_file`, `project_config` in the project's `project_file`, the
    plugin installed by `cc-hook init --agent <agent>` when `hooked`."""
    import json
    import time

    from openai_chat import OpenAIChatServer

    exe = install_client(agent)
    product_with_pytest()
    ws = Workspace(fresh_root(f"{agent}-hook" if hooked else f"{agent}-raw"), agent_user())
    prepare_project(ws)
    initial = ws.remote_head()
    with OpenAIChatServer([command for _, command, *_ in scenarios], lifetime=400) as server:
        provider = {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
                                 "options": {"baseURL": server.url + "/v1", "apiKey": "none"},
                                 "models": {"scripted": {"name": "Scripted"}}}}
        ws.write(config_file, json.dumps({**config, "provider": provider,
                                          "model": "scripted/scripted"}, indent=2))
        ws.write(f"project/{project_file}", json.dumps(project_config))
        if hooked:
            init = run_as_agent([str(product_with_pytest() / "cc-hook"), "init", "--agent",
                                 agent], ws, timeout=120)
            assert init.returncode == 0, init.stdout + init.stderr
        started = time.monotonic()
        done = run_as_agent([str(exe), "run", "--model", "scripted/scripted",
                             "Work through the task."], ws, env=env, timeout=360)
        elapsed = time.monotonic() - started
        results = server.tool_results()
    return {"ws": ws, "initial": initial, "done": done, "results": results,
            "elapsed": elapsed, "server": server}


def plugin_table(run: dict, scenarios: list) -> dict:
    """Each scenario's outcome, from the tool results the model received. A prompt the client
    auto-rejects may end the headless run before the model is asked again: the last
    scenario's outcome then comes from the client's own report on stderr."""
    results = list(run["results"])
    outcomes = {name: plugin_outcome(text) for (name, *_), text in zip(scenarios, results)}
    if len(results) == len(scenarios) - 1:
        name, command, *_ = scenarios[-1]
        if f"permission requested: bash ({command}); auto-rejecting" in run["done"].stderr:
            outcomes[name] = PROMPT
    assert len(outcomes) == len(scenarios), (
        f"{len(results)} tool results for {len(scenarios)} scenarios; stderr: "
        f"{run['done'].stderr[-2000:]}")
    return outcomes


def assert_compacted(raw: list, hooked: list) -> None:
    """The first three results are `git status`, the failing pytest and `git log`: what the
    model received with the hook is the compacted form of what it received without."""
    status, pytest_out, log = hooked[0], hooked[1], hooked[2]
    # git status: every file, by state, without git's advice
    assert "M calc.py" in status and UNTRACKED in status and "(use \"git" not in status
    assert len(status) < 0.6 * len(raw[0]), (status, raw[0])
    # the failing test: its name, the assertion, the summary count
    assert "test_calc.py::test_add" in pytest_out and "1 failed" in pytest_out
    assert "assert" in pytest_out
    assert len(pytest_out) < len(raw[1]), (pytest_out, raw[1])
    # git log: every subject, much shorter
    for subject in SUBJECTS:
        assert subject in log
    assert len(log) < 0.6 * len(raw[2]), (log, raw[2])


__all__ = ["RAN", "SUBJECTS", "UNTRACKED", "assert_compacted", "outcomes_match",
           "plugin_outcome", "plugin_session", "plugin_table", "prepare_project",
           "product_with_pytest"]
