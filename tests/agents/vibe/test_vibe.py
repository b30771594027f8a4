"""Mistral Vibe 3.0.2 (`mistral-vibe`, PyPI), the real client, offline (`vibe -p` against a
scripted OpenAI-compatible model: a `[[providers]]` entry with `api_base` on 127.0.0.1 and no
API key, no login): the same scenarios with and without contextcrawler's hook.

Vibe filters after execution (ARCHITECTURE §5 rule 1, §8): its `post_tool` hook fires for every
command that ran, failures included, and its answer `{"decision": "deny", "reason": T}` makes T
what the model receives. So the command is never changed, the `pre_tool` hook may only add a
deny, and the model receives the compacted output. Rules are Vibe's own `[tools.bash]`
allowlist and denylist in ~/.vibe/config.toml; headless, in its default agent
(`accept-edits`), a command outside the allowlist is refused for want of approval ("Tool
execution denied by approval callback": the prompt outcome).
"""
import shutil
import subprocess
import time

import pytest
from harness import PROMPT, RAN, REFUSED, Workspace, agent_user, client_env, install_client, \
    run_as_agent
from openai_chat import OpenAIChatServer
from postexec import assert_compacted, fresh_root, outcomes_match, prepare_project, \
    product_with_pytest

BASH_RULES = '''[tools.bash]
allowlist = ["git", "python3 -m pytest", "ls"]
denylist = ["git push"]
'''

# (name, command, outcome without the hook, outcome with it)
SCENARIOS = [
    ("status", "git status", RAN, RAN),
    ("failing pytest", "python3 -m pytest -q test_calc.py", RAN, RAN),
    ("log", "git log", RAN, RAN),
    ("denied push", "git commit --allow-empty -qm denied-push && git push -q origin HEAD:main",
     REFUSED, REFUSED),
    # Vibe's denylist is a prefix of each simple command as written: `git -C . push` is not
    # `git push …`, and the allowlist's `git` lets it run. The hook's hardening refuses it
    # (ARCHITECTURE §5 rule 4).
    ("git -C push", "git commit --allow-empty -qm c-push && git -C . push -q origin HEAD:main",
     RAN, REFUSED),
    ("asked rm", "rm -f README.md", PROMPT, PROMPT),
]
ADDED_DENIES = {"git -C push"}


def config_toml(url: str) -> str:
    return f'''active_model = "scripted"
enable_telemetry = false
enable_update_checks = false

[[providers]]
name = "scripted"
api_base = "{url}/v1"
api_key_env_var = ""
backend = "generic"

[[models]]
name = "scripted"
provider = "scripted"
alias = "scripted"

{BASH_RULES}'''


def outcome(text: str) -> str:
    if "denied by approval callback" in text:
        return PROMPT
    if "matches denylist pattern" in text or "contextcrawler:" in text:
        return REFUSED
    return RAN if text.startswith('{"command":') else f"unknown: {text[:200]}"


def session(hooked: bool) -> dict:
    exe = install_client("vibe")
    bin_dir = product_with_pytest()
    ws = Workspace(fresh_root("vibe-hook" if hooked else "vibe-raw"), agent_user())
    prepare_project(ws)
    initial = ws.remote_head()
    commands = [command for _, command, *_ in SCENARIOS]
    with OpenAIChatServer(commands, lifetime=400, tool_args={"description": None}) as server:
        ws.write(".vibe/config.toml", config_toml(server.url))
        if hooked:
            init = run_as_agent([str(bin_dir / "cc-hook"), "init", "--agent", "vibe"], ws,
                                timeout=120)
            assert init.returncode == 0, init.stdout + init.stderr
        started = time.monotonic()
        done = run_as_agent([str(exe), "-p", "Work through the task."], ws,
                            env=client_env("vibe"), timeout=360)
        elapsed = time.monotonic() - started
        results = server.tool_results()
        first = server.chat_requests()[0]["messages"] if server.chat_requests() else []
        system = "".join(str(m.get("content")) for m in first if m.get("role") == "system")
        gaps = [after - call for call, after in zip(server.call_times, server.next_times)]
    return {"ws": ws, "initial": initial, "done": done, "results": results,
            "elapsed": elapsed, "gaps": gaps, "system": system}


@pytest.fixture(scope="module")
def runs():
    done = {hooked: session(hooked) for hooked in (False, True)}
    yield done
    for run in done.values():
        shutil.rmtree(run["ws"].root, ignore_errors=True)


def table(run: dict) -> dict:
    results = run["results"]
    assert len(results) == len(SCENARIOS), (
        f"{len(results)} tool results for {len(SCENARIOS)} scenarios; stderr: "
        f"{run['done'].stderr[-2000:]}")
    return {name: outcome(text) for (name, *_), text in zip(SCENARIOS, results)}


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
    assert "denied-push" not in log  # Vibe's own deny held
    assert "c-push" in log           # what only the hook's hardening refuses


def test_the_asked_command_did_not_run(runs):
    for hooked in (False, True):
        assert (runs[hooked]["ws"].project / "README.md").exists()


def test_the_hook_deny_reaches_the_model_with_its_rule(runs):
    text = runs[True]["results"][4]
    assert "contextcrawler: deny rule git push" in text


def test_the_exit_code_stays_visible(runs):
    failing = runs[True]["results"][1]
    assert '"returncode":1' in failing


def test_the_model_receives_compacted_output(runs):
    assert_compacted(runs[False]["results"], runs[True]["results"])


def test_vibe_reads_the_awareness_note_from_its_agents_md(runs):
    # init wrote ~/.vibe/AGENTS.md; Vibe puts it into the model's system prompt
    assert "[full output:" in runs[True]["system"]
    assert "[full output:" not in runs[False]["system"]
