"""GitHub Copilot, VS Code and CLI: PreToolUse hooks file (DESIGN §8). Two event shapes:

- VS Code (Claude's shape): {"tool_name": "runTerminalCommand"|"run_in_terminal"|"Bash"|"bash",
  "tool_input": {"command": …, …}, "cwd": …} → answered in Claude's shape.
- Copilot CLI (camelCase): {"toolName": "bash", "toolArgs": "<JSON string>", "cwd": …} →
  {"permissionDecision": "allow" (gate allow only), "permissionDecisionReason": …,
  "modifiedArgs": {<all toolArgs fields>, "command": R}}; deny → {"permissionDecision": "deny",
  "permissionDecisionReason": …}.
"""
from cc_peel.record import loads

from ..record import command_record, decision_of, deny_reason, event_meta, rewritten_of
from .claude import decode_claude_shape, encode_claude_shape, rewrite_fields

NAME = "copilot"
CONFIG_DIR = ".copilot"
NO_ANSWER = ""
SHELL_TOOLS = ("runTerminalCommand", "run_in_terminal", "Bash", "bash")
CLI_SHELL_TOOLS = ("bash",)
CAMEL = "camel"


def decode(event: dict) -> dict | None:
    if "toolName" not in event:
        return decode_claude_shape(NAME, event, SHELL_TOOLS)
    if event.get("toolName") not in CLI_SHELL_TOOLS:
        return None
    args = event.get("toolArgs")
    if isinstance(args, str):
        try:
            args = loads(args)
        except ValueError:
            return None
    if not isinstance(args, dict):
        return None
    return command_record(NAME, event, args, shape=CAMEL)


def encode(record: dict) -> dict | None:
    if event_meta(record).get("shape") != CAMEL:
        return encode_claude_shape(record)
    if decision_of(record) == "deny":
        return {"permissionDecision": "deny", "permissionDecisionReason": deny_reason(record)}
    rewritten = rewritten_of(record)
    if rewritten is None:
        return None
    return rewrite_fields(record, rewritten, "modifiedArgs")


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import JsonRegistration

    if scope == "global":
        path = os.path.join(ctx.user_home, ".copilot", "hooks", "ctxcrl.json")
    else:
        path = os.path.join(root, ".github", "hooks", "ctxcrl.json")
    return [
        JsonRegistration(path, ("hooks", "PreToolUse"),
                         {"type": "command", "command": ctx.hook_command, "timeout": 5},
                         nested=False, description="hooks.PreToolUse", seed={"version": 1}),
    ]
