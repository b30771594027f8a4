"""Kilo CLI 7.7.7 (`@kilocode/cli`, OpenCode lineage), the real client, offline against a
scripted model (an openai-compatible provider in its kilo.json): the same scenarios with and
without contextcrawler's plugin.

Kilo filters after execution like OpenCode (ARCHITECTURE §5 rule 1, §8): the plugin never
changes the command, its `tool.execute.before` may only add a deny, and `tool.execute.after`
replaces what the model receives with the compacted output. Rules are Kilo's own
`permission.bash` in the user's ~/.config/kilo/kilo.json (over Kilo's default `"*": "ask"`)
and the project's .kilo/kilo.json. Each session runs the whole table, one tool call per
scenario, the ask scenario last (`kilo run` auto-rejects a prompt).
"""
import json
import shutil
import subprocess
import time

import pytest
from harness import PROMPT, RAN, REFUSED, Workspace, agent_user, install_client, run_as_agent
from openai_chat import OpenAIChatServer
from postexec import (SUBJECTS, UNTRACKED, fresh_root, outcomes_match, prepare_project,
                      product_with_pytest)

RULES = {"bash": {"*": "allow", "git push *": "deny", "rm *": "ask"}}
PROJECT_RULES = {"permission": {"bash": {"git tag *": "deny"}}}

# (name, command, outcome without the hook, outcome with it)
SCENARIOS = [
    ("status", "git status", RAN, RAN),
    ("failing pytest", "python3 -m pytest -q test_calc.py", RAN, RAN),
    ("log", "git log", RAN, RAN),
    ("denied push", "git commit --allow-empty -qm denied-push && git push -q origin HEAD:main",
     REFUSED, REFUSED),
    # Kilo's pattern does not see through the absolute path: the push runs without the
    # hook; the hook's hardening adds the deny (ARCHITECTURE §5 rule 4)
    ("absolute-path push",
     "git commit --allow-empty -qm abs-push && /usr/bin/git push -q origin HEAD:main",
     RAN, REFUSED),
    # a deny in the project's own .kilo/kilo.json (merged over the user's file)
    ("project-denied tag", "git tag v1.0", REFUSED, REFUSED),
    ("asked rm", "rm -f README.md", PROMPT, PROMPT),
]
ADDED_DENIES = {"absolute-path push"}
ENV = {"KILO_DISABLE_MODELS_FETCH": "1", "KILO_DISABLE_AUTOUPDATE": "1",
       "KILO_DISABLE_LSP_DOWNLOAD": "1", "KILO_DISABLE_DEFAULT_PLUGINS": "1",
       "KILO_DISABLE_CLAUDE_CODE": "1", "KILO_DISABLE_EXTERNAL_SKILLS": "1",
       "KILO_DISABLE_SHARE": "1", "KILO_TELEMETRY_LEVEL": "off", "KILO_NO_DAEMON": "1",
       "KILO_DISABLE_SESSION_INGEST": "1", "KILO_DISABLE_CODEBASE_INDEXING": "1"}


def outcome(text: str) -> str:
    if text.startswith("The user rejected permission"):
        return PROMPT
    if text.startswith("The user has specified a rule which prevents") or \
            "contextcrawler: deny rule" in text:
        return REFUSED
    return RAN


