"""The real Codex CLI (codex-cli 0.171.0) **interactive**: its TUI in tmux, where the client asks
about a command and the user approves it (or not), without and with contextcrawler's hook.

`codex exec` refuses every command a `prompt` rule names (approval policy never); the TUI a
user has asks instead: "Would you like to run the following command? … $ <command> … 1. Yes,
proceed (y) / 2. No, and tell Codex what to do differently (esc)". This session starts
`codex "<prompt>"` in a trusted project (default approval policy, workspace-write sandbox)
with user rules that make `git log`, the failing pytest, `npm install`, `cargo test` (where the
agent user can run cargo) and `git push` prompt;
the dialogs are answered by keystroke: `y` for each, Escape (decline) for the push, last.

Measured without the hook, and the same with it:
- the same dialogs, in the same order, naming the same (original) command: the hook gives no
  answer before execution to a command a rule makes prompt;
- `git status` (no rule) runs unasked;
- the declined push never runs (the remote does not move).
With the hook, every approved command reaches the model compacted after it ran (PostToolUse
`{"decision": "block", "reason": …}`: the reason is what the model receives), Codex's header
`Process exited with code N` kept; `git status` is rewritten before it runs. (The TUI's own
header also has `Chunk ID` and `Wall time` lines; the hook's answer keeps the exit code line
and the output.) The TUI starts an app-server daemon from a copy of itself under
`~/.codex/packages/`, which outlives the terminal: the session stops it (harness.stop_strays).
"""
from __future__ import annotations

import os
import shutil
import tempfile
import time
from pathlib import Path

import pytest

import harness
from codex_client import codex_env, config_toml, install_hook, make_workspace
from projects import BUILD_FACTS, CARGO_TEST, NPM_INSTALL, add_build_projects
from server import ResponsesServer

DIALOG = "Would you like to run the following command?"
PUSH = "git push origin HEAD:main"


def _rules(python: str) -> str:
    rust = harness.rust_bin()
    return "".join(f'prefix_rule(pattern={pattern}, decision="prompt")\n' for pattern in (
        '["git", "log"]', f'["{python}", "-m", "pytest"]', '["npm", "install"]',
        *([f'["{rust}/cargo", "test"]'] if rust else []), '["git", "push"]'))


def rows(python: str) -> list:
    """(command, asks, the user's answer, what the model must still see, exit code). Codex's
    login shell resets PATH: the venv's python and cargo are named by their paths."""
    pytest_cmd = f"{python} -m pytest -q -p no:cacheprovider test_calc.py"
    rust = harness.rust_bin()
    cargo = [(f"{rust}/{CARGO_TEST}", True, "y", *BUILD_FACTS[CARGO_TEST])] if rust else []
    return [
        ("git status", False, None, ("draft_0.txt",), 0),
        ("git log", True, "y", ("note 11: keep a record", "note 0: keep a record"), 0),
        (pytest_cmd, True, "y", ("test_add", "1 failed"), 1),
        # in the TUI (a terminal) npm prints no script output, only its error block
        (NPM_INSTALL, True, "y", ("npm error code 1", "node build.js"),
         BUILD_FACTS[NPM_INSTALL][1]),
        *cargo,
        (PUSH, True, "no", (), None),   # declined: the turn ends here
    ]


def _dialog_command(screen: str) -> str:
    """The `$ <command>` line of the approval dialog on the screen."""
    lines = screen.splitlines()
    start = max(i for i, line in enumerate(lines) if DIALOG in line)
    for line in lines[start:]:
        if line.strip().startswith("$ "):
            return line.strip()[2:].strip()
    return ""


