"""The two pipeline stages the hook script runs: `decode <agent>` and `encode <agent>`.

Hot path — runs on every agent command: imports only `posix`, `sys`, the command-record codec
(`cc_peel.record`, built on `_json`) and the agent's codec module. Not even `os`: the hook
starts the stages without `site` (hook_script.stage_launcher), and `import os` alone would then
cost more than the rest of the stage. Never raises and never prints a traceback: whatever goes
wrong, the stage exits 0 with no output (encode: the agent's "no change" answer), and at most
one line on stderr.
"""
import posix
import sys

from cc_peel.record import dumps, loads

from .agents import CODEC_AGENTS, load

MAX_BODY_BYTES = 1 << 20
"""Events larger than this are not answered (a command that long is not worth rewriting)."""

SCRIPT_ENV = "CTXCRL_HOOK_SCRIPT"
"""Set by the installed hook script for `decode`: its own path, checked against the SHA-256
recorded next to it before anything is answered (ARCHITECTURE §8: a tampered hook rewrites nothing).
Checking here, in Python, spares the script a hashing process in front of the pipeline."""

_BOM = "\ufeff"


def read_body(fd: int) -> str | None:
    """All of stdin as text, or None when it is too large or not UTF-8. Oversized input is
    drained, so the agent never gets a broken pipe for writing its event."""
    chunks = []
    size = 0
    while True:
        try:
            chunk = posix.read(fd, 1 << 16)
        except InterruptedError:
            continue
        except OSError:
            return None
        if not chunk:
            break
        size += len(chunk)
        if size <= MAX_BODY_BYTES:
            chunks.append(chunk)
    if size > MAX_BODY_BYTES:
        return None
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        return None
    return text[1:] if text.startswith(_BOM) else text


def parse_object(text: str) -> dict | None:
    try:
        value = loads(text)
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
    return None if record is None else dumps(record)


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
        return codec.NO_ANSWER if answer is None else dumps(answer)
    return getattr(codec, "NO_RECORD", codec.NO_ANSWER)


def run(direction: str, agent: str) -> int:
    """Run one stage on stdin/stdout. Exit 0 always, except EXIT_USAGE (64) for an unknown agent."""
    if agent not in CODEC_AGENTS:
        from ctxcrl.console import EXIT_USAGE  # not on the hot path

        from cc_gate.agents import unknown_agent_message

        sys.stderr.write(f"cc-hook: {unknown_agent_message(agent, CODEC_AGENTS)}\n")
        return EXIT_USAGE
    out = ""
    try:
        load(agent)  # import the codec while the upstream stage is still working
        script = _environ(SCRIPT_ENV) if direction == "decode" else None
        if script and not script_is_intact(script):
            read_body(0)  # drained: the agent never gets a broken pipe
            _warn(f"{script} does not match its recorded SHA-256; not rewriting "
                  "(run: cc-hook verify)", prefix="ctxcrl")
            return 0
        body = read_body(0)
        out = decode(agent, body) if direction == "decode" else encode(agent, body)
    except Exception as exc:  # the hook never blocks the agent
        _warn(f"{direction} {agent}: {type(exc).__name__}: {exc}")
        codec = load(agent)
        out = None if direction == "decode" else getattr(codec, "NO_RECORD", codec.NO_ANSWER)
    if out:
        write_all(1, (out + "\n").encode("utf-8"))
    return 0


def _environ(name: str) -> str | None:
    value = posix.environ.get(name.encode())  # posix.environ: bytes, undecoded
    return None if value is None else value.decode("utf-8", "surrogateescape")


def script_is_intact(path: str) -> bool:
    """Whether the hook script at `path` still has the SHA-256 that `cc-hook init` recorded
    in `<path>.sha256` (an unreadable script or record counts as changed)."""
    try:
        with open(path, "rb") as f:
            data = f.read()
        with open(path + ".sha256", "rb") as f:
            recorded = f.read(200).split()
    except OSError:
        return False
    return bool(recorded) and recorded[0] == _sha256_hex(data).encode("ascii")


def _sha256_hex(data: bytes) -> str:
    try:
        from _sha2 import sha256  # Python 3.12+: the C module alone, without hashlib's OpenSSL
    except ImportError:
        try:
            from _sha256 import sha256
        except ImportError:
            from hashlib import sha256
    return sha256(data).hexdigest()


def write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        try:
            view = view[posix.write(fd, view):]
        except InterruptedError:
            continue
        except OSError:
            return


def _warn(message: str, prefix: str = "cc-hook") -> None:
    try:
        sys.stderr.write(f"{prefix}: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass
