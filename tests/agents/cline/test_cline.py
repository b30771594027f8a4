"""Cline CLI 3.0.65 (npm `cline`), the real client, offline against a scripted model (an
`openai-compatible` provider in its providers.json, a dummy key, no login): the same scenarios
with and without contextcrawler's plugin.

Cline filters after execution (ARCHITECTURE §5 rule 1, §8): the plugin's `beforeTool` never
changes the command and may only add a deny, and its `afterTool` replaces each command's
result with the compacted text, Cline's exit-code line kept. Cline has no command rules: by
default it runs every call unasked; `toolAutoApprove: false` in its global settings asks about
every call (a headless run refuses it), and plan mode (`--plan`) refuses what could change a
file. So the table is two sessions: act mode (the default) with a contextcrawler `[gate]` deny
on `git push` (only the hook refuses it: Cline itself has nothing to say), and plan mode with
approval off (Cline's own refusal, Cline's own ask). `CLINE_SESSION_BACKEND_MODE=local` keeps
Cline from leaving its hub daemon running after the test.
"""
import json
import shutil
import subprocess
import time

import pytest
from harness import PROMPT, RAN, REFUSED, Workspace, agent_user, install_client, run_as_agent
from openai_chat import OpenAIChatServer
from postexec import assert_compacted, fresh_root, outcomes_match, prepare_project, \
    product_with_pytest

# (name, command, outcome without the hook, outcome with it)
ACT = [
    ("status", "git status", RAN, RAN),
    ("failing pytest", "python3 -m pytest -q test_calc.py", RAN, RAN),
    ("log", "git log", RAN, RAN),
    # Cline runs every command unasked; contextcrawler's own [gate] deny refuses the push
    ("gate-denied push", "git commit --allow-empty -qm gate-push && git push -q origin HEAD:main",
     RAN, REFUSED),
    ("absolute-path push",
     "git commit --allow-empty -qm abs-push && /usr/bin/git push -q origin HEAD:main",
     RAN, REFUSED),
]
PLAN = [
    # Cline's plan-mode guard refuses a redirect into a file, with the hook as without
    ("plan-refused write", "echo draft > plan_note.txt", REFUSED, REFUSED),
    # approval off: Cline asks, and a headless run refuses; the guard lets `python3 -c` by
    ("asked write", "python3 -c \"open('asked.txt', 'w').write('x')\"", PROMPT, PROMPT),
]
ADDED_DENIES = {"gate-denied push", "absolute-path push"}
GATE = '[gate]\ndeny = ["git push:*"]\n'
ENV = {"CLINE_SESSION_BACKEND_MODE": "local", "CLINE_NO_AUTO_UPDATE": "1"}


def providers(url: str) -> str:
    settings = {"provider": "openai-compatible", "apiKey": "dummy", "model": "scripted",
                "baseUrl": url + "/v1"}
    return json.dumps({"version": 1, "lastUsedProvider": "openai-compatible", "modes": {},
                       "providers": {"openai-compatible": {
                           "settings": settings, "updatedAt": "2026-01-01T00:00:00.000Z",
                           "tokenSource": "manual"}}}, indent=2)


def outcome(text: str) -> str:
    if "requires approval in a TTY session" in text:
        return PROMPT
    if "file modifications are blocked in plan mode" in text or "contextcrawler: " in text \
            and text.startswith('{"error"'):
        return REFUSED
    return RAN


def result_text(text: str) -> str:
    """What the model read of one call: the `result` of each command's entry."""
    try:
        entries = json.loads(text)
    except ValueError:
        return text
    if not isinstance(entries, list):
        return text
    return "".join(str(e.get("result", "")) for e in entries if isinstance(e, dict))


def session(hooked: bool, scenarios: list, plan: bool) -> dict:
    exe = install_client("cline")
    bin_dir = product_with_pytest()
    ws = Workspace(fresh_root("cline-hook" if hooked else "cline-raw"), agent_user())
    prepare_project(ws)
    initial = ws.remote_head()
    ws.write(".config/ctxcrl/config.toml", GATE)
    if plan:
        ws.write(".cline/data/settings/global-settings.json",
                 json.dumps({"toolAutoApprove": False}))
    if hooked:
        init = run_as_agent([str(bin_dir / "cc-hook"), "init", "--agent", "cline"], ws,
                            timeout=120)
        assert init.returncode == 0, init.stdout + init.stderr
    with OpenAIChatServer([command for _, command, *_ in scenarios], lifetime=400) as server:
        ws.write(".cline/data/settings/providers.json", providers(server.url))
        argv = [str(exe), "--json", *(["--plan"] if plan else []), "Work through the task."]
        started = time.monotonic()
        done = run_as_agent(argv, ws, env=ENV, timeout=300)
        elapsed = time.monotonic() - started
        results = server.tool_results()
    outcomes = {name: outcome(text) for (name, *_), text in zip(scenarios, results)}
    assert len(outcomes) == len(scenarios), (results, done.stdout[-2000:], done.stderr[-2000:])
    return {"ws": ws, "initial": initial, "done": done, "results": results,
            "outcomes": outcomes, "elapsed": elapsed}


@pytest.fixture(scope="module")
def runs():
    done = {(plan, hooked): session(hooked, PLAN if plan else ACT, plan)
            for plan in (False, True) for hooked in (False, True)}
    yield done
    for run in done.values():
        shutil.rmtree(run["ws"].root, ignore_errors=True)


@pytest.mark.parametrize("plan", [False, True], ids=["act", "plan"])
def test_outcomes_match_the_table_with_and_without_the_hook(runs, plan):
    table = PLAN if plan else ACT
    without, with_hook = runs[plan, False]["outcomes"], runs[plan, True]["outcomes"]
    assert without == {name: raw for name, _, raw, _ in table}
    assert with_hook == {name: hooked for name, _, _, hooked in table}
    assert outcomes_match(without, with_hook, ADDED_DENIES) == []


def test_no_denied_push_lands(runs):
    hooked = runs[False, True]["ws"]
    assert hooked.remote_head() == runs[False, True]["initial"]
    raw = runs[False, False]["ws"]
    log = subprocess.run(["git", "--git-dir", str(raw.remote), "log", "--format=%s", "main"],
                         capture_output=True, text=True).stdout
    assert "gate-push" in log and "abs-push" in log  # Cline itself has no rule against them


def test_the_refused_and_asked_commands_did_not_run(runs):
    for hooked in (False, True):
        project = runs[True, hooked]["ws"].project
        assert not (project / "plan_note.txt").exists()
        assert not (project / "asked.txt").exists()


def test_the_command_is_never_changed(runs):
    for text, (_, command, *_) in zip(runs[False, True]["results"][:3], ACT):
        assert [e["query"] for e in json.loads(text)] == [command]
        assert "cc-filter run" not in text


def test_the_model_receives_compacted_output_with_the_exit_line(runs):
    raw = [result_text(t) for t in runs[False, False]["results"]]
    hooked = [result_text(t) for t in runs[False, True]["results"]]
    assert_compacted(raw, hooked)
    assert hooked[1].startswith("[Command exited with code 1]\n")  # the failure stays visible
    entry = json.loads(runs[False, True]["results"][1])[0]
    assert entry["success"] is False and entry["error"] == "Command exited with code 1"
