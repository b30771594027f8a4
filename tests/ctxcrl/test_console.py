"""How the tools' processes end: exit_now flushes and keeps the exit code, quietly."""
import subprocess
import sys

import pytest


def _run(body: str, **kwargs):
    # -I: no PYTHONUNBUFFERED from the environment, so stdout is buffered as in the hook
    code = f"import sys; from ctxcrl.console import console, exit_now\n{body}"
    return subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, **kwargs)


@pytest.mark.parametrize("value,code", [(0, 0), (None, 0), (3, 3), (True, 1), ("x", 1)])
def test_exit_now_flushes_both_streams_and_keeps_the_code(value, code):
    done = _run(f"sys.stdout.write('out'); sys.stderr.write('err'); exit_now({value!r})")
    assert (done.returncode, done.stdout, done.stderr) == (code, b"out", b"err")


def test_exit_now_with_its_reader_gone_is_quiet():
    code = ("import sys; from ctxcrl.console import exit_now\n"
            "sys.stdout.write('buffered'); sys.stdin.read(); exit_now(2)")
    child = subprocess.Popen([sys.executable, "-I", "-c", code], stdin=subprocess.PIPE,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    child.stdout.close()  # nobody reads: the final flush meets a broken pipe
    child.stdin.close()
    err = child.stderr.read()
    assert child.wait(timeout=30) == 2 and err == b""


def test_console_entry_exits_with_mains_code_and_output():
    done = _run("def main():\n    print('answer')\n    return 3\nconsole(main)()\n"
                "print('never reached')")
    assert (done.returncode, done.stdout) == (3, b"answer\n")


def test_console_entry_lets_system_exit_through():
    done = _run("def main():\n    raise SystemExit('usage: x')\nconsole(main)()")
    assert (done.returncode, done.stderr) == (1, b"usage: x\n")
