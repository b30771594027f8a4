"""The command record codec and stage driver shared by cc-gate, cc-rewrite and cc-hook."""
import json
import os
import subprocess
import sys

import pytest
from docopt import docopt
from hypothesis import given, settings, strategies as st

from ctxcrl.console import EXIT_USAGE
from cc_peel import record
from cc_peel.record import BARE, EMPTY, MALFORMED, RECORD, classify, dumps, loads

# (line, kind)
LINES = [
    ("", EMPTY),
    ("   ", EMPTY),
    ("\r", EMPTY),
    ("git status", BARE),
    ("  git status", BARE),
    ("{ git status; }", BARE),          # a shell group, not JSON
    ("{ls;}", BARE),
    ("true", BARE),                      # valid JSON, but also a command
    ("42", BARE),
    ('"git status"', BARE),
    ('{"command": "ls"}', RECORD),
    ('  {"command": "ls"}  ', RECORD),
    ('{"command": "ls"}\r', RECORD),
    ('\ufeff{"command": "ls"}', RECORD),
    ('{"command": "ls", "cwd": "/x", "extra": {"a": [1, 2.5, null, true]}}', RECORD),
    ('{"command": "ls"', MALFORMED),
    ('{"cwd": "/x"}', MALFORMED),
    ('{"command": 3}', MALFORMED),
    ("{}", MALFORMED),
    ('[{"command": "ls"}]', MALFORMED),
    ('{"command": "ls"} trailing', MALFORMED),
]


@pytest.mark.parametrize("line, kind", LINES)
def test_classify(line, kind):
    assert classify(line)[0] == kind


@pytest.mark.parametrize("value", [
    {"command": "ls", "cwd": "/tmp"},
    {"b": 1, "a": 2, "z": [1, 2.5, -0.0, None, True, False], "u": "é ☃ \u2028 \x00 \"q\""},
    {"nested": {"deep": [{"x": {}}, []]}, "big": 10 ** 30, "f": 1e-7},
])
def test_dumps_is_json_dumps(value):
    assert dumps(value) == json.dumps(value)
    assert loads(dumps(value)) == value


def test_key_order_is_kept():
    line = '{"z": 1, "command": "ls", "a": {"y": 2, "b": 3}}'
    assert list(loads(line)) == ["z", "command", "a"]
    assert dumps(loads(line)) == line


@pytest.mark.parametrize("text", ["", "{", "[1,", '{"a" 1}', "1 2", "nul"])
def test_loads_rejects(text):
    with pytest.raises(ValueError):
        loads(text)


def test_loads_rejects_in_a_fresh_interpreter():
    """Without json.decoder imported, the C scanner fails with SystemError; loads turns that
    into a ValueError with the real message."""
    import subprocess
    import sys

    code = ("import sys; from cc_peel.record import loads\n"
            "assert 'json.decoder' not in sys.modules\n"
            "for t in ['{\"bad', '{\"a\": 1', '{\"a\" 1}']:\n"
            "    try: loads(t)\n"
            "    except ValueError as e: print(type(e).__name__, e)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=30)
    assert out.returncode == 0, out.stderr
    assert out.stdout.splitlines() == [
        "ValueError Unterminated string starting at: line 1 column 2 (char 1)",
        "ValueError Expecting ',' delimiter: line 1 column 8 (char 7)",
        "ValueError Expecting ':' delimiter: line 1 column 6 (char 5)",
    ]


json_values = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20)


@settings(max_examples=60)
@given(json_values)
def test_dumps_matches_json_dumps(value):
    assert dumps(value) == json.dumps(value)
    assert dumps(value, ensure_ascii=False) == json.dumps(value, ensure_ascii=False)


@settings(max_examples=60)
@given(json_values)
def test_loads_reads_what_json_writes(value):
    assert loads(json.dumps(value, ensure_ascii=False, indent=1)) == value


@pytest.mark.parametrize("text", ["", " ", "{", '{"a": 1} x', "[1,]", "nul", "'a'", "{'a': 1}"])
def test_loads_rejects_what_is_not_one_document(text):
    with pytest.raises(ValueError):
        loads(text)


def test_loads_accepts_raw_control_characters_in_strings():
    """Lenient like json.loads(strict=False): an agent's command may hold a raw tab."""
    assert loads('{"command": "printf \'a\tb\'"}') == {"command": "printf 'a\tb'"}


def test_dumps_refuses_what_json_cannot_write():
    with pytest.raises(TypeError):
        dumps({"a": object()})
    with pytest.raises(TypeError):
        dumps({1: "a"})


@pytest.mark.parametrize("rec, fallback, expected", [
    ({"cwd": "/app"}, "/opt", "/app"),
    ({"cwd": ""}, "/opt", "/opt"),
    ({"cwd": 3}, "/opt", "/opt"),
    (None, "/opt", "/opt"),
    ({}, None, os.getcwd()),
])
def test_cwd_of(rec, fallback, expected):
    assert record.cwd_of(rec, fallback) == expected


