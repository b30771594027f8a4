"""Faults and bad input, each through the installed tools (ARCHITECTURE §6.2, §7, §8; issue 8).

In every case: the right exit code, the output present, at most one clear message on stderr
(never a traceback), and every run recorded exactly once — nothing twice, nothing lost.
The child is `probe` (filtered path: a user TOML filter) or `rawprobe` (passthrough path),
see system_probe.py.
"""
import contextlib
import json
import os
import signal
import sqlite3
import subprocess
import sys
import time

import pytest
import system_probe
from conftest import BASE_PATH, BIN, tool

BOTH_PATHS = pytest.mark.parametrize("probe", ["probe", "rawprobe"],
                                     ids=["filtered", "passthrough"])


class Faults:
    def __init__(self, home, tmp):
        self.home = home
        self.tmp = tmp
        self.bin = tmp / "bin"
        system_probe.install(str(self.bin), str(home / "filters"))
        # CTXCRL_FALLBACK_FILTER=0: `rawprobe` stands for a command on the passthrough path,
        # which the generic fallback filter would otherwise take (test_fallback.py tests it)
        self.env = dict(os.environ, PATH=f"{self.bin}:{BIN}:{BASE_PATH}", CTXCRL_HOME=str(home),
                        LANG="C.UTF-8", CTXCRL_FALLBACK_FILTER="0")
        for var in ("CTXCRL_DISABLED", "CTXCRL_TEE_DIR", "CTXCRL_DB_PATH", "CI"):
            self.env.pop(var, None)

    def with_env(self, **extra):
        env = dict(self.env)
        env.update(extra)
        return env

    def run(self, *argv, env=None, timeout=60, stdin=subprocess.DEVNULL):
        return subprocess.run([tool("cc-filter"), "run", *argv], capture_output=True,
                              stdin=stdin, env=env or self.env, cwd=self.tmp, timeout=timeout)

    def sh(self, command, env=None, timeout=60):
        return subprocess.run(["bash", "-c", command], capture_output=True, env=env or self.env,
                              cwd=self.tmp, timeout=timeout)

    def track(self, *args, env=None, timeout=120):
        return subprocess.run([tool("cc-track"), *args], capture_output=True, text=True,
                              env=env or self.env, cwd=self.tmp, timeout=timeout)

    def spool(self, home=None) -> list[dict]:
        path = os.path.join(str(home or self.home), "spool.jsonl")
        if not os.path.exists(path):
            return []
        with open(path, encoding="utf-8") as f:
            return [json.loads(line) for line in f if line.strip()]

    def report(self, env=None) -> dict:
        done = self.track("report", "--format=json", env=env)
        assert done.returncode == 0, done.stderr
        quiet(done.stderr)
        return json.loads(done.stdout)


def quiet(stderr, most=1):
    """At most `most` lines on stderr, and never a traceback."""
    text = stderr.decode("utf-8", "replace") if isinstance(stderr, bytes) else stderr
    lines = [line for line in text.splitlines() if line.strip()]
    assert "Traceback" not in text, text
    assert len(lines) <= most, f"more than {most} message line(s) on stderr:\n{text}"
    return lines


@pytest.fixture
def fx(ctxcrl_home, tmp_path):
    return Faults(ctxcrl_home, tmp_path)


@contextlib.contextmanager
def tmpfs(path, size="2m"):
    """A small tmpfs at `path` (root and a mount namespace that allows it), else skip."""
    os.makedirs(path, exist_ok=True)
    if os.geteuid() != 0:
        pytest.skip("mounting a tmpfs needs root")
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size},mode=0700", "tmpfs",
                           str(path)], capture_output=True, text=True)
    if done.returncode != 0:
        pytest.skip(f"cannot mount a tmpfs here: {done.stderr.strip()}")
    try:
        yield path
    finally:
        if subprocess.run(["umount", str(path)], capture_output=True).returncode != 0:
            subprocess.run(["umount", "-l", str(path)], capture_output=True)


def fill(directory):
    """Fill the file system of `directory` up to the last byte."""
    for name, size in (("filler", 1 << 16), ("filler2", 1)):
        fd = os.open(os.path.join(directory, name), os.O_WRONLY | os.O_CREAT | os.O_APPEND)
        try:
            while True:
                os.write(fd, b"\0" * size)
        except OSError:
            pass
        finally:
            os.close(fd)


