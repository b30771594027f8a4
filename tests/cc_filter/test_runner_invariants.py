"""One test per runner invariant of ARCHITECTURE §6.2 (named after it), plus passthrough behaviour.

Filtered runs use test filters in the user tier (CTXCRL_HOME/filters) matched by demo tools on
a private PATH, so the built-in filters never interfere.
"""
import json
import os
import signal
import stat
import subprocess
import sys
import time

import pytest

from cc_filter import cli

from cc_filter.run import runner
from cc_filter.choose.catalogue import Entry

from filter_testkit import cc_filter, spool_records, toml_filter

# A filter that drops "noise" lines: lets real content through and saves tokens.
DENOISE = toml_filter("demo-denoise", "^demo-(\\s|$)|^demo-", strip_lines_matching=["^noise"])


def _noise(n=40):
    return f"i=0; while [ $i -lt {n} ]; do echo noise line $i of the output; i=$((i+1)); done\n"


def _counted(text: str, n: int) -> str:
    """`text` as the answer of a filter that stripped `n` noise lines: their marker, then the
    tee hint (the first line of the rest; checked up to the path)."""
    return text + f"... ({n} lines omitted)\n[full output: "


def _kept(out: str, text: str, n: int) -> bool:
    return out.startswith(_counted(text, n)) and out.endswith(".log]\n") and out.count("\n") == (
        text.count("\n") + 2)


def run_main(capfd, *args):
    code = cli.main(list(args))
    out, err = capfd.readouterr()
    return code, out, err


# -- 1. exit code -------------------------------------------------------------------------------
@pytest.mark.parametrize("code", [0, 1, 3, 42, 255])
def test_exit_code_is_the_childs_passthrough(capfd, code):
    assert run_main(capfd, "run", "sh", "-c", f"exit {code}")[0] == code


@pytest.mark.parametrize("code", [0, 1, 2, 77])
def test_exit_code_is_the_childs_filtered(capfd, user_filters, demo_bin, code):
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-exit", _noise() + f"echo result\nexit {code}\n")
    got, out, _ = run_main(capfd, "run", "demo-exit")
    assert got == code
    assert "result" in out and "noise" not in out


@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGKILL, signal.SIGINT])
def test_exit_code_signal_is_128_plus_n(capfd, user_filters, demo_bin, sig):
    assert run_main(capfd, "run", "sh", "-c", f"kill -{int(sig)} $$")[0] == 128 + sig
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-kill", _noise() + f"kill -{int(sig)} $$\n")
    assert run_main(capfd, "run", "demo-kill")[0] == 128 + sig


@pytest.mark.parametrize("filtered", [False, True])
def test_exit_code_not_found_is_127_with_one_line(capfd, user_filters, filtered):
    user_filters.write("demo-denoise", DENOISE)
    name = "demo-nonexistent-tool" if filtered else "nonexistent-tool-xyz"
    code, out, err = run_main(capfd, "run", name, "--flag")
    assert code == 127
    assert out == ""
    assert err == f"cc-filter: {name}: command not found\n"


@pytest.mark.parametrize("filtered", [False, True])
def test_exit_code_not_executable_is_126(capfd, user_filters, demo_bin, filtered):
    user_filters.write("demo-denoise", DENOISE)
    path = demo_bin.path / ("demo-noexec" if filtered else "noexec")
    path.write_text("#!/bin/sh\necho hi\n")
    path.chmod(0o644)
    code, out, err = run_main(capfd, "run", str(path))
    assert code == 126
    assert err.count("\n") == 1 and "permission denied" in err


# -- 2. stdout and stderr both captured, in order ----------------------------------------------
def test_stdout_and_stderr_captured_in_order(capfd, user_filters, demo_bin):
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-mixed", "echo out1\necho err1 >&2\necho out2\necho err2 >&2\n" + _noise())
    code, out, err = run_main(capfd, "run", "demo-mixed")
    assert code == 0
    assert _kept(out, "out1\nerr1\nout2\nerr2\n", 40)
    assert err == ""


