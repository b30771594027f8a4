"""Agent session histories, read into one model: sessions, their shell calls, their token usage.

Owns the readers of each agent's own history files (never writes them):
- Claude Code: `~/.claude/projects/<project>/<session>.jsonl` (`$CLAUDE_CONFIG_DIR/projects`);
- Codex: `$CODEX_HOME/sessions/YYYY/MM/DD/rollout-*.jsonl` (default `~/.codex`);
- Gemini CLI: `~/.gemini/tmp/<project>/chats/session-*.jsonl` (`$GEMINI_CLI_HOME/.gemini`;
  the project's path in `tmp/<project>/.project_root`).

A `Session` holds its shell calls in order (`ShellCall`: command, start and end time, exit
code, whether it failed, the output text the agent read, the command the hook rewrote it to)
and the token usage of each model response (`Usage`, one per API message: Claude Code writes
one line per content block, each repeating the message's usage, so lines are folded by
`message.id`). Lines that are not JSON objects are skipped and counted, never fatal.
"""
import datetime as _dt
import glob
import json
import os
import re

#: The output text kept per call: enough to classify an error, bounded for huge outputs.
KEPT_OUTPUT_CHARS = 4000
_EXIT_CODE = re.compile(r"\AExit code (\d+)\b")


def claude_projects_dir() -> str:
    base = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(os.path.expanduser("~"), ".claude")
    return os.path.join(base, "projects")


def codex_sessions_dir() -> str:
    base = os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")
    return os.path.join(base, "sessions")


def gemini_dir() -> str:
    """Gemini CLI's folder: `$GEMINI_CLI_HOME/.gemini` (the client's own override of its home
    directory), else `~/.gemini`."""
    return os.path.join(os.environ.get("GEMINI_CLI_HOME") or os.path.expanduser("~"), ".gemini")


def parse_ts(value) -> float | None:
    if not isinstance(value, str):
        return None
    try:
        return _dt.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


class ShellCall:
    __slots__ = ("id", "command", "ts", "end_ts", "cwd", "exit_code", "failed", "output",
                 "output_chars", "rewritten")

    def __init__(self, id, command, ts, cwd):
        self.id, self.command, self.ts, self.cwd = id, command, ts, cwd
        self.end_ts = None
        self.exit_code = None   # None: the agent did not record one
        self.failed = False
        self.output = ""        # the first KEPT_OUTPUT_CHARS of what the agent read
        self.output_chars = 0
        self.rewritten = None   # the command a PreToolUse hook replaced it with

    @property
    def answered(self) -> bool:
        return self.end_ts is not None

    def to_json(self) -> dict:
        return {"id": self.id, "command": self.command, "ts": self.ts, "end_ts": self.end_ts,
                "cwd": self.cwd, "exit_code": self.exit_code, "failed": self.failed,
                "output_chars": self.output_chars, "rewritten": self.rewritten}


class Usage:
    __slots__ = ("id", "ts", "model", "input", "output", "cache_read", "cache_write")

    def __init__(self, id, ts, model, input=0, output=0, cache_read=0, cache_write=0):
        self.id, self.ts, self.model = id, ts, model
        self.input, self.output = input, output
        self.cache_read, self.cache_write = cache_read, cache_write

    @property
    def total(self) -> int:
        return self.input + self.output + self.cache_read + self.cache_write


class Session:
    __slots__ = ("agent", "id", "path", "cwd", "start", "end", "calls", "usage", "models")

    def __init__(self, agent, id, path):
        self.agent, self.id, self.path = agent, id, path
        self.cwd = None
        self.start = self.end = None
        self.calls: list[ShellCall] = []
        self.usage: list[Usage] = []
        self.models: dict[str, int] = {}

    def seen(self, ts) -> None:
        if ts is None:
            return
        self.start = ts if self.start is None else min(self.start, ts)
        self.end = ts if self.end is None else max(self.end, ts)


class History:
    __slots__ = ("sessions", "files", "lines", "malformed")

    def __init__(self):
        self.sessions: list[Session] = []
        self.files = self.lines = self.malformed = 0


def _int(value) -> int:
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


