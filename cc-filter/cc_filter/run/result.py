"""`cc-filter result`: filter a command's result after it ran (ARCHITECTURE §3's second pipeline).

For agents whose post-execution hook can replace what the model receives (OpenCode, Copilot
CLI), `cc-hook decode` turns the agent's result into a **result record** and this stage
filters it with the same runner rules as `cc-filter run` (runner._make_guard: the guard's
invariants, the tee file and its `[full output: …]` hint; runner.track: one spool record),
then `cc-hook encode` answers the agent. Fields read:

- `filter`: the filter `cc-filter run` would have chosen for the command (decode asks
  cc-rewrite's rules); `argv`: the command's words, as `run` would get them (the filter sees
  them, e.g. `git status --short` passes through); `key`: for tracking;
- `exit_code`: the command's exit code (the filter's summary and the failure rules use it);
- the output: `output` (text) or `output_path` (the file where the agent keeps it in full);
- `shown_chars`: how long the agent's own text is (its truncation notice, say): the filtered
  text must be shorter, or the agent keeps its own.

Written back: the same record plus `filtered` (the text the model gets instead) only when the
filter ran, its answer was chosen by the guard (not the raw fallback) and it is shorter than
what the agent would show; otherwise the record passes unchanged and the agent keeps its
result. Never fails: a bad record, a missing file, an unknown filter → the record unchanged,
at most one warning on stderr, exit 0. Imports only what `cc-filter <name>` does.
"""
import sys

from cc_filter.choose import catalogue
from cc_filter.run import runner
from ctxcrl import jsoncodec
from ctxcrl import lean_os as os

READ_SIZE = 1 << 17
FILTERED = "filtered"


def _int(value):
    return value if isinstance(value, int) and not isinstance(value, bool) else None


def filter_result(rec: dict) -> dict:
    """`rec` with `filtered` added when the filtered text is what the model should get."""
    import time

    started = time.perf_counter()
    name = rec.get("filter")
    code = _int(rec.get("exit_code"))
    if not isinstance(name, str) or not name or code is None:
        return rec
    output, path = rec.get("output"), rec.get("output_path")
    if not isinstance(output, str) and not (isinstance(path, str) and path):
        return rec
    cwd = rec.get("cwd") if isinstance(rec.get("cwd"), str) else None
    entry = catalogue.by_name(name, cwd)
    if entry is None:
        runner._stderr(f"cc-filter: no filter named {name!r}; result left as it is")
        return rec
    argv = rec.get("argv")
    if not isinstance(argv, list) or not all(isinstance(w, str) for w in argv) or not argv:
        argv = [str(rec.get("command") or name)]
    key = rec.get("key") if isinstance(rec.get("key"), str) else name
    guard, _ = runner._make_guard(entry, argv)
    if isinstance(path, str) and path:
        if not _feed_file(guard, path):
            guard.raw.close()
            guard.out.close()
            return rec
    else:
        guard.feed(output.encode("utf-8", "surrogatepass"))
    outcome = guard.finish(code)
    try:
        text = outcome.text() if outcome.mode == "filtered" else None
        if outcome.warning:
            runner._stderr(outcome.warning)
    finally:
        outcome.close()
    shown = _int(rec.get("shown_chars"))
    use = text is not None and (shown is None or len(text) < shown)
    runner.track(argv=argv, key=key, filter_name=entry.name, mode="pipe", exit_code=code,
                 raw_chars=outcome.raw_chars,
                 output_chars=outcome.output_chars if use else outcome.raw_chars,
                 started=started, tee_path=outcome.tee_path if use else None)
    if use:
        rec[FILTERED] = text
    return rec


def _feed_file(guard, path: str) -> bool:
    try:
        fd = os.open(path, os.O_RDONLY)
    except OSError as exc:
        runner._stderr(f"cc-filter: cannot read {path} ({exc.strerror}); result left as it is")
        return False
    try:
        while True:
            data = os.read(fd, READ_SIZE)
            if not data:
                return True
            guard.feed(data)
    except OSError as exc:
        runner._stderr(f"cc-filter: cannot read {path} ({exc.strerror}); result left as it is")
        return False
    finally:
        os.close(fd)


#: What filtering any result loads (all but the filter's own module), for prepare.
_NEEDED = ("fcntl", "cc_filter.filters", "cc_filter.kit.filter", "cc_filter.kit.lines",
           "cc_filter.kit.spill", "cc_filter.run.guard", "ctxcrl.spool")


def prepare() -> None:
    """Before stdin is read, while the hook's decode stage still works: the modules every
    result needs, the tee settings and the filters of the current directory (where the agent
    runs its hook, so nearly always the record's cwd). Prints nothing; whatever fails here is
    done again, and reported, by filter_result."""
    try:
        for module in _NEEDED:
            __import__(module)
        from cc_filter.run import tee

        tee.TeePolicy.from_config()
        catalogue.all_entries(None)
        jsoncodec.ready()
    except Exception:
        pass


def run_stage() -> int:
    """Read one result record on stdin, write it back (filtered or not). Always exit 0."""
    from cc_peel.record import dumps, loads

    prepare()
    data = sys.stdin.buffer.read()
    import gc

    gc.enable()  # the hook starts its stages without it; the filter's work grows with the output
    out = b""
    for line in data.decode("utf-8", "replace").splitlines():
        if not line.strip():
            continue
        try:
            rec = loads(line)
        except ValueError:
            rec = None
        if not isinstance(rec, dict):
            runner._stderr("cc-filter result: not a result record; passed on unchanged")
            out = (line + "\n").encode("utf-8")
            break
        try:
            rec = filter_result(rec)
        except Exception as exc:  # the agent keeps its own result
            runner._stderr(f"cc-filter result: {type(exc).__name__}: {exc}")
        out = (dumps(rec) + "\n").encode("utf-8")
        break
    runner.write_out((out,))
    return 0