# -- 3. streaming, bounded memory -------------------------------------------------------------
@pytest.mark.slow
def test_streaming_bounded_memory(tmp_path, user_filters, demo_bin):
    """60 MB through `cc-filter run`: the runner's peak RSS stays far below the output size."""
    user_filters.write("demo-denoise", DENOISE)
    big = tmp_path / "big.log"
    line = b"noise " + b"x" * 93 + b"\n"
    with open(big, "wb") as f:
        for _ in range(60):
            f.write(line * 10_000)  # 1 MB
        f.write(b"the end\n")
    demo_bin.tool("demo-cat", f'cat "{big}"\n')
    probe = ("import json, resource, sys, subprocess; "
             "p = subprocess.run([sys.executable, '-m', 'cc_filter', 'run', 'demo-cat'], "
             "capture_output=True); "
             "print(json.dumps([p.returncode, p.stdout.decode(), "
             "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss]))")
    result = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True,
                            timeout=120)
    code, text, rss_kb = json.loads(result.stdout)
    assert code == 0 and text.startswith(_counted("the end\n", 600_000))
    assert rss_kb < 50 * 1024, f"peak RSS {rss_kb // 1024} MB"


def test_streaming_lines_reach_the_filter_as_they_come(capfd):
    """The guard hands every complete line to the filter per chunk, before the end."""
    from cc_filter.kit.filter import Filter
    from cc_filter.run.guard import OutputGuard

    seen = []

    class Spy(Filter):
        name = "spy"

        def feed(self, line):
            seen.append(line)
            return ()

    guard = OutputGuard(Spy([]))
    guard.feed(b"one\ntw")
    assert seen == ["one"]
    guard.feed(b"o\nthree\n")
    assert seen == ["one", "two", "three"]
    assert guard.raw.spilled is False


def test_streaming_raw_spills_to_disk_not_ram():
    from cc_filter.run.guard import OutputGuard
    from cc_filter.kit.toml_filter import make_class, parse_filter_file

    spec = parse_filter_file("t", {"schema_version": 1, "filter": {
        "name": "t", "match_command": "^t", "head_lines": 2}})
    guard = OutputGuard(make_class(spec)([]))
    chunk = b"a line of output that is fairly long, repeated\n" * 20_000  # ~1 MB
    for _ in range(5):
        guard.feed(chunk)
    assert guard.raw.spilled
    assert len(guard.raw) == 5 * len(chunk)
    assert sum(len(p) for p in guard.raw._parts) == 0  # nothing of it held in memory
    outcome = guard.finish(0)
    assert outcome.text().startswith("a line of output")


# -- 4. never worse ------------------------------------------------------------------------------
def test_never_worse_prints_raw_when_filtered_is_bigger(capfd, user_filters, demo_bin):
    user_filters.write("demo-bloat", """\
        schema_version = 1
        [filter]
        name = "demo-bloat"
        match_command = "^demo-bloat"
        replace = [{ pattern = "^(.*)$", replacement = "\\\\1 \\\\1 \\\\1" }]
        """)
    demo_bin.tool("demo-bloat", "printf 'alpha\\nbeta\\033[31m red\\033[0m\\n'\n")
    code, out, err = run_main(capfd, "run", "demo-bloat")
    assert code == 0
    assert out == "alpha\nbeta\x1b[31m red\x1b[0m\n"  # the raw bytes, unchanged


# -- 5. never empty ------------------------------------------------------------------------------
def test_never_empty_uses_on_empty(capfd, user_filters, demo_bin):
    user_filters.write("demo-quiet", toml_filter("demo-quiet", "^demo-quiet",
                                                 strip_lines_matching=["."], on_empty="quiet: ok"))
    demo_bin.tool("demo-quiet", _noise())
    code, out, _ = run_main(capfd, "run", "demo-quiet")
    assert code == 0 and _kept(out, "quiet: ok\n", 40)


def test_never_empty_without_on_empty_prints_raw(capfd, user_filters, demo_bin):
    from cc_filter.kit.filter import Filter
    from cc_filter.run.guard import apply

    class DropAll(Filter):
        name = "drop"

        def feed(self, line):
            return ()

    outcome = apply(DropAll([]), b"something happened\n", 0)
    assert outcome.text() == "something happened\n"
    assert outcome.reasons == ["never-empty"]


