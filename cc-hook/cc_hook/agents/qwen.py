"""Qwen Code: PreToolUse hook with matcher "run_shell_command" (ARCHITECTURE §8; measured on
0.24.4).

Event: {"hook_event_name": "PreToolUse", "tool_name": "run_shell_command", "tool_input":
{"command": …, "description": …}, "cwd": …, "permission_mode": "default" | "plan" |
"auto-edit" | "yolo", "tool_use_id": …, "session_id": …, "transcript_path": …}.

The client fires PreToolUse only for a call its own rules already let run (after approval),
and of the answer it honours a deny (`hookSpecificOutput.permissionDecision` "deny", or
`decision` "deny" / "block"; the reason reaches the model), an "ask" and `continue: false`.
It ignores `updatedInput` (and any other changed tool input), and its PostToolUse hook can only
append `additionalContext` to the output, never replace it. So this hook only ever denies (the
gate's deny: Qwen's own rules on every peeled spelling, and `[gate]`); every other call gets
`{}` and runs as it would without contextcrawler, its output unfiltered.
"""
from ..record import decision_of, tool_event_record
from .claude import encode_claude_shape

TITLE = "Qwen Code"
NAME = "qwen"
CONFIG_DIR = ".qwen"
NO_ANSWER = "{}"
SHELL_TOOLS = ("run_shell_command",)
EVENT_NAME = "PreToolUse"


def decode(event: dict) -> dict | None:
    return tool_event_record(NAME, event, SHELL_TOOLS, EVENT_NAME)


def encode(record: dict) -> dict | None:
    if decision_of(record) != "deny":
        return None
    return encode_claude_shape(record)


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import JsonRegistration

    base = os.path.join(ctx.user_home if scope == "global" else root, CONFIG_DIR)
    return [JsonRegistration.matcher_group(os.path.join(base, "settings.json"), EVENT_NAME,
                                           "run_shell_command", ctx.hook_command)]


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event Qwen Code sends before running `command` in `cwd` (`cc-hook test`),
    as Qwen Code 0.24.4 `qwen -p` sends it (tests/agents/qwen/)."""
    import time

    return {"session_id": "ctxcrl-test", "transcript_path": "", "cwd": cwd,
            "hook_event_name": "PreToolUse", "timestamp": time.strftime(
                "%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()), "permission_mode": "default",
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "cc-hook test"},
            "tool_use_id": "ctxcrl-test", "tool_call_id": "call_ctxcrl_test"}
