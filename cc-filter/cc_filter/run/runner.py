"""`cc-filter run` and `cc-filter <name>`: run a command (or read a pipe), filter, track.

The runner owns the process side of ARCHITECTURE §6.2; guard.py owns the output rules.
- The child is spawned with `os.posix_spawnp`, its stdout and stderr both on one pipe (so the
  filter sees them in the order they were written), stdin inherited. Exit code: the child's;
  a signal N gives 128+N; not found 127 and not executable 126, each with a one-line message.
- No filter for the command (or `CTXCRL_DISABLED=1`): the child inherits stdin, stdout and
  stderr — interactive and long-running commands behave exactly as without contextcrawler.
- SIGINT, SIGTERM and SIGHUP are forwarded to the child. A SIGINT typed at a terminal already
  reached the child (same foreground process group), so it is not sent twice then.
- The answer is written with `os.write`; a closed stdout (`| head -1`) ends the run quietly.
  While the command runs, fd 1 is watched (poll: a pipe whose reader left reports POLLERR, a
  socket POLLHUP) and a long run's answer is written as it comes (guard.STREAM_AFTER), so
  `cc-filter run <endless> | head -1` gets its line and ends like the plain pipeline: the
  command gets SIGPIPE (then SIGTERM, SIGKILL after STOP_GRACE_S each), its output is
  discarded, the spool record is still appended, and we exit 141 (128 + SIGPIPE: what the
  passthrough path reports when the command itself dies writing to the closed pipe). A
  command that had already ended keeps its own exit code.
- A filter's `inject` may only add re-encoding arguments (filter.is_reencoding); anything else
  is refused with one warning and the command runs as typed.
- Every run appends one spool record (unless `[tracking] enabled = false`); tracking errors
  never change output or exit code.

Imports nothing heavy at module level (no subprocess, signal, re, json): `cc-filter run true`
must stay within 2× a bare Python start. The filter machinery is imported only when a filter
was found.
"""
import time

import _signal

from ctxcrl import lean_os as os
from cc_filter.choose import catalogue, keys
from ctxcrl.console import EXIT_USAGE

_FORWARDED = (_signal.SIGINT, _signal.SIGTERM, _signal.SIGHUP)
# Python ignores SIGPIPE and SIGXFSZ; the child must get the defaults back (and the forwarded
# signals' defaults, since our handlers do not survive exec anyway).
_CHILD_DEFAULTS = (_signal.SIGPIPE, _signal.SIGXFSZ) + _FORWARDED
# Blocks of 128 KB stay in the CPU cache and in malloc's reused memory; 1 MB blocks made a
# 1 GB log ~30 % slower (page faults, cache misses). The child's pipe is grown to 1 MB so it
# rarely waits on us.
_READ_SIZE = 1 << 17
_PIPE_SIZE = 1 << 20
_F_SETPIPE_SZ = 1031


def _stderr(message: str) -> None:
    try:
        os.write(2, (message + "\n").encode("utf-8", "replace"))
    except OSError:
        pass


class SpawnError(Exception):
    def __init__(self, exit_code: int, message: str):
        super().__init__(message)
        self.exit_code = exit_code


def spawn(argv: list[str], output_fd: int | None = None) -> int:
    """Start `argv`; with `output_fd`, its stdout and stderr both go there. Returns the pid."""
    actions = []
    if output_fd is not None:
        actions = [(os.POSIX_SPAWN_DUP2, output_fd, 1), (os.POSIX_SPAWN_DUP2, output_fd, 2)]
    try:
        return os.posix_spawnp(argv[0], argv, os.environ, file_actions=actions,
                               setsigdef=_CHILD_DEFAULTS)
    except FileNotFoundError:
        raise SpawnError(127, f"cc-filter: {argv[0]}: command not found") from None
    except (PermissionError, IsADirectoryError):
        raise SpawnError(126, f"cc-filter: {argv[0]}: permission denied") from None
    except OSError as exc:
        code = 127 if exc.errno == 2 else 126
        raise SpawnError(code, f"cc-filter: {argv[0]}: {exc.strerror or exc}") from None