# -- 6. failures stay visible ------------------------------------------------------------------
def test_failures_stay_visible(capfd, user_filters, demo_bin):
    user_filters.write("demo-keep", toml_filter("demo-keep", "^demo-keep",
                                                keep_lines_matching=["^summary"]))
    demo_bin.tool("demo-keep", _noise(30) + "echo summary: 3 done\necho 'stopped at step 3' >&2\nexit 4\n")
    code, out, _ = run_main(capfd, "run", "demo-keep")
    assert code == 4
    lines = out.splitlines()
    assert lines[0] == "summary: 3 done"
    assert lines[1] == "... (31 other lines omitted)"
    assert lines[2] == "[exit code 4; last 10 lines of output:]"
    assert lines[3:12] == [f"noise line {i} of the output" for i in range(22, 30)] + ["summary: 3 done"]
    assert lines[12] == "stopped at step 3"
    assert lines[13].startswith("[full output: ")  # failed with more than min_size bytes


def test_failures_already_shown_get_no_tail(capfd, user_filters, demo_bin):
    user_filters.write("demo-keep", toml_filter("demo-keep", "^demo-keep",
                                                keep_lines_matching=["^error"]))
    demo_bin.tool("demo-keep", _noise(30) + "echo 'error: it broke'\nexit 1\n")
    code, out, _ = run_main(capfd, "run", "demo-keep")
    assert code == 1
    assert out.splitlines()[0] == "error: it broke"
    assert "[exit code" not in out


# -- 7. nothing lost: tee ------------------------------------------------------------------------
def _tee_files(home):
    """The rotated tee files (`last.raw`, the last compacted run's copy, is not one)."""
    tee = os.path.join(str(home), "tee")
    return sorted(n for n in os.listdir(tee) if n.endswith(".log")) if os.path.isdir(tee) else []


def test_nothing_lost_tee_on_dropped_output(capfd, ctxcrl_home, user_filters, demo_bin):
    user_filters.write("demo-head", toml_filter("demo-head", "^demo-head", head_lines=3))
    demo_bin.tool("demo-head", _noise(40))
    code, out, _ = run_main(capfd, "run", "demo-head", "x")
    lines = out.splitlines()
    assert lines[3] == "... (37 lines omitted)"
    files = _tee_files(ctxcrl_home)
    assert len(files) == 1 and files[0].endswith("_demo-head_x.log")
    path = os.path.join(str(ctxcrl_home), "tee", files[0])
    assert lines[-1] == f"[full output: {path}]"
    assert stat.S_IMODE(os.stat(path).st_mode) == 0o600
    assert stat.S_IMODE(os.stat(os.path.dirname(path)).st_mode) == 0o700
    with open(path) as f:
        assert f.read().count("noise line") == 40
    assert spool_records(ctxcrl_home)[-1]["tee_path"] == path


def test_nothing_lost_hint_uses_short_home_path(monkeypatch, tmp_path):
    from cc_filter.run import tee

    monkeypatch.setenv("HOME", str(tmp_path))
    assert tee.hint(str(tmp_path / ".local/share/ctxcrl/tee/1_x.log")) == \
        "[full output: ~/.local/share/ctxcrl/tee/1_x.log]"


def _config(home, text):
    with open(os.path.join(str(home), "config.toml"), "w") as f:
        f.write(text)
    import ctxcrl.config

    ctxcrl.config._loaded = None


@pytest.mark.parametrize("mode,exit_code,size,expected", [
    ("failures", 1, 600, True),    # failed with more than min_size bytes
    ("failures", 1, 100, False),   # failed, small output: the raw output is the answer
    ("failures", 0, 600, True),    # success, noise lines dropped (and counted)
    ("always", 0, 600, True),
    ("never", 1, 6000, False),
])
def test_nothing_lost_tee_modes(capfd, ctxcrl_home, user_filters, demo_bin, mode, exit_code,
                                size, expected):
    _config(ctxcrl_home, f'[tee]\nmode = "{mode}"\nmin_size = 500\n')
    user_filters.write("demo-denoise", DENOISE)
    lines = size // 30
    demo_bin.tool("demo-t", _noise(lines) + f"echo 'error: done'\nexit {exit_code}\n")
    code, out, _ = run_main(capfd, "run", "demo-t")
    assert code == exit_code
    assert bool(_tee_files(ctxcrl_home)) is expected
    assert ("[full output: " in out) is expected


