"""The command record the hook stages pass along (ARCHITECTURE §3), and the line driver they share.

Between `cc-hook decode`, `cc-gate`, `cc-rewrite` and `cc-hook encode` flows one JSON object per
line (agent, cwd, command, input, decision, reason, rewritten, and whatever else a stage does
not know), or a bare command line. This module owns, once for all of them:

- the JSON codec's use (`loads` / `dumps` live in `ctxcrl.jsoncodec`, shared with the spool);
- telling a record from a bare command (`classify`) and driving a stage over its input
  (`run_stage`): unknown fields pass through untouched and in order, a line that looks like
  JSON but is not a usable record is passed on unchanged with one warning, an empty line
  stays an empty line;
- where a record's command runs (`cwd_of`), and a stage's command line (`stage_options`: the
  hot form parsed by hand by `fast_options`, which must agree with docopt, anything else by
  docopt), and its `main()` around them (`stage_main`).

Runs on every agent command: imports only `sys`, and lazily `_json` (a shared library: a bare
`cc-rewrite 'git status'` never loads it), `os`, and `docopt` for a command line that is not a
stage's hot form. Never `json` or `re`.
"""
import sys

from ctxcrl import jsoncodec
from ctxcrl.jsoncodec import dumps, loads  # noqa: F401  (the records' codec, re-exported)

EMPTY = "empty"
RECORD = "record"
BARE = "bare"
MALFORMED = "malformed"

# -- records and bare commands ---------------------------------------------------------------
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


def cwd_of(record, fallback: str | None = None) -> str:
    """Where a record's command runs: its "cwd", else `fallback` (a stage's --cwd), else the
    current directory ("/" when even that is gone). `record` may be None (a bare command)."""
    cwd = record.get("cwd") if record is not None else None
    if isinstance(cwd, str) and cwd:
        return cwd
    if fallback:
        return fallback
    from ctxcrl import lean_os as os

    try:
        return os.getcwd()
    except OSError:
        return "/"


def warn(tool: str, message: str) -> None:
    """One line on stderr, `<tool>: <message>` (bytes of the input that were not UTF-8 come
    back as they were, like on stdout); never raises."""
    line = f"{tool}: {message}\n"
    try:
        try:
            sys.stderr.write(line)
        except UnicodeEncodeError:
            sys.stderr.flush()
            sys.stderr.buffer.write(line.encode("utf-8", "surrogateescape"))
        sys.stderr.flush()
    except (OSError, ValueError, AttributeError):
        pass


# -- a stage's command line ------------------------------------------------------------------
def fast_options(argv: list, flags=(), values=(), others=("--help",)):
    """docopt's answer for a stage's hot form `[OPTIONS] [<command>]`, parsed by hand (docopt
    costs ~25 ms); None for anything else, which the caller then hands to docopt.

    flags: `--name` switches (False/True); values: `--name VALUE` or `--name=VALUE` (None or
    the value); each at most once. others: the options of the usage's other forms, reported
    False as docopt does (they are never accepted here). Tests compare the result with
    docopt's on the same argv, per stage."""
    opts = dict.fromkeys(others, False)
    opts.update(dict.fromkeys(flags, False))
    opts.update(dict.fromkeys(values))
    opts["<command>"] = None
    i, n = 0, len(argv)
    while i < n:
        arg = argv[i]
        if arg in flags:
            if opts[arg]:
                return None
            opts[arg] = True
        elif arg[:2] == "--":
            name, eq, value = arg.partition("=")
            if name not in values or opts[name] is not None:
                return None
            if not eq:
                if i + 1 >= n:
                    return None
                i += 1
                value = argv[i]
            opts[name] = value
        elif arg[:1] == "-" or opts["<command>"] is not None:
            return None
        else:
            opts["<command>"] = arg
        i += 1
    return opts


def stage_options(tool: str, argv: list, usage: str, flags=(), values=(),
                  others=("--help", "--version")):
    """A stage's options: the hot form by hand (`fast_options`), anything else by docopt over
    `usage` (the single source of truth, `console.parse_usage`): the options, or the exit
    code when nothing is left to do (--help, --version, a usage error: printed)."""
    from ctxcrl.console import parse_options

    return parse_options(tool, usage, argv, lambda a: fast_options(a, flags, values, others))




def stage_main(tool: str, argv: list, usage: str, options: dict, answer, error_exit: int) -> int:
    """A stage's `main()`: its options (`stage_options(tool, argv, usage, **options)`), then
    `answer(opts) -> exit code`. --help / --version → 0 (printed); a usage error → EXIT_USAGE
    (printed); Ctrl-C → 130; anything raised → one line on stderr and `error_exit`: never a
    traceback in the agent's hook."""
    try:
        opts = stage_options(tool, argv, usage, **options)
        if isinstance(opts, int):
            return opts
        return answer(opts)
    except KeyboardInterrupt:
        return 130
    except Exception as exc:
        sys.stderr.write(f"{tool}: internal error: {exc!r}\n")
        return error_exit


# -- driving a stage over its input ----------------------------------------------------------
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
        except (OSError, ValueError, UnicodeEncodeError):  # BrokenPipeError: `| head -1`
            self.closed = True


def run_stage(tool: str, command_arg, on_record, on_bare, prepare=None) -> list:
    """Drive a pipeline stage over its input; returns the bare-mode results (for exit codes).

    `on_record(record) -> record` changes a record in place or returns a new one (or returns
    the text to print instead, e.g. an explanation);
    `on_bare(command) -> (output_line, result)` answers a bare command.
    With `command_arg` set, that one command is answered and stdin is not read.
    A record or command the callback fails on is passed on unchanged, with one warning.
    `prepare()`, when given, runs before stdin is read: in the hook the stage before this one
    is still working, so what prepare loads (settings, indexes) costs the agent no time. It
    must not print; whatever it raises is ignored (the callbacks redo the work and report).
    """
    out = _Output()
    results = []
    if command_arg is not None:
        text, result = on_bare(command_arg)
        out.line(text)
        results.append(result)
        _close_quietly(out)
        return results
    jsoncodec.ready()
    if prepare is not None:
        try:
            prepare()
        except Exception:
            pass
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
                text = answered if isinstance(answered, str) else dumps(answered)
            except Exception as exc:  # a bug must never break the agent's pipeline
                warn(tool, f"passing record on unchanged: internal error {exc!r}")
                out.line(line)
            else:
                out.line(text)
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
            from ctxcrl import lean_os as os

            devnull = os.open(os.devnull, os.O_WRONLY)
            os.dup2(devnull, sys.stdout.fileno())
        except (OSError, ValueError):
            pass
