"""pi (`@mariozechner/pi-coding-agent`): an extension file (no hook script), measured on pi
0.73.1 (tests/agents/pi/). pi filters after execution (ARCHITECTURE §5 rule 1, §8): it has no
permission rules (every command runs), an extension's `tool_call` handler may block a call,
and its `tool_result` handler may replace the content the model receives, failures included.

pi loads `*.ts` / `*/index.ts` from `~/.pi/agent/extensions/` (`$PI_CODING_AGENT_DIR/extensions/`
when set) and from `.pi/extensions/` in the directory it was started in (not the folders above).
The extension sends each `bash` event to the stages as JSON on stdin, pi's own event plus `cwd`
(the session's directory, where the bash tool runs):

- before: {"type": "tool_call", "toolName": "bash", "toolCallId": …, "input": {"command": …,
  "timeout"?: …}, "cwd": …} → `decode | cc-gate | encode`: a deny is answered {"block": true,
  "reason": …}, which the extension returns to pi (the call is not run; the model gets the
  reason as an error result); anything else, no answer.
- after: {"type": "tool_result", …, "content": [{"type": "text", "text": T}], "details": {…},
  "isError": bool} → `decode | cc-filter result | encode`: {"content": [{"type": "text",
  "text": <filtered>}]}, which the extension returns (pi keeps `isError`), or no answer (pi's
  own result stays).

pi's bash result text (0.73.1, core/tools/bash.js): the merged stdout and stderr (its last 2000
lines / 50 KB), "(no output)" when empty; when it truncated, "\\n\\n[Showing lines A-B of N.
Full output: <file>]" (or "[Showing last … of line N (…). Full output: <file>]") follows, the
file holding the whole output (also `details.fullOutputPath` for a success). A non-zero exit
makes the result an error whose text ends with "\\n\\nCommand exited with code N" (just
"Command exited with code N" when there was no output); a timeout or an abort ends with
"Command timed out after N seconds" / "Command aborted" (left alone: no exit code).
"""
from ctxcrl import lean_os as os

from ..record import command_record, decision_of, deny_reason, event_meta

TITLE = "pi"
NAME = "pi"
CONFIG_DIR = os.path.join(".pi", "agent")
NO_ANSWER = ""
BEFORE = "tool_call"
AFTER = "tool_result"
#: How the installed extension subscribes to results (cc-hook test, init, verify).
AFTER_MARK = 'pi.on("tool_result"'
NO_OUTPUT = "(no output)"
EXITED = "Command exited with code "
STATUS_GAP = "\n\n"
FULL_OUTPUT = " Full output: "
#: How pi 0.73.1 names the file with a truncated command's whole output (in its temp folder).
TEMP_PREFIX = "pi-bash-"
TEMP_SUFFIX = ".log"


def split_status(text: str):
    """(output, exit code, status line) of an error result's text, or None when it does not
    end with pi's `Command exited with code N` (a timeout, an abort, a blocked call)."""
    at = text.rfind(EXITED)
    if at == -1 or (at and text[at - len(STATUS_GAP):at] != STATUS_GAP):
        return None
    status = text[at:]
    code = status[len(EXITED):]
    digits = code[1:] if code.startswith("-") else code
    if not digits.isdigit():
        return None
    return text[:max(at - len(STATUS_GAP), 0)], int(code), status


def full_output_path(output: str, details, failed: bool) -> str | None:
    """The file pi saved the whole output in, when the text it shows was truncated: the path its
    notice `[Showing … Full output: <file>]` ends with; "" when the output was not truncated;
    None when the notice cannot be trusted (the output is then left alone).

    The notice is text a command could print itself (a commit message, a file it shows), so it
    is believed only as pi wrote it: for a success pi's `details.fullOutputPath` names the
    same file (without it, the notice is just text); a failure loses `details`, so there the
    file must be one pi names its own way, `pi-bash-<16 hex digits>.log`."""
    if not output.endswith("]"):
        return ""
    line = output[output.rfind("\n") + 1:]
    if not line.startswith("[Showing ") or FULL_OUTPUT not in line:
        return ""
    path = line[line.rfind(FULL_OUTPUT) + len(FULL_OUTPUT):-1]
    saved = details.get("fullOutputPath") if isinstance(details, dict) else None
    if not failed:
        if not isinstance(saved, str) or not saved:
            return ""  # pi did not truncate: the notice is the command's own text
        return saved if saved == path else None
    name = path[path.rfind("/") + 1:]
    digits = name[len(TEMP_PREFIX):-len(TEMP_SUFFIX)]
    if path.startswith("/") and name.startswith(TEMP_PREFIX) and name.endswith(TEMP_SUFFIX) \
            and len(digits) == 16 and all(c in "0123456789abcdef" for c in digits):
        return path
    return None