def test_nothing_lost_tee_rotation_and_size(capfd, ctxcrl_home, user_filters, demo_bin):
    _config(ctxcrl_home, "[tee]\nmax_files = 3\nmax_file_size = 4096\n")
    user_filters.write("demo-head", toml_filter("demo-head", "^demo-head", head_lines=2))
    demo_bin.tool("demo-head", _noise(400))
    for i in range(5):
        out = run_main(capfd, "run", "demo-head", str(i))[1]
        time.sleep(0.01)
    hint = out.splitlines()[-1]  # a cut tee file says so in the hint, after the path's `]`
    assert hint.startswith("[full output: ") and hint.endswith(
        " bytes cut from its middle: over [tee] max_file_size)")
    files = _tee_files(ctxcrl_home)
    assert len(files) == 3
    assert [f.rsplit("_", 1)[1] for f in files] == ["2.log", "3.log", "4.log"]
    for name in files:
        size = os.path.getsize(os.path.join(str(ctxcrl_home), "tee", name))
        assert size <= 4096
    with open(os.path.join(str(ctxcrl_home), "tee", files[0])) as f:
        text = f.read()
    assert "bytes cut from the middle" in text and "noise line 399" in text


# -- 8. a filter that raises -----------------------------------------------------------------------
class Boom:
    name = "boom"


def _python_entry(tmp_path, body, name="demo-py"):
    module = tmp_path / f"{name.replace('-', '_')}.py"
    module.write_text("from cc_filter.kit.filter import Filter\n" + body)
    return Entry(name, "^x", "python", "built-in", str(module),
                 module=f"_test_filters_{tmp_path.name}.{name.replace('-', '_')}",
                 class_name="Demo")


def test_filter_exception_prints_raw_and_one_warning(capfd, ctxcrl_home, tmp_path):
    entry = _python_entry(tmp_path, """
class Demo(Filter):
    name = "demo-py"
    def feed(self, line):
        if line == "boom":
            raise RuntimeError("kaput")
        return ()
""")
    code = runner.run_filtered(["sh", "-c", "echo a; echo boom; echo c; exit 5"], entry,
                               key="sh", started=time.perf_counter())
    out, err = capfd.readouterr()
    assert code == 5
    assert out == "a\nboom\nc\n"
    assert err == "ctxcrl: filter demo-py failed (RuntimeError: kaput); showing the raw output\n"
    assert spool_records(ctxcrl_home)[-1]["exit_code"] == 5


def test_filter_exception_in_finish_and_in_constructor(capfd, tmp_path):
    for body in ("""
class Demo(Filter):
    name = "demo-py"
    def finish(self, exit_code):
        raise ValueError("late")
""", """
class Demo(Filter):
    name = "demo-py"
    def __init__(self, argv):
        raise ValueError("early")
"""):
        entry = _python_entry(tmp_path, body, name=f"demo-py{len(body)}")
        entry.name = "demo-py"
        code = runner.run_filtered(["sh", "-c", "echo raw; exit 2"], entry, key="sh",
                                   started=time.perf_counter())
        out, err = capfd.readouterr()
        assert (code, out) == (2, "raw\n")
        assert err.startswith("ctxcrl: filter demo-py failed (ValueError") and err.count("\n") == 1


# -- 9. every run appends a spool record -----------------------------------------------------------
def test_every_run_appends_a_spool_record(capfd, ctxcrl_home, user_filters, demo_bin):
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-rec", _noise(40) + "echo kept\nexit 3\n")
    run_main(capfd, "run", "sh", "-c", "exit 0")
    run_main(capfd, "run", "demo-rec", "--flag", "it's")
    run_main(capfd, "run", "no-such-tool-xyz")
    records = spool_records(ctxcrl_home)
    assert [r["mode"] for r in records] == ["passthrough", "run", "passthrough"]
    assert [r["exit_code"] for r in records] == [0, 3, 127]
    filtered = records[1]
    assert filtered["filter"] == "demo-denoise"
    assert filtered["command"] == "demo-rec --flag 'it'\"'\"'s'"
    assert filtered["key"] == "demo-rec --flag 'it'\"'\"'s'"  # quoted as a shell reads it
    assert filtered["raw_chars"] > filtered["output_chars"] > 0
    assert filtered["saved_tokens"] == filtered["raw_tokens"] - filtered["output_tokens"] > 0
    assert records[0]["saved_tokens"] == 0


