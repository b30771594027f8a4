"""Building command records from events, and the pieces of answers every agent shares.

Hot path: imports nothing (`posix`, not `os`: see stage.py).
"""
import posix

REASON_PREFIX = "contextcrawler"


def command_record(agent: str, event: dict, tool_input: dict, cwd=None, **extra) -> dict | None:
    """The record for a shell tool call, or None when it carries no usable command."""
    command = tool_input.get("command")
    if not isinstance(command, str) or not command.strip():
        return None
    if not isinstance(cwd, str) or not cwd:
        cwd = event.get("cwd")
    if not isinstance(cwd, str) or not cwd:
        cwd = posix.getcwd()
    record = {"agent": agent, "cwd": cwd, "command": command, "input": tool_input}
    meta = {key: value for key, value in extra.items() if value is not None}
    if meta:
        record["event"] = meta
    return record


def tool_event_record(agent: str, event: dict, shell_tools, event_name: str) -> dict | None:
    """The record for an event of the shape {"hook_event_name", "tool_name", "tool_input":
    {"command", …}, "cwd"} (Gemini CLI, Qwen Code); None for another tool, another event (a
    missing event name counts as `event_name`) or no tool input."""
    if event.get("tool_name") not in shell_tools:
        return None
    if event.get("hook_event_name", event_name) != event_name:
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    return command_record(agent, event, tool_input)


def event_meta(record: dict) -> dict:
    meta = record.get("event")
    return meta if isinstance(meta, dict) else {}


def decision_of(record: dict) -> str:
    """allow | ask | deny; anything missing or unknown counts as ask (never auto-allowed)."""
    decision = record.get("decision")
    return decision if decision in ("allow", "deny") else "ask"


def rewritten_of(record: dict) -> str | None:
    """The rewritten command, or None when nothing changed (or the gate denied)."""
    rewritten = record.get("rewritten")
    if not isinstance(rewritten, str) or not rewritten.strip():
        return None
    if rewritten == record.get("command") or decision_of(record) == "deny":
        return None
    return rewritten


def updated_input(record: dict, rewritten: str) -> dict:
    """Every field of the agent's original tool input, with the command replaced."""
    original = record.get("input")
    fields = dict(original) if isinstance(original, dict) else {}
    fields["command"] = rewritten
    return fields


def deny_reason(record: dict) -> str:
    reason = record.get("reason")
    if isinstance(reason, str) and reason:
        return f"{REASON_PREFIX}: {reason}"
    return f"{REASON_PREFIX}: denied by a deny rule"


def rewrite_reason(record: dict) -> str:
    reason = record.get("reason")
    text = f"{REASON_PREFIX}: output filtered through cc-filter run"
    if isinstance(reason, str) and reason:
        text += f"; gate {decision_of(record)}: {reason}"
    return text
