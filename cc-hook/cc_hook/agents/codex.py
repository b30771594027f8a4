"""Codex CLI: PreToolUse hook on the Bash tool, Claude's event and answer shapes (measured on
codex-cli 0.171.0, tests/agents/codex/).

Codex applies `updatedInput` only together with `permissionDecision: "allow"`, and then checks
its own rules and sandbox on the rewritten command. So the answer is allow + updatedInput only
when the gate found that Codex would run the original unasked and the rewrite keeps that
(cc_gate/agents/codex.py); deny + reason on a deny; otherwise no answer (Codex decides on the
original command).

A command the pre-execution hook leaves alone (a `prompt` rule the user approved in the TUI,
an `allow` rule that runs it outside the sandbox) is filtered after it ran: the PostToolUse
hook answers {"decision": "block", "reason": T}, and T is then exactly what the model receives
in place of Codex's output (measured on 0.171.0), so T carries Codex's own header `Process
exited with code C` and `Output:`. The event has no exit code and only the model's ~10 KB
copy of the output: both come from the session's transcript (`transcript_result`). Where the
transcript has no such entry, no answer: Codex's own output stays. Codex shows the answer as
"PostToolUse Blocked" in its log; the command has run all the same.

Codex runs a hook only when it is trusted: `[hooks.state."<hooks.json>:pre_tool_use:<group>:
<handler>"] trusted_hash = "sha256:<hex>"` in `$CODEX_HOME/config.toml`, the SHA-256 of the
compact, key-sorted JSON of the handler's identity. An untrusted hook is skipped without a word,
so `init` writes that entry (`HookTrust`), `verify` fails when it is missing or stale, and
`uninstall` removes it. The registration carries a timeout: Codex waits 600 s by default.
"""
from ..record import decision_of, event_meta, rewritten_of
from .claude import decode_claude_shape, encode_claude_shape

TITLE = "Codex CLI"
NAME = "codex"
#: Codex applies a hook's updatedInput only together with allow (cc-hook test reads it so).
REWRITE_NEEDS_ALLOW = True
CONFIG_DIR = ".codex"
#: The project's instructions file it reads (cc-track learn writes its corrections there).
INSTRUCTIONS_FILE = "AGENTS.md"
#: Its transcripts under `transcript_dir()`: `YYYY/MM/DD/rollout-*.jsonl`.
TRANSCRIPT_FILES = "**/rollout-*.jsonl"
NO_ANSWER = ""
SHELL_TOOLS = ("Bash", "shell", "local_shell")
EVENT = "PreToolUse"
POST_EVENT = "PostToolUse"
#: How the installed hooks.json names its after-execution hook (cc-hook test, init, verify).
AFTER_MARK = POST_EVENT
#: The script runs the parity rewrite, or with `post` the filter after execution
#: (hook_script.PIPELINES).
PIPELINES = ("rewrite", "post")
#: Seconds Codex waits for the hook before it runs the original command anyway (fail open).
HOOK_TIMEOUT = 10
#: How much of the session's transcript (its end) is searched for the command's exit code.
TRANSCRIPT_TAIL = 4 << 20
#: Where an allow rule goes and its exact lines, for the commands init/verify say it asks about.
ALLOW_RULES = ("~/.codex/rules/default.rules",
               lambda prefixes: ["prefix_rule(pattern=[" + ", ".join(
                   f'"{w}"' for w in p.split()) + '], decision="allow")' for p in prefixes])


def decode(event: dict) -> dict | None:
    if event.get("hook_event_name") == POST_EVENT:
        return _decode_result(event)
    return decode_claude_shape(NAME, event, SHELL_TOOLS)


def encode(record: dict) -> dict | None:
    if event_meta(record).get("phase") == "post":
        text = record.get("filtered")
        code = record.get("exit_code")
        if not isinstance(text, str) or not isinstance(code, int):
            return None
        # what the model then receives, in place of Codex's own copy; the header is the
        # one Codex writes (the exit code stays visible)
        return {"decision": "block", "reason": f"Process exited with code {code}\nOutput:\n{text}"}
    if decision_of(record) == "allow" and rewritten_of(record) is None:
        return None  # nothing to change: Codex decides as it would without us
    return encode_claude_shape(record, allow_rewrite_without_allow=False)


def _decode_result(event: dict) -> dict | None:
    """A PostToolUse event: the command ran (approved by the user, or allowed by a rule and so
    left as it was by the pre-execution hook). Its output and exit code come from the
    session's transcript, which Codex has written by then (`item_completed`, a
    `CommandExecution` item whose `id` is the event's `tool_use_id`: `exit_code` and
    `aggregated_output`, the output's last 64 KiB); the event's own `tool_response` is the
    model's truncated copy (about 10 KB) and has no exit code. A command already rewritten
    into `cc-filter run …` is not filtered again: its answer (tee hint included) stands."""
    if event.get("tool_name") not in SHELL_TOOLS:
        return None
    tool_input = event.get("tool_input")
    shown = event.get("tool_response")
    call = event.get("tool_use_id")
    path = event.get("transcript_path")
    if not isinstance(tool_input, dict) or not isinstance(shown, str) or \
            not isinstance(call, str) or not call or not isinstance(path, str):
        return None
    command = tool_input.get("command")
    if isinstance(command, str) and ("cc-filter run " in command or "cc-filter' run " in command):
        return None  # rewritten before it ran: its output is already filtered, hint included
    found = transcript_result(path, call)
    if found is None:
        return None  # no exit code: Codex's own output stays
    code, output = found
    from ..post import result_record

    return result_record(NAME, event, tool_input, exit_code=code,
                         output=output if isinstance(output, str) else shown,
                         shown_chars=len(shown))