def _text_of(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(item["text"] for item in content
                       if isinstance(item, dict) and isinstance(item.get("text"), str))
    return ""


def _inside(cwd, project) -> bool:
    return project is None or (isinstance(cwd, str) and (
        cwd == project or cwd.startswith(project.rstrip("/") + "/")))


def json_lines(path: str, history):
    """The JSON objects of a JSON Lines file; `history` (anything with `files`, `lines` and
    `malformed` counters: History, discover's SessionScan) counts what was read and skipped."""
    try:
        f = open(path, "rb")
    except OSError:
        return
    history.files += 1
    with f:
        for raw in f:
            history.lines += 1
            try:
                entry = json.loads(raw)
            except ValueError:
                history.malformed += 1
                continue
            if not isinstance(entry, dict):
                history.malformed += 1
                continue
            yield entry


# --- Claude Code -----------------------------------------------------------------------------

def _claude_rewrite(attachment: dict) -> tuple | None:
    """(tool_use id, rewritten command) from a PreToolUse hook's recorded answer."""
    if attachment.get("type") != "hook_success" or attachment.get("hookEvent") != "PreToolUse":
        return None
    try:
        answer = json.loads(attachment.get("stdout") or "")
        command = answer["hookSpecificOutput"]["updatedInput"]["command"]
    except (ValueError, TypeError, KeyError):
        return None
    if isinstance(command, str) and isinstance(attachment.get("toolUseID"), str):
        return attachment["toolUseID"], command
    return None


def read_claude_session(path: str, history: History) -> Session:
    session = Session("claude", os.path.splitext(os.path.basename(path))[0], path)
    calls: dict[str, ShellCall] = {}
    usage: dict[str, Usage] = {}
    for entry in json_lines(path, history):
        ts = parse_ts(entry.get("timestamp"))
        session.seen(ts)
        if isinstance(entry.get("sessionId"), str):
            session.id = entry["sessionId"]
        if session.cwd is None and isinstance(entry.get("cwd"), str):
            session.cwd = entry["cwd"]
        kind = entry.get("type")
        if kind == "attachment" and isinstance(entry.get("attachment"), dict):
            found = _claude_rewrite(entry["attachment"])
            if found and found[0] in calls:
                calls[found[0]].rewritten = found[1]
            continue
        message = entry.get("message")
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        if kind == "assistant":
            _claude_usage(message, entry, ts, usage, session)
            for item in content if isinstance(content, list) else ():
                if (isinstance(item, dict) and item.get("type") == "tool_use"
                        and item.get("name") == "Bash" and isinstance(item.get("id"), str)):
                    tool_input = item.get("input")
                    command = tool_input.get("command") if isinstance(tool_input, dict) else None
                    if isinstance(command, str) and command.strip():
                        call = calls[item["id"]] = ShellCall(item["id"], command, ts,
                                                             entry.get("cwd") or session.cwd)
                        session.calls.append(call)
        elif kind == "user" and isinstance(content, list):
            for item in content:
                if not (isinstance(item, dict) and item.get("type") == "tool_result"):
                    continue
                call = calls.get(item.get("tool_use_id"))
                if call is None:
                    continue
                text = _text_of(item.get("content"))
                result = entry.get("toolUseResult")
                if not text and isinstance(result, dict):
                    text = "".join(result.get(k) for k in ("stdout", "stderr")
                                   if isinstance(result.get(k), str))
                call.end_ts = ts
                call.failed = bool(item.get("is_error"))
                match = _EXIT_CODE.match(text)
                # a failure's text starts "Exit code N"; a success records no code: 0
                call.exit_code = int(match.group(1)) if match else (None if call.failed else 0)
                call.output_chars = len(text)
                call.output = text[:KEPT_OUTPUT_CHARS]
    session.usage = list(usage.values())
    return session


def _claude_usage(message, entry, ts, usage: dict, session: Session) -> None:
    counts = message.get("usage")
    model = message.get("model")
    if not isinstance(counts, dict) or not isinstance(model, str) or model == "<synthetic>":
        return
    key = message.get("id") or entry.get("requestId") or entry.get("uuid")
    if key in usage:
        return  # the same API message, another of its content blocks
    usage[key] = Usage(key, ts, model, _int(counts.get("input_tokens")),
                       _int(counts.get("output_tokens")),
                       _int(counts.get("cache_read_input_tokens")),
                       _int(counts.get("cache_creation_input_tokens")))
    session.models[model] = session.models.get(model, 0) + 1


# --- Codex -----------------------------------------------------------------------------------

def _codex_command(arguments) -> str | None:
    """The shell command of a Codex function call (`shell`: argv list, `exec_command`: cmd)."""
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


_CODEX_EXIT = re.compile(r"(?:Exit code|exit_code|Process exited with code):?\s*(-?\d+)")


def read_codex_session(path: str, history: History) -> Session:
    """A Codex rollout: `session_meta` (id, cwd), `turn_context` (model), `response_item`
    function calls (`exec_command {"cmd"}`, older `shell {"command": [argv]}`) and their
    `function_call_output`, `event_msg item_completed` CommandExecution items (exit code),
    and `token_usage_record` per response (or, in older rollouts, `event_msg token_count`)."""
    session = Session("codex", os.path.splitext(os.path.basename(path))[0], path)
    calls: dict[str, ShellCall] = {}
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
            command = _codex_command(payload.get("arguments") or payload.get("action")
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
            text, code = _codex_output(payload.get("output"))
            call.end_ts = ts
            if call.exit_code is None:
                call.exit_code = code
            call.failed = call.exit_code is not None and call.exit_code != 0
            call.output_chars = len(text)
            call.output = text[:KEPT_OUTPUT_CHARS]
        elif kind == "event_msg" and ptype == "item_completed":
            item = payload.get("item") if isinstance(payload.get("item"), dict) else {}
            call = calls.get(item.get("id"))
            if call is not None and item.get("type") == "CommandExecution" \
                    and isinstance(item.get("exit_code"), int):
                call.exit_code = item["exit_code"]
                call.failed = call.exit_code != 0
        elif kind == "token_usage_record" and isinstance(payload.get("usage"), dict):
            key = payload.get("response_id") or f"{session.id}:{len(records)}"
            records[key] = _codex_usage(key, ts, model, payload["usage"])
        elif kind == "event_msg" and ptype == "token_count":
            info = payload.get("info") if isinstance(payload.get("info"), dict) else {}
            last, total = info.get("last_token_usage"), info.get("total_token_usage")
            if isinstance(last, dict) and total != last_total:
                last_total = total
                counts.append(_codex_usage(f"{session.id}:{len(counts)}", ts, model, last))
    session.usage = list(records.values()) or counts
    for usage in session.usage:
        session.models[usage.model] = session.models.get(usage.model, 0) + 1
    return session


def _codex_usage(key, ts, model, counts: dict) -> Usage:
    """OpenAI counts cached input inside input_tokens: the uncached rest is input."""
    cached = _int(counts.get("cached_input_tokens"))
    written = _int(counts.get("cache_write_input_tokens"))
    return Usage(key, ts, model or "unknown",
                 max(_int(counts.get("input_tokens")) - cached - written, 0),
                 _int(counts.get("output_tokens")), cached, written)


def _codex_output(output) -> tuple[str, int | None]:
    """(text, exit code) of a Codex tool output: a JSON string {"output", "metadata":
    {"exit_code"}} or plain text with an exit code line."""
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
        match = _CODEX_EXIT.search(output)
        # exec_command: "Chunk ID: …\nWall time: …\nProcess exited with code N\n…\nOutput:\n…"
        head, sep, body = output.partition("\nOutput:\n")
        return (body if sep else output), int(match.group(1)) if match else None
    if isinstance(output, dict):
        return _codex_output(json.dumps(output))
    return "", None


# --- Gemini CLI ------------------------------------------------------------------------------

_GEMINI_EXIT = re.compile(r"^Exit Code: (-?\d+)$", re.M)


def _gemini_project_root(path: str) -> str | None:
    """`tmp/<project>/chats/x.jsonl` → the path in `tmp/<project>/.project_root`."""
    marker = os.path.join(os.path.dirname(os.path.dirname(path)), ".project_root")
    try:
        with open(marker, encoding="utf-8") as f:
            return f.read().strip() or None
    except OSError:
        return None


def _gemini_output(result) -> str:
    """The text of a run_shell_command result: `{"functionResponse": {"response": {"output":
    "<untrusted_context>\nOutput: …\nExit Code: N\nProcess Group PGID: …"}}}`."""
    texts = []
    for part in result if isinstance(result, list) else ():
        response = ((part or {}).get("functionResponse") or {}).get("response") \
            if isinstance(part, dict) else None
        if isinstance(response, dict):
            out = response.get("output", response.get("error"))
            if isinstance(out, str):
                texts.append(out)
    return "\n".join(texts)


def read_gemini_session(path: str, history: History) -> Session:
    """A Gemini CLI chat (JSON lines): a header `{sessionId, startTime, …}`, `{"$set": …}`
    patches, and message records `{id, timestamp, type: "user" | "gemini", tokens: {input,
    output, cached, thoughts, tool}, model, toolCalls: [{id, name: "run_shell_command",
    args: {command}, result, timestamp}]}`; a message is written again when its tool calls
    complete, so records are folded by id (the last one wins)."""
    session = Session("gemini", os.path.splitext(os.path.basename(path))[0], path)
    session.cwd = _gemini_project_root(path)
    messages: dict = {}
    for entry in json_lines(path, history):
        if isinstance(entry.get("sessionId"), str):
            session.id = entry["sessionId"]
            session.seen(parse_ts(entry.get("startTime")))
            continue
        if entry.get("type") in ("user", "gemini") and isinstance(entry.get("id"), str):
            messages[entry["id"]] = entry
    for entry in messages.values():
        ts = parse_ts(entry.get("timestamp"))
        session.seen(ts)
        if entry.get("type") != "gemini":
            continue
        tokens = entry.get("tokens")
        model = entry.get("model") if isinstance(entry.get("model"), str) else "unknown"
        if isinstance(tokens, dict):
            cached = _int(tokens.get("cached"))
            usage = Usage(entry["id"], ts, model,
                          max(_int(tokens.get("input")) - cached, 0) + _int(tokens.get("tool")),
                          _int(tokens.get("output")) + _int(tokens.get("thoughts")), cached, 0)
            session.usage.append(usage)
            session.models[model] = session.models.get(model, 0) + 1
        for tool in entry.get("toolCalls") or ():
            if not (isinstance(tool, dict) and tool.get("name") == "run_shell_command"):
                continue
            args = tool.get("args") if isinstance(tool.get("args"), dict) else {}
            command = args.get("command")
            if not (isinstance(command, str) and command.strip()):
                continue
            call = ShellCall(str(tool.get("id")), command, ts, args.get("dir_path")
                             and os.path.join(session.cwd or "", args["dir_path"])
                             or session.cwd)
            call.end_ts = parse_ts(tool.get("timestamp")) or ts
            session.seen(call.end_ts)
            text = _gemini_output(tool.get("result"))
            match = _GEMINI_EXIT.search(text)
            call.exit_code = int(match.group(1)) if match else (
                1 if tool.get("status") == "error" else 0)
            call.failed = call.exit_code != 0
            text = text.replace("<untrusted_context>\n", "").replace("</untrusted_context>", "")
            if text.startswith("Output: "):
                text = text[len("Output: "):]
            text = re.sub(r"\n(Exit Code: -?\d+|Process Group PGID: \d+)(?=\n|$)", "", text)
            call.output_chars = len(text)
            call.output = text[:KEPT_OUTPUT_CHARS]
            session.calls.append(call)
    session.calls.sort(key=lambda c: (c.ts or 0))
    return session


# --- all of them -----------------------------------------------------------------------------

def read_history(claude_dir: str | None = None, codex_dir: str | None = None,
                 since: float | None = None, project: str | None = None,
                 gemini_home: str | None = None) -> History:
    """Every session with activity at or after `since` whose cwd is inside `project` (when
    given), oldest first."""
    history = History()
    sources = [
        (claude_dir or claude_projects_dir(), os.path.join("*", "*.jsonl"), read_claude_session),
        (codex_dir or codex_sessions_dir(), os.path.join("**", "rollout-*.jsonl"),
         read_codex_session),
        (gemini_home or gemini_dir(), os.path.join("tmp", "*", "chats", "session-*.jsonl"),
         read_gemini_session),
    ]
    for base, pattern, reader in sources:
        for path in sorted(glob.glob(os.path.join(glob.escape(base), pattern), recursive=True)):
            try:
                if since is not None and os.path.getmtime(path) < since:
                    continue
            except OSError:
                continue
            session = reader(path, history)
            if since is not None and (session.end is None or session.end < since):
                continue
            if project is not None and not _inside(session.cwd, project):
                continue
            if session.calls or session.usage:
                history.sessions.append(session)
    history.sessions.sort(key=lambda s: (s.start or 0, s.id))
    return history
