"""Reading and writing command records (shared by cc-gate and cc-rewrite)."""
import json

import pytest
from cc_gate.record import BARE, EMPTY, MALFORMED, RECORD, classify, dumps, loads

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

    code = ("import sys; from cc_gate.record import loads\n"
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