def transcript_result(path: str, call_id: str):
    """(exit code, aggregated output or None) of the command `call_id` in a Codex
    transcript (JSON Lines), read from its end; None when it is not there."""
    import os

    from cc_peel.record import loads

    try:
        with open(path, "rb") as f:
            size = f.seek(0, os.SEEK_END)
            f.seek(max(0, size - TRANSCRIPT_TAIL))
            data = f.read()
    except OSError:
        return None
    needle = ('"' + call_id + '"').encode()
    for line in reversed(data.split(b"\n")):
        if needle not in line or b'"CommandExecution"' not in line:
            continue
        try:
            entry = loads(line.decode("utf-8"))
        except (ValueError, UnicodeDecodeError):
            continue
        payload = entry.get("payload") if isinstance(entry, dict) else None
        item = payload.get("item") if isinstance(payload, dict) else None
        if not isinstance(item, dict) or item.get("type") != "CommandExecution" or \
                item.get("id") != call_id:
            continue
        code = item.get("exit_code")
        if not isinstance(code, int) or isinstance(code, bool):
            return None
        output = item.get("aggregated_output")
        return code, output if isinstance(output, str) else None
    return None


# -- install (cold path: imports inside)

def user_dir(user_home: str | None = None) -> str:
    """Codex's own folder: `$CODEX_HOME`, else `.codex` in `user_home` (default: the user's
    home folder)."""
    import os

    return os.environ.get("CODEX_HOME") or os.path.join(user_home or os.path.expanduser("~"),
                                                        CONFIG_DIR)


