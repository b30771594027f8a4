"""The command line: cron, TTY colour, usage errors, record/prune/html, python -m."""
import json
import os
import subprocess
import sys
import time

import pytest

from ctxcrl import home
from cc_track import cli
from ctxcrl.spool import append
from track_records import CC_TRACK, make_record


def run(*args, input=None, env=None):
    return subprocess.run([CC_TRACK, *args], capture_output=True, text=True, input=input,
                          env=env or dict(os.environ))


def recent(i, **kw):
    return make_record(i, ts=time.time() - 3600 * (i % 48), **kw)


def cron_env(home_dir) -> dict:
    return {"HOME": str(home_dir), "PATH": "/usr/bin:/bin"}  # what cron gives a job


def test_cron_report_is_plain_stable_and_exits_0(tmp_path):
    data = tmp_path / ".local" / "share" / "ctxcrl"  # the XDG default under HOME
    for i in range(30):
        append(recent(i, key=["git status", "pytest -q", "jq ."][i % 3],
                      filter=["git-status", "pytest", "json"][i % 3],
                      output=[300, 800, 9000][i % 3]), path=str(data / "spool.jsonl"))
    cmd = ["env", "-i", f"HOME={tmp_path}", "PATH=/usr/bin:/bin", CC_TRACK, "report", "--graph"]
    first = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    second = subprocess.run(cmd, capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert first.returncode == 0 and second.returncode == 0, first.stderr
    assert first.stderr == ""
    assert first.stdout == second.stdout
    assert "\x1b" not in first.stdout
    assert "Commands" in first.stdout and "30" in first.stdout
    assert "Filters that made output bigger" in first.stdout  # jq's output grew
    assert (data / "tracking.db").exists()


def test_cron_empty_database_says_so_in_one_line(tmp_path):
    done = subprocess.run(["env", "-i", f"HOME={tmp_path}", "PATH=/usr/bin:/bin", CC_TRACK,
                           "report"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
    assert (done.returncode, done.stdout, done.stderr) == (0, "No commands recorded yet.\n", "")


def test_terminal_gets_colour_and_no_color_turns_it_off():
    import pty

    for i in range(5):
        append(recent(i))
    for extra_env, coloured in (({"TERM": "xterm"}, True), ({"TERM": "xterm", "NO_COLOR": "1"}, False),
                                ({"TERM": "dumb"}, False)):
        leader, follower = pty.openpty()
        env = {**os.environ, **extra_env}
        proc = subprocess.Popen([CC_TRACK, "report"], stdout=follower, stderr=follower, env=env)
        os.close(follower)
        chunks = []
        while True:
            try:
                chunk = os.read(leader, 65536)
            except OSError:
                break
            if not chunk:
                break
            chunks.append(chunk)
        proc.wait(30)
        os.close(leader)
        out = b"".join(chunks).decode()
        assert proc.returncode == 0
        assert ("\x1b[" in out) is coloured, extra_env


@pytest.mark.parametrize("args, message", [
    (["report", "--format=xml"], "--format=xml"),
    (["report", "--history=zero"], "--history=zero"),
    (["report", "--since=tomorrow"], "--since=tomorrow"),
    (["report", "--daily", "--weekly"], "Usage:"),
    (["economics", "--model=nope"], "unknown model 'nope'"),
    (["discover", "--format=csv"], "--format=csv"),
    (["frobnicate"], "Usage:"),
])
def test_usage_errors_exit_2(args, message):
    done = run(*args)
    assert done.returncode == cli.EXIT_USAGE
    assert message in done.stderr
    assert "Traceback" not in done.stderr


def test_help_is_the_usage_string():
    done = run("--help")
    assert done.returncode == 0
    assert done.stdout.strip() == cli.__doc__.strip()


def test_python_dash_m_works():
    done = subprocess.run([sys.executable, "-m", "cc_track", "--version"], capture_output=True,
                          text=True)
    assert (done.returncode, done.stdout.strip()) == (0, f"cc-track {cli.VERSION}")


def test_record_ingests_stdin_and_reports_counts():
    lines = "".join(recent(i).to_json() + "\n" for i in range(4)) + "oops\n" + recent(1).to_json()
    done = run("record", input=lines)
    assert done.returncode == 0, done.stderr
    assert done.stdout == ("ingested 4 records, 1 already known, "
                           "1 malformed line kept aside\n")
    assert "rejects" in done.stderr
    data = json.loads(run("report", "--format=json").stdout)
    assert data["totals"]["commands"] == 4 and data["rejected_lines"] == 1


def test_record_with_tracking_off_records_nothing(ctxcrl_home):
    (ctxcrl_home / "config.toml").write_text("[tracking]\nenabled = false\n")
    done = run("record", input=recent(1).to_json() + "\n")
    assert done.returncode == 0 and "nothing recorded" in done.stdout
    report = run("report")
    assert report.stdout.startswith("No commands recorded yet.")
    assert "Tracking is off" in report.stdout


def test_store_arguments_off_from_config(ctxcrl_home):
    (ctxcrl_home / "config.toml").write_text("[tracking]\nstore_arguments = false\n")
    append(recent(1, key="git log", command="git log --grep=password"))
    data = json.loads(run("report", "--format=json", "--history=1").stdout)
    assert data["history"][0]["command"] == "git log"


def test_prune_uses_retention_days_from_config(ctxcrl_home):
    (ctxcrl_home / "config.toml").write_text("[tracking]\nretention_days = 7\n")
    append(make_record(1, ts=time.time() - 10 * 86400))
    append(make_record(2, ts=time.time() - 1 * 86400))
    done = run("prune")
    assert (done.returncode, done.stdout) == (0, "pruned 1 record older than 7 days\n")


def test_html_writes_one_page(tmp_path):
    for i in range(10):
        append(recent(i))
    target = tmp_path / "report.html"
    done = run("report", f"--html={target}")
    assert done.returncode == 0 and done.stdout == f"wrote {target}\n"
    page = target.read_text()
    assert page.startswith("<!doctype html>") and "<svg" in page and "<script" not in page


def test_html_to_an_unwritable_place_fails_clearly(tmp_path):
    done = run("report", f"--html={tmp_path}/missing/dir/r.html")
    assert done.returncode == cli.EXIT_ERROR and "cannot write" in done.stderr


def test_json_and_csv_from_the_cli():
    for i in range(6):
        append(recent(i))
    data = json.loads(run("report", "--format=json", "--daily", "--by-command").stdout)
    assert data["period"] == "daily" and data["group"] == "command"
    text = run("report", "--format=csv", "--monthly").stdout
    assert text.splitlines()[0] == ",".join(__import__("cc_track.render").render.CSV_COLUMNS)
    econ = json.loads(run("economics", "--model=claude-sonnet-4.5", "--format=json").stdout)
    assert econ["estimate"] is True and econ["models"][0]["model"] == "claude-sonnet-4.5"


def test_broken_pipe_is_not_an_error():
    """`cc-track report | head -1`: the reader goes away while cc-track still writes (more
    than a pipe buffer of history); cc-track's own exit code is checked, not head's."""
    for i in range(1000):
        append(recent(i))
    proc = subprocess.Popen([CC_TRACK, "report", "--history=1000"], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    proc.stdout.close()
    err = proc.stderr.read()
    assert proc.wait(60) == 0, err
    assert first.startswith("contextcrawler") and err == ""