class SignalForwarding:
    """While active, SIGINT/SIGTERM/SIGHUP sent to us go to the child instead of killing us."""

    def __init__(self):
        self.pid = None
        self.previous = {}
        self.received: list[int] = []
        try:
            self.terminal_group = os.isatty(0) and os.tcgetpgrp(0) == os.getpgrp()
        except OSError:
            self.terminal_group = False

    def _handler(self, signum, frame):
        self.received.append(signum)
        if self.pid is None:
            return
        if signum == _signal.SIGINT and self.terminal_group:
            return  # the terminal sent it to the whole foreground group, the child included
        try:
            os.kill(self.pid, signum)
        except OSError:
            pass

    def __enter__(self):
        for sig in _FORWARDED:
            try:
                self.previous[sig] = _signal.signal(sig, self._handler)
            except (OSError, ValueError):
                pass
        return self

    def __exit__(self, *exc):
        for sig, handler in self.previous.items():
            try:
                _signal.signal(sig, handler)
            except (OSError, ValueError):
                pass
        return False


def wait(pid: int) -> int:
    _, status = os.waitpid(pid, 0)
    return _exit_code(status)


def _exit_code(status: int) -> int:
    code = os.waitstatus_to_exitcode(status)
    return 128 - code if code < 0 else code


def write_out(chunks, fd: int = 1) -> bool:
    """Write every chunk to `fd`; False (quietly) when the reader went away."""
    try:
        for chunk in chunks:
            view = memoryview(chunk)
            while view:
                try:
                    written = os.write(fd, view)
                except BlockingIOError:  # a non-blocking stdout that is full: wait for room
                    _wait_writable(fd)
                    continue
                view = view[written:]
        return True
    except BrokenPipeError:
        return False
    except OSError as exc:
        if exc.errno in (32, 9):  # EPIPE, EBADF (stdout closed)
            return False
        raise


def _wait_writable(fd: int) -> None:
    import select

    poller = select.poll()
    poller.register(fd, select.POLLOUT)
    poller.poll()  # POLLOUT, or POLLERR (the next write then fails with EPIPE)


def track(*, argv, key, filter_name, mode, exit_code, raw_chars, output_chars, started,
          tee_path=None) -> None:
    """Append this run's spool record; never raises (ARCHITECTURE §6.2 rule 9). Not with
    CTXCRL_NO_TRACKING set (`cc-hook test --run`: a trial, not one of the agent's runs)."""
    if os.environ.get("CTXCRL_NO_TRACKING", "") not in ("", "0"):
        return
    try:
        from ctxcrl import config, spool

        tracking = config.section("tracking")
        if not tracking.get("enabled", True):
            return
        if tracking.get("store_arguments", True):
            command = keys.quote_join(argv)
            if key == keys.key_of(argv):
                key = keys.quoted_key(argv)  # reports print it: `-run 'TestA|TestB'`, not a pipe
        else:
            command = key = keys.command_label(key)
        record = spool.SpoolRecord.for_command(
            command=command, key=key, filter=filter_name, mode=mode, exit_code=exit_code,
            raw_chars=raw_chars, output_chars=output_chars,
            elapsed_ms=(time.perf_counter() - started) * 1000, tee_path=tee_path)
        spool.append(record)
    except Exception:
        pass


def passthrough(argv: list[str], *, key: str, started: float) -> int:
    """Run with inherited stdio, exactly as without contextcrawler (still tracked)."""
    with SignalForwarding() as forwarding:
        try:
            forwarding.pid = spawn(argv)
        except SpawnError as exc:
            _stderr(str(exc))
            code = exc.exit_code
        else:
            code = wait(forwarding.pid)
    track(argv=argv, key=key, filter_name=None, mode="passthrough", exit_code=code,
          raw_chars=0, output_chars=0, started=started)
    return code


def run(argv: list[str], *, filter_name: str | None = None, cwd: str | None = None,
        then: str | None = None) -> int:
    """`cc-filter run [--filter=NAME] [--then=PIPE] <argv>...`; returns the exit code to exit
    with. `then`: what reads the answer after the pipe (cc_filter.run.consumer)."""
    started = time.perf_counter()
    key = keys.key_of(argv)
    stages = None
    if then is not None:
        from cc_filter.run import consumer

        stages = consumer.parse(then)
        if stages is None:  # a typo must not run the command some other way than asked
            _stderr(f"cc-filter: --then={then!r} is not tail:N, head:N or several of them "
                    "joined by commas; nothing run")
            return EXIT_USAGE
    if os.environ.get("CTXCRL_DISABLED", "") not in ("", "0"):
        return passthrough(argv, key=key, started=started)
    if filter_name:
        entry = catalogue.by_name(filter_name, cwd)
        if entry is None:  # a typo must not run the command some other way than asked
            _stderr(f"cc-filter: no filter named {filter_name!r} (see: cc-filter list); "
                    "nothing run")
            return EXIT_USAGE
    else:
        entry = catalogue.lookup(key, cwd)
        if entry is not None and catalogue.is_fallback(entry):
            from cc_filter.choose import fallback

            if not fallback.program_found(argv[0] if argv else "", cwd):
                entry = None  # not found: the passthrough reports it as the shell would
    if entry is None:
        return passthrough(argv, key=key, started=started)
    return run_filtered(argv, entry, key=key, started=started, consumer=stages)


