"""Gemini CLI: BeforeTool hook with matcher "run_shell_command" (DESIGN §8).

Event: {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
"tool_input": {"command": …, …}, "cwd": …}. Answer with a rewrite:
{"decision": "allow"|"ask_user",
 "hookSpecificOutput": {"tool_input": {<tool_input>, "command": R}}};
deny → {"decision": "deny", "reason": …}.
"""
from ..record import command_record, decision_of, deny_reason, rewritten_of, updated_input

NAME = "gemini"
CONFIG_DIR = ".gemini"
NO_ANSWER = ""
SHELL_TOOLS = ("run_shell_command",)
EVENT_NAME = "BeforeTool"


def decode(event: dict) -> dict | None:
    if event.get("tool_name") not in SHELL_TOOLS:
        return None
    if event.get("hook_event_name", EVENT_NAME) != EVENT_NAME:
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    return command_record(NAME, event, tool_input)


def encode(record: dict) -> dict | None:
    decision = decision_of(record)
    if decision == "deny":
        return {"decision": "deny", "reason": deny_reason(record)}
    rewritten = rewritten_of(record)
    if rewritten is None:
        return None
    return {"decision": "allow" if decision == "allow" else "ask_user",
            "hookSpecificOutput": {"tool_input": updated_input(record, rewritten)}}


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import JsonRegistration

    base = os.path.join(ctx.user_home if scope == "global" else root, CONFIG_DIR)
    return [
        JsonRegistration.matcher_group(os.path.join(base, "settings.json"), "BeforeTool",
                                       "run_shell_command", ctx.hook_command),
    ]
