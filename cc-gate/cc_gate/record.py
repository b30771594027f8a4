"""Command records on the hook pipeline (DESIGN §3): one JSON object per line, or a bare command.

Owns reading a stage's input, telling a record from a bare command, and writing the stage's
answer in the same form. Unknown record fields pass through untouched and in order; a line
that looks like JSON but is not a usable record is passed on unchanged with one warning.
Both `cc-gate` and `cc-rewrite` drive their input through `run_stage`.

Runs on every agent command: imports only `_json`, `os` and `sys` (no `json`, which pulls `re`).
"""
import sys
from _json import encode_basestring_ascii, make_scanner

EMPTY = "empty"
RECORD = "record"
BARE = "bare"
MALFORMED = "malformed"


class _ScannerContext:
    """The attributes `_json.make_scanner` reads from a `json.JSONDecoder`."""

    __slots__ = ("strict", "object_hook", "object_pairs_hook", "parse_float", "parse_int",
                 "parse_constant", "memo")

    def __init__(self):
        self.strict = False  # agents' commands may carry raw control characters
        self.object_hook = None
        self.object_pairs_hook = None
        self.parse_float = float
        self.parse_int = int
        self.parse_constant = {"NaN": float("nan"), "Infinity": float("inf"),
                               "-Infinity": float("-inf")}.__getitem__
        self.memo = {}


_scan = make_scanner(_ScannerContext())
_JSON_SPACE = " \t\n\r"
_INF = float("inf")


def loads(text: str):
    """Parse exactly one JSON document; raises ValueError otherwise."""
    start = len(text) - len(text.lstrip(_JSON_SPACE))
    try:
        value, end = _scan(text, start)
    except StopIteration as exc:
        raise ValueError(f"not JSON at offset {exc.value}") from None
    except RecursionError:
        raise ValueError("JSON nested too deeply") from None
    except ValueError as exc:  # json.JSONDecodeError is a ValueError
        raise ValueError(str(exc)) from None
    except SystemError:
        # The C scanner raises json.decoder.JSONDecodeError only when json.decoder is already
        # imported; otherwise it fails without an exception. Malformed input is rare: pay for
        # the import only then, to say what is wrong.
        import json.decoder  # noqa: F401

        try:
            value, end = _scan(text, start)
        except (StopIteration, SystemError):
            raise ValueError("malformed JSON") from None
        except ValueError as exc:
            raise ValueError(str(exc)) from None
    if text[end:].strip(_JSON_SPACE):
        raise ValueError(f"extra data after JSON at offset {end}")
    return value


def dumps(value) -> str:
    """Compact JSON like `json.dumps` (ASCII, `", "` / `": "`), keys in insertion order."""
    parts: list[str] = []
    _write(value, parts.append)
    return "".join(parts)


def _write(value, out) -> None:
    if isinstance(value, str):
        out(encode_basestring_ascii(value))
    elif value is None:
        out("null")
    elif value is True:
        out("true")
    elif value is False:
        out("false")
    elif isinstance(value, int):
        out(int.__repr__(value))
    elif isinstance(value, float):
        if value != value:
            out("NaN")
        elif value in (_INF, -_INF):
            out("Infinity" if value > 0 else "-Infinity")
        else:
            out(float.__repr__(value))
    elif isinstance(value, dict):
        out("{")
        first = True
        for key, item in value.items():
            if not first:
                out(", ")
            first = False
            out(encode_basestring_ascii(str(key)))
            out(": ")
            _write(item, out)
        out("}")
    elif isinstance(value, (list, tuple)):
        out("[")
        first = True
        for item in value:
            if not first:
                out(", ")
            first = False
            _write(item, out)
        out("]")
    else:
        out(encode_basestring_ascii(str(value)))


def looks_like_json(line: str) -> bool:
    """A `{` followed by a key or `}` (a shell group `{ ls; }` is a bare command).

    Also `[`: a JSON array is never a command anyone types, so it is malformed input."""
    text = line.lstrip(" \t\r\ufeff")
    if not text:
        return False
    if text[0] == "[":
        return True
    if text[0] != "{":
        return False
    rest = text[1:].lstrip(" \t\r\n")
    return not rest or rest[0] in "\"}"


def classify(line: str):
    """(kind, payload): EMPTY/"", RECORD/dict, BARE/command, MALFORMED/why."""
    if not line.strip(" \t\r\ufeff"):
        return EMPTY, ""
    if not looks_like_json(line):
        return BARE, line
    try:
        value = loads(line.lstrip("\ufeff"))
    except ValueError as exc:
        return MALFORMED, f"not valid JSON ({exc})"
    if not isinstance(value, dict):
        return MALFORMED, "a JSON value that is not an object"
    command = value.get("command")
    if not isinstance(command, str):
        return MALFORMED, "a record without a string \"command\""
    return RECORD, value


def warn(tool: str, message: str) -> None:
    try:
        sys.stderr.write(f"{tool}: {message}\n")
        sys.stderr.flush()
    except (OSError, ValueError):
        pass


def _input_lines():
    stream = sys.stdin.buffer
    while True:
        try:
            raw = stream.readline()
        except (OSError, ValueError):
            return
        if not raw:
            return
        if raw.endswith(b"\n"):
            raw = raw[:-1]
        yield raw.decode("utf-8", "surrogateescape")


class _Output:
    __slots__ = ("stream", "closed")

    def __init__(self):
        self.stream = sys.stdout.buffer
        self.closed = False

    def line(self, text: str) -> None:
        if self.closed:
            return
        try:
            self.stream.write(text.encode("utf-8", "surrogateescape") + b"\n")
            self.stream.flush()
        except BrokenPipeError:
            self.closed = True
        except (OSError, ValueError, UnicodeEncodeError):
            self.closed = True


def run_stage(tool: str, command_arg, on_record, on_bare) -> list:
    """Drive a pipeline stage over its input; returns the bare-mode results (for exit codes).

    `on_record(record) -> record` changes a record in place or returns a new one (or returns
    the text to print instead, e.g. an explanation);
    `on_bare(command) -> (output_line, result)` answers a bare command.
    With `command_arg` set, that one command is answered and stdin is not read.
    """
    out = _Output()
    results = []
    if command_arg is not None:
        text, result = on_bare(command_arg)
        out.line(text)
        results.append(result)
        _close_quietly(out)
        return results
    for line in _input_lines():
        kind, payload = classify(line)
        if kind == EMPTY:
            out.line(line)
        elif kind == MALFORMED:
            warn(tool, f"passing on unchanged: {payload}")
            out.line(line)
        elif kind == RECORD:
            try:
                answered = on_record(payload)
            except Exception as exc:  # a bug must never break the agent's pipeline
                warn(tool, f"passing record on unchanged: internal error {exc!r}")
                out.line(line)
            else:
                out.line(answered if isinstance(answered, str) else dumps(answered))
        else:
            try:
                text, result = on_bare(payload)
            except Exception as exc:
                warn(tool, f"passing command on unchanged: internal error {exc!r}")
                out.line(line)
            else:
                out.line(text)
                results.append(result)
    _close_quietly(out)
    return results


def _close_quietly(out: _Output) -> None:
    if out.closed:
        # stdout went away (`| head -1`): make the interpreter's final flush a no-op.
        try:
            import os

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