def _make_guard(entry, argv: list[str]):
    """(guard, argv to run). A filter that cannot even be built still gets a guard: the raw
    output is then shown with one warning, like a filter that raises."""
    from cc_filter.kit import filter as filter_protocol
    from cc_filter.run.guard import OutputGuard
    from cc_filter.run.tee import TeePolicy

    policy = TeePolicy.from_config()
    run_argv = argv
    try:
        cls = catalogue.load(entry)
        injected = cls.inject(list(argv))
        if injected != argv:
            if filter_protocol.is_reencoding(argv, injected):
                run_argv = list(injected)
            else:
                _stderr(f"ctxcrl: filter {entry.name} tried to change the command's scope "
                        f"({keys.quote_join(injected)}); running it as typed")
        filt = cls(run_argv)
    except Exception as exc:
        guard = OutputGuard(None, argv=argv, tee_policy=policy, filter_name=entry.name)
        guard.error = exc
        return guard, argv
    return OutputGuard(filt, argv=run_argv, tee_policy=policy, filter_name=entry.name), run_argv


def _write_stdout(data: bytes) -> bool:
    """The guard's sink while the command runs: False when stdout cannot take it any more
    (its reader left — or any other write error: the answer cannot be delivered)."""
    try:
        return write_out((data,))
    except OSError:
        return False


def run_filtered(argv: list[str], entry, *, key: str, started: float, consumer=None) -> int:
    guard, run_argv = _make_guard(entry, argv)
    guard.consumer = consumer
    if consumer is None or consumer[0][0] == "head":
        guard.sink = _write_stdout  # a tail reads to the end: the answer waits to be laid out
    read_fd, write_fd = os.pipe()
    with SignalForwarding() as forwarding:
        try:
            forwarding.pid = spawn(run_argv, write_fd)
        except SpawnError as exc:
            os.close(read_fd)
            os.close(write_fd)
            _stderr(str(exc))
            track(argv=argv, key=key, filter_name=entry.name, mode="run",
                  exit_code=exc.exit_code, raw_chars=0, output_chars=0, started=started)
            return exc.exit_code
        os.close(write_fd)
        code = _drain_child(read_fd, guard, forwarding.pid)
        os.close(read_fd)
    if guard.reader_gone:
        return _reader_gone(guard, code, argv=argv, key=key, filter_name=entry.name,
                            mode="run", started=started)
    return _answer(guard, code, argv=argv, key=key, filter_name=entry.name, mode="run",
                   started=started)


def _reader_gone(guard, code: int, *, argv, key, filter_name, mode, started) -> int:
    """Nobody reads our stdout any more: discard the rest, track, end quietly."""
    guard.raw.close()
    guard.out.close()
    track(argv=argv, key=key, filter_name=filter_name, mode=mode, exit_code=code,
          raw_chars=guard.raw_chars, output_chars=guard.streamed, started=started)
    return code


#: After the command exits, how long its output pipe may stay silent before we stop reading:
#: a background process it started may hold the pipe open for ever (`(daemon &)`).
EXIT_GRACE_S = 0.5
#: When our stdout's reader left: how long the command gets after SIGPIPE, then after SIGTERM.
STOP_GRACE_S = 0.5
_POLL_MS = 200
_SIGPIPE_EXIT = 128 + _signal.SIGPIPE