def test_every_run_spool_respects_tracking_config(capfd, ctxcrl_home, user_filters, demo_bin):
    _config(ctxcrl_home, "[tracking]\nstore_arguments = false\n")
    run_main(capfd, "run", "sh", "-c", "echo secret-argument >/dev/null")
    record = spool_records(ctxcrl_home)[-1]
    assert record["command"] == "sh" and record["key"] == "sh"
    assert "secret" not in json.dumps(record)
    _config(ctxcrl_home, "[tracking]\nenabled = false\n")
    run_main(capfd, "run", "sh", "-c", "exit 0")
    assert len(spool_records(ctxcrl_home)) == 1


def test_every_run_tracking_failure_changes_nothing(capfd, ctxcrl_home, monkeypatch):
    spool = os.path.join(str(ctxcrl_home), "spool.jsonl")
    os.makedirs(spool)  # appending to a directory fails
    code, out, err = run_main(capfd, "run", "sh", "-c", "echo hi; exit 6")
    assert (code, out, err) == (6, "hi\n", "")


def test_pipe_mode_appends_a_pipe_record(ctxcrl_home, user_filters):
    user_filters.write("demo-denoise", DENOISE)
    raw = b"".join(b"noise %d\n" % i for i in range(30)) + b"kept\n"
    result = cc_filter("demo-denoise", "--exit-code=4", input=raw)
    assert result.returncode == 4 and _kept(result.stdout.decode(), "kept\n", 30)
    record = spool_records(ctxcrl_home)[-1]
    assert (record["mode"], record["filter"], record["exit_code"]) == ("pipe", "demo-denoise", 4)


