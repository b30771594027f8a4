"""Qwen Code 0.24.4, the real client, offline (`qwen -p --auth-type openai` against a scripted
OpenAI-compatible model on 127.0.0.1): the same scenarios with and without contextcrawler's
hook.

What the client allows a hook (measured on 0.24.4, ARCHITECTURE §8): PreToolUse fires after
its own approval, for a call that will run, and may refuse it; it ignores a changed tool input.
PostToolUse may only append text to the output. So the hook only adds denies (a spelling of a
denied command that Qwen's prefix match misses), and every output reaches the model as it does
without the hook, unfiltered.

Headless in its default approval mode, Qwen Code does not offer its shell tool to the model at
all (permissions.allow included), so the table runs in yolo mode, where `permissions.deny`
still applies and `permissions.ask` does not.
"""
import json
import shutil
import subprocess

import pytest
from harness import PROMPT, RAN, REFUSED, Workspace, agent_user, install_client, run_as_agent
from openai_chat import OpenAIChatServer
from postexec import SUBJECTS, UNTRACKED, fresh_root, outcomes_match, prepare_project, \
    product_with_pytest

SETTINGS = {
    # background memory extraction would run a second conversation on the scripted model
    "memory": {"enableManagedAutoMemory": False, "enableManagedAutoDream": False},
    "permissions": {"allow": ["Bash(git status)", "Bash(git log)"],
                    "ask": ["Bash(rm *)"],
                    "deny": ["Bash(git push)"]},
}
FLAGS = ["--approval-mode", "yolo"]

# (name, command, outcome without the hook, outcome with it)
SCENARIOS = [
    ("status", "git status", RAN, RAN),
    ("failing pytest", "python3 -m pytest -q test_calc.py", RAN, RAN),
    ("log", "git log", RAN, RAN),
    ("denied push", "git commit --allow-empty -qm denied-push && git push -q origin HEAD:main",
     REFUSED, REFUSED),
    ("git -C push", "git -C . push -q origin HEAD:main", RAN, REFUSED),
    # yolo runs what `permissions.ask` names (measured): the hook leaves that to the client
    ("asked rm", "rm -f scratch.txt", RAN, RAN),
]
ADDED_DENIES = {"git -C push"}


def outcome(text: str) -> str:
    if "requires permission" in text or "cannot prompt for confirmation" in text:
        return PROMPT
    if "was denied by permission rules" in text or text.startswith("contextcrawler:"):
        return REFUSED
    return RAN if text.startswith("Command: ") else f"unknown: {text[:200]}"


def session(hooked: bool, commands: list) -> dict:
    exe = install_client("qwen")
    bin_dir = product_with_pytest()
    ws = Workspace(fresh_root("qwen-hook" if hooked else "qwen-raw"), agent_user())
    prepare_project(ws)
    initial = ws.remote_head()
    ws.write(".qwen/settings.json", json.dumps(SETTINGS, indent=2))
    if hooked:
        init = run_as_agent([str(bin_dir / "cc-hook"), "init", "--agent", "qwen"], ws,
                            timeout=120)
        assert init.returncode == 0, init.stdout + init.stderr
    with OpenAIChatServer(commands, lifetime=400) as server:
        env = {"OPENAI_BASE_URL": server.url + "/v1", "OPENAI_API_KEY": "scripted-key",
               "OPENAI_MODEL": "scripted", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"}
        done = run_as_agent([str(exe), "-p", "Work through the task.", "--auth-type", "openai",
                             *FLAGS], ws, env=env, timeout=300)
        results = server.tool_results()
        intervals = [b - a for a, b in zip(server.call_times, server.next_times)]
    return {"ws": ws, "initial": initial, "done": done, "results": results,
            "intervals": intervals}


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


def test_outcomes_match_the_table_with_and_without_the_hook(runs):
    without, with_hook = table(runs[False]), table(runs[True])
    assert without == {name: raw for name, _, raw, _ in SCENARIOS}, runs[False]["results"]
    assert with_hook == {name: hooked for name, _, _, hooked in SCENARIOS}, runs[True]["results"]
    assert outcomes_match(without, with_hook, ADDED_DENIES) == []


def test_no_denied_push_lands_with_the_hook(runs):
    assert runs[True]["ws"].remote_head() == runs[True]["initial"]
    # without it, `git -C . push` slips past Qwen's prefix rule `Bash(git push)` and runs
    # (the table's row; it has nothing new to push here)


def test_the_refused_commands_did_not_run(runs):
    for hooked in (False, True):
        project = runs[hooked]["ws"].project
        log = subprocess.run(["git", "-c", "safe.directory=*", "log", "--format=%s"],
                             cwd=project, capture_output=True, text=True).stdout
        assert "denied-push" not in log


def _stable(text: str) -> str:
    """The text without what differs from run to run (pytest's timing, process ids)."""
    import re

    text = re.sub(r" in \d+\.\d+s\b", " in Ns", text)
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith(("Process Group PGID", "Background PIDs")))


def test_the_model_receives_the_same_output_with_the_hook(runs):
    """Qwen Code 0.24.4 cannot be given compacted output (see the module's docstring): the
    hook must at least leave every output whole, failures included."""
    raw, hooked = runs[False]["results"], runs[True]["results"]
    status, tests, log = hooked[0], hooked[1], hooked[2]
    assert "calc.py" in status and UNTRACKED in status and "Exit Code: 0" in status
    assert "test_add" in tests and "1 failed" in tests and "Exit Code: 1" in tests
    for subject in SUBJECTS:
        assert subject in log
    for before, after in zip(raw[:2], hooked[:2]):
        assert _stable(before) == _stable(after)
    # the two sessions' histories differ in hashes and dates only
    assert len(raw[2].splitlines()) == len(log.splitlines()), (raw[2], log)


def test_the_hook_time_per_shell_call_is_recorded(runs):
    """Seconds from the model's tool call to the next request, per call (the report quotes
    the mean difference): every call got an answer in both runs."""
    for hooked in (False, True):
        assert len(runs[hooked]["intervals"]) == len(SCENARIOS)
        assert all(0 < s < 120 for s in runs[hooked]["intervals"])
    print("qwen shell-call seconds without / with the hook:",
          [round(s, 2) for s in runs[False]["intervals"]],
          [round(s, 2) for s in runs[True]["intervals"]])
