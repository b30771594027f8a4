"""Claude Code: PreToolUse hook on the Bash tool (ARCHITECTURE §8).

Event: {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": …, …},
"cwd": …, "session_id": …, "permission_mode": …}. Answer with a rewrite:
{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow" (only on a
gate allow), "permissionDecisionReason": …,
"updatedInput": {<all tool_input fields>, "command": R}}};
deny → permissionDecision "deny" with the gate's rule as the reason. Codex and Copilot reuse
this shape.
"""
from ..record import command_record, decision_of, deny_reason, event_meta, rewrite_reason, \
    rewritten_of, updated_input

NAME = "claude"
CONFIG_DIR = ".claude"
NO_ANSWER = ""
SHELL_TOOLS = ("Bash",)
EVENT_NAME = "PreToolUse"


def decode_claude_shape(agent: str, event: dict, shell_tools) -> dict | None:
    """Claude-shaped events (Claude Code, Codex, Copilot in VS Code)."""
    if event.get("tool_name") not in shell_tools:
        return None
    event_name = event.get("hook_event_name", event.get("hookEventName", EVENT_NAME))
    if event_name != EVENT_NAME:
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    mode = event.get("permission_mode")
    return command_record(agent, event, tool_input, hook_event_name=event_name,
                          permission_mode=mode if isinstance(mode, str) else None)


def encode_claude_shape(record: dict, allow_rewrite_without_allow: bool = True) -> dict | None:
    event_name = event_meta(record).get("hook_event_name") or EVENT_NAME
    decision = decision_of(record)
    if decision == "deny":
        return {"hookSpecificOutput": {"hookEventName": event_name, "permissionDecision": "deny",
                                       "permissionDecisionReason": deny_reason(record)}}
    rewritten = rewritten_of(record)
    if rewritten is None:
        return None
    if decision != "allow" and not allow_rewrite_without_allow:
        return None
    output = {"hookEventName": event_name}
    output.update(rewrite_fields(record, rewritten, "updatedInput"))
    return {"hookSpecificOutput": output}


def rewrite_fields(record: dict, rewritten: str, input_key: str) -> dict:
    """permissionDecision "allow" (gate allow only), the reason, and the tool input with the
    rewritten command under `input_key` (Copilot CLI: "modifiedArgs")."""
    fields = {"permissionDecision": "allow"} if decision_of(record) == "allow" else {}
    fields["permissionDecisionReason"] = rewrite_reason(record)
    fields[input_key] = updated_input(record, rewritten)
    return fields


def decode(event: dict) -> dict | None:
    return decode_claude_shape(NAME, event, SHELL_TOOLS)


def encode(record: dict) -> dict | None:
    """Claude Code applies updatedInput whatever the decision and then checks its own rules
    on the rewritten command only (ARCHITECTURE §8): a rewrite goes out only with the gate's allow
    (the original would run without asking); anything else gets no answer, except a deny.
    `CTXCRL_DISABLED=1 cmd` that the gate allows (cmd alone runs without asking) is answered
    allow without a rewrite: the prefix only turns filtering off."""
    answer = encode_claude_shape(record, allow_rewrite_without_allow=False)
    if answer is None and decision_of(record) == "allow" and _disabled_prefix(record):
        return {"hookSpecificOutput": {"hookEventName": event_meta(record).get(
            "hook_event_name") or EVENT_NAME, "permissionDecision": "allow",
            "permissionDecisionReason": rewrite_reason(record).replace(
                "output filtered through cc-filter run", "not filtered (CTXCRL_DISABLED=1)")}}
    return answer


def _disabled_prefix(record: dict) -> bool:
    command = record.get("command")
    return isinstance(command, str) and command.lstrip().startswith("CTXCRL_DISABLED=")


# -- install (cold path: imports inside)
def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import JsonRegistration, LineInFile, OwnedFile
    from ..hook_script import template

    if scope == "global":
        base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(ctx.user_home, CONFIG_DIR)
    else:
        base = os.path.join(root, CONFIG_DIR)
    note_dir = base if scope == "global" else root
    return [
        OwnedFile(os.path.join(note_dir, "CONTEXTCRAWLER.md"), template("CONTEXTCRAWLER.md"),
                  "awareness note"),
        LineInFile(os.path.join(note_dir, "CLAUDE.md"), "@CONTEXTCRAWLER.md",
                   "@CONTEXTCRAWLER.md reference"),
        JsonRegistration.matcher_group(os.path.join(base, "settings.json"), "PreToolUse", "Bash",
                                       ctx.hook_command),
    ]
