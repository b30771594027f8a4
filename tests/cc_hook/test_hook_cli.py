"""The command line: the hand-parsed fast path equals docopt, the stages never crash and
import nothing heavy."""
import json
import os
import subprocess
import sys

import pytest
from docopt import docopt

from cc_hook import cli

CC_HOOK = os.path.join(os.path.dirname(sys.executable), "cc-hook")

ARGVS = [
    ["decode", "claude"], ["encode", "claude"], ["decode", "cursor"], ["encode", "gemini"],
    ["decode", "nosuchagent"], ["decode"], ["encode"], ["decode", "claude", "x"],
    ["decode", "--agent=claude"], ["decode", "-h"], ["decode", "--"], ["status"], ["verify"],
    ["init"], ["init", "--agent=claude"], ["test", "claude", "git status"], [],
    ["encode", "--", "claude"], ["decode", ""],
]


def docopt_result(argv):
    try:
        return docopt(cli.__doc__, argv=argv, default_help=False)
    except SystemExit:
        return None


@pytest.mark.parametrize("argv", ARGVS, ids=lambda a: " ".join(a) or "(none)")
def test_fast_path_agrees_with_docopt(argv):
    fast = cli.fast_args(argv)
    if fast is None:
        return  # docopt handles it
    full = docopt_result(argv)
    assert full is not None
    assert {key: full[key] for key in fast} == fast
    assert not any(value for key, value in full.items()
                   if key not in fast and value not in (False, None, [], 0))


def test_fast_path_takes_the_two_hot_forms():
    assert cli.fast_args(["decode", "claude"]) == {"decode": True, "encode": False,
                                                   "<agent>": "claude"}
    assert cli.fast_args(["encode", "cursor"]) == {"decode": False, "encode": True,
                                                   "<agent>": "cursor"}


def run(args, stdin=b"", env=None):
    return subprocess.run([CC_HOOK, *args], input=stdin, capture_output=True, env=env,
                          timeout=30)


@pytest.mark.parametrize("stdin", [b"", b"\xef\xbb\xbf", b"{", b"\xff\xfe{", b"x" * (10 << 20),
                                   b'{"tool_name": "Bash", "tool_input": {"command": 5}}'])
@pytest.mark.parametrize("stage", ["decode", "encode"])
def test_stage_on_bad_input_exits_0_without_answer(stage, stdin):
    done = run([stage, "claude"], stdin)
    assert done.returncode == 0
    assert done.stdout == b""
    assert b"Traceback" not in done.stderr


def test_encode_cursor_on_bad_input_says_no_change():
    done = run(["encode", "cursor"], b"{")
    assert (done.returncode, done.stdout) == (0, b"{}\n")


def test_unknown_agent_is_a_usage_error():
    done = run(["decode", "nosuchagent"], b"{}")
    assert done.returncode == 2
    assert b"unknown agent" in done.stderr


def test_stage_output_is_one_json_line():
    event = {"tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": "/"}
    done = run(["decode", "claude"], json.dumps(event).encode())
    assert done.stdout.count(b"\n") == 1
    assert json.loads(done.stdout)["command"] == "ls"


HEAVY = ("json", "re", "docopt", "subprocess", "pathlib", "tomllib", "hashlib", "shlex",
         "tempfile", "dataclasses", "typing", "inspect", "enum", "signal")


@pytest.mark.parametrize("stage, body", [
    ("decode", json.dumps({"tool_name": "Bash", "tool_input": {"command": "git status"},
                           "cwd": "/"})),
    ("encode", json.dumps({"agent": "claude", "command": "ls", "input": {"command": "ls"},
                           "decision": "ask", "reason": "r", "rewritten": "cc-filter run ls"})),
])
def test_hot_stages_import_nothing_heavy(stage, body):
    code = ("import sys, io, os\n"
            "r, w = os.pipe(); os.write(w, sys.argv[2].encode()); os.close(w); os.dup2(r, 0)\n"
            "before = set(sys.modules)\n"
            "from cc_hook.cli import main\n"
            "out = os.dup(1); devnull = os.open(os.devnull, os.O_WRONLY); os.dup2(devnull, 1)\n"
            "main([sys.argv[1], 'claude'])\n"
            "os.dup2(out, 1)\n"
            "print(' '.join(sorted(set(sys.modules) - before)))\n")
    done = subprocess.run([sys.executable, "-c", code, stage, body], capture_output=True,
                          text=True, timeout=30)
    loaded = set(done.stdout.split())
    assert "cc_hook.stage" in loaded, done.stderr
    assert not loaded & set(HEAVY)
