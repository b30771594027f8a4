"""GitHub Copilot CLI: filters after execution (ARCHITECTURE §5 rule 1, §8). Measured on 1.0.102.

Registered in `~/.copilot/hooks/ctxcrl.json` (`preToolUse`) and `ctxcrl-post.json`
(`postToolUse`), project: `.github/hooks/`. Event shapes (camelCase registrations):

- preToolUse: {"sessionId", "timestamp", "cwd", "toolName": "bash", "toolArgs": {"command": …,
  "description": …}} (toolArgs may also come as a JSON string). The command is never changed:
  a gate deny is answered {"permissionDecision": "deny", "permissionDecisionReason": …}
  (Copilot then tells the model "Denied by preToolUse hook: …"); anything else, no answer.
- postToolUse: the same plus "toolResult": {"resultType": "success", "textResultForLlm": T}.
  It fires for every shell result, failures included: T is the merged output followed by the
  trailer `<shellId: N completed with exit code C>`; an output too large for Copilot arrives
  as a notice `Output too large to read at once (575.1 KB). Saved to: <file>` (+ a preview),
  the file holding the whole output (without the trailer) until the session ends. Answer:
  {"modifiedResult": {"resultType": "success", "textResultForLlm": <filtered + trailer>}},
  which is what the model receives; no answer keeps Copilot's result.

Copilot in VS Code sends Claude-shaped events (`tool_name` runTerminalCommand / run_in_terminal
/ Bash / bash, `tool_input`); they get the same treatment before execution: a deny or nothing.
"""
from cc_peel.record import loads

from ..record import command_record, decision_of, deny_reason, event_meta

TITLE = "Copilot"
NAME = "copilot"
#: How the installed hooks file names its after-execution hook (cc-hook test, init, verify).
AFTER_MARK = "postToolUse"
CONFIG_DIR = ".copilot"
NO_ANSWER = ""
SHELL_TOOLS = ("runTerminalCommand", "run_in_terminal", "Bash", "bash")
CLI_SHELL_TOOLS = ("bash",)
CAMEL = "camel"
#: The script runs the deny-only pipeline, or with `post` the filter (hook_script.PIPELINES).
PIPELINES = ("deny-only", "post")

TRAILER_START = "<shellId: "
_TRAILER_CODE = " completed with exit code "
_TOO_LARGE = "Output too large to read at once ("
_SAVED_TO = ". Saved to: "


def _args(event: dict):
    args = event.get("toolArgs")
    if isinstance(args, str):
        try:
            args = loads(args)
        except ValueError:
            return None
    return args if isinstance(args, dict) else None


def split_trailer(text: str):
    """(output, exit code, trailer) of a shell result's text, or None when it does not end
    with Copilot's `<shellId: N completed with exit code C>` (a command still running in the
    background, a timeout: left as Copilot wrote it)."""
    at = text.rfind(TRAILER_START)
    if at == -1:
        return None
    trailer = text[at:]
    if not trailer.endswith(">") or "\n" in trailer or _TRAILER_CODE not in trailer:
        return None
    code = trailer[trailer.rfind(_TRAILER_CODE) + len(_TRAILER_CODE):-1]
    digits = code[1:] if code.startswith("-") else code
    if not digits.isdigit():
        return None
    return text[:at], int(code), trailer


def saved_output_path(output: str) -> str | None:
    """The file named by Copilot's "Output too large" notice, or None."""
    if not output.startswith(_TOO_LARGE):
        return None
    first = output.split("\n", 1)[0]
    at = first.find(_SAVED_TO)
    if at == -1:
        return None
    return first[at + len(_SAVED_TO):].strip() or None


def decode(event: dict) -> dict | None:
    if "toolName" not in event:
        from .claude import decode_claude_shape

        return decode_claude_shape(NAME, event, SHELL_TOOLS)
    if event.get("toolName") not in CLI_SHELL_TOOLS:
        return None
    args = _args(event)
    if args is None:
        return None
    result = event.get("toolResult")
    if result is None:
        return command_record(NAME, event, args, shape=CAMEL)
    if not isinstance(result, dict) or result.get("resultType") != "success":
        return None
    text = result.get("textResultForLlm")
    parts = split_trailer(text) if isinstance(text, str) else None
    if parts is None:
        return None
    output, code, trailer = parts
    from ..post import result_record

    path = saved_output_path(output)
    return result_record(NAME, event, args, exit_code=code, output=None if path else output,
                         output_path=path, shown_chars=len(output), shape=CAMEL,
                         trailer=trailer)


def encode(record: dict) -> dict | None:
    meta = event_meta(record)
    if meta.get("phase") == "post":
        text = record.get("filtered")
        if not isinstance(text, str):
            return None
        if text and not text.endswith("\n"):
            text += "\n"
        return {"modifiedResult": {"resultType": "success",
                                   "textResultForLlm": text + str(meta.get("trailer") or "")}}
    if decision_of(record) != "deny":
        return None  # the command is never changed: Copilot decides on it as it is
    if meta.get("shape") != CAMEL:
        from .claude import encode_claude_shape

        return encode_claude_shape(record)
    return {"permissionDecision": "deny", "permissionDecisionReason": deny_reason(record)}


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import JsonRegistration

    if scope == "global":
        folder = os.path.join(ctx.user_home, ".copilot", "hooks")
    else:
        folder = os.path.join(root, ".github", "hooks")
    return [
        JsonRegistration(os.path.join(folder, "ctxcrl.json"), ("hooks", "preToolUse"),
                         {"type": "command", "command": ctx.hook_command, "timeout": 5},
                         nested=False, description="hooks.preToolUse", seed={"version": 1}),
        JsonRegistration(os.path.join(folder, "ctxcrl-post.json"), ("hooks", "postToolUse"),
                         {"type": "command", "command": f"{ctx.hook_command} post",
                          "timeout": 10},
                         nested=False, description="hooks.postToolUse", seed={"version": 1}),
    ]


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event Copilot sends before running `command` in `cwd` (`cc-hook test`): by default
    Copilot CLI's camelCase form, the one `init` registers its hooks for; shape="vscode": the
    VS Code agent's form (Claude's field names)."""
    import json
    import time

    if shape != "vscode":
        return {"timestamp": int(time.time() * 1000), "cwd": cwd, "toolName": "bash",
                "toolArgs": json.dumps({"command": command, "description": "cc-hook test"})}
    return {"timestamp": time.strftime("%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
            "cwd": cwd, "session_id": "ctxcrl-test", "hook_event_name": "PreToolUse",
            "tool_name": "run_in_terminal",
            "tool_input": {"command": command, "explanation": "cc-hook test",
                           "isBackground": False},
            "tool_use_id": "ctxcrl-test"}


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """The instructions file Copilot reads the awareness note from:
    ~/.copilot/copilot-instructions.md, or the project's .github/copilot-instructions.md."""
    import os

    if scope == "global":
        return os.path.join(user_home, ".copilot", "copilot-instructions.md")
    return os.path.join(root, ".github", "copilot-instructions.md")
