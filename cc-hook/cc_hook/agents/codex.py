"""Codex CLI: PreToolUse hook on the Bash tool, Claude's event and answer shapes (measured on
codex-cli 0.171.0, tests/agents/codex/).

Codex applies `updatedInput` only together with `permissionDecision: "allow"`, and then checks
its own rules and sandbox on the rewritten command. So the answer is allow + updatedInput only
when the gate found that Codex would run the original unasked and the rewrite keeps that
(cc_gate/agents/codex.py); deny + reason on a deny; otherwise no answer (Codex decides on the
original command).

Codex runs a hook only when it is trusted: `[hooks.state."<hooks.json>:pre_tool_use:<group>:
<handler>"] trusted_hash = "sha256:<hex>"` in `$CODEX_HOME/config.toml`, the SHA-256 of the
compact, key-sorted JSON of the handler's identity. An untrusted hook is skipped without a word,
so `init` writes that entry (`HookTrust`), `verify` fails when it is missing or stale, and
`uninstall` removes it. The registration carries a timeout: Codex waits 600 s by default.
"""
from ..record import decision_of, rewritten_of
from .claude import decode_claude_shape, encode_claude_shape

NAME = "codex"
CONFIG_DIR = ".codex"
NO_ANSWER = ""
SHELL_TOOLS = ("Bash", "shell", "local_shell")
EVENT = "PreToolUse"
#: Seconds Codex waits for the hook before it runs the original command anyway (fail open).
HOOK_TIMEOUT = 10


def decode(event: dict) -> dict | None:
    return decode_claude_shape(NAME, event, SHELL_TOOLS)


def encode(record: dict) -> dict | None:
    if decision_of(record) == "allow" and rewritten_of(record) is None:
        return None  # nothing to change: Codex decides as it would without us
    return encode_claude_shape(record, allow_rewrite_without_allow=False)


# -- install (cold path: imports inside)

def codex_home(ctx) -> str:
    import os

    return os.environ.get("CODEX_HOME") or os.path.join(ctx.user_home, CONFIG_DIR)


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import JsonRegistration
    from .codex_trust import HookTrust

    base = codex_home(ctx) if scope == "global" else os.path.join(root, CONFIG_DIR)
    hooks_json = os.path.abspath(os.path.join(base, "hooks.json"))
    registration = JsonRegistration(
        hooks_json, ("hooks", EVENT),
        {"matcher": "Bash", "hooks": [{"type": "command", "command": ctx.hook_command,
                                       "timeout": HOOK_TIMEOUT}]},
        nested=True, description=f"hooks.{EVENT} (matcher Bash, timeout {HOOK_TIMEOUT} s)")
    trust = HookTrust(os.path.join(codex_home(ctx), "config.toml"), registration,
                      project=None if scope == "global" else root)
    return [registration, trust]
