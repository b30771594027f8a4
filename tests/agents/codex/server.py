"""A scripted OpenAI Responses API server for the real Codex CLI (`codex exec` and its TUI;
wire_api = "responses").

Turn n (a request whose conversation holds n - 1 tool outputs) answers with one
`function_call` of the shell tool Codex offered for the n-th command (its name and argument
shape are read from the request's `tools`, so the script follows the client); past the last
command, and for a side request that offers no tools (the TUI's), a short assistant message.
`outputs()` gives what the model received back: the `function_call_output` items of the later
requests, in order.
"""
from __future__ import annotations

import json
import time

from harness import ScriptedServer


def _sse(event: dict) -> str:
    return f"event: {event['type']}\ndata: {json.dumps(event)}\n\n"


def shell_call(tools: list, command: str) -> tuple[str, str]:
    """(tool name, JSON arguments) that run `command` with the shell tool in `tools`."""
    names = {t.get("name"): t for t in tools or [] if isinstance(t, dict)}
    if "shell_command" in names:
        return "shell_command", json.dumps({"command": command})
    if "exec_command" in names:
        return "exec_command", json.dumps({"cmd": command})
    if "shell" in names:
        return "shell", json.dumps({"command": ["bash", "-lc", command]})
    raise AssertionError(f"no shell tool offered: {sorted(n for n in names if n)}")


class ResponsesServer(ScriptedServer):
    """`commands`: the shell command the model runs at each tool turn, in order."""

    def __init__(self, commands: list[str], lifetime: float = 300):
        super().__init__(lifetime)
        self.commands = list(commands)
        self.calls: list[tuple[float, str]] = []      # (time sent, call_id)
        self.received: list[tuple[float, dict]] = []  # (time received, request body)

    def respond(self, handler, body):
        if not handler.path.rstrip("/").endswith("/responses") or not isinstance(body, dict):
            return 404, {"Content-Type": "application/json"}, b'{"error":"not scripted"}'
        now = time.monotonic()
        self.received.append((now, body))
        # the turn: how many tool outputs the conversation holds (the TUI also sends side
        # requests without tools, e.g. for a title: they get a message)
        answered = sum(1 for item in body.get("input") or []
                       if isinstance(item, dict) and item.get("type") == "function_call_output")
        turn = answered + 1 if body.get("tools") else len(self.commands) + 1
        rid = f"resp_{len(self.received)}"
        events = [{"type": "response.created", "response": {"id": rid}}]
        if turn <= len(self.commands):
            name, arguments = shell_call(body.get("tools"), self.commands[turn - 1])
            call_id = f"call_{turn}"
            item = {"type": "function_call", "id": f"fc_{turn}", "call_id": call_id,
                    "name": name, "arguments": arguments, "status": "completed"}
            events.append({"type": "response.output_item.added", "output_index": 0,
                           "item": dict(item, status="in_progress", arguments="")})
            events.append({"type": "response.output_item.done", "output_index": 0, "item": item})
            self.calls.append((now, call_id))
        else:
            item = {"type": "message", "id": f"msg_{len(self.received)}", "role": "assistant",
                    "status": "completed",
                    "content": [{"type": "output_text", "text": "done", "annotations": []}]}
            events.append({"type": "response.output_item.added", "output_index": 0,
                           "item": dict(item, content=[])})
            events.append({"type": "response.output_item.done", "output_index": 0, "item": item})
        events.append({"type": "response.completed", "response": {
            "id": rid, "usage": {"input_tokens": 10, "input_tokens_details": {"cached_tokens": 0},
                                 "output_tokens": 5,
                                 "output_tokens_details": {"reasoning_tokens": 0},
                                 "total_tokens": 15}}})
        return 200, {"Content-Type": "text/event-stream"}, (_sse(e) for e in events)

    def outputs(self) -> list[str]:
        """The function_call_output texts the model received, one per tool call, in order."""
        seen, result = set(), []
        for _, body in self.received:
            for item in body.get("input") or []:
                if isinstance(item, dict) and item.get("type") == "function_call_output" \
                        and item.get("call_id") not in seen:
                    seen.add(item.get("call_id"))
                    out = item.get("output")
                    if isinstance(out, list):
                        out = "".join(p.get("text", "") for p in out if isinstance(p, dict))
                    result.append(out if isinstance(out, str) else json.dumps(out))
        return result