def _drain_child(fd: int, guard, pid: int) -> int:
    """Feed the child's output to the guard until EOF — or, once the child has exited, until
    the pipe stays silent for EXIT_GRACE_S. Returns the child's exit code. When our stdout's
    reader leaves first (fd 1 reports an error, or the guard could not write to it), the child
    is stopped, `guard.reader_gone` is set and the code is 141 (128 + SIGPIPE)."""
    import select

    poller = select.poll()
    poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
    if fd != 1 and _is_pipe_or_socket(1):
        poller.register(1, 0)  # only POLLERR / POLLHUP / POLLNVAL can be reported for it
    read = os.read
    feed = guard.feed
    grown = False
    code = None
    silent_since = None
    while True:
        ready = poller.poll(_POLL_MS)
        if ready:
            if any(ready_fd == 1 for ready_fd, _ in ready):
                guard.reader_gone = True
                break
            data = read(fd, _READ_SIZE)
            if not data:
                break
            silent_since = None
            if not grown and len(data) >= 65536:
                grown = True
                _grow_pipe(fd)
            feed(data)
            if guard.reader_gone:  # the guard's write of a long run's answer failed
                break
            continue
        if code is None:
            done, status = os.waitpid(pid, os.WNOHANG)
            if done:
                code = _exit_code(status)
                silent_since = time.perf_counter()
        elif time.perf_counter() - silent_since >= EXIT_GRACE_S:
            break
    if guard.reader_gone and code is None:
        _stop_child(pid)
        return _SIGPIPE_EXIT
    return wait(pid) if code is None else code


def _is_pipe_or_socket(fd: int) -> bool:
    try:
        mode = os.fstat(fd).st_mode
    except OSError:
        return False
    return (mode & 0o170000) in (0o010000, 0o140000)  # S_IFIFO, S_IFSOCK


def _stop_child(pid: int) -> None:
    """Stop (and reap) the child as a pipeline would stop a producer whose reader left:
    SIGPIPE; SIGTERM, then SIGKILL, if it is still there STOP_GRACE_S later."""
    for sig in (_signal.SIGPIPE, _signal.SIGTERM, _signal.SIGKILL):
        try:
            os.kill(pid, sig)
        except OSError:
            break
        deadline = time.perf_counter() + (STOP_GRACE_S if sig != _signal.SIGKILL else 5)
        while True:
            try:
                done, _ = os.waitpid(pid, os.WNOHANG)
            except ChildProcessError:
                return
            if done:
                return
            if time.perf_counter() >= deadline:
                break
            time.sleep(0.01)
    try:
        os.waitpid(pid, 0)
    except ChildProcessError:
        pass


def _grow_pipe(fd: int) -> None:
    try:
        import fcntl

        fcntl.fcntl(fd, _F_SETPIPE_SZ, _PIPE_SIZE)
    except (OSError, ImportError):
        pass


def _drain(fd: int, guard) -> None:
    """Feed `fd` (stdin) to the guard until EOF, or until our stdout's reader leaves."""
    read = os.read
    feed = guard.feed
    grown = False
    poll = None
    if fd != 1 and _is_pipe_or_socket(1):
        import select

        poller = select.poll()
        poller.register(fd, select.POLLIN | select.POLLHUP | select.POLLERR)
        poller.register(1, 0)  # only POLLERR / POLLHUP / POLLNVAL can be reported for it
        poll = poller.poll
    while True:
        if poll is not None and any(ready_fd == 1 for ready_fd, _ in poll()):
            guard.reader_gone = True
            return
        data = read(fd, _READ_SIZE)
        if not data:
            return
        if not grown and len(data) >= 65536:
            grown = True
            _grow_pipe(fd)
        feed(data)
        if guard.reader_gone:
            return


def _answer(guard, code: int, *, argv, key, filter_name, mode, started) -> int:
    outcome = guard.finish(code)
    try:
        write_out(outcome.chunks())
        if outcome.warning:
            _stderr(outcome.warning)
    finally:
        outcome.close()
    track(argv=argv, key=key, filter_name=filter_name, mode=mode, exit_code=code,
          raw_chars=outcome.raw_chars, output_chars=outcome.output_chars, started=started,
          tee_path=outcome.tee_path)
    return code


def filter_stdin(name: str, exit_code: int = 0, *, cwd: str | None = None) -> int:
    """`cc-filter <name> [--exit-code=N]`: filter stdin; exits with N (the producer's code)."""
    started = time.perf_counter()
    entry = catalogue.by_name(name, cwd)
    if entry is None:
        _stderr(f"cc-filter: no filter named {name!r} (see: cc-filter list)")
        return EXIT_USAGE
    guard, _ = _make_guard(entry, [])
    guard.argv = [name]
    guard.sink = _write_stdout
    _drain(0, guard)
    if guard.reader_gone:  # stop reading: the producer gets SIGPIPE, as without us
        return _reader_gone(guard, _SIGPIPE_EXIT, argv=["cc-filter", name], key=name,
                            filter_name=entry.name, mode="pipe", started=started)
    return _answer(guard, exit_code, argv=["cc-filter", name], key=name, filter_name=entry.name,
                   mode="pipe", started=started)
