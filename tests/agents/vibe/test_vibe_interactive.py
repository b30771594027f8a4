"""Mistral Vibe 3.0.2 **interactive** (its TUI in tmux, default agent `accept-edits`, Vibe's
default rules), against the scripted model: a command outside its allowlist shows Vibe's
own permission dialog ("Permission for the file_system.bash tool (python3 *)" … "1. Allow
once" … "4. Deny"), with and without the hook. The same dialogs come up for the same
commands; the approved failing pytest reaches the model compacted with the hook (`post_tool`
fires for an approved command too); the refused `rm` runs in neither session.

Driven through harness.Tmux (needs `tmux`; without it the test skips with the reason).
"""
import json
import shutil
import time

import pytest
from harness import Tmux, Workspace, agent_user, client_env, install_client, run_as_agent
from openai_chat import OpenAIChatServer
from postexec import fresh_root, prepare_project, product_with_pytest
from test_vibe import config_toml

DIALOG = "Permission for the file_system.bash tool"
# (command, the dialog's answer: "once" = Enter on "1. Allow once", "no" = Escape, None: no
# dialog expected — `git status` is on Vibe's default allowlist)
STEPS = [
    ("python3 -m pytest -q test_calc.py", "once"),
    ("git status", None),
    ("rm -f README.md", "no"),
]


def session(hooked: bool) -> dict:
    exe = install_client("vibe")
    bin_dir = product_with_pytest()
    ws = Workspace(fresh_root("vibe-tui-hook" if hooked else "vibe-tui-raw"), agent_user())
    prepare_project(ws)
    with OpenAIChatServer([c for c, _ in STEPS], lifetime=300,
                          tool_args={"description": None}) as server:
        ws.write(".vibe/config.toml", config_toml(server.url).split("[tools.bash]")[0])
        if hooked:
            init = run_as_agent([str(bin_dir / "cc-hook"), "init", "--agent", "vibe"], ws,
                                timeout=120)
            assert init.returncode == 0, init.stdout + init.stderr
        environment = ws.env({"TERM": "xterm-256color", **client_env("vibe")})
        environment.pop("NO_COLOR", None)
        term = Tmux(ws, "vibe", width=160, height=45)
        term.start([exe], environment)
        try:
            dialogs = _drive(term, server)
        finally:
            screen = term.screen()
            term.stop()
        results = server.tool_results()
    return {"ws": ws, "dialogs": dialogs, "results": results, "screen": screen}


def _drive(term: Tmux, server, timeout: float = 150) -> list:
    end = time.monotonic() + timeout
    while time.monotonic() < end and "Type /help" not in term.screen():
        time.sleep(0.3)
    time.sleep(2.0)  # the input box takes keys a moment after it is drawn
    term.keys("-l", "run the scripted commands")
    time.sleep(0.5)
    term.keys("Enter")
    retry = time.monotonic() + 8
    while time.monotonic() < retry and not server.chat_requests():
        time.sleep(0.3)
    if not server.chat_requests():
        term.keys("Enter")
    dialogs = []
    answered = set()  # the steps whose dialog was answered: a dialog belongs to the step the
    # model is waiting on (as many tool results as steps before it)
    while time.monotonic() < end:
        text = term.screen()
        step = len(server.tool_results())
        if step >= len(STEPS):
            break
        if DIALOG in text and step not in answered and STEPS[step][1]:
            lines = text.splitlines()
            at = next(i for i, line in enumerate(lines) if DIALOG in line)
            dialogs.append(lines[at + 1].strip(" │"))
            answered.add(step)
            time.sleep(1.0)  # the dialog takes keys a moment after it is drawn
            term.keys("Escape" if STEPS[step][1] == "no" else "Enter")
            continue
        time.sleep(0.3)
    return dialogs


@pytest.fixture(scope="module")
def runs():
    done = {hooked: session(hooked) for hooked in (False, True)}
    yield done
    for run in done.values():
        shutil.rmtree(run["ws"].root, ignore_errors=True)


def test_the_same_dialogs_with_and_without_the_hook(runs):
    asked = [command for command, answer in STEPS if answer]
    for hooked in (False, True):
        assert runs[hooked]["dialogs"] == asked, runs[hooked]["screen"]


def test_the_refused_command_ran_in_neither_session(runs):
    for hooked in (False, True):
        assert (runs[hooked]["ws"].project / "README.md").exists()
        assert len(runs[hooked]["results"]) == len(STEPS), runs[hooked]["screen"]


def test_the_approved_failing_pytest_reaches_the_model_compacted(runs):
    raw, hooked = runs[False]["results"][0], runs[True]["results"][0]
    assert raw.startswith('{"command":') and '"stdout":' in raw
    assert hooked.startswith('{"command":') and '"output":' in hooked
    for text in (raw, hooked):
        assert "test_calc.py" in text and "1 failed" in text and '"returncode":1' in text
    assert len(hooked) < len(raw)
    assert json.loads(hooked)["returncode"] == 1