def codex_home(ctx) -> str:
    return user_dir(ctx.user_home)


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
    post = JsonRegistration(
        hooks_json, ("hooks", POST_EVENT),
        {"matcher": "Bash", "hooks": [{"type": "command", "command": f"{ctx.hook_command} post",
                                       "timeout": HOOK_TIMEOUT}]},
        nested=True, description=f"hooks.{POST_EVENT} (matcher Bash, timeout {HOOK_TIMEOUT} s)")
    post_trust = HookTrust(os.path.join(codex_home(ctx), "config.toml"), post,
                           project=None if scope == "global" else root)
    return [registration, trust, post, post_trust]


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event Codex CLI sends before running `command` in `cwd` (`cc-hook test`),
    as codex-cli 0.171 `codex exec` sends it (tests/agents/codex/)."""
    return {"session_id": "ctxcrl-test", "turn_id": "ctxcrl-test", "transcript_path": None,
            "cwd": cwd, "hook_event_name": "PreToolUse", "model": "gpt-5-codex",
            "permission_mode": "bypassPermissions", "tool_name": "Bash",
            "tool_use_id": "call_ctxcrl_test", "tool_input": {"command": command}}


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """The instructions file Codex reads the awareness note from: AGENTS.md in $CODEX_HOME
    (default ~/.codex) or in the project."""
    import os

    if scope == "global":
        return os.path.join(user_dir(user_home), INSTRUCTIONS_FILE)
    return os.path.join(root, INSTRUCTIONS_FILE)


# -- transcripts (cc-track reads them; cold path: imports inside)
def transcript_dir() -> str:
    """`$CODEX_HOME/sessions`, else `~/.codex/sessions`."""
    import os

    return os.path.join(user_dir(), "sessions")


def read_transcript(path: str, history):
    """A Codex rollout: `session_meta` (id, cwd), `turn_context` (model), `response_item`
    function calls (`exec_command {"cmd"}`, older `shell {"command": [argv]}`) and their
    `function_call_output`, `event_msg item_completed` CommandExecution items (exit code),
    and `token_usage_record` per response (or, in older rollouts, `event_msg token_count`)."""
    import os

    from ..transcript import Session, ShellCall, json_lines, parse_ts

    session = Session(NAME, os.path.splitext(os.path.basename(path))[0], path)
    calls: dict = {}
    model = None
    records: dict = {}
    counts: list = []
    last_total = None
    for entry in json_lines(path, history):
        ts = parse_ts(entry.get("timestamp"))
        session.seen(ts)
        payload = entry.get("payload") if isinstance(entry.get("payload"), dict) else {}
        kind, ptype = entry.get("type"), payload.get("type")
        if kind == "session_meta":
            session.id = payload.get("id") or session.id
            session.cwd = payload.get("cwd") or session.cwd
        elif kind == "turn_context":
            model = payload.get("model") or model
            session.cwd = session.cwd or payload.get("cwd")
        elif kind == "response_item" and ptype in ("function_call", "local_shell_call",
                                                   "custom_tool_call"):
            command = _call_command(payload.get("arguments") or payload.get("action")
                                    or payload.get("input"))
            call_id = payload.get("call_id") or payload.get("id")
            if command and isinstance(call_id, str):
                call = calls[call_id] = ShellCall(call_id, command, ts, session.cwd)
                session.calls.append(call)
        elif kind == "response_item" and ptype in ("function_call_output",
                                                   "custom_tool_call_output"):
            call = calls.get(payload.get("call_id"))
            if call is None:
                continue
            text, code = _call_output(payload.get("output"))
            call.end_ts = ts
            if call.exit_code is None:
                call.exit_code = code
            call.failed = call.exit_code is not None and call.exit_code != 0
            call.read(text)
        elif kind == "event_msg" and ptype == "item_completed":
            item = payload.get("item") if isinstance(payload.get("item"), dict) else {}
            call = calls.get(item.get("id"))
            if call is not None and item.get("type") == "CommandExecution" \
                    and isinstance(item.get("exit_code"), int):
                call.exit_code = item["exit_code"]
                call.failed = call.exit_code != 0
        elif kind == "token_usage_record" and isinstance(payload.get("usage"), dict):
            key = payload.get("response_id") or f"{session.id}:{len(records)}"
            records[key] = _usage(key, ts, model, payload["usage"])
        elif kind == "event_msg" and ptype == "token_count":
            info = payload.get("info") if isinstance(payload.get("info"), dict) else {}
            last, total = info.get("last_token_usage"), info.get("total_token_usage")
            if isinstance(last, dict) and total != last_total:
                last_total = total
                counts.append(_usage(f"{session.id}:{len(counts)}", ts, model, last))
    session.usage = list(records.values()) or counts
    for usage in session.usage:
        session.used(usage.model)
    return session


def _call_command(arguments) -> str | None:
    """The shell command of a Codex function call (`shell`: argv list, `exec_command`: cmd)."""
    import json

    try:
        args = json.loads(arguments) if isinstance(arguments, str) else arguments
    except ValueError:
        return None
    if not isinstance(args, dict):
        return None
    command = args.get("command", args.get("cmd"))
    if isinstance(command, list) and all(isinstance(w, str) for w in command):
        if len(command) >= 3 and command[0] in ("bash", "sh", "zsh", "/bin/bash", "/bin/sh") \
                and command[1] in ("-c", "-lc"):
            return command[2]
        import shlex
        return shlex.join(command)
    return command if isinstance(command, str) and command.strip() else None


def _usage(key, ts, model, counts: dict):
    """OpenAI counts cached input inside input_tokens: the uncached rest is input."""
    from ..transcript import Usage, count

    cached = count(counts.get("cached_input_tokens"))
    written = count(counts.get("cache_write_input_tokens"))
    return Usage(key, ts, model or "unknown",
                 max(count(counts.get("input_tokens")) - cached - written, 0),
                 count(counts.get("output_tokens")), cached, written)


def _call_output(output) -> tuple[str, int | None]:
    """(text, exit code) of a Codex tool output: a JSON string {"output", "metadata":
    {"exit_code"}} or plain text with an exit code line."""
    import json
    import re

    if isinstance(output, str):
        try:
            data = json.loads(output)
        except ValueError:
            data = None
        if isinstance(data, dict):
            text = data.get("output") if isinstance(data.get("output"), str) else output
            meta = data.get("metadata") if isinstance(data.get("metadata"), dict) else {}
            code = meta.get("exit_code")
            if isinstance(code, int):
                return text, code
            output = text
        match = re.search(r"(?:Exit code|exit_code|Process exited with code):?\s*(-?\d+)",
                          output)
        # exec_command: "Chunk ID: …\nWall time: …\nProcess exited with code N\n…\nOutput:\n…"
        head, sep, body = output.partition("\nOutput:\n")
        return (body if sep else output), int(match.group(1)) if match else None
    if isinstance(output, dict):
        return _call_output(json.dumps(output))
    return "", None


def check_client(install: dict, finding, user_home: str, cwd: str) -> None:
    """`cc-hook verify`: another PreToolUse hook on Bash in Codex's hooks.json files."""
    import os

    from ..client_check import foreign_hooks, project_roots, read_json, short

    files = [(os.path.join(user_dir(user_home), "hooks.json"), "user")]
    files += [(os.path.join(root, ".codex", "hooks.json"), "project")
              for root in project_roots(install, cwd, user_home)]
    for path, level in files:
        settings = read_json(path)
        if settings is None:
            continue
        for command in foreign_hooks(settings, "PreToolUse", "Bash"):
            finding.warn(f"{level} hooks {short(path)} registers another PreToolUse hook on "
                         f"Bash ({command}): its answer may replace the rewritten command; "
                         f"fix: remove it from hooks.PreToolUse in {short(path)}")
