"""The cc-lex command line: output formats, exit codes, errors, and the argv fast path."""
import json
import os
import subprocess
import sys

import pytest
from docopt import docopt

from cc_lex import cli

BIN = os.path.join(os.path.dirname(sys.executable), "cc-lex")


def run(*args, stdin: bytes | None = None):
    return subprocess.run([BIN, *args], input=stdin if stdin is not None else b"",
                          capture_output=True)


def test_jsonl_tokens(capsys):
    assert cli.main(["git status 2>&1"]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert [json.loads(line) for line in lines] == [
        {"kind": "word", "text": "git", "start": 0, "end": 3},
        {"kind": "word", "text": "status", "start": 4, "end": 10},
        {"kind": "redirect", "text": "2>&1", "start": 11, "end": 15},
    ]


def test_jsonl_keeps_unicode_and_escapes(capsys):
    assert cli.main(['echo "é\tx"']) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[1] == '{"kind": "word", "text": "\\"é\\tx\\"", "start": 5, "end": 10}'


def test_tsv(capsys):
    assert cli.main(["--format=tsv", "a\t'b\tc' | d\n"]) == 0
    assert capsys.readouterr().out == (
        "word\ta\t0\t1\nword\t'b\\tc'\t2\t7\npipe\t|\t8\t9\nword\td\t10\t11\n"
        "operator\t\\n\t11\t12\n")


def test_words(capsys):
    assert cli.main(["--words", "git commit -m 'a b' && ls"]) == 0
    assert capsys.readouterr().out == '"git"\n"commit"\n"-m"\n"a b"\n"&&"\n"ls"\n'


def test_words_tsv(capsys):
    assert cli.main(["--words", "--format", "tsv", "echo 'a\nb'"]) == 0
    assert capsys.readouterr().out == "echo\na\\nb\n"


def test_bytes(capsys):
    assert cli.main(["--bytes", "é ü"]) == 0
    out = [json.loads(line) for line in capsys.readouterr().out.splitlines()]
    assert [(t["start"], t["end"]) for t in out] == [(0, 2), (3, 5)]


def test_empty_command_prints_nothing(capsys):
    assert cli.main([""]) == 0
    assert capsys.readouterr().out == ""


def test_stdin_is_read_unchanged():
    result = run(stdin=b"ls | wc -l\n")
    assert result.returncode == 0
    kinds = [json.loads(line)["kind"] for line in result.stdout.decode().splitlines()]
    assert kinds == ["word", "pipe", "word", "word", "operator"]


@pytest.mark.parametrize("args, stdin, message", [
    (["echo 'abc"], b"", "cc-lex: unterminated single quote at offset 5\n"),
    ([], b'git commit -m "wip', "cc-lex: unterminated double quote at offset 14\n"),
    (["echo $(ls"], b"", "cc-lex: unterminated $( at offset 5\n"),
    (["--bytes", "é 'x"], b"", "cc-lex: unterminated single quote at offset 3\n"),
    ([], b"ls \xff\xfe", "cc-lex: stdin is not valid UTF-8 (byte 3)\n"),
    (["--format=xml", "ls"], b"", "cc-lex: unknown format 'xml' (jsonl or tsv)\n"),
])
def test_errors_exit_2_with_one_line(args, stdin, message):
    result = run(*args, stdin=stdin)
    assert result.returncode == 2
    assert result.stdout == b""
    assert result.stderr.decode() == message


def test_invalid_utf8_argument():
    result = subprocess.run([BIN, b"ls \xff"], capture_output=True)
    assert result.returncode == 2
    assert result.stderr.decode().startswith("cc-lex: the command is not valid UTF-8")
    assert b"Traceback" not in result.stderr


def test_usage_error_exits_64_and_names_the_option():
    result = run("--nope", "x")
    assert result.returncode == 64
    assert result.stderr.startswith(b"cc-lex: unknown option or argument: --nope\n")
    assert b"Usage:" in result.stderr


def test_help_describes_the_tool():
    result = run("--help")
    assert result.returncode == 0
    out = result.stdout.decode()
    for needle in ("Usage:", "--words", "--format=FMT", "--bytes", "heredoc", "Exit codes"):
        assert needle in out


def test_python_dash_m():
    result = subprocess.run([sys.executable, "-m", "cc_lex", "a;b"], capture_output=True)
    assert result.returncode == 0
    assert len(result.stdout.splitlines()) == 3


FAST_ARGV = [
    [], ["git status"], ["--words", "x"], ["--bytes", "x"], ["--format=tsv", "x"],
    ["--format", "tsv", "x"], ["--words", "--bytes", "--format=jsonl"], ["--", "-x"],
    ["x", "--words"], ["--format=tsv"], ["--", "--words"], ["-"], ["--words", "-"],
]


@pytest.mark.parametrize("argv", FAST_ARGV)
def test_fast_path_agrees_with_docopt(argv):
    fast = cli.fast_args(argv)
    assert fast is not None
    assert fast == dict(docopt(cli.__doc__, argv))


@pytest.mark.parametrize("argv", [["-h"], ["--help"], ["--version"], ["--wor", "x"], ["a", "b"], ["-x"],
                                  ["--bytes", "--bytes"], ["--format=tsv", "--format", "tsv"],
                                  ["--format"]])
def test_other_forms_go_to_docopt(argv):
    assert cli.fast_args(argv) is None