def session(codex, root: Path, python: str, hooked: bool, timeout: float = 300) -> dict:
    table = rows(python)
    setup = {"user_rules": _rules(python), "trusted": True}
    ws = make_workspace(root, setup)
    add_build_projects(ws)
    initial = ws.remote_head()
    with ResponsesServer([c for c, *_ in table], lifetime=timeout + 30) as server:
        ws.write(".codex/config.toml", "check_for_update_on_startup = false\n"
                 + config_toml(server.url, ws, setup))
        if hooked:
            install_hook(ws)
        env = ws.env(codex_env(ws))
        if harness.rust_bin():  # cargo finds rustc by PATH, which the login shell resets
            env["RUSTC"] = str(harness.rust_bin() / "rustc")
        env["TERM"] = "xterm-256color"
        env.pop("NO_COLOR", None)
        tmux = harness.Tmux(ws, f"ctxcrl-codex-{os.getpid()}-{int(hooked)}", 160, 45)
        tmux.start([codex, "run the scripted commands"], env)
        answers = [answer for _c, asks, answer, *_ in table if asks]
        expected_outputs = sum(1 for _c, _a, answer, *_ in table if answer != "no")
        prompts: list = []
        end = time.monotonic() + timeout
        try:
            while time.monotonic() < end:
                screen = tmux.screen()
                if DIALOG in screen and len(prompts) < len(answers):
                    time.sleep(0.5)  # the dialog takes keys a moment after it is drawn
                    prompts.append(_dialog_command(tmux.screen()))
                    answer = answers[len(prompts) - 1]
                    tmux.keys("Escape" if answer == "no" else answer)
                    harness.wait_for(lambda: DIALOG not in tmux.screen(), timeout=15, step=0.3)
                    if answer == "no":
                        time.sleep(3)  # whatever the client does next, it has done it
                        break
                    continue
                if len(server.outputs()) >= expected_outputs and len(prompts) == len(answers):
                    break
                time.sleep(0.4)
            last_screen = tmux.screen()
        finally:
            tmux.stop()
    return {"ws": ws, "initial": initial, "prompts": prompts, "outputs": server.outputs(),
            "screen": last_screen, "table": table}


@pytest.fixture(scope="module")
def sessions():
    codex = harness.install_client("codex")
    venv = harness.product_venv()
    python = str(venv / "python")
    import postexec

    postexec.product_with_pytest()
    root = Path(tempfile.mkdtemp(prefix="ctxcrl-codex-tui-"))
    os.chmod(root, 0o755)
    done = {hooked: session(codex, root / ("hooked" if hooked else "plain"), python, hooked)
            for hooked in (False, True)}
    yield done
    shutil.rmtree(root, ignore_errors=True)


def test_the_same_prompts_with_and_without_the_hook(sessions):
    plain, hooked = sessions[False], sessions[True]
    asked = [command for command, asks, *_ in plain["table"] if asks]
    assert plain["prompts"] == asked, plain["screen"][-2500:]
    assert hooked["prompts"] == plain["prompts"], hooked["screen"][-2500:]


def test_every_approved_command_ran_and_the_declined_push_did_not(sessions):
    for hooked, run in sessions.items():
        ran = [c for c, _asks, answer, *_ in run["table"] if answer != "no"]
        assert len(run["outputs"]) == len(ran), (hooked, run["outputs"], run["screen"][-2000:])
        assert run["ws"].remote_head() == run["initial"], hooked


def test_nothing_the_client_started_outlives_the_session(sessions):
    """The TUI's app-server daemon (a copy under HOME) is stopped with the session."""
    for run in sessions.values():
        assert harness.stop_strays(run["ws"]) == []


def test_after_approval_the_model_receives_compacted_output(sessions):
    plain, hooked = sessions[False], sessions[True]
    problems = []
    for (command, asks, answer, facts, code), raw, got in zip(
            plain["table"], plain["outputs"], hooked["outputs"]):
        header = f"Process exited with code {code}\n"
        for label, text in (("without", raw), ("with", got)):
            missing = [fact for fact in facts if fact not in text]
            if missing or header not in text.split("Output:", 1)[0]:
                problems.append(f"{command!r} {label} the hook: no {header!r} or missing "
                                f"{missing}: {text[:300]!r}")
        if len(got) >= len(raw):
            problems.append(f"{command!r}: not compacted ({len(got)} chars with the hook, "
                            f"{len(raw)} without): {got[:300]!r}")
        print(f"codex tui {command}: {'asked, approved' if asks else 'unasked'}: "
              f"{len(raw)} -> {len(got)} chars")
    assert not problems, "\n".join(problems)
