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
    if agent == "codex":
        return {"session_id": "ctxcrl-test", "transcript_path": None, "cwd": cwd,
                "hook_event_name": "PreToolUse", "model": "gpt-5-codex",
                "permission_mode": "default", "tool_name": "Bash",
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
         report: Reporter | None = None, run: bool = False) -> int:
    """Send `command` through the installed hook as `agent` would, and say in words what the
    agent then does (from the hook's answer); run: also run what it would run and show the
    output the model gets."""
    from .outcome import NAMES, outcome_of

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
    hook = run_hook(hook_command, event, cwd)
    outcome = outcome_of(agent, hook.answer, command)
    report.say(f"{NAMES.get(agent, agent)} {outcome.words()}")
    report.say("")
    report.say(f"  hook     {home.short_path(hook_command)} ({where}), exit {hook.exit_code}, "
               f"{hook.elapsed_ms:.0f} ms")
    report.say(f"  answer   {hook.answer.strip() or '(none)'}")
    for line in hook.stderr.splitlines():
        report.say(f"  stderr   {line}")
    report.say(f"  event    {json.dumps(event)}")
    if run:
        _run_as_the_agent(outcome, command, cwd, report)
    return 0 if hook.exit_code == 0 else 1


def _run_as_the_agent(outcome, command: str, cwd: str, report: Reporter) -> None:
    """Run what the agent would run, in its shell, and show what the model receives."""
    import shlex
    import shutil

    from .outcome import CLIENT_DECIDES, FILTERED_AFTER, REFUSED

    report.say("")
    if outcome.kind == REFUSED:
        report.say("Not run: the agent refuses it.")
        return
    runs = outcome.runs or command
    heading = "The model receives"
    if outcome.kind == CLIENT_DECIDES:
        heading += " (if the agent runs it: unfiltered)"
    elif outcome.kind == FILTERED_AFTER:
        # Same filter, same rules as the agent's after-execution filter.
        runs = f"{shlex.quote(hook_script.tool_path('cc-filter'))} run -- {command}" \
            if _has_tool("cc-filter") else command
    shell = shutil.which("bash") or "/bin/sh"
    started = time.perf_counter()
    try:
        done = subprocess.run([shell, "-c", runs], cwd=cwd, stdin=subprocess.DEVNULL,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    except subprocess.TimeoutExpired:
        report.say(f"{heading}: nothing yet; the command ran for more than 10 minutes.")
        return
    elapsed = (time.perf_counter() - started) * 1000
    text = done.stdout.decode("utf-8", "replace")
    report.say(f"{heading}, exit {done.returncode}, {elapsed:.0f} ms, "
               f"{len(text)} characters:")
    for line in text.splitlines() or ["(no output)"]:
        report.say(f"  {line}")


def _has_tool(name: str) -> bool:
    try:
        hook_script.tool_path(name)
    except hook_script.ToolNotFound:
        return False
    return True