def decode(event: dict) -> dict | None:
    kind = event.get("type")
    tool_input = event.get("input")
    if event.get("toolName") != "bash" or not isinstance(tool_input, dict):
        return None
    cwd = event.get("cwd")
    cwd = cwd if isinstance(cwd, str) and cwd else None
    if kind == BEFORE:
        return command_record(NAME, {}, tool_input, cwd=cwd)
    if kind != AFTER:
        return None
    content = event.get("content")
    if not isinstance(content, list) or len(content) != 1 or not isinstance(content[0], dict) \
            or content[0].get("type") != "text" or not isinstance(content[0].get("text"), str):
        return None  # an image, several parts: not what pi's bash tool returns
    text = content[0]["text"]
    status = None
    if event.get("isError") is True:
        parts = split_status(text)
        if parts is None:
            return None
        text, code, status = parts
    elif event.get("isError") is False:
        code = 0
    else:
        return None
    if not text or text == NO_OUTPUT:
        return None
    path = full_output_path(text, event.get("details"), status is not None)
    if path is None:
        return None
    from ..post import result_record

    return result_record(NAME, {}, tool_input, exit_code=code, cwd=cwd,
                         output=None if path else text, output_path=path or None,
                         shown_chars=len(text), status=status)


def encode(record: dict) -> dict | None:
    meta = event_meta(record)
    if meta.get("phase") == "post":
        text = record.get("filtered")
        if not isinstance(text, str) or not text:
            return None
        status = meta.get("status")
        if isinstance(status, str) and status:
            text = f"{text}{STATUS_GAP}{status}"  # as pi writes it: the exit code stays seen
        return {"content": [{"type": "text", "text": text}]}
    if decision_of(record) == "deny":
        return {"block": True, "reason": deny_reason(record)}
    return None


def agent_dir(user_home: str) -> str:
    """pi's own folder: `$PI_CODING_AGENT_DIR` (a leading `~` is the home folder), else
    `~/.pi/agent`."""
    value = os.environ.get("PI_CODING_AGENT_DIR")
    if value:
        if value == "~" or value.startswith("~/"):
            return user_home + value[1:]
        return value
    return os.path.join(user_home, CONFIG_DIR)


def artifacts(scope: str, root: str, ctx) -> list:
    from ..artifacts import OwnedFile
    from .opencode import plugin_text

    base = agent_dir(ctx.user_home) if scope == "global" else os.path.join(root, ".pi")
    content = plugin_text(ctx, NAME, TITLE, "pi-extension.ts") if ctx.tools else ""
    return [OwnedFile(os.path.join(base, "extensions", "ctxcrl.ts"), content,
                      "extension (tool_call / tool_result)", kind="plugin")]


#: The instructions files pi reads in one folder, the first that exists (0.73.1).
CONTEXT_FILES = ("AGENTS.md", "AGENTS.MD", "CLAUDE.md", "CLAUDE.MD")


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """The instructions file pi reads the awareness note from, in its own folder or the
    project's. pi reads one file per folder, the first of AGENTS.md, AGENTS.MD, CLAUDE.md,
    CLAUDE.MD: an AGENTS.md there gets the note (shared with Codex, OpenCode and Kilo CLI);
    none at all, a new AGENTS.md. A folder with only a CLAUDE.md gets no note (None): a new
    AGENTS.md would hide that CLAUDE.md from pi, and the CLAUDE.md is Claude Code's (its own
    install imports the note there, an import pi does not follow)."""
    base = agent_dir(user_home) if scope == "global" else root
    for name in CONTEXT_FILES:
        path = os.path.join(base, name)
        if os.path.isfile(path):
            return path if name.startswith("AGENTS") else None
    return os.path.join(base, CONTEXT_FILES[0])


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event the extension sends before pi runs `command` in `cwd` (`cc-hook test`)."""
    return {"type": BEFORE, "toolName": "bash", "toolCallId": "ctxcrl-test",
            "input": {"command": command}, "cwd": cwd}
