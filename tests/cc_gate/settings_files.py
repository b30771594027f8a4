"""Writing agents' settings files for gate tests."""
import json
import os


def write_json(path, data) -> str:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w", encoding="utf-8") as f:
        f.write(data if isinstance(data, str) else json.dumps(data))
    return str(path)


def claude_settings(allow=(), ask=(), deny=()) -> dict:
    return {"permissions": {"allow": list(allow), "ask": list(ask), "deny": list(deny)}}
