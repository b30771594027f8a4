"""A scriptable child process for the fault tests, reachable under two names:

- `probe …`: has a user-tier TOML filter (`probe`), so `cc-filter run probe …` takes the
  filtered path (pipe, guard, tee);
- `rawprobe …`: no filter, so `cc-filter run rawprobe …` takes the passthrough path;
- `shprobe ARGS` / `rawshprobe ARGS`: the same two paths with a /bin/sh echo (cheap).

`missing-probe` matches the filter but does not exist (command not found on the filtered path).
"""
import os
import sys

FILTER = r'''schema_version = 1
[filter]
name = "probe"
description = "system tests: a filter for the probe command"
match_command = "^(probe|shprobe|missing-probe|unexec-probe)(\\s|$)"
strip_ansi = true
strip_lines_matching = ["^noise"]
max_lines = 40
on_empty = "probe: ok"
'''

SCRIPT = r'''
import os, signal, sys, time
signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # like a C program: SIGPIPE ends it
mode, args = sys.argv[1], sys.argv[2:]
out = sys.stdout.buffer


def marker(path, text="ready"):
    with open(path + ".tmp", "w") as f:
        f.write(text)
    os.replace(path + ".tmp", path)


if mode == "echo":
    out.write((" ".join(args) + "\n").encode())
    out.flush()
    sys.exit(int(os.environ.get("PROBE_EXIT", "0")))
elif mode == "bytes":
    out.write(bytes.fromhex(args[0]))
elif mode == "kill":
    out.write(b"before the signal\n")
    out.flush()
    os.kill(os.getpid(), int(args[0]))
    time.sleep(5)
elif mode == "forever":
    i = 0
    while True:
        out.write(b"line %d\n" % i)
        out.flush()
        i += 1
elif mode == "bigline":
    chunk = b"x" * (1 << 20)
    for _ in range(int(args[0])):
        out.write(chunk)
    out.write(b"\nend of the big line\n")
elif mode == "progress":
    for i in range(0, 101, 10):
        out.write(b"\x1b[32mDownloading %d%%\x1b[0m\r" % i)
        out.flush()
    out.write(b"Downloaded 3 files\n")
elif mode == "fail":
    for i in range(int(args[0])):
        out.write(b"error: line %d of a failing run\n" % i)
    sys.exit(3)
elif mode == "ignore-term":  # MARKER SECONDS: ignores SIGTERM, logs it, ends after SECONDS
    got = []
    signal.signal(signal.SIGTERM, lambda *a: got.append(1))
    out.write(b"started\n")
    out.flush()
    marker(args[0])
    end = time.monotonic() + float(args[1])
    while time.monotonic() < end:
        time.sleep(0.05)
    out.write(b"finished, SIGTERM received %d time(s)\n" % len(got))
    sys.exit(3)
elif mode == "wait-term":  # MARKER: default SIGTERM disposition, waits to be killed
    out.write(b"started\n")
    out.flush()
    marker(args[0])
    time.sleep(60)
    sys.exit(0)
else:
    sys.exit(f"probe: unknown mode {mode}")
'''


def install(bin_dir, filters_dir) -> None:
    """Writes `probe` and `rawprobe` into bin_dir and the probe filter into filters_dir."""
    os.makedirs(bin_dir, exist_ok=True)
    os.makedirs(filters_dir, exist_ok=True)
    for name in ("probe", "rawprobe"):
        path = os.path.join(bin_dir, name)
        with open(path, "w") as f:
            f.write(f"#!{sys.executable}\n{SCRIPT}")
        os.chmod(path, 0o755)
    for name in ("shprobe", "rawshprobe"):  # cheap children for the concurrency test
        path = os.path.join(bin_dir, name)
        with open(path, "w") as f:
            f.write('#!/bin/sh\necho "$@"\nexit "${PROBE_EXIT:-0}"\n')
        os.chmod(path, 0o755)
    unexec = os.path.join(bin_dir, "unexec-probe")
    with open(unexec, "w") as f:
        f.write("#!/bin/sh\necho never\n")
    os.chmod(unexec, 0o644)
    with open(os.path.join(filters_dir, "probe.toml"), "w") as f:
        f.write(FILTER)