USAGE = """Usage:
  stage [--explain] [--agent=NAME] [--cwd=DIR] [<command>]
  stage --list [--agent=NAME]
  stage (-h | --help)

Options:
  -h --help  Show this help.
"""
OPTIONS = {"flags": ("--explain",), "values": ("--agent", "--cwd"),
           "others": ("--help", "--list")}


@pytest.mark.parametrize("argv", [
    [], ["git status"], [""], ["--explain"], ["ls", "--explain"], ["--agent=x", "ls"],
    ["--cwd", "/x", "y"], ["--explain", "--cwd=/tmp", "--agent", "a", "git push"],
])
def test_fast_options_agree_with_docopt(argv):
    fast = record.fast_options(argv, **OPTIONS)
    assert fast is not None
    assert fast == dict(docopt(USAGE, argv=argv, default_help=False))


@pytest.mark.parametrize("argv", [["-h"], ["--help"], ["--list"], ["--ag=x"], ["--", "-x"],
                                  ["a", "b"], ["--agent", "x", "--agent", "y"], ["-"],
                                  ["--explain", "--explain"], ["--cwd"]])
def test_other_forms_are_left_to_docopt(argv):
    assert record.fast_options(argv, **OPTIONS) is None


def test_stage_options_fall_back_to_docopt_and_report_usage_errors(capsys):
    assert record.stage_options("t", ["--list", "--agent=x"], USAGE, **OPTIONS)["--list"] is True
    assert record.stage_options("t", ["--bogus"], USAGE, **OPTIONS) == EXIT_USAGE == 64
    assert capsys.readouterr().err.startswith("t: unknown option or argument: --bogus\nUsage:")



def _raise(exc):
    def answer(opts):
        raise exc
    return answer


@pytest.mark.parametrize("argv, answer, code, out, err", [
    (["git status"], lambda opts: len(opts["<command>"]), 10, "", ""),
    (["--help"], _raise(AssertionError("not called")), 0, USAGE, ""),
    (["--bogus"], _raise(AssertionError("not called")), EXIT_USAGE, "", "Usage:"),
    (["ls"], _raise(KeyboardInterrupt()), 130, "", ""),
    (["ls"], _raise(IndexError("bug")), 7, "", "t: internal error: IndexError('bug')\n"),
])
def test_stage_main(argv, answer, code, out, err, capsys):
    assert record.stage_main("t", argv, USAGE, OPTIONS, answer, 7) == code
    captured = capsys.readouterr()
    assert captured.out == out
    assert err in captured.err and bool(err) == bool(captured.err)

def run_stage_on(stdin: bytes, on_record, on_bare, command_arg=None):
    code = ("import sys\n"
            "from cc_peel import record\n"
            f"on_record = {on_record}\n"
            f"on_bare = {on_bare}\n"
            f"print(record.run_stage('t', {command_arg!r}, on_record, on_bare), file=sys.stderr)\n")
    done = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                          timeout=30)
    return done.stdout.decode(), done.stderr.decode()


def test_run_stage_keeps_unknown_fields_and_their_order():
    out, err = run_stage_on(b'{"z": 1, "command": "ls", "a": {"b": [1]}}\n',
                            "lambda r: dict(r, seen=True)", "lambda c: (c, 0)")
    assert out == '{"z": 1, "command": "ls", "a": {"b": [1]}, "seen": true}\n'
    assert err == "[]\n"


def test_run_stage_passes_bad_lines_on_with_one_warning_each():
    stdin = b'{"command": "ls"\n\n{"command": "ok"}\ngit status\n'
    out, err = run_stage_on(stdin, "lambda r: {'bad': object()}", "lambda c: 1 / 0")
    assert out == '{"command": "ls"\n\n{"command": "ok"}\ngit status\n'
    assert err.splitlines() == [
        "t: passing on unchanged: not valid JSON (Expecting ',' delimiter: line 1 column 17 "
        "(char 16))",
        "t: passing record on unchanged: internal error TypeError('Object of type object is "
        "not JSON serializable')",
        "t: passing command on unchanged: internal error ZeroDivisionError('division by zero')",
        "[]"]


def test_run_stage_answers_the_argument_without_reading_stdin():
    out, err = run_stage_on(b"never read\n", "None", "lambda c: (c.upper(), 7)", "ls")
    assert (out, err) == ("LS\n", "[7]\n")


def test_the_codec_imports_nothing_heavy():
    """Well-formed input costs no import beyond `_json` (a malformed line may import
    json.decoder, to say what is wrong)."""
    code = ("import sys; before = set(sys.modules); from cc_peel import record\n"
            "record.dumps(record.loads('{\"command\": \"ls\"}'))\n"
            "record.classify('git status'); record.fast_options(['x'], values=('--cwd',))\n"
            "print(sorted(m for m in sys.modules if m not in before))")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=30)
    assert done.stdout.split() == ["['_json',", "'cc_peel',", "'cc_peel.record',", "'ctxcrl',",
                                   "'ctxcrl.jsoncodec']"], done.stderr

