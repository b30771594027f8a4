"""Cline CLI 3.0.65 (npm `cline`), the real client, offline against a scripted model (an
`openai-compatible` provider in its providers.json, a dummy key, no login): the same scenarios
with and without contextcrawler's plugin, on the shared post-execution driver (postexec).

Cline filters after execution (ARCHITECTURE §5 rule 1, §8): the plugin's `beforeTool` never
changes the command and may only add a deny, and its `afterTool` replaces each command's
result with the compacted text, Cline's exit-code line kept. Cline has no command rules: by
default it runs every call unasked; `toolAutoApprove: false` in its global settings asks about
every call (a headless run refuses it), and plan mode (`--plan`) refuses what could change a
file. So there are two tables: act mode (the default) with a contextcrawler `[gate]` deny on
`git push` (only the hook refuses it: Cline itself has nothing to say), and plan mode with
approval off (Cline's own refusal, Cline's own ask). `CLINE_SESSION_BACKEND_MODE=local` keeps
Cline from leaving its hub daemon running after the test; one more session runs in Cline's
default backend, the hub (on a free port), and stops the hub it started by the PID its
discovery record gives.
"""
import json
import os
import shutil
import signal
import socket
import time

from harness import PROMPT, RAN, REFUSED
from postexec import (FIRST_ROWS, BuildRows, HeadlessClient, PostExecTable, assert_compacted,
                      session)
from projects import BIG_PYTEST

GATE = '[gate]\ndeny = ["git push:*"]\n'
#: Cline gives up a plugin that takes 4 s to load (and runs the session without it): on a
#: loaded test machine it may, so the table waits longer (the measure is the client's behaviour)
ENV = {"CLINE_SESSION_BACKEND_MODE": "local", "CLINE_NO_AUTO_UPDATE": "1",
       "CLINE_PLUGIN_IMPORT_TIMEOUT_MS": "30000"}
PROMPT_TEXT = "Work through the task."  # one word would read as an unknown subcommand


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
    if "file modifications are blocked in plan mode" in text or \
            text.startswith('{"error":"contextcrawler: '):
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


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_hub(ws) -> None:
    """Stop the hub daemon this workspace's Cline started (its discovery record names it)."""
    record = ws.home / ".cline" / "data" / "locks" / "hub" / "production.json"
    try:
        pid = json.loads(record.read_text())["pid"]
        with open(f"/proc/{pid}/cmdline", "rb") as f:
            argv = f.read().split(b"\0")
    except (OSError, ValueError, KeyError, TypeError):
        return
    if b"--cline-hub-daemon" not in argv or str(ws.project).encode() not in argv:
        return
    os.kill(pid, signal.SIGTERM)
    for _ in range(100):  # it shuts down in a few seconds; else it is killed
        try:
            with open(f"/proc/{pid}/stat") as f:
                if f.read().split(") ")[-1].startswith("Z"):
                    return
        except OSError:
            return
        time.sleep(0.1)
    os.kill(pid, signal.SIGKILL)


def cline_client(plan: bool = False, env: dict = ENV, seen: list | None = None) -> HeadlessClient:
    """Cline headless (`cline --json`), act mode or plan mode with approval off; `seen` gets
    each workspace it is set up in."""
    def configure(ws, server):
        if seen is not None:
            seen.append(ws)
        ws.write(".config/ctxcrl/config.toml", GATE)
        ws.write(".cline/data/settings/providers.json", providers(server.url))
        if plan:
            ws.write(".cline/data/settings/global-settings.json",
                     json.dumps({"toolAutoApprove": False}))

    return HeadlessClient("cline", argv=lambda server: ["--json", *(["--plan"] * plan),
                                                        PROMPT_TEXT],
                          outcome=outcome, env=lambda server: dict(env), configure=configure,
                          timeout=300)


class TestClineAct(BuildRows, PostExecTable):
    CLIENT = cline_client()
    # (name, command, outcome without the hook, outcome with it)
    SCENARIOS = [
        *FIRST_ROWS,
        # Cline runs every command unasked; contextcrawler's own [gate] deny refuses the push
        ("gate-denied push",
         "git commit --allow-empty -qm gate-push && git push -q origin HEAD:main", RAN, REFUSED),
        ("absolute-path push",
         "git commit --allow-empty -qm abs-push && /usr/bin/git push -q origin HEAD:main",
         RAN, REFUSED),
    ]
    ADDED_DENIES = {"gate-denied push", "absolute-path push"}
    # Cline 3.0.65 stops a command after 30 s ("Command timed out after 30000ms"; its
    # bashTimeoutMs, no setting here): the 12,000-test run takes about that on a loaded machine
    BUILD_LEFT_OUT = (BIG_PYTEST,)

    def exit_code_shown(self, text: str, code: int) -> bool:
        return f"[Command exited with code {code}]" in result_text(text)

    def test_the_command_is_never_changed(self, runs):
        for text, (_, command, *_) in zip(runs[True]["results"][:3], self.SCENARIOS):
            assert [e["query"] for e in json.loads(text)] == [command]
            assert "cc-filter run" not in text

    def test_the_model_receives_compacted_output_with_the_exit_line(self, runs):
        raw = [result_text(t) for t in runs[False]["results"]]
        hooked = [result_text(t) for t in runs[True]["results"]]
        assert_compacted(raw, hooked)
        assert self.exit_code_shown(runs[True]["results"][1], 1)  # the failure stays visible
        entry = json.loads(runs[True]["results"][1])[0]
        assert entry["success"] is False and entry["error"] == "Command exited with code 1"


class TestClinePlan(PostExecTable):
    CLIENT = cline_client(plan=True)
    SCENARIOS = [
        # Cline's plan-mode guard refuses a redirect into a file, with the hook as without
        ("plan-refused write", "echo draft > plan_note.txt", REFUSED, REFUSED),
        # approval off: Cline asks, and a headless run refuses; the guard lets `python3 -c` by
        ("asked write", "python3 -c \"open('asked.txt', 'w').write('x')\"", PROMPT, PROMPT),
    ]

    def test_the_refused_and_asked_commands_did_not_run(self, runs):
        for run in runs.values():
            assert not (run["ws"].project / "plan_note.txt").exists()
            assert not (run["ws"].project / "asked.txt").exists()


def test_the_default_hub_backend_filters_too():
    """Cline's default backend runs the session (and the plugin) in a hub daemon."""
    env = {key: value for key, value in ENV.items() if key != "CLINE_SESSION_BACKEND_MODE"}
    env["CLINE_HUB_PORT"] = str(free_port())
    seen: list = []
    try:
        run = session(cline_client(env=env, seen=seen), True, FIRST_ROWS[:2])
        assert [outcome(text) for text in run["results"]] == [RAN, RAN]
        status, pytest_out = (result_text(t) for t in run["results"])
        assert "M calc.py" in status and "(use \"git" not in status
        assert pytest_out.startswith("[Command exited with code 1]\n")
        assert "test_calc.py::test_add" in pytest_out and "1 failed" in pytest_out
    finally:
        for ws in seen:
            stop_hub(ws)
            shutil.rmtree(ws.root, ignore_errors=True)
