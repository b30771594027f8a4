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
from ctxcrl import jsoncodec

from .agents import CODEC_AGENTS, load

MAX_BODY_BYTES = 1 << 20
"""Events larger than this are not answered (a command that long is not worth rewriting)."""

SCRIPT_ENV = "CTXCRL_HOOK_SCRIPT"
"""Set by the installed hook script for `decode`: its own path, checked against the SHA-256
recorded next to it before anything is answered (ARCHITECTURE §8: a tampered hook rewrites nothing).
Checking here, in Python, spares the script a hashing process in front of the pipeline."""

MENTION_ENV = "CTXCRL_MENTION_FD"
"""Set by a fail-closed agent's hook script for `decode` (hook_script.render): the file
descriptor on which decode says MENTION_MARK, as soon as it has read the event and before
anything else, when the event's bytes mention cc-filter. The script then refuses that event if
the stages after decode give no answer, without reading the event itself first (a `cat` in
front of the whole pipeline)."""
MENTION_MARK = b"ctxcrl: the event mentions cc-filter\n"
MENTIONED = b"cc-filter"

_BOM = "\ufeff"


def read_body(fd: int) -> str | None:
    """All of stdin as text, or None when it is too large or not UTF-8. Oversized input is
    drained, so the agent never gets a broken pipe for writing its event."""
    return read_event(fd)[0]


def read_event(fd: int) -> tuple:
    """(read_body's text, whether the bytes read — all of them, an oversized event's too —
    hold MENTIONED)."""
    chunks = []
    size = 0
    tail = b""  # the end of the chunk before: MENTIONED may straddle two reads
    seen = False
    while True:
        try:
            chunk = posix.read(fd, 1 << 16)
        except InterruptedError:
            continue
        except OSError:
            size = MAX_BODY_BYTES + 1  # unreadable: no answer
            break
        if not chunk:
            break
        if not seen:
            seen = MENTIONED in tail + chunk
            tail = chunk[-(len(MENTIONED) - 1):]
        size += len(chunk)
        if size <= MAX_BODY_BYTES:
            chunks.append(chunk)
    if size > MAX_BODY_BYTES:
        return None, seen
    try:
        text = b"".join(chunks).decode("utf-8")
    except UnicodeDecodeError:
        return None, seen
    return (text[1:] if text.startswith(_BOM) else text), seen


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
        jsoncodec.ready()
        script = _environ(SCRIPT_ENV) if direction == "decode" else None
        mark_fd = _environ(MENTION_ENV) if direction == "decode" else None
        if script and not script_is_intact(script):
            _say_mention(mark_fd, read_event(0)[1])  # drained: the agent gets no broken pipe
            _warn(f"{script} does not match its recorded SHA-256; not rewriting "
                  "(run: cc-hook verify)", prefix="ctxcrl")
            return 0
        body, mentioned = read_event(0)
        _say_mention(mark_fd, mentioned)
        out = decode(agent, body) if direction == "decode" else encode(agent, body)
    except Exception as exc:  # the hook never blocks the agent
        _warn(f"{direction} {agent}: {type(exc).__name__}: {exc}")
        codec = load(agent)
        out = None if direction == "decode" else getattr(codec, "NO_RECORD", codec.NO_ANSWER)
    if out:
        write_all(1, (out + "\n").encode("utf-8"))
    return 0


def _say_mention(mark_fd: str | None, mentioned: bool) -> None:
    """MENTION_MARK on the script's descriptor, when it asked and the event mentions
    cc-filter (a write that fails changes nothing: the script then reads no mark)."""
    if mentioned and mark_fd is not None and mark_fd.isdigit():
        write_all(int(mark_fd), MENTION_MARK)


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