# -- 10. signals, closed stdout, CTXCRL_DISABLED ------------------------------------------------
@pytest.mark.parametrize("sig", [signal.SIGTERM, signal.SIGINT])
@pytest.mark.parametrize("filtered", [False, True])
def test_signals_forwarded_to_the_child(tmp_path, user_filters, demo_bin, sig, filtered):
    user_filters.write("demo-denoise", DENOISE)
    ready = tmp_path / "ready"
    name = "demo-sig" if filtered else "plain-sig"
    demo_bin.tool(name, f"""\
        trap 'echo "got signal"; exit 9' {sig.name[3:]}
        touch "{ready}"
        i=0; while [ $i -lt 300 ]; do sleep 0.1; i=$((i+1)); done
        echo "not interrupted"
        """)
    proc = subprocess.Popen([sys.executable, "-m", "cc_filter", "run", name],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    deadline = time.time() + 20
    while not ready.exists() and time.time() < deadline:
        time.sleep(0.02)
    assert ready.exists()
    time.sleep(0.1)
    proc.send_signal(sig)
    out, err = proc.communicate(timeout=20)
    assert proc.returncode == 9
    assert b"got signal" in out and b"not interrupted" not in out
    assert b"Traceback" not in err


@pytest.mark.parametrize("filtered", [False, True])
def test_closed_stdout_ends_quietly(user_filters, demo_bin, filtered):
    user_filters.write("demo-denoise", DENOISE)
    name = "demo-many" if filtered else "plain-many"
    demo_bin.tool(name, "i=0; while [ $i -lt 3000 ]; do echo line $i; i=$((i+1)); done\n")
    result = subprocess.run(
        f'"{sys.executable}" -m cc_filter run {name} | head -1; echo "status ${{PIPESTATUS[0]}}" >&2',
        shell=True, executable="/bin/bash", capture_output=True, timeout=60)
    assert result.stdout == b"line 0\n"
    assert result.stderr.startswith(b"status ")
    assert b"Traceback" not in result.stderr and b"Broken pipe" not in result.stderr
    assert b"Exception" not in result.stderr


def _pipeline(command: str, timeout: float = 20) -> tuple[int | None, bytes, bytes]:
    """Run a bash pipeline in its own session; (returncode, out, err), or a None returncode
    (and the whole session killed) when it did not end within `timeout`."""
    proc = subprocess.Popen(["bash", "-c", command], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return None, out, err
    return proc.returncode, out, err


@pytest.mark.parametrize("reader,expected", [("head -1", b"line 0\n"), ("true", b"")])
def test_closed_stdout_stops_a_never_ending_command(tmp_path, ctxcrl_home, user_filters,
                                                    demo_bin, reader, expected):
    """Rule 10 with a filtered command that never ends: `| head -1` gets its line (a long
    run's answer is written as it comes) and `| true` — nothing is ever written — is noticed
    while the command runs (fd 1 is watched). The command is stopped, we exit 141 (128 +
    SIGPIPE) without a word on stderr, and the run is still tracked."""
    user_filters.write("demo-denoise", DENOISE)
    pid_file = tmp_path / "child.pid"
    demo_bin.tool("demo-endless", f'echo $$ > "{pid_file}"\necho "line 0"\n'
                                  "while :; do echo noise line; done\n")
    code, out, err = _pipeline(f'"{sys.executable}" -m cc_filter run demo-endless | {reader}; '
                               'echo "status ${PIPESTATUS[0]}" >&2')
    assert code is not None, f"`cc-filter run <endless> | {reader}` did not end"
    assert (code, out, err) == (0, expected, b"status 141\n")
    if pid_file.exists() or reader != "true":  # (`| true` may stop it before it starts)
        with pytest.raises(ProcessLookupError):  # stopped and reaped, not left running
            os.kill(int(pid_file.read_text()), 0)
    record = spool_records(ctxcrl_home)[-1]
    assert (record["mode"], record["filter"], record["exit_code"]) == ("run", "demo-denoise", 141)
    assert record["tee_path"] is None  # discarded, not kept


def test_closed_stdout_stops_a_command_that_ignores_sigpipe_and_sigterm(
        tmp_path, user_filters, demo_bin):
    """SIGPIPE, then SIGTERM, then SIGKILL: a command that ignores the first two still ends."""
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-stubborn", "trap '' PIPE TERM\nwhile :; do echo noise line; done\n")
    start = time.monotonic()
    code, out, err = _pipeline(f'"{sys.executable}" -m cc_filter run demo-stubborn | true; '
                               'echo "status ${PIPESTATUS[0]}" >&2')
    assert code is not None, "a command ignoring SIGPIPE and SIGTERM was never killed"
    assert (out, err) == (b"", b"status 141\n")
    assert time.monotonic() - start < 10


def test_closed_stdout_pipe_mode_stops_reading(ctxcrl_home, user_filters):
    """`producer | cc-filter <name> | head -1`: we stop reading, so the producer gets its
    SIGPIPE and the pipeline ends, quietly."""
    user_filters.write("demo-denoise", DENOISE)
    code, out, err = _pipeline(f'yes "line" | "{sys.executable}" -m cc_filter demo-denoise '
                               '| head -1; echo "status ${PIPESTATUS[*]}" >&2')
    assert code is not None, "`yes | cc-filter <name> | head -1` did not end"
    assert (code, out, err) == (0, b"line\n", b"status 141 141 0\n")
    assert spool_records(ctxcrl_home)[-1]["exit_code"] == 141


def test_long_run_streams_the_winner_of_never_worse(ctxcrl_home):
    """Past guard.STREAM_AFTER raw bytes the answer is written as it comes: the filtered
    lines when they are smaller — the end then only adds (failure tail, tee hint) —, else the
    raw output, byte for byte, with the filter dropped."""
    from cc_filter.run.guard import STREAM_AFTER, OutputGuard
    from cc_filter.run.tee import TeePolicy
    from cc_filter.kit.toml_filter import make_class, parse_filter_file

    def guard_for(**stages):
        spec = parse_filter_file("t", {"schema_version": 1, "filter": {
            "name": "t", "match_command": "^t", **stages}})
        guard = OutputGuard(make_class(spec)([]), argv=["t"], tee_policy=TeePolicy.from_config())
        written = []
        guard.sink = lambda data: written.append(data) or True
        return guard, written

    chunk = b"noise line\n" * 10_000
    guard, written = guard_for(strip_lines_matching=["^noise"])
    guard.feed(b"kept 1\n")
    while len(guard.raw) < STREAM_AFTER:
        guard.feed(chunk)
    assert written == []  # nothing decided before the threshold
    guard.feed(chunk + b"kept 2\n" + chunk)
    assert b"".join(written) == b"kept 1\nkept 2\n"
    outcome = guard.finish(3)
    rest = outcome.text()  # only what is added at the end
    assert rest.startswith("[exit code 3; last 10 lines of output:]\nnoise line\n")
    assert rest.endswith(".log]\n") and "[full output: " in rest
    assert "streamed" in outcome.reasons and outcome.mode == "filtered"
    outcome.close()

    guard, written = guard_for(replace=[{"pattern": "^", "replacement": "padding padding "}])
    while len(guard.raw) < STREAM_AFTER:
        guard.feed(chunk)
    guard.feed(b"last\n")
    outcome = guard.finish(0)
    assert b"".join(written) == outcome._raw.getvalue()  # the raw output, all of it
    assert outcome.text() == "" and outcome.mode == "raw" and "never-worse" in outcome.reasons
    outcome.close()

    guard, written = guard_for(strip_lines_matching=["^noise"])
    guard.sink = lambda data: False  # nobody reads any more
    guard.feed(b"kept\n")
    while len(guard.raw) <= STREAM_AFTER:
        guard.feed(chunk)
    guard.feed(chunk)
    assert guard.reader_gone and guard.streamed == 0


def test_closed_stdout_passthrough_child_gets_default_sigpipe():
    """Python ignores SIGPIPE; the child must not inherit that (`yes | head` must end)."""
    result = subprocess.run(
        f'"{sys.executable}" -m cc_filter run yes | head -2; echo "${{PIPESTATUS[0]}}" >&2',
        shell=True, executable="/bin/bash", capture_output=True, timeout=30)
    assert result.stdout == b"y\ny\n"
    assert result.stderr == b"141\n"  # 128 + SIGPIPE, and no "write error" noise


def test_disabled_env_means_passthrough(capfd, ctxcrl_home, user_filters, demo_bin, monkeypatch):
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-dis", _noise(25) + "echo kept\n")
    monkeypatch.setenv("CTXCRL_DISABLED", "1")
    code, out, _ = run_main(capfd, "run", "demo-dis")
    assert code == 0 and out.count("noise line") == 25
    assert spool_records(ctxcrl_home)[-1]["mode"] == "passthrough"


# -- 11. injected arguments only re-encode ---------------------------------------------------------
@pytest.mark.parametrize("injected,expected_out", [
    ("argv + ['--porcelain']", "ARGS user-arg X --porcelain\n"),
    ("argv[:1] + ['-c', 'color.ui=never'] + argv[1:]", "-c color.ui=never ARGS user-arg X\n"),
    ("argv + ['-n', '10']", None),          # changes the scope: refused
    ("argv + ['--no-merges']", None),
    ("argv[:-1]", None),                    # drops the user's argument: refused
])
def test_injected_args_only_reencode(capfd, tmp_path, injected, expected_out):
    entry = _python_entry(tmp_path, f"""
class Demo(Filter):
    name = "demo-py"
    @classmethod
    def inject(cls, argv):
        return {injected}
    def feed(self, line):
        return [line.replace("x" * 200, "X")]
""", name=f"demo-inj{abs(hash(injected))}")
    entry.name = "demo-py"
    code = runner.run_filtered(["echo", "ARGS", "user-arg", "x" * 200], entry, key="echo",
                               started=time.perf_counter())
    out, err = capfd.readouterr()
    assert code == 0
    if expected_out:
        assert (out, err) == (expected_out, "")
    else:
        assert out == "ARGS user-arg X\n"
        assert "tried to change the command's scope" in err and err.count("\n") == 1


# -- passthrough ---------------------------------------------------------------------------------
def test_passthrough_inherits_stdio_interactive(tmp_path):
    """No filter: the child gets our terminal itself (an interactive command still works)."""
    import pty

    master, slave = pty.openpty()
    try:
        proc = subprocess.Popen(
            [sys.executable, "-m", "cc_filter", "run", "sh", "-c",
             "test -t 0 && test -t 1 && echo tty-ok; read answer; echo got:$answer"],
            stdin=slave, stdout=slave, stderr=slave)
        os.close(slave)
        slave = None
        os.write(master, b"yes\n")
        data = b""
        deadline = time.time() + 20
        while b"got:" not in data and time.time() < deadline:
            try:
                data += os.read(master, 1024)
            except OSError:
                break
        assert proc.wait(timeout=20) == 0
    finally:
        os.close(master)
        if slave is not None:
            os.close(slave)
    assert b"tty-ok" in data and b"got:yes" in data


def test_passthrough_streams_output_live(tmp_path):
    """Unfiltered output reaches the reader while the child still runs (no buffering)."""
    go = tmp_path / "go"
    proc = subprocess.Popen(
        [sys.executable, "-m", "cc_filter", "run", "sh", "-c",
         f'echo first; while [ ! -e "{go}" ]; do sleep 0.05; done; echo second'],
        stdout=subprocess.PIPE)
    assert proc.stdout.readline() == b"first\n"
    go.touch()
    assert proc.stdout.read() == b"second\n"
    assert proc.wait(timeout=20) == 0


# -- awkward output ---------------------------------------------------------------------------------
def test_binary_and_invalid_utf8_output(capfd, user_filters, demo_bin):
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-bin", _noise(25) + "printf 'ok \\377\\376 bytes\\000nul\\n'\n")
    code = cli.main(["run", "demo-bin"])
    out, err = capfd.readouterr()
    assert code == 0 and err == ""
    assert _kept(out, "ok \ufffd\ufffd bytes\x00nul\n", 25)


def test_carriage_return_progress_is_resolved(capfd, user_filters, demo_bin):
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-cr", _noise(25) + "printf 'progress 10%%\\rprogress 50%%\\rprogress 100%%\\r\\n'\n"
                  "printf 'crlf line\\r\\n'\n")
    code, out, err = run_main(capfd, "run", "demo-cr")
    assert (code, err) == (0, "") and _kept(out, "progress 100%\ncrlf line\n", 25)


@pytest.mark.slow
def test_huge_single_line(tmp_path, user_filters, demo_bin):
    """A 50 MB line without a newline: cut for the filter, full in the tee file, no traceback."""
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-huge", f"\"{sys.executable}\" -c \"import sys; sys.stdout.write('y' * 50_000_000)\"\n")
    result = cc_filter("run", "demo-huge", timeout=120)
    assert result.returncode == 0 and result.stderr == b""
    out = result.stdout.decode()
    assert out.startswith("yyyy") and f"… [{50_000_000 - 256 * 1024} more bytes]" in out
    assert "[full output: " in out
    assert len(out) < 300_000


