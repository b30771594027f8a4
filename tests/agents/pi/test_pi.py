"""pi 0.73.1 (`@mariozechner/pi-coding-agent`), the real client, offline against a scripted
model (a custom `openai-completions` provider in ~/.pi/agent/models.json, no login): the same
session with and without contextcrawler's extension (`cc-hook init --agent pi`).

pi has no permission rules and never asks: every command runs. Its extension filters after
execution (ARCHITECTURE §5 rule 1, §8): `tool_call` may only block a call (contextcrawler's own
`[gate]` denies, in config.toml), and `tool_result` replaces what the model receives with the
compacted output, failures included (pi's "Command exited with code N" line stays). So with
the hook every outcome is the one without it, except the `[gate]` denies it adds, and those
never run (a sentinel file and the remote's head prove it). One headless `pi -p` session runs
the whole table, one tool call per scenario.
"""
import json
import shutil
import subprocess
import time

import pytest
from harness import RAN, REFUSED, Workspace, agent_user, install_client, run_as_agent
from postexec import (assert_compacted, fresh_root, outcomes_match, prepare_project,
                      product_with_pytest)

#: contextcrawler's own rules (pi has none): the only denies there are
GATE = '[gate]\ndeny = ["git push:*"]\n'
SENTINEL = "denied.sentinel"

# (name, command, outcome without the hook, outcome with it)
SCENARIOS = [
    ("status", "git status", RAN, RAN),
    ("failing pytest", "python3 -m pytest -q test_calc.py", RAN, RAN),
    ("log", "git log", RAN, RAN),
    # pi runs it (no rules of its own); the hook's [gate] deny refuses the whole call
    ("gate-denied push", f"touch ~/{SENTINEL} && git commit --allow-empty -qm denied-push && "
                         "git push -q origin HEAD:main", RAN, REFUSED),
    # a spelling a prefix rule would miss: the gate peels it
    ("hidden push", "git commit --allow-empty -qm hidden-push && git -C . push -q origin "
                    "HEAD:main", RAN, REFUSED),
    ("no filter", "echo done", RAN, RAN),
    ("bypass", "CTXCRL_DISABLED=1 git status", RAN, RAN),
]
ADDED_DENIES = {"gate-denied push", "hidden push"}
ENV = {"PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1"}


def node_is_new_enough():
    done = subprocess.run(["node", "--version"], capture_output=True, text=True) \
        if shutil.which("node") else None
    if done is None or done.returncode != 0:
        return False
    major, minor = (int(x) for x in done.stdout.strip().lstrip("v").split(".")[:2])
    return (major, minor) >= (20, 6)  # the package's engines field


def outcome(text: str) -> str:
    """A blocked call's result is the extension's reason alone."""
    return REFUSED if text.startswith("contextcrawler: ") else RAN


def session(hooked: bool, scope: str = "global", scenarios=SCENARIOS) -> dict:
    from openai_chat import OpenAIChatServer

    if not node_is_new_enough():
        pytest.skip("pi 0.73.1 needs node >= 20.6 (its package's engines)")
    exe = install_client("pi")
    bin_dir = product_with_pytest()
    ws = Workspace(fresh_root("pi-hook" if hooked else "pi-raw"), agent_user())
    prepare_project(ws)
    initial = ws.remote_head()
    ws.write(".config/ctxcrl/config.toml", GATE)
    with OpenAIChatServer([command for _, command, *_ in scenarios], lifetime=300) as server:
        models = {"providers": {"scripted": {
            "baseUrl": server.url + "/v1", "api": "openai-completions", "apiKey": "none",
            "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
            "models": [{"id": "scripted", "name": "Scripted"}]}}}
        ws.write(".pi/agent/models.json", json.dumps(models, indent=2))
        ws.write(".pi/agent/settings.json", json.dumps({"quietStartup": True}))
        if hooked:
            argv = [str(bin_dir / "cc-hook"), "init", "--agent", "pi"]
            init = run_as_agent(argv + (["--project"] if scope == "project" else []), ws,
                                timeout=120)
            assert init.returncode == 0, init.stdout + init.stderr
        started = time.monotonic()
        done = run_as_agent([str(exe), "-p", "--provider", "scripted", "--model", "scripted",
                             "--no-session", "Work through the task."], ws, env=ENV,
                            timeout=240)
        elapsed = time.monotonic() - started
        results = server.tool_results()
        gaps = [after - before for before, after in zip(server.call_times, server.next_times)]
        requests = server.chat_requests()
    assert len(results) == len(scenarios), (done.returncode, done.stdout[-1000:],
                                            done.stderr[-2000:])
    return {"ws": ws, "initial": initial, "done": done, "results": results, "gaps": gaps,
            "elapsed": elapsed, "requests": requests}


@pytest.fixture(scope="module")
def runs():
    done = {hooked: session(hooked) for hooked in (False, True)}
    yield done
    for run in done.values():
        shutil.rmtree(run["ws"].root, ignore_errors=True)


def table(run):
    return {name: outcome(text) for (name, *_), text in zip(SCENARIOS, run["results"])}


def test_outcomes_match_the_table_with_and_without_the_hook(runs):
    without, with_hook = table(runs[False]), table(runs[True])
    assert without == {name: raw for name, _, raw, _ in SCENARIOS}
    assert with_hook == {name: hooked for name, _, _, hooked in SCENARIOS}
    assert outcomes_match(without, with_hook, ADDED_DENIES) == []


def test_no_denied_command_runs(runs):
    hooked = runs[True]["ws"]
    assert not (hooked.home / SENTINEL).exists()
    assert hooked.remote_head() == runs[True]["initial"]
    log = subprocess.run(["git", "-C", str(hooked.project), "log", "--format=%s"],
                         capture_output=True, text=True).stdout
    assert "denied-push" not in log and "hidden-push" not in log
    # without the hook pi runs them: the table's "ran" is a fact
    raw = runs[False]["ws"]
    assert (raw.home / SENTINEL).exists() and raw.remote_head() != runs[False]["initial"]
    refused = dict(zip([s[0] for s in SCENARIOS], runs[True]["results"]))
    assert refused["gate-denied push"].startswith("contextcrawler: deny rule git push:*")


def test_the_model_receives_compacted_output(runs):
    assert_compacted(runs[False]["results"], runs[True]["results"])


def test_a_failure_keeps_its_exit_code(runs):
    for run in runs.values():
        assert run["results"][1].endswith("\n\nCommand exited with code 1")


def test_what_no_filter_takes_is_unchanged(runs):
    raw, hooked = runs[False]["results"], runs[True]["results"]
    for index in (5, 6):  # `echo done`, and the bypass: pi's own text, byte for byte
        assert hooked[index] == raw[index]
    assert "(use \"git" in hooked[6]


def test_the_awareness_note_reaches_the_model(runs):
    def system(run):
        first = run["requests"][0]["messages"][0]
        return json.dumps(first.get("content"))

    assert "CTXCRL_DISABLED=1" in system(runs[True])
    assert "CTXCRL_DISABLED=1" not in system(runs[False])


def test_a_project_install_filters_too():
    run = session(True, "project", SCENARIOS[:1])
    try:
        assert (run["ws"].project / ".pi" / "extensions" / "ctxcrl.ts").exists()
        assert not (run["ws"].home / ".pi" / "agent" / "extensions").exists()
        status = run["results"][0]
        assert "M calc.py" in status and "(use \"git" not in status
    finally:
        shutil.rmtree(run["ws"].root, ignore_errors=True)
