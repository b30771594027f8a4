"""Synthetic hook events, shaped like the ones each agent sends (from the agents' hook
documentation), and `cc-hook test`: run one through the installed hook exactly as the agent
would (its registered command, via `sh -c`, in the project directory, event on stdin).
"""
import json
import os
import subprocess
import time

from cc_track import home

from . import hook_script
from .agents import HOOK_AGENTS
from .install import Reporter, project_root
from .manifest import Manifest


def event_for(agent: str, command: str, cwd: str, shape: str | None = None) -> dict:
    """The event `agent` sends before running `command` in `cwd`. shape="camel": Copilot CLI."""
    if agent == "claude":
        return {"session_id": "ctxcrl-test", "transcript_path": "", "cwd": cwd,
                "permission_mode": "default", "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command, "description": "cc-hook test"}}
    if agent == "codex":  # as codex-cli 0.171 `codex exec` sends it (tests/agents/codex/)
        return {"session_id": "ctxcrl-test", "turn_id": "ctxcrl-test", "transcript_path": None,
                "cwd": cwd, "hook_event_name": "PreToolUse", "model": "gpt-5-codex",
                "permission_mode": "bypassPermissions", "tool_name": "Bash",
                "tool_use_id": "call_ctxcrl_test", "tool_input": {"command": command}}
    if agent == "cursor":
        return {"conversation_id": "ctxcrl-test", "generation_id": "ctxcrl-test",
                "hook_event_name": "preToolUse", "workspace_roots": [cwd],
                "tool_name": "Shell", "tool_input": {"command": command, "cwd": cwd}}
    if agent == "copilot" and shape == "camel":
        return {"timestamp": int(time.time() * 1000), "cwd": cwd, "toolName": "bash",
                "toolArgs": json.dumps({"command": command, "description": "cc-hook test"})}
    if agent == "copilot":
        return {"timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
                "cwd": cwd, "session_id": "ctxcrl-test", "hook_event_name": "PreToolUse",
                "tool_name": "run_in_terminal",
                "tool_input": {"command": command, "explanation": "cc-hook test",
                               "isBackground": False},
                "tool_use_id": "ctxcrl-test"}
    if agent == "gemini":
        return {"session_id": "ctxcrl-test", "transcript_path": "", "cwd": cwd,
                "hook_event_name": "BeforeTool", "timestamp": time.strftime(
                    "%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
                "tool_name": "run_shell_command",
                "tool_input": {"command": command, "description": "cc-hook test"}}
    raise KeyError(agent)


class HookRun:
    __slots__ = ("command", "answer", "stderr", "exit_code", "elapsed_ms")

    def __init__(self, command, answer, stderr, exit_code, elapsed_ms):
        self.command = command
        self.answer = answer
        self.stderr = stderr
        self.exit_code = exit_code
        self.elapsed_ms = elapsed_ms


def run_hook(hook_command: str, event: dict | str | bytes, cwd: str,
             env: dict | None = None) -> HookRun:
    """Run a registered hook command like the agents do: `sh -c`, event on stdin."""
    body = event if isinstance(event, (str, bytes)) else json.dumps(event)
    if isinstance(body, str):
        body = body.encode("utf-8")
    start = time.perf_counter()
    done = subprocess.run(["/bin/sh", "-c", hook_command], input=body, capture_output=True,
                          cwd=cwd, env=env, timeout=30)
    elapsed = (time.perf_counter() - start) * 1000
    return HookRun(hook_command, done.stdout.decode("utf-8", "replace"),
                   done.stderr.decode("utf-8", "replace"), done.returncode, elapsed)


def installed_command(agent: str, cwd: str) -> tuple[str, str] | None:
    """(registered command, where) of the install the agent would use in `cwd`: the project's
    if there is one, else the global one."""
    manifest = Manifest.load()
    root = project_root(cwd)
    installs = [i for i in manifest.installs if i.get("agent") == agent]
    chosen = next((i for i in installs if i.get("scope") == "project" and i.get("root") == root),
                  None) or next((i for i in installs if i.get("scope") == "global"), None)
    if chosen is None:
        return None
    script = manifest.script_of(agent)
    where = chosen.get("scope") if chosen.get("scope") == "global" else \
        f"project {home.short_path(root)}"
    return hook_script.hook_command(script), where


def test(agent: str, command: str, cwd: str | None = None,
         report: Reporter | None = None) -> int:
    report = report or Reporter()
    cwd = os.path.abspath(cwd or os.getcwd())
    if agent not in HOOK_AGENTS:
        report.warn(f"cc-hook test: {agent!r} has no hook to test (one of: "
                    f"{', '.join(HOOK_AGENTS)})")
        return 2
    found = installed_command(agent, cwd)
    if found is None:
        report.warn(f"cc-hook test: no {agent} hook installed (run: cc-hook init --agent {agent})")
        return 1
    hook_command, where = found
    event = event_for(agent, command, cwd)
    run = run_hook(hook_command, event, cwd)
    report.say(f"hook:    {hook_command}  ({where})")
    report.say(f"event:   {json.dumps(event)}")
    if run.answer.strip() and run.answer.strip() != "{}":
        report.say(f"answer:  {run.answer.strip()}")
    else:
        shown = run.answer.strip() or "(none)"
        report.say(f"answer:  {shown} — the agent runs the command unchanged, with its own "
                   "permission prompt")
    for line in run.stderr.splitlines():
        report.say(f"stderr:  {line}")
    report.say(f"exit:    {run.exit_code}  ({run.elapsed_ms:.0f} ms)")
    return 0 if run.exit_code == 0 else 1
