"""Cursor: preToolUse hook with matcher "Shell" (ARCHITECTURE §8).

Event: {"hook_event_name": "preToolUse", "tool_name": "Shell", "tool_input": {"command": …},
"workspace_roots": […], …}, possibly starting with a UTF-8 BOM. Answer with a rewrite (only
ever made when the gate found that Cursor's own rules allow the original without asking):
{"continue": true, "permission": "allow", "updated_input": {<tool_input>, "command": R}};
deny → {"continue": true, "permission": "deny", "user_message": …, "agent_message": …};
no change → {} (Cursor expects a JSON object on every call).
"""
from ..record import command_record, decision_of, deny_reason, rewritten_of, updated_input

TITLE = "Cursor"
NAME = "cursor"
#: How `cc-hook test` reads its answer (outcome.outcome_of): `permission`, `updated_input`.
ANSWER_SHAPE = "cursor"
CONFIG_DIR = ".cursor"
NO_ANSWER = "{}"
SHELL_TOOLS = (None, "Shell", "shell", "run_terminal_cmd", "terminal")
#: Where an allow rule goes and its exact lines (one per program: Cursor's rules name the
#: program), for the commands init/verify say it asks about.
ALLOW_RULES = ("permissions.allow in ~/.cursor/cli-config.json",
               lambda prefixes: [f'"Shell({p.split()[0]})",'
                                 for p in dict.fromkeys(p.split()[0] for p in prefixes)])
#: The awareness note is a rule file of its own (awareness.artifacts), with this header.
NOTE_RULE_HEAD = ("---\ndescription: contextcrawler compacts shell output; how to read it\n"
                  "alwaysApply: true\n---\n")


def decode(event: dict) -> dict | None:
    if event.get("tool_name") not in SHELL_TOOLS:
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    cwd = tool_input.get("cwd") or event.get("cwd")
    roots = event.get("workspace_roots")
    if not cwd and isinstance(roots, list) and roots and isinstance(roots[0], str):
        cwd = roots[0]
    return command_record(NAME, event, tool_input, cwd=cwd)


def encode(record: dict) -> dict | None:
    decision = decision_of(record)
    if decision == "deny":
        reason = deny_reason(record)
        return {"continue": True, "permission": "deny", "user_message": reason,
                "agent_message": reason}
    rewritten = rewritten_of(record)
    if rewritten is None or decision != "allow":
        return None
    return {"continue": True, "permission": "allow",
            "updated_input": updated_input(record, rewritten)}


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import JsonRegistration

    base = os.path.join(ctx.user_home if scope == "global" else root, CONFIG_DIR)
    return [
        JsonRegistration(os.path.join(base, "hooks.json"), ("hooks", "preToolUse"),
                         {"command": ctx.hook_command, "matcher": "Shell"}, nested=False,
                         description="hooks.preToolUse (matcher Shell)", seed={"version": 1}),
    ]


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event Cursor sends before running `command` in `cwd` (`cc-hook test`)."""
    return {"conversation_id": "ctxcrl-test", "generation_id": "ctxcrl-test",
            "hook_event_name": "preToolUse", "workspace_roots": [cwd],
            "tool_name": "Shell", "tool_input": {"command": command, "cwd": cwd}}


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """Where Cursor reads the awareness note: a rule file of the project's (its user rules live
    in its settings, not in a file: none for a global install)."""
    import os

    return os.path.join(root, ".cursor", "rules", "ctxcrl.mdc") if scope != "global" else None