# --- the child misbehaves -------------------------------------------------------------------

@BOTH_PATHS
@pytest.mark.parametrize("signum", [signal.SIGKILL, signal.SIGSEGV, signal.SIGTERM])
def test_child_killed_by_a_signal_exits_128_plus_n(fx, probe, signum):
    done = fx.run(probe, "kill", str(int(signum)))
    assert done.returncode == 128 + signum
    assert b"before the signal" in done.stdout
    quiet(done.stderr)
    records = fx.spool()
    assert [r["exit_code"] for r in records] == [128 + signum]


@BOTH_PATHS
def test_sigterm_is_forwarded_to_a_child_that_ignores_it(fx, probe):
    """Documented behaviour: `cc-filter run` forwards SIGTERM and keeps waiting. A child that
    ignores it goes on; when it ends, cc-filter exits with the child's code and shows its
    output. cc-filter never leaves the child behind nor reports before it ended."""
    ready = fx.tmp / "ready"
    proc = subprocess.Popen([tool("cc-filter"), "run", probe, "ignore-term", str(ready), "3"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=fx.env,
                            cwd=fx.tmp, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not ready.exists():
            assert time.monotonic() < deadline, "the child never started"
            assert proc.poll() is None, proc.communicate()
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        time.sleep(0.5)
        assert proc.poll() is None, "cc-filter ended while its child was still running"
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 3
    assert b"finished, SIGTERM received 1 time(s)" in out, out
    quiet(err)
    assert [r["exit_code"] for r in fx.spool()] == [3]


@BOTH_PATHS
def test_sigterm_ends_a_normal_child_with_143(fx, probe):
    ready = fx.tmp / "ready"
    proc = subprocess.Popen([tool("cc-filter"), "run", probe, "wait-term", str(ready)],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=fx.env,
                            cwd=fx.tmp, stdin=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 30
        while not ready.exists():
            assert time.monotonic() < deadline and proc.poll() is None, "child never started"
            time.sleep(0.02)
        proc.send_signal(signal.SIGTERM)
        out, err = proc.communicate(timeout=30)
    finally:
        if proc.poll() is None:
            proc.kill()
    assert proc.returncode == 143
    assert b"started" in out
    quiet(err)
    assert [r["exit_code"] for r in fx.spool()] == [143]


@pytest.mark.parametrize("command", ["missing-probe", "no-such-command-ctxcrl"],
                         ids=["filtered", "passthrough"])
def test_command_not_found_exits_127_with_one_line(fx, command):
    done = fx.run(command, "--flag")
    assert done.returncode == 127
    assert done.stdout == b""
    lines = quiet(done.stderr)
    assert len(lines) == 1 and command in lines[0] and "not found" in lines[0]
    assert [r["exit_code"] for r in fx.spool()] == [127]


def test_command_not_executable_exits_126_with_one_line(fx):
    done = fx.run("unexec-probe")
    assert done.returncode == 126
    lines = quiet(done.stderr)
    assert len(lines) == 1 and "unexec-probe" in lines[0]
    assert [r["exit_code"] for r in fx.spool()] == [126]


@BOTH_PATHS
def test_never_ending_command_into_head_ends_quietly(fx, probe):
    """`cc-filter run <endless> | head -1` must end as the raw pipeline does (the producer
    gets SIGPIPE), print the first line, and say nothing on stderr."""
    proc = subprocess.Popen(["bash", "-c", f"{tool('cc-filter')} run {probe} forever | head -1"],
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, env=fx.env,
                            cwd=fx.tmp, start_new_session=True)
    try:
        out, err = proc.communicate(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail(f"`cc-filter run {probe} forever | head -1` did not end within 10 s: "
                    "a closed stdout is not noticed while the child keeps writing")
    assert proc.returncode == 0
    assert out == b"line 0\n"
    quiet(err, most=0)
    assert len(fx.spool()) == 1


# --- odd output ------------------------------------------------------------------------------

@BOTH_PATHS
def test_invalid_utf8_and_nul_bytes_come_through(fx, probe):
    raw = b"ok \xff\xfe caf\xc3\xa9\nNUL\x00byte\n\xc3(\nend\n"
    done = fx.run(probe, "bytes", raw.hex())
    assert done.returncode == 0
    assert done.stdout == raw, "short output must come through byte for byte"
    quiet(done.stderr, most=0)
    assert len(fx.spool()) == 1


@pytest.mark.slow
def test_a_50_mb_single_line_is_cut_with_bounded_memory(fx):
    code = ("import json, resource, subprocess, sys\n"
            "p = subprocess.run(sys.argv[1:], stdout=subprocess.PIPE, stderr=subprocess.PIPE)\n"
            "print(json.dumps([p.returncode, len(p.stdout),"
            " p.stdout[-300:].decode('utf-8', 'replace'), p.stderr.decode('utf-8', 'replace'),"
            " resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024]))\n")
    done = subprocess.run([sys.executable, "-c", code, tool("cc-filter"), "run", "probe",
                           "bigline", "50"], capture_output=True, text=True, env=fx.env,
                          cwd=fx.tmp, timeout=120)
    code, size, tail, err, rss_mb = json.loads(done.stdout)
    assert code == 0
    assert "end of the big line" in tail
    assert size < 1_000_000, f"the agent gets {size} bytes of one line"
    quiet(err, most=0)
    assert rss_mb < 50, f"peak RSS {rss_mb:.0f} MB for a 50 MB line"
    assert len(fx.spool()) == 1


def test_carriage_return_progress_bars_are_resolved(fx):
    done = fx.run("probe", "progress")
    assert done.returncode == 0
    assert done.stdout == b"Downloaded 3 files\n"
    raw = fx.run("rawprobe", "progress")
    assert raw.stdout.startswith(b"\x1b[32mDownloading 0%") and b"\r" in raw.stdout, \
        "passthrough must leave the output alone"
    assert len(fx.spool()) == 2


# --- the disk, the database, the configuration ------------------------------------------------

def test_full_disk_never_breaks_a_command(fx):
    """The data directory on a full file system: the command's output and exit code are
    intact, at most one message, no hint to a missing or empty tee file, no empty tee files;
    once space is back, tracking goes on and nothing is counted twice."""
    mount = fx.tmp / "full"
    with tmpfs(mount, "2m"):
        (mount / "filters").mkdir()
        (mount / "filters" / "probe.toml").write_text(system_probe.FILTER)
        env = fx.with_env(CTXCRL_HOME=str(mount))
        assert fx.run("probe", "echo", "warm", env=env).returncode == 0
        assert fx.track("report", env=env).returncode == 0  # the database exists
        fill(mount)
        for _ in range(3):
            done = fx.run("probe", "fail", "60", env=env)
            assert done.returncode == 3
            assert b"error: line 0 of a failing run" in done.stdout
            quiet(done.stderr)
            text = done.stdout.decode()
            if "[full output:" in text:
                path = text.rsplit("[full output: ", 1)[1].split("]")[0]
                assert os.path.getsize(os.path.expanduser(path)) > 0, f"hint to empty {path}"
        done = fx.run("rawprobe", "echo", "passthrough still works", env=env)
        assert done.returncode == 0 and done.stdout == b"passthrough still works\n"
        quiet(done.stderr)
        report = fx.track("report", env=env)
        assert report.returncode in (0, 1)
        quiet(report.stderr)
        tee = mount / "tee"
        empty = [p.name for p in tee.iterdir() if p.stat().st_size == 0] if tee.exists() else []
        leftovers = [p.name for p in mount.iterdir() if p.name.endswith(".tmp")]
        (mount / "filler").unlink()
        with contextlib.suppress(FileNotFoundError):
            (mount / "filler2").unlink()
        written = len(fx.spool(mount))
        assert fx.run("probe", "echo", "after", env=env).returncode == 0
        totals = fx.report(env=env)["totals"]
        assert 2 + written <= totals["commands"] <= 6, totals  # warm + after + what fit
        assert not empty and not leftovers, \
            f"left on a full disk: empty tee files {empty}, temporary files {leftovers}"


def test_report_on_a_full_disk_before_any_database(fx):
    """The disk fills before cc-track ever ran: the report says so in one line, and once
    space is back every spooled record is counted exactly once."""
    mount = fx.tmp / "full"
    with tmpfs(mount, "2m"):
        env = fx.with_env(CTXCRL_HOME=str(mount))
        for i in range(3):
            assert fx.run("rawprobe", "echo", str(i), env=env).returncode == 0
        fill(mount)
        report = fx.track("report", env=env)
        problems = []
        lines = [line for line in report.stderr.splitlines() if line.strip()]
        if report.returncode not in (0, 1) or len(lines) > 1 or "Traceback" in report.stderr:
            problems.append(f"report on a full disk: exit {report.returncode}, stderr {lines}")
        for name in ("filler", "filler2"):
            with contextlib.suppress(FileNotFoundError):
                (mount / name).unlink()
        later = fx.track("report", "--format=json", env=env)
        if later.returncode != 0 or json.loads(later.stdout)["totals"]["commands"] != 3:
            problems.append(f"report once space is back: exit {later.returncode}, "
                            f"{later.stdout[:300]}{later.stderr}")
        assert not problems, "\n".join(problems)


def test_spool_and_tee_on_dev_full(fx):
    """Without mount rights: the spool is /dev/full (every append fails with ENOSPC) and the
    tee directory cannot be created. Commands are unaffected."""
    os.symlink("/dev/full", fx.home / "spool.jsonl")
    env = fx.with_env(CTXCRL_TEE_DIR="/dev/full/tee")
    for probe, code in (("probe", 3), ("rawprobe", 3)):
        done = fx.run(probe, "fail", "60", env=env)
        assert done.returncode == code
        assert b"error: line 0 of a failing run" in done.stdout
        assert b"[full output:" not in done.stdout
        quiet(done.stderr)


def test_read_only_data_directory(fx):
    mount = fx.tmp / "ro"
    with tmpfs(mount, "4m"):
        (mount / "filters").mkdir()
        (mount / "filters" / "probe.toml").write_text(system_probe.FILTER)
        env = fx.with_env(CTXCRL_HOME=str(mount))
        assert fx.run("probe", "echo", "warm", env=env).returncode == 0
        assert fx.track("report", env=env).returncode == 0
        before = fx.report(env=env)["totals"]["commands"]
        remount = subprocess.run(["mount", "-o", "remount,ro", str(mount)], capture_output=True)
        if remount.returncode != 0:
            pytest.skip("cannot remount read-only")
        # as in an agent's sandbox (Codex workspace-write): the data dir is read-only, $TMPDIR
        # is writable: the tee file and the spool records go there, said once on stderr
        tmpdir = fx.tmp / "tmpdir"
        tmpdir.mkdir()
        env = dict(env, TMPDIR=str(tmpdir))
        fallback = tmpdir / f"ctxcrl-{os.getuid()}"
        try:
            notices = 0
            for probe in ("probe", "rawprobe"):
                done = fx.run(probe, "fail", "60", env=env)
                assert done.returncode == 3
                assert b"error: line 0 of a failing run" in done.stdout
                if probe == "probe":  # filtered, output dropped: a tee file (rawprobe: raw)
                    assert f"[full output: {fallback}/tee/".encode() in done.stdout
                notices += sum("is not writable here" in line for line in quiet(done.stderr))
            assert notices == 1
            report = fx.track("report", "--format=json", env=env)
            assert report.returncode == 0, report.stderr
            quiet(report.stderr)
            assert json.loads(report.stdout)["totals"]["commands"] == before
        finally:
            subprocess.run(["mount", "-o", "remount,rw", str(mount)], capture_output=True)
        # writable again: the next cc-track ingests what was tracked meanwhile, once
        assert fx.report(env=env)["totals"]["commands"] == before + 2
        assert fx.report(env=env)["totals"]["commands"] == before + 2


def test_corrupt_database(fx):
    fx.run("probe", "echo", "one")
    fx.report()
    db = fx.home / "tracking.db"
    db.write_bytes(b"this is not a database" * 100)
    for suffix in ("-wal", "-shm"):
        with contextlib.suppress(FileNotFoundError):
            os.unlink(str(db) + suffix)
    done = fx.run("probe", "echo", "two")  # producers never touch the database
    assert done.returncode == 0 and done.stdout == b"two\n"
    quiet(done.stderr, most=0)
    report = fx.track("report")
    assert report.returncode == 3
    lines = quiet(report.stderr)
    assert len(lines) == 1 and "cc-track repair" in lines[0]
    repair = fx.track("repair")
    assert repair.returncode == 0, repair.stderr
    quiet(repair.stderr)
    fx.run("probe", "echo", "three")
    totals = fx.report()["totals"]
    assert totals["commands"] == 2  # "two" (kept in the spool) and "three"; "one" died with the db


def test_locked_database_waits_and_loses_nothing(fx):
    for i in range(3):
        fx.run("probe", "echo", str(i))
    fx.report()
    for i in range(3):
        fx.run("probe", "echo", str(i))
    locker = subprocess.Popen(
        [sys.executable, "-c",
         "import sqlite3, sys, time\n"
         "c = sqlite3.connect(sys.argv[1], isolation_level=None)\n"
         "c.execute('BEGIN EXCLUSIVE')\nprint('locked', flush=True)\ntime.sleep(2)\n"
         "c.execute('COMMIT')\n", str(fx.home / "tracking.db")],
        stdout=subprocess.PIPE, text=True)
    try:
        assert locker.stdout.readline().strip() == "locked"
        report = fx.track("report", "--format=json")
    finally:
        locker.wait(timeout=30)
    assert report.returncode == 0, report.stderr
    quiet(report.stderr)
    assert json.loads(report.stdout)["totals"]["commands"] == 6
    assert fx.report()["totals"]["commands"] == 6


def test_malformed_config_warns_once_and_changes_nothing(fx):
    (fx.home / "config.toml").write_text("[tee\nmode = 'always'\n")
    for probe in ("probe", "rawprobe"):
        done = fx.run(probe, "echo", "hello")
        assert done.returncode == 0 and done.stdout == b"hello\n"
        lines = quiet(done.stderr)
        assert len(lines) == 1 and "config.toml" in lines[0], lines
    done = fx.run("probe", "fail", "60")
    assert done.returncode == 3 and b"error: line 0 of a failing run" in done.stdout
    quiet(done.stderr)
    report = fx.track("report", "--format=json")
    assert report.returncode == 0
    quiet(report.stderr)
    assert json.loads(report.stdout)["totals"]["commands"] == 3


@pytest.mark.parametrize("content", [
    'this is [not toml\n',
    'schema_version = 1\n[filter]\nname = "bad"\nmatch_command = "^probe(\\\\s|$)"\nbogus = 1\n',
    'schema_version = 1\n[filter]\nname = "bad"\nmatch_command = "^probe(\\\\s|$"\n',
    'schema_version = 99\n[filter]\nname = "bad"\nmatch_command = "^probe(\\\\s|$)"\n',
], ids=["not-toml", "unknown-key", "bad-regex", "future-schema"])
def test_malformed_filter_file(fx, content):
    (fx.home / "filters" / "aaa-broken.toml").write_text(content)
    done = fx.run("probe", "echo", "hello")
    assert done.returncode == 0 and done.stdout == b"hello\n"
    quiet(done.stderr)
    done = fx.run("rawprobe", "echo", "hi")
    assert done.returncode == 0 and done.stdout == b"hi\n"
    quiet(done.stderr)
    listing = subprocess.run([tool("cc-filter"), "list", "--all"], capture_output=True,
                             text=True, env=fx.env, cwd=fx.tmp, timeout=60)
    assert "aaa-broken" in listing.stdout + listing.stderr, "cc-filter list hides the broken file"
    assert len(fx.spool()) == 2


@pytest.mark.slow
def test_200_concurrent_runs_are_all_right_and_recorded_once(fx):
    procs = []
    for i in range(200):
        probe = "shprobe" if i % 2 else "rawshprobe"
        env = fx.with_env(PROBE_EXIT=str(i % 4))
        procs.append((i, subprocess.Popen([tool("cc-filter"), "run", probe, f"run-{i}"],
                                          stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                          env=env, cwd=fx.tmp, stdin=subprocess.DEVNULL)))
    for i, proc in procs:
        out, err = proc.communicate(timeout=300)
        assert proc.returncode == i % 4, (i, out, err)
        expected = f"run-{i}\n".encode()
        assert out.startswith(expected) or expected in out, (i, out)
        quiet(err)
    records = fx.spool()
    assert len(records) == 200 and len({r["id"] for r in records}) == 200
    assert sorted(r["command"].split()[-1] for r in records) == \
        sorted(f"run-{i}" for i in range(200))
    # two reports at once: both ingest under the lock, nothing counted twice
    reports = [subprocess.Popen([tool("cc-track"), "report", "--format=json"], env=fx.env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
               for _ in range(2)]
    for proc in reports:
        out, err = proc.communicate(timeout=120)
        assert proc.returncode == 0, err
        quiet(err)
    assert fx.report()["totals"]["commands"] == 200
    with sqlite3.connect(f"file:{fx.home / 'tracking.db'}?mode=ro", uri=True) as db:
        tables = [r[0] for r in db.execute("select name from sqlite_master where type='table'")]
        table = "records" if "records" in tables else tables[0]
        assert db.execute(f"select count(*) from {table}").fetchone()[0] == 200
    assert fx.spool() == []


# --- the hook gets bad input ----------------------------------------------------------------

def _install_claude(sandbox):
    done = sandbox.tool("cc-hook", "init", "--agent", "claude", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    from system_agents import AGENTS, Session

    return Session(sandbox, AGENTS["claude"])


def test_hook_event_of_10_mb(sandbox):
    session = _install_claude(sandbox)
    command = "echo " + "a" * (10 * 1024 * 1024)
    body = json.dumps(session.agent.event(command, str(sandbox.project))).encode()
    start = time.monotonic()
    done = session.ask_hook(command, body)
    assert time.monotonic() - start < 20
    assert done.returncode == 0
    assert done.stdout.strip() == b""
    quiet(done.stderr)
    # and a 10 MB description with a normal command: no crash, and no answer either (issue 5:
    # a 10 MB body gets none; cc-hook drops bodies over 1 MiB, so the agent runs it unchanged)
    event = session.agent.event("git status", str(sandbox.project))
    event["tool_input"]["description"] = "d" * (10 * 1024 * 1024)
    done = session.ask_hook("", json.dumps(event).encode())
    assert done.returncode == 0
    assert done.stdout.strip() == b""
    quiet(done.stderr)


def test_settings_file_that_is_not_json(sandbox):
    settings = sandbox.home / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    broken = b'{"permissions": {"deny": ["Bash(git push --force:*)"]},, oops\n'
    settings.write_bytes(broken)
    done = sandbox.tool("cc-hook", "init", "--agent", "claude", check=False)
    assert done.returncode == 1
    assert "settings.json" in done.stdout + done.stderr
    assert "Traceback" not in done.stdout + done.stderr
    assert settings.read_bytes() == broken, "init touched a settings file it could not parse"

    # A broken settings.local.json next to a good settings.json: the hook still answers (the
    # gate skips the broken file with at most one warning) and the rewrite still works.
    settings.write_text(json.dumps({"permissions": {"allow": ["Bash(git status)"]}}))
    session = _install_claude(sandbox)
    (settings.parent / "settings.local.json").write_bytes(broken)
    done = session.ask_hook("git status")
    assert done.returncode == 0
    quiet(done.stderr)
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert answer["updatedInput"]["command"].endswith("cc-filter run git status")


def test_malformed_config_through_the_hook(sandbox):
    """The user breaks config.toml after install (where init recorded cc-filter's path for
    an agent whose PATH lacks it): the hook still answers, with at most one message, and a
    rewritten command still runs in the agent's shell — or the command is left unchanged."""
    session = _install_claude(sandbox)
    config = sandbox.config_dir / "config.toml"
    assert config.exists(), "init should have recorded filter_bin in config.toml"
    config.write_text(config.read_text() + "\n[tee\nmode = 'always'\n")
    done = session.ask_hook("git status")
    assert done.returncode == 0
    from system_agents import AGENTS

    problems = []
    err = [line for line in done.stderr.decode().splitlines() if line.strip()]
    if len(err) > 1 or "Traceback" in done.stderr.decode():
        problems.append(f"the hook printed {len(err)} lines on stderr: {err}")
    answer = AGENTS["claude"].parse(done.stdout.decode(), "git status")
    ran = subprocess.run(["bash", "-c", answer.command], cwd=sandbox.project, env=sandbox.env,
                         capture_output=True, text=True, timeout=60)
    if ran.returncode != 0 or "main" not in ran.stdout:
        problems.append(f"{answer.command!r} in the agent's shell exits {ran.returncode}: "
                        f"{ran.stdout}{ran.stderr}")
    assert not problems, "\n".join(problems)
