"""A recording approver for `claude -p --permission-prompt-tool mcp__approver__approve`.

A minimal MCP server on stdio (JSON-RPC 2.0, one message per line) with one tool, `approve`.
Claude Code calls it where the user would see a permission prompt, with `{tool_name, input,
tool_use_id}` (`input` is the tool input the prompt would show: for Bash, after the hooks'
`updatedInput`). Each call is appended to the log file as one JSON line, then answered:

- `{"behavior": "deny", "message": …}` when the command contains one of the `--deny WORD`
  words;
- `{"behavior": "allow", "updatedInput": <input as received>}` otherwise (the user approved
  what the prompt showed, unchanged).

    python approver.py LOG [--deny WORD]...

Standard library only; it exits when Claude Code closes its stdin.
"""
import json
import sys

TOOL = {
    "name": "approve",
    "description": "Decide a permission prompt (test approver: records every request).",
    "inputSchema": {"type": "object", "properties": {
        "tool_name": {"type": "string"}, "input": {"type": "object"},
        "tool_use_id": {"type": "string"}}, "required": ["tool_name", "input"]},
}


def decide(arguments: dict, deny_words: list) -> dict:
    tool_input = arguments.get("input") if isinstance(arguments.get("input"), dict) else {}
    command = str(tool_input.get("command", ""))
    if any(word in command for word in deny_words):
        return {"behavior": "deny", "message": "the test approver denied it"}
    return {"behavior": "allow", "updatedInput": tool_input}


def answer(message: dict, log: str, deny_words: list):
    method = message.get("method")
    if method == "initialize":
        params = message.get("params") or {}
        return {"protocolVersion": params.get("protocolVersion", "2025-06-18"),
                "capabilities": {"tools": {}},
                "serverInfo": {"name": "ctxcrl-test-approver", "version": "1"}}
    if method == "tools/list":
        return {"tools": [TOOL]}
    if method == "tools/call":
        params = message.get("params") or {}
        arguments = params.get("arguments") or {}
        verdict = decide(arguments, deny_words)
        with open(log, "a", encoding="utf-8") as f:
            f.write(json.dumps({"request": arguments, "answer": verdict["behavior"]}) + "\n")
        return {"content": [{"type": "text", "text": json.dumps(verdict)}]}
    if method == "ping":
        return {}
    return None


def main(argv: list) -> int:
    log, deny_words = argv[0], []
    rest = argv[1:]
    while rest:
        if rest[0] == "--deny" and len(rest) > 1:
            deny_words.append(rest[1])
            rest = rest[2:]
        else:
            rest = rest[1:]
    for line in sys.stdin:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        if not isinstance(message, dict) or "id" not in message:
            continue  # a notification (notifications/initialized …)
        result = answer(message, log, deny_words)
        if result is None:
            reply = {"jsonrpc": "2.0", "id": message["id"],
                     "error": {"code": -32601, "message": f"no method {message.get('method')}"}}
        else:
            reply = {"jsonrpc": "2.0", "id": message["id"], "result": result}
        sys.stdout.write(json.dumps(reply) + "\n")
        sys.stdout.flush()
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
