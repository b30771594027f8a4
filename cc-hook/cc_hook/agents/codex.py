"""Codex CLI: PreToolUse hook on the Bash tool, Claude's event and answer shapes.

Codex applies `updatedInput` only together with `permissionDecision: "allow"`, so a rewrite is
answered only when the gate allowed the command or the session runs with
`permission_mode: "bypassPermissions"` (where everything is allowed anyway); otherwise no answer
and Codex's own approval flow runs on the original command.
"""
from ..record import decision_of, event_meta
from .claude import decode_claude_shape, encode_claude_shape

NAME = "codex"
CONFIG_DIR = ".codex"
NO_ANSWER = ""
SHELL_TOOLS = ("Bash", "shell", "local_shell")


def decode(event: dict) -> dict | None:
    return decode_claude_shape(NAME, event, SHELL_TOOLS)


def encode(record: dict) -> dict | None:
    if decision_of(record) == "ask" and \
            event_meta(record).get("permission_mode") == "bypassPermissions":
        record = dict(record, decision="allow")
    return encode_claude_shape(record, allow_rewrite_without_allow=False)


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import JsonRegistration

    if scope == "global":
        base = os.environ.get("CODEX_HOME") or os.path.join(ctx.user_home, CONFIG_DIR)
    else:
        base = os.path.join(root, CONFIG_DIR)
    return [
        JsonRegistration.matcher_group(os.path.join(base, "hooks.json"), "PreToolUse", "Bash",
                                       ctx.hook_command),
    ]
