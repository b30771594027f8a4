"""Copilot CLI 1.0.102, the real client, offline (`COPILOT_OFFLINE=true`, BYOK against a
scripted OpenAI-compatible model): the same scenarios with and without contextcrawler's hooks.

Copilot filters after execution (ARCHITECTURE §5 rule 1): the `preToolUse` hook never changes the
command and may only add a deny; the `postToolUse` hook replaces what the model receives
(`modifiedResult`, the exit-code trailer kept). Rules are Copilot's own flags
(`--allow-tool`, `--deny-tool`), read by the hook from the running copilot process.
"""
import shutil
import subprocess
import time

import pytest
from harness import PROMPT, RAN, REFUSED, Workspace, agent_user, install_client, run_as_agent
from openai_chat import OpenAIChatServer
from postexec import (SUBJECTS, UNTRACKED, fresh_root, outcomes_match, prepare_project,
                      product_with_pytest)

FLAGS = ["--allow-tool", "shell(git:*)", "--allow-tool", "shell(python3:*)",
         "--deny-tool", "shell(git push)"]

# (name, command, outcome without the hooks, outcome with them)
SCENARIOS = [
    ("status", "git status", RAN, RAN),
    ("failing pytest", "python3 -m pytest -q test_calc.py", RAN, RAN),
    ("log", "git log", RAN, RAN),
    ("denied push", "git commit --allow-empty -qm denied-push && git push -q origin HEAD:main",
     REFUSED, REFUSED),
    ("absolute-path push", "/usr/bin/git push -q origin HEAD:main", PROMPT, REFUSED),
    ("not allowed rm", "rm -f README.md", PROMPT, PROMPT),
]
ADDED_DENIES = {"absolute-path push"}
TRAILER = "<shellId: "


def outcome(text: str) -> str:
    if text.startswith("Permission denied because no interactive user response"):
        return PROMPT
    if text.startswith("Permission to run this tool was denied due to the following rules") \
            or text.startswith("Denied by preToolUse hook"):
        return REFUSED
    return RAN


def session(hooked: bool, commands: list) -> dict:
    exe = install_client("copilot")
    bin_dir = product_with_pytest()
    ws = Workspace(fresh_root("copilot-hook" if hooked else "copilot-raw"), agent_user())
    prepare_project(ws)
    initial = ws.remote_head()
    if hooked:
        init = run_as_agent([str(bin_dir / "cc-hook"), "init", "--agent", "copilot"], ws,
                            timeout=120)
        assert init.returncode == 0, init.stdout + init.stderr
    with OpenAIChatServer(commands, lifetime=400) as server:
        env = {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": server.url + "/v1",
               "COPILOT_MODEL": "scripted"}
        started = time.monotonic()
        done = run_as_agent([str(exe), "-p", "Work through the task.", "--no-auto-update",
                             "--no-custom-instructions", *FLAGS], ws, env=env, timeout=300)
        elapsed = time.monotonic() - started
        results = server.tool_results()
    return {"ws": ws, "initial": initial, "done": done, "results": results, "elapsed": elapsed}


@pytest.fixture(scope="module")
def runs():
    commands = [command for _, command, _, _ in SCENARIOS]
    done = {hooked: session(hooked, commands) for hooked in (False, True)}
    yield done
    for run in done.values():
        shutil.rmtree(run["ws"].root, ignore_errors=True)


def table(run) -> dict:
    results = run["results"]
    assert len(results) == len(SCENARIOS), (
        f"{len(results)} tool results for {len(SCENARIOS)} scenarios; "
        f"stdout: {run['done'].stdout[-1500:]} stderr: {run['done'].stderr[-1500:]}")
    return {name: outcome(text) for (name, *_), text in zip(SCENARIOS, results)}


def test_outcomes_match_the_table_with_and_without_the_hooks(runs):
    without, with_hook = table(runs[False]), table(runs[True])
    assert without == {name: raw for name, _, raw, _ in SCENARIOS}
    assert with_hook == {name: hooked for name, _, _, hooked in SCENARIOS}
    assert outcomes_match(without, with_hook, ADDED_DENIES) == []


def test_no_denied_push_lands(runs):
    for hooked in (False, True):
        ws = runs[hooked]["ws"]
        assert ws.remote_head() == runs[hooked]["initial"], hooked


def test_the_refused_command_did_not_run(runs):
    for hooked in (False, True):
        assert (runs[hooked]["ws"].project / "README.md").exists()
        log = subprocess.run(["git", "-c", "safe.directory=*", "log", "--format=%s"],
                             cwd=runs[hooked]["ws"].project, capture_output=True,
                             text=True).stdout
        assert "denied-push" not in log


def test_the_model_receives_compacted_output_with_the_trailer(runs):
    raw, hooked = runs[False]["results"], runs[True]["results"]
    for text in raw[:3] + hooked[:3]:
        assert text.rstrip().endswith(">") and TRAILER in text.splitlines()[-1]
    status, pytest_out, log = hooked[0], hooked[1], hooked[2]
    assert status.endswith("completed with exit code 0>")
    assert "M calc.py" in status and UNTRACKED in status and "(use \"git" not in status
    assert len(status) < 0.6 * len(raw[0]), (status, raw[0])
    assert pytest_out.endswith("completed with exit code 1>")  # the failure's code, kept
    assert "test_calc.py::test_add" in pytest_out and "1 failed" in pytest_out
    assert len(pytest_out) < len(raw[1]), (pytest_out, raw[1])
    for subject in SUBJECTS:
        assert subject in log
    assert len(log) < 0.6 * len(raw[2]), (log, raw[2])
