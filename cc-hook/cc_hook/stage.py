"""The two pipeline stages the hook script runs: `decode <agent>` and `encode <agent>`.

Hot path — runs on every agent command: imports only `os`, `sys`, `_json` (via jsonline) and the
agent's codec module. Never raises and never prints a traceback: whatever goes wrong, the stage
exits 0 with no output (encode: the agent's "no change" answer), and at most one line on stderr.
"""
import os
import sys

from . import jsonline
from .agents import HOOK_AGENTS, load

MAX_BODY_BYTES = 1 << 20
"""Events larger than this are not answered (a command that long is not worth rewriting)."""

_BOM = "\ufeff"


def read_body(fd: int) -> str | None:
    """All of stdin as text, or None when it is too large or not UTF-8. Oversized input is
    drained, so the agent never gets a broken pipe for writing its event."""
    chunks = []
    size = 0
    while True:
        try:
            chunk = os.read(fd, 1 << 16)
        except InterruptedError:
            continue
        except OSError:
            return None
        if not chunk:
            break
        size += len(chunk)
        if size > MAX_BODY_BYTES:
            chunks = None
            while True:
                try:
                    if not os.read(fd, 1 << 16):
                        break
                except InterruptedError:
                    continue
                except OSError:
                    break
            return None
        chunks.append(chunk)
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text[1:] if text.startswith(_BOM) else text


def parse_object(text: str) -> dict | None:
    try:
        value = jsonline.loads(text)
    except (ValueError, TypeError):
        return None
    return value if isinstance(value, dict) else None


def decode(agent: str, body: str | None) -> str | None:
    """The command record line for one event, or None when the event gets no answer."""
    if not body or not body.strip():
        return None
    event = parse_object(body)
    if event is None:
        return None
    record = load(agent).decode(event)
    return None if record is None else jsonline.dumps(record)


def encode(agent: str, body: str | None) -> str:
    """The agent's answer for the final record (first JSON-object line), or its no-answer."""
    codec = load(agent)
    for line in (body or "").splitlines():
        if not line.strip():
            continue
        record = parse_object(line)
        if record is None:
            continue
        answer = codec.encode(record)
        return codec.NO_ANSWER if answer is None else jsonline.dumps(answer)
    return codec.NO_ANSWER


def run(direction: str, agent: str) -> int:
    """Run one stage on stdin/stdout. Exit 0 always, except 2 for an unknown agent."""
    if agent not in HOOK_AGENTS:
        sys.stderr.write(f"cc-hook: unknown agent {agent!r} (one of: {', '.join(HOOK_AGENTS)})\n")
        return 2
    out = ""
    try:
        load(agent)  # import the codec while the upstream stage is still working
        body = read_body(0)
        out = decode(agent, body) if direction == "decode" else encode(agent, body)
    except Exception as exc:  # the hook never blocks the agent
        _warn(f"{direction} {agent}: {type(exc).__name__}: {exc}")
        out = None if direction == "decode" else load(agent).NO_ANSWER
    if out:
        write_all(1, (out + "\n").encode("utf-8"))
    return 0


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            view = view[os.write(fd, view):]
        except InterruptedError:
            continue
        except OSError:
            return


def _warn(message: str) -> None:
    try:
        sys.stderr.write(f"cc-hook: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