def session(hooked: bool, commands: list) -> dict:
    exe = install_client("kilo")
    product_with_pytest()
    ws = Workspace(fresh_root("kilo-hook" if hooked else "kilo-raw"), agent_user())
    prepare_project(ws)
    initial = ws.remote_head()
    with OpenAIChatServer(commands, lifetime=400) as server:
        config = {"provider": {"scripted": {"npm": "@ai-sdk/openai-compatible",
                                            "name": "Scripted",
                                            "options": {"baseURL": server.url + "/v1",
                                                        "apiKey": "none"},
                                            "models": {"scripted": {"name": "Scripted"}}}},
                  "model": "scripted/scripted", "autoupdate": False, "share": "disabled",
                  "permission": RULES}
        ws.write(".config/kilo/kilo.json", json.dumps(config, indent=2))
        ws.write("project/.kilo/kilo.json", json.dumps(PROJECT_RULES))
        if hooked:
            init = run_as_agent([str(product_with_pytest() / "cc-hook"), "init", "--agent",
                                 "kilo"], ws, timeout=120)
            assert init.returncode == 0, init.stdout + init.stderr
        started = time.monotonic()
        done = run_as_agent([str(exe), "run", "--model", "scripted/scripted",
                             "Work through the task."], ws, env=ENV, timeout=360)
        elapsed = time.monotonic() - started
        results = server.tool_results()
    return {"ws": ws, "initial": initial, "done": done, "results": results,
            "elapsed": elapsed, "server": server}


@pytest.fixture(scope="module")
def runs():
    commands = [command for _, command, _, _ in SCENARIOS]
    done = {hooked: session(hooked, commands) for hooked in (False, True)}
    yield done
    for run in done.values():
        shutil.rmtree(run["ws"].root, ignore_errors=True)


def table(run) -> dict:
    """Each scenario's outcome, from the tool results the model received. A prompt that
    `kilo run` auto-rejects may end the run before the model is asked again: the last
    scenario's outcome then comes from Kilo's own report on stderr."""
    results = list(run["results"])
    outcomes = {name: outcome(text) for (name, *_), text in zip(SCENARIOS, results)}
    if len(results) == len(SCENARIOS) - 1:
        name, command, *_ = SCENARIOS[-1]
        if f"permission requested: bash ({command}); auto-rejecting" in run["done"].stderr:
            outcomes[name] = PROMPT
    assert len(outcomes) == len(SCENARIOS), (
        f"{len(results)} tool results for {len(SCENARIOS)} scenarios: {results}; stderr: "
        f"{run['done'].stderr[-3000:]}; stdout: {run['done'].stdout[-2000:]}")
    return outcomes


def test_outcomes_match_the_table_with_and_without_the_hook(runs):
    without, with_hook = table(runs[False]), table(runs[True])
    assert without == {name: raw for name, _, raw, _ in SCENARIOS}
    assert with_hook == {name: hooked for name, _, _, hooked in SCENARIOS}
    assert outcomes_match(without, with_hook, ADDED_DENIES) == []


def test_no_denied_push_lands(runs):
    hooked = runs[True]["ws"]
    assert hooked.remote_head() == runs[True]["initial"]
    raw = runs[False]["ws"]
    log = subprocess.run(["git", "--git-dir", str(raw.remote), "log", "--format=%s", "main"],
                         capture_output=True, text=True).stdout
    assert "denied-push" not in log  # Kilo's own deny held
    assert "abs-push" in log         # what only the hook's hardening refuses


def test_the_asked_and_denied_commands_did_not_run(runs):
    for hooked in (False, True):
        ws = runs[hooked]["ws"]
        assert (ws.project / "README.md").exists()
        assert not (ws.project / ".git" / "refs" / "tags" / "v1.0").exists()


def test_the_command_is_never_changed(runs):
    for text in runs[True]["results"][:3]:
        assert "cc-filter run" not in text


def test_the_model_receives_compacted_output(runs):
    raw, hooked = runs[False]["results"], runs[True]["results"]
    status, pytest_out, log = hooked[0], hooked[1], hooked[2]
    assert "M calc.py" in status and UNTRACKED in status and "(use \"git" not in status
    assert len(status) < 0.6 * len(raw[0]), (status, raw[0])
    assert "test_calc.py::test_add" in pytest_out and "1 failed" in pytest_out
    assert "assert" in pytest_out
    assert len(pytest_out) < len(raw[1]), (pytest_out, raw[1])
    for subject in SUBJECTS:
        assert subject in log
    assert len(log) < 0.6 * len(raw[2]), (log, raw[2])
