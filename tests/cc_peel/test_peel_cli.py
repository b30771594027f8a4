"""The cc-peel command line: one JSON object per segment, exit codes, config prefixes."""
import json
import os
import subprocess
import sys

import pytest
from docopt import docopt

from cc_peel import cli

BIN = os.path.join(os.path.dirname(sys.executable), "cc-peel")


def run(*args, stdin: bytes = b"", env=None):
    return subprocess.run([BIN, *args], input=stdin, capture_output=True, env=env)


def test_one_object_per_segment(capsys):
    assert cli.main(["FOO=1 timeout 9 git -C x status 2>&1 | head"]) == 0
    first, second = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert first == {
        "text": "FOO=1 timeout 9 git -C x status 2>&1", "start": 0, "end": 36,
        "separator": "|", "env": "FOO=1 ", "env_vars": [["FOO", "1"]],
        "wrappers": "timeout 9 ", "core_start": 16, "core_end": 31, "core": "git -C x status",
        "argv": ["git", "-C", "x", "status"], "key": "git status", "redirects": ["2>&1"],
        "file_redirect": False, "position": "producer", "opaque": None, "nested": None,
        "whole_opaque": None}
    assert (second["key"], second["position"]) == ("head", "final")


def test_whole_opaque_is_on_every_line(capsys):
    assert cli.main(["cat <<EOF\nx\nEOF\nls"]) == 0
    lines = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [line["whole_opaque"] for line in lines] == ["heredoc", "heredoc"]


def test_stdin():
    result = run(stdin=b"echo $(git push --force)\n")
    assert result.returncode == 0
    keys = [json.loads(line)["key"] for line in result.stdout.decode().splitlines()]
    assert keys == ["echo $(git push --force)", "git push --force"]


def test_empty_prints_nothing(capsys):
    assert cli.main([""]) == 0
    assert capsys.readouterr().out == ""


@pytest.mark.parametrize("args, stdin, message", [
    (["ls 'x"], b"", "cc-peel: unterminated single quote at offset 3\n"),
    ([], b"echo `ls", "cc-peel: unterminated backtick at offset 5\n"),
    ([], b"git \xc3", "cc-peel: stdin is not valid UTF-8 (byte 4)\n"),
])
def test_errors_exit_2_with_one_line(args, stdin, message):
    result = run(*args, stdin=stdin)
    assert (result.returncode, result.stdout, result.stderr.decode()) == (2, b"", message)


def test_transparent_prefixes_come_from_the_config(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text('[hooks]\ntransparent_prefixes = ["mise exec --"]\n')
    env = dict(os.environ, CTXCRL_HOME=str(home))
    result = run("mise exec -- cargo test", env=env)
    line = json.loads(result.stdout)
    assert (line["wrappers"], line["key"]) == ("mise exec -- ", "cargo test")


def test_broken_config_does_not_stop_peel(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "config.toml").write_text("[hooks\nnot toml")
    result = run("git status", env=dict(os.environ, CTXCRL_HOME=str(home)))
    assert result.returncode == 0
    assert json.loads(result.stdout)["key"] == "git status"


def test_help():
    result = run("--help")
    assert result.returncode == 0
    for needle in ("Usage:", "whole_opaque", "opaque", "key", "Exit codes"):
        assert needle in result.stdout.decode()


def test_usage_error_exits_64_and_names_the_option():
    result = run("--bogus")
    assert result.returncode == 64 and b"Usage:" in result.stderr
    assert result.stderr.startswith(b"cc-peel: unknown option or argument: --bogus\n")


@pytest.mark.parametrize("argv", [[], ["git status"], ["--", "-x"], ["--"], ["-"]])
def test_fast_path_agrees_with_docopt(argv):
    assert cli.fast_args(argv) == dict(docopt(cli.__doc__, argv))


@pytest.mark.parametrize("argv", [["-h"], ["--help"], ["--version"], ["a", "b"], ["-x"]])
def test_other_forms_go_to_docopt(argv):
    assert cli.fast_args(argv) is None
