"""A scripted OpenAI-compatible model (`POST …/chat/completions`, streaming SSE) for the clients
that speak it offline: OpenCode (an `@ai-sdk/openai-compatible` provider in opencode.json),
Copilot CLI (BYOK: `COPILOT_PROVIDER_BASE_URL`, wire API "completions", its default) and the
others after them (Kilo CLI, Qwen Code, Cline CLI, whose `run_commands` takes `{"command"}`).

The script is a list of shell commands. Each model turn that belongs to the agent's main
conversation (the request offers a shell tool) answers with one `tool_calls` entry for the next
command not yet called in that conversation (counted by the tool results already in it), then a
final text. Side requests (OpenCode's title generation, anything without tools) get a short
text. `tool_results()` gives back, per call, the text the client sent to the model as the tool
result: what the model received.
"""
from __future__ import annotations

import json
import time

from harness import ScriptedServer

#: The clients' shell tools, by name as they appear in the request's `tools`.
SHELL_TOOLS = ("bash", "shell", "run_shell_command", "run_commands")


def _chunk(delta: dict, finish: str | None = None, model: str = "scripted") -> str:
    body = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk",
            "created": int(time.time()), "model": model,
            "choices": [{"index": 0, "delta": delta, "finish_reason": finish}]}
    return f"data: {json.dumps(body)}\n\n"


def _usage_chunk(model: str = "scripted") -> str:
    body = {"id": "chatcmpl-scripted", "object": "chat.completion.chunk",
            "created": int(time.time()), "model": model, "choices": [],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
    return f"data: {json.dumps(body)}\n\n"


def _content_text(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(part.get("text", "") for part in content if isinstance(part, dict))
    return ""


class OpenAIChatServer(ScriptedServer):
    def __init__(self, commands: list[str], final_text: str = "done", lifetime: float = 300,
                 tool_args: dict | None = None):
        super().__init__(lifetime=lifetime)
        self.commands = list(commands)
        self.final_text = final_text
        self.tool_args = dict(tool_args or {})
        #: monotonic time of each tool call answered, and of the request that followed it
        self.call_times: list[float] = []
        self.next_times: list[float] = []

    # -- what the client sent ----------------------------------------------------------------
    def chat_requests(self) -> list[dict]:
        return [body for method, path, _, body in self.requests
                if method == "POST" and path.endswith("/chat/completions")
                and isinstance(body, dict)]

    def tool_results(self) -> list[str]:
        """The tool results of the main conversation, in call order (from the last request
        that carried them all)."""
        best: list[str] = []
        for body in self.chat_requests():
            results = [_content_text(m.get("content")) for m in body.get("messages", [])
                       if isinstance(m, dict) and m.get("role") == "tool"]
            if len(results) >= len(best):
                best = results
        return best

    # -- the script ---------------------------------------------------------------------------
    def _shell_tool(self, body: dict) -> str | None:
        names = [t.get("function", {}).get("name") for t in body.get("tools") or []
                 if isinstance(t, dict)]
        for name in SHELL_TOOLS:
            if name in names:
                return name
        return None

    def respond(self, handler, body):
        path = handler.path
        if handler.command == "GET" or not path.endswith("/chat/completions"):
            if path.endswith("/models"):
                return 200, {"Content-Type": "application/json"}, json.dumps(
                    {"object": "list", "data": [{"id": "scripted", "object": "model",
                                                 "owned_by": "test"}]})
            return 404, {"Content-Type": "application/json"}, '{"error": "not found"}'
        if not isinstance(body, dict):
            return 400, {"Content-Type": "application/json"}, '{"error": "bad body"}'
        model = body.get("model") or "scripted"
        tool = self._shell_tool(body)
        done = sum(1 for m in body.get("messages", [])
                   if isinstance(m, dict) and m.get("role") == "tool")
        now = time.monotonic()
        if tool is not None and done and len(self.next_times) < done <= len(self.call_times):
            self.next_times.append(now)
        if tool is not None and done < len(self.commands):
            args = {"command": self.commands[done], "description": "scripted step"}
            args.update(self.tool_args)
            args = {k: v for k, v in args.items() if v is not None}  # None drops a key
            call = {"index": 0, "id": f"call_{done + 1}", "type": "function",
                    "function": {"name": tool, "arguments": json.dumps(args)}}
            events = [_chunk({"role": "assistant", "content": None, "tool_calls": [call]},
                             model=model),
                      _chunk({}, "tool_calls", model=model)]
            if len(self.call_times) <= done:
                self.call_times.append(now)
        else:
            text = self.final_text if tool is not None else "Scripted session"
            events = [_chunk({"role": "assistant", "content": text}, model=model),
                      _chunk({}, "stop", model=model)]
        if body.get("stream"):
            events.append(_usage_chunk(model))
            events.append("data: [DONE]\n\n")
            return 200, {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}, \
                events
        return 200, {"Content-Type": "application/json"}, json.dumps(_non_stream(events, model))


def _non_stream(events: list[str], model: str) -> dict:
    """The same answer as one JSON body (for a client that does not ask for a stream)."""
    message: dict = {"role": "assistant", "content": None}
    finish = "stop"
    for event in events:
        data = json.loads(event[len("data: "):])
        for choice in data.get("choices", []):
            delta = choice.get("delta", {})
            if delta.get("content"):
                message["content"] = delta["content"]
            if delta.get("tool_calls"):
                message["tool_calls"] = [{k: v for k, v in c.items() if k != "index"}
                                         for c in delta["tool_calls"]]
            finish = choice.get("finish_reason") or finish
    return {"id": "chatcmpl-scripted", "object": "chat.completion", "created": int(time.time()),
            "model": model, "choices": [{"index": 0, "message": message,
                                         "finish_reason": finish}],
            "usage": {"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}}
