"""Mistral Vibe: filters after execution (ARCHITECTURE §5 rule 1, §8). Measured on
mistral-vibe 3.0.2 (PyPI), `vibe -p` against a scripted OpenAI-compatible model.

Registered as two `[[hooks]]` tables in `~/.vibe/hooks.toml` (`$VIBE_HOME` instead when set;
project: `.vibe/hooks.toml`, which Vibe loads only in a trusted folder), `match = "bash"`.
Every hook gets one JSON event on stdin (its `tool_name` is `file_system.bash`):

- pre_tool: {"hook_event_name": "pre_tool", "session_id", "parent_session_id",
  "transcript_path", "cwd", "tool_name", "tool_call_id", "tool_input": {"command": …,
  "timeout_seconds"?}}. It runs before Vibe's own permission check. The command is never
  changed: a gate deny is answered {"decision": "deny", "reason": …} (Vibe refuses the call and
  the model reads "Tool 'bash' was denied by hook …: <reason>"); anything else, no answer (an
  empty stdout passes the call through).
- post_tool: the same plus "tool_status" ("success" also for a failing command),
  "tool_output": {"command", "returncode", "stdout", "stderr", "timed_out", "was_truncated"},
  "tool_output_text", "tool_error", "duration_ms". It fires only when the command ran,
  failures included. The answer {"decision": "deny", "reason": T} makes T exactly what the
  model receives instead of Vibe's result (the JSON of `tool_output`); so T is the same JSON
  with the filtered text as `output` (stdout, then stderr) and the exit code kept. No answer
  keeps Vibe's own result. A timed-out command, a tool error, anything unexpected: no answer.
"""
from ..record import command_record, decision_of, deny_reason, event_meta

TITLE = "Mistral Vibe"
NAME = "vibe"
#: How `cc-hook test` reads its answer (outcome.outcome_of): `decision` (only a deny before
#: execution).
ANSWER_SHAPE = "decision"
CONFIG_DIR = ".vibe"
NO_ANSWER = ""
#: The script runs the deny-only pipeline, or with `post` the filter (hook_script.PIPELINES).
PIPELINES = ("deny-only", "post")
PRE = "pre_tool"
POST = "post_tool"
#: How the installed hooks.toml names its after-execution hook (cc-hook test, init, verify).
AFTER_MARK = 'type = "post_tool"'
HOOK_NAMES = ("ctxcrl-pre", "ctxcrl-post")


def _is_shell(event: dict) -> bool:
    tool = event.get("tool_name")
    return isinstance(tool, str) and (tool == "bash" or tool.endswith(".bash"))


def decode(event: dict) -> dict | None:
    if not _is_shell(event):
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    kind = event.get("hook_event_name")
    if kind == PRE:
        return command_record(NAME, event, tool_input)
    if kind != POST or event.get("tool_status") != "success":
        return None
    out = event.get("tool_output")
    if not isinstance(out, dict) or out.get("timed_out") is not False:
        return None
    code, stdout, stderr = out.get("returncode"), out.get("stdout"), out.get("stderr")
    if not isinstance(stdout, str) or not isinstance(stderr, str):
        return None
    text = stdout
    if stderr:
        text += ("\n" if text and not text.endswith("\n") else "") + stderr
    from ..post import result_record

    return result_record(NAME, event, tool_input, exit_code=code, output=text,
                         shown_chars=len(text), returncode=code,
                         truncated=out.get("was_truncated") is True)


def encode(record: dict) -> dict | None:
    meta = event_meta(record)
    if meta.get("phase") == "post":
        text = record.get("filtered")
        if not isinstance(text, str):
            return None
        from ctxcrl.jsoncodec import dumps  # not `json`: it imports `re`

        fields = (("command", record.get("command")), ("returncode", meta.get("returncode")),
                  ("output", text), ("timed_out", False),
                  ("was_truncated", meta.get("truncated") is True))
        # compact, as Vibe writes its own result
        result = ",".join(f'"{key}":{dumps(value, ensure_ascii=False)}' for key, value in fields)
        return {"decision": "deny", "reason": "{" + result + "}"}
    if decision_of(record) != "deny":
        return None  # the command is never changed: Vibe decides on it as it is
    return {"decision": "deny", "reason": deny_reason(record)}


def vibe_home(user_home: str) -> str:
    """Vibe's own folder: `$VIBE_HOME`, else `~/.vibe`."""
    import os

    value = os.environ.get("VIBE_HOME")
    if value:
        return os.path.realpath(os.path.expanduser(value))
    return os.path.join(user_home, CONFIG_DIR)


def hooks_toml(hook_command: str) -> str:
    """Our two `[[hooks]]` tables (the command as a TOML basic string: JSON's escapes)."""
    import json

    tables = []
    for name, kind, arguments, timeout in ((HOOK_NAMES[0], PRE, "", 5.0),
                                           (HOOK_NAMES[1], POST, " post", 10.0)):
        tables.append(f'[[hooks]]\nname = "{name}"\ntype = "{kind}"\nmatch = "bash"\n'
                      f"command = {json.dumps(hook_command + arguments)}\n"
                      f"timeout = {timeout}\n")
    return "\n".join(tables)


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import TomlBlock

    folder = vibe_home(ctx.user_home) if scope == "global" else os.path.join(root, CONFIG_DIR)
    return [TomlBlock(os.path.join(folder, "hooks.toml"), hooks_toml(ctx.hook_command),
                      "[[hooks]] pre_tool / post_tool")]


def project_trust(root: str, user_home: str) -> bool | None:
    """Vibe's decision on the project folder `root`: the closest of it and its parents listed
    in `trusted_folders.toml` (`trusted` / `untrusted`, in Vibe's folder); None when none is
    (Vibe would ask, or honour `--trust` for one run)."""
    import os
    import tomllib

    try:
        with open(os.path.join(vibe_home(user_home), "trusted_folders.toml"), "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError):
        return None
    def paths(key: str) -> set:
        listed = data.get(key)
        return {p for p in listed if isinstance(p, str)} if isinstance(listed, list) else set()

    trusted, untrusted = paths("trusted"), paths("untrusted")
    current = os.path.realpath(root)
    while True:
        if current in trusted:
            return True
        if current in untrusted:
            return False
        parent = os.path.dirname(current)
        if parent == current:
            return None
        current = parent


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event Vibe sends before running `command` in `cwd` (`cc-hook test`)."""
    return {"session_id": "ctxcrl-test", "parent_session_id": None,
            "transcript_path": "", "cwd": cwd, "hook_event_name": PRE,
            "tool_name": "file_system.bash", "tool_call_id": "ctxcrl-test",
            "tool_input": {"command": command}}


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """The instructions file Vibe reads the awareness note from: AGENTS.md in its home
    folder, or in the project (from the project root up, through trusted folders)."""
    import os

    if scope == "global":
        return os.path.join(vibe_home(user_home), "AGENTS.md")
    return os.path.join(root, "AGENTS.md")


def check_client(install: dict, finding, user_home: str, cwd: str) -> None:
    """Vibe loads a project's .vibe/hooks.toml only in a folder it trusts."""
    import os

    from ..client_check import short

    if install.get("scope") != "project" or not isinstance(install.get("root"), str):
        return
    root = install["root"]
    trust = project_trust(root, user_home)
    if trust is not True:
        state = "marks it untrusted" if trust is False else "has not trusted it yet"
        finding.warn(f"Mistral Vibe {state}: it loads {short(os.path.join(root, '.vibe'))}"
                     "/hooks.toml only in a trusted folder; fix: trust the folder when Vibe "
                     "asks (or start it there with --trust)")
