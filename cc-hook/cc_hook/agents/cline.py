"""Cline CLI: a plugin (no hook script), measured on Cline CLI 3.0.65 (npm `cline`).

Cline loads every `.js`/`.ts` file in `~/.cline/plugins/` (`$CLINE_DIR/plugins`), in the
project's `.cline/plugins/` and in `~/Documents/Cline/Plugins/`; a plugin's `beforeTool` hook
runs before Cline's own approval and plan-mode guard on the same call (`{skip: true, reason}`
refuses it, the model gets the reason), and whatever its `afterTool` hook returns as `result`
is what the model receives, failures included. So Cline filters after execution
(ARCHITECTURE §5 rule 1): the command is never changed. Its hook scripts (`PreToolUse` /
`PostToolUse` files in `.clinerules/hooks/`, `~/.cline/hooks/`, `~/Documents/Cline/Hooks/`)
can cancel the whole run or add context, never replace a result: not used.

Cline's shell tool, `run_commands`, runs a list of commands at once and answers one entry per
command: {"query", "result": stdout (then "\\n[stderr]\\n" and stderr), "success"}; a command
that failed gets "[Command exited with code N]\\n" before its output and `success: false`. The
plugin sends each command to the stages as JSON on stdin:

- before: {"hook": "beforeTool", "tool": "run_commands", "cwd": …, "command": …} → `decode |
  cc-gate | encode`: a deny is answered {"decision": "deny", "reason": …} (the plugin skips the
  call); anything else, no answer.
- after: the same plus "result" (the entry's text) and "success" → `decode | cc-filter result |
  encode`: {"result": <the exit-code line, kept, and the filtered text>}, or no answer (Cline's
  own result stays). Output Cline already cut in the middle (over 48,000 characters), or
  left running in the background, is not filtered.
"""
from ctxcrl import lean_os as os

from ..record import command_record, decision_of, deny_reason, event_meta

TITLE = "Cline CLI"
NAME = "cline"
CONFIG_DIR = ".cline"
NO_ANSWER = ""
BEFORE = "beforeTool"
AFTER = "afterTool"
#: How the installed plugin names its after-execution hook (cc-hook test, init, verify).
AFTER_MARK = AFTER
SHELL_TOOL = "run_commands"
#: How Cline starts the text of a command that exited non-zero.
EXITED = "[Command exited with code "
#: Cline's marks on an output it cut in the middle, or a command it left running.
INCOMPLETE = ("\n[... output truncated: ", "[Command is still running.")


def decode(event: dict) -> dict | None:
    hook = event.get("hook")
    command = event.get("command")
    if event.get("tool") != SHELL_TOOL or not isinstance(command, str):
        return None
    cwd = event.get("cwd")
    cwd = cwd if isinstance(cwd, str) and cwd else None
    args = {"command": command}
    if hook == BEFORE:
        return command_record(NAME, {}, args, cwd=cwd)
    if hook != AFTER:
        return None
    split = split_result(event.get("result"), event.get("success"))
    if split is None:
        return None
    text, code, head = split
    from ..post import result_record

    return result_record(NAME, {}, args, exit_code=code, cwd=cwd, output=text,
                         shown_chars=len(event["result"]), head=head or None)


def split_result(result, success) -> tuple | None:
    """(output, exit code, the exit line Cline put before it) of one command's entry; None
    when the entry is no finished command's whole output."""
    if not isinstance(result, str) or any(mark in result for mark in INCOMPLETE):
        return None
    if success is True:
        return result, 0, ""
    if success is not False or not result.startswith(EXITED):
        return None  # a timeout, an abort, a spawn failure: no exit code to keep
    end = result.find("]", len(EXITED))
    digits = result[len(EXITED):end] if end > 0 else ""
    if not digits.isdigit():
        return None
    head = result[:end + 1]
    rest = result[end + 1:]
    if rest.startswith("\n"):
        head, rest = head + "\n", rest[1:]
    return rest, int(digits), head


def encode(record: dict) -> dict | None:
    meta = event_meta(record)
    if meta.get("phase") == "post":
        text = record.get("filtered")
        if not isinstance(text, str) or not text:
            return None
        return {"result": str(meta.get("head") or "") + text}
    if decision_of(record) == "deny":
        return {"decision": "deny", "reason": deny_reason(record)}
    return None


def cline_dir(user_home: str) -> str:
    """Cline's own folder: `$CLINE_DIR`, else `~/.cline`."""
    return os.environ.get("CLINE_DIR") or os.path.join(user_home, CONFIG_DIR)


def plugin_text(ctx) -> str:
    from .opencode import plugin_text as opencode_plugin

    return opencode_plugin(ctx, NAME, TITLE, template_name="cline-plugin.js")


def artifacts(scope: str, root: str, ctx) -> list:
    from ..artifacts import OwnedFile

    base = cline_dir(ctx.user_home) if scope == "global" else os.path.join(root, CONFIG_DIR)
    content = plugin_text(ctx) if ctx.tools else ""
    return [OwnedFile(os.path.join(base, "plugins", "ctxcrl.js"), content,
                      "plugin (beforeTool / afterTool)", kind="plugin")]


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """The instructions file Cline reads the awareness note from: a rules file of its own in
    `~/.cline/rules/`, or the project's AGENTS.md."""
    if scope == "global":
        return os.path.join(cline_dir(user_home), "rules", "contextcrawler.md")
    return os.path.join(root, "AGENTS.md")


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event the plugin sends before Cline runs `command` in `cwd` (`cc-hook test`)."""
    return {"hook": BEFORE, "tool": SHELL_TOOL, "cwd": cwd, "command": command}


def settings_path(user_home: str) -> str:
    """Cline CLI's global settings file, found as Cline 3.0.65 finds it."""
    if os.environ.get("CLINE_GLOBAL_SETTINGS_PATH"):
        return os.environ["CLINE_GLOBAL_SETTINGS_PATH"]
    data = os.environ.get("CLINE_DATA_DIR") or os.path.join(
        os.environ.get("CLINE_DIR") or os.path.join(user_home, ".cline"), "data")
    return os.path.join(data, "settings", "global-settings.json")


def check_client(install: dict, finding, user_home: str, cwd: str) -> None:
    """`cc-hook verify`: Cline's disabledPlugins naming the installed plugin."""
    from ..client_check import read_json, short

    path = settings_path(user_home)
    settings = read_json(path)
    if settings is None:
        return
    disabled = settings.get("disabledPlugins")
    disabled = {os.path.realpath(p) for p in disabled if isinstance(p, str)} \
        if isinstance(disabled, list) else set()
    for file in install.get("files", []):
        plugin = file.get("path")
        if file.get("kind") == "plugin" and plugin and os.path.realpath(plugin) in disabled:
            finding.warn(f"Cline's settings {short(path)} list the plugin {short(plugin)} in "
                         "disabledPlugins: Cline does not load it (nothing is filtered, its "
                         f"denies do not apply); fix: remove it from disabledPlugins in "
                         f"{short(path)}")
