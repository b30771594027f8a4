"""Gemini CLI: BeforeTool hook with matcher "run_shell_command" (ARCHITECTURE §8; measured on 0.61.0).

Event: {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
"tool_input": {"command": …, "description": …, …}, "cwd": …}.

Gemini's own decision words: only "deny" / "block" refuse (the reason reaches the model);
"ask" forces a confirmation and hangs a headless run, so it is never sent; any other decision
("allow", "ask_user" included) grants nothing: the Policy Engine then judges the tool input the
hook leaves, after the hook. Answers:
- gate allow, rewritten → {"decision": "allow", "hookSpecificOutput": {"tool_input":
  {<tool_input>, "command": R}}} (cc-gate allowed it only after judging R with Gemini's rules);
- gate ask with "rewrite_on_ask" (an interactive session where Gemini asks about the
  rewritten command exactly as about the original) → {"hookSpecificOutput": {"tool_input":
  {…, "command": R}}} with no decision: the client's own prompt shows R, and the approved
  run is filtered;
- gate deny → {"decision": "deny", "reason": …};
- anything else → {} (no change). Every record gets an answer, so an empty answer means the
  pipeline failed: the hook script then refuses a command that mentions cc-filter
  (cc_hook.hook_script.FAIL_CLOSED_AGENTS), which the rule installed for rewritten commands
  would otherwise let through unchecked.
"""
from ..record import command_record, decision_of, deny_reason, rewritten_of, updated_input

TITLE = "Gemini CLI"
NAME = "gemini"
CONFIG_DIR = ".gemini"
NO_ANSWER = "{}"
NO_RECORD = ""
"""What encode prints when no record reached it (a stage failed): nothing, so the hook script
knows."""
SHELL_TOOLS = ("run_shell_command",)
EVENT_NAME = "BeforeTool"
POLICY_FILE = "ctxcrl.toml"


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
    if decision == "ask" and record.get("rewrite_on_ask") is True:
        # no decision: the Policy Engine asks about the rewritten command, as it would about
        # the original (cc-gate checked that in every approval mode)
        return {"hookSpecificOutput": {"tool_input": updated_input(record, rewritten)}}
    if decision != "allow":
        return None
    return {"decision": "allow",
            "hookSpecificOutput": {"tool_input": updated_input(record, rewritten)}}


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from cc_gate.agents.gemini import filter_rule_text

    from ..artifacts import JsonRegistration, OwnedFile

    base = os.path.join(ctx.user_home if scope == "global" else root, CONFIG_DIR)
    found = [
        JsonRegistration.matcher_group(os.path.join(base, "settings.json"), "BeforeTool",
                                       "run_shell_command", ctx.hook_command),
    ]
    if scope == "global":
        # The Policy Engine judges the rewritten `cc-filter run X`: this rule lets it run
        # (user tier; Gemini CLI 0.61.0 never loads the workspace tier, so a project install
        # has no rule and compacts only what Gemini runs without one: yolo mode).
        commands = ["cc-filter"]
        if ctx.filter_command and ctx.filter_command != "cc-filter":
            commands.append(ctx.filter_command)
        found.append(OwnedFile(os.path.join(base, "policies", POLICY_FILE),
                               filter_rule_text(commands),
                               "Policy Engine rule for rewritten commands"))
    return found


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event Gemini CLI sends before running `command` in `cwd` (`cc-hook test`)."""
    import time

    return {"session_id": "ctxcrl-test", "transcript_path": "", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": time.strftime(
                "%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "cc-hook test"}}


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """The instructions file Gemini CLI reads the awareness note from: GEMINI.md in ~/.gemini
    or in the project."""
    import os

    base = os.path.join(user_home, ".gemini") if scope == "global" else root
    return os.path.join(base, "GEMINI.md")
