"""OpenCode: a plugin file (no hook script), measured on OpenCode 1.18.33. OpenCode filters
after execution (ARCHITECTURE §5 rule 1, §8): its plugin hooks `tool.execute.before` run before
OpenCode checks `permission.bash` on the (possibly changed) command, so the plugin never
changes it; `tool.execute.after(input, output)` fires for every bash result, failures included,
and whatever the plugin leaves in `output.output` is what the model receives.

The plugin sends each event to the stages as JSON on stdin:

- before: {"hook": "tool.execute.before", "tool": "bash", "directory": <cwd>, "args":
  {"command": …, "description": …, "workdir"?: …}} → `decode | cc-gate | encode`: a deny is
  answered {"decision": "deny", "reason": …} (the plugin throws: OpenCode refuses the call and
  tells the model the reason); anything else, no answer.
- after: the same plus "output": {"output": <merged stdout and stderr, at most OpenCode's
  2000 lines / 50 KB>, "metadata": {"exit": <code, null on a timeout or abort>, "truncated":
  bool, "outputPath"?: <OpenCode's file with the full output>}} → `decode | cc-filter result |
  encode`: {"output": <the filtered text>}, or no answer (OpenCode's own result stays).
  OpenCode gives the model no exit code: the output is all it sees.
"""
from ctxcrl import lean_os as os

from ..record import command_record, decision_of, deny_reason, event_meta

TITLE = "OpenCode"
NAME = "opencode"
CONFIG_DIR = os.path.join(".config", "opencode")
NO_ANSWER = ""
BEFORE = "tool.execute.before"
AFTER = "tool.execute.after"
#: How the installed plugin names its after-execution event (cc-hook test, init, verify).
AFTER_MARK = AFTER
#: What OpenCode writes for an empty output, and where it notes a timeout or an abort.
NO_OUTPUT = "(no output)"
SHELL_METADATA = "<shell_metadata>"


def decode(event: dict, name: str = NAME) -> dict | None:
    hook = event.get("hook")
    args = event.get("args")
    if event.get("tool") != "bash" or not isinstance(args, dict):
        return None
    cwd = event.get("directory")
    cwd = cwd if isinstance(cwd, str) and cwd else None
    if hook == BEFORE:
        return command_record(name, {}, args, cwd=cwd)
    if hook != AFTER:
        return None
    out = event.get("output")
    if not isinstance(out, dict) or not isinstance(out.get("output"), str):
        return None
    text = out["output"]
    meta = out.get("metadata") if isinstance(out.get("metadata"), dict) else {}
    code = meta.get("exit")
    if text == NO_OUTPUT or SHELL_METADATA in text:
        return None
    path = meta.get("outputPath") if meta.get("truncated") is True else None
    if path is not None and not isinstance(path, str):
        return None
    from ..post import result_record

    return result_record(name, {}, args, exit_code=code, cwd=cwd,
                         output=None if path else text, output_path=path,
                         shown_chars=len(text))


def encode(record: dict) -> dict | None:
    if event_meta(record).get("phase") == "post":
        text = record.get("filtered")
        return {"output": text} if isinstance(text, str) and text else None
    if decision_of(record) == "deny":
        return {"decision": "deny", "reason": deny_reason(record)}
    return None


def plugin_text(ctx, name: str = NAME, client: str = "OpenCode",
                template_name: str = "opencode-plugin.ts") -> str:
    """The plugin file: its template with the two pipelines (deny-only before, the filter
    after) that the plugin spawns."""
    import json

    from ..hook_script import (DENY_ONLY, HOOK_VERSION, POST, env_lines, stage_commands,
                               stage_launcher, template)

    filter_bin = ctx.filter_command if ctx.filter_command != "cc-filter" else None
    prefix = "".join(line.replace("; export", " && export") + " && "
                     for line in env_lines(filter_bin).splitlines())  # `X=${X:-v}; export X`
    launcher = stage_launcher(ctx.tools)
    pipelines = []
    for pipeline in (DENY_ONLY, POST):
        path_line, stages = stage_commands(name, ctx.tools, launcher, pipeline)
        middle = "CTXCRL_QUIET_CONFIG=1 " + stages[1] if pipeline == POST else stages[1]
        text = prefix + (path_line.strip() + " && " if path_line else "")
        pipelines.append(text + " | ".join([stages[0], middle, stages[2]]))
    body = template(template_name)
    return (body.replace("@@VERSION@@", str(HOOK_VERSION)).replace("@@CLIENT@@", client)
            .replace("@@AGENT@@", name)
            .replace("@@PRE@@", json.dumps(pipelines[0]))
            .replace("@@POST@@", json.dumps(pipelines[1])))


def artifacts(scope: str, root: str, ctx) -> list:
    from ..artifacts import OwnedFile

    if scope == "global":
        config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(ctx.user_home, ".config")
        path = os.path.join(config, "opencode", "plugins", "ctxcrl.ts")
    else:
        path = os.path.join(root, ".opencode", "plugins", "ctxcrl.ts")
    content = plugin_text(ctx) if ctx.tools else ""
    return [OwnedFile(path, content, "plugin (tool.execute.before / after)", kind="plugin")]


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """The instructions file OpenCode reads the awareness note from: AGENTS.md in its config
    folder ($XDG_CONFIG_HOME/opencode) or in the project."""
    if scope == "global":
        config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(user_home, ".config")
        return os.path.join(config, "opencode", "AGENTS.md")
    return os.path.join(root, "AGENTS.md")
