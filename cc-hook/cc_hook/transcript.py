"""What an agent's transcript is read into: sessions, their shell calls, their token usage.

Each agent that keeps transcripts reads them in its own module (cc_hook/agents/<name>.py:
`transcript_dir()`, `TRANSCRIPT_FILES`, `read_transcript(path, history)`), into this one
model; cc-track (`history.read_history`) reads every agent's. Transcripts are read, never
written.

A `Session` holds its shell calls in order (`ShellCall`: command, start and end time, exit
code, whether it failed, the output text the agent read, the command the hook rewrote it to)
and the token usage of each model response (`Usage`). Lines that are not JSON objects are
skipped and counted (`History.malformed`), never fatal. Cold path: the hook never imports it.
"""
import datetime as _dt
import json

#: The output text kept per call: enough to classify an error, bounded for huge outputs.
KEPT_OUTPUT_CHARS = 4000


def parse_ts(value) -> float | None:
    """An ISO 8601 time (`2026-01-31T09:00:00.000Z`) as a Unix time; None for anything else."""
    if not isinstance(value, str):
        return None
    try:
        return _dt.datetime.fromisoformat(value.replace("Z", "+00:00")).timestamp()
    except ValueError:
        return None


def count(value) -> int:
    """A token count as written (a positive int); 0 for anything else."""
    return value if isinstance(value, int) and not isinstance(value, bool) and value > 0 else 0


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

    def read(self, text: str) -> None:
        """The output the agent read: its length, and its first KEPT_OUTPUT_CHARS."""
        self.output_chars = len(text)
        self.output = text[:KEPT_OUTPUT_CHARS]

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

    def used(self, model: str) -> None:
        """One more model response by `model`."""
        self.models[model] = self.models.get(model, 0) + 1


class History:
    __slots__ = ("sessions", "files", "lines", "malformed")

    def __init__(self):
        self.sessions: list[Session] = []
        self.files = self.lines = self.malformed = 0


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