def test_background_process_holding_the_pipe_does_not_hang_the_run(capfd, user_filters, demo_bin):
    """A command that leaves a background process holding stdout: the run ends shortly after
    the command itself, with everything the command printed."""
    user_filters.write("demo-denoise", DENOISE)
    demo_bin.tool("demo-daemon", _noise() + "(sleep 30 &)\necho started\nexit 3\n")
    start = time.time()
    code, out, _ = run_main(capfd, "run", "demo-daemon")
    assert time.time() - start < 10
    assert code == 3 and out.startswith("started\n")


def test_a_streamed_run_keeps_only_the_raw_head_and_tail_the_tee_needs(ctxcrl_home):
    """Once the filtered answer streams, the raw output only feeds the tee file (head and
    tail, `max_file_size`): memory and disk stay bounded however long the run, and the tee
    file still holds the first and the last lines."""
    from cc_filter.run.guard import STREAM_AFTER, OutputGuard
    from cc_filter.kit.spill import HeadTailBuffer
    from cc_filter.run.tee import TeePolicy
    from cc_filter.kit.toml_filter import make_class, parse_filter_file

    spec = parse_filter_file("t", {"schema_version": 1, "filter": {
        "name": "t", "match_command": "^t", "strip_lines_matching": ["^noise"]}})
    policy = TeePolicy(max_file_size=64 * 1024, directory=str(ctxcrl_home / "tee"))
    guard = OutputGuard(make_class(spec)([]), argv=["t"], tee_policy=policy)
    guard.sink = lambda data: True
    guard.feed(b"first line\n")
    chunk = b"noise line\n" * 10_000
    for _ in range(4 * STREAM_AFTER // len(chunk)):
        guard.feed(chunk)
    guard.feed(b"error: the last line\n")
    assert isinstance(guard.raw, HeadTailBuffer) and len(guard.raw) > 3 * STREAM_AFTER
    outcome = guard.finish(1)
    with open(outcome.tee_path, "rb") as f:
        kept = f.read()
    outcome.close()
    assert kept.startswith(b"first line\n") and kept.endswith(b"error: the last line\n")
    assert len(kept) <= 64 * 1024 + 100
