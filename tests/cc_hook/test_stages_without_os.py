"""Every stage of every agent's hook, started as the installed script starts it (`python -I -S`,
the stage folders on sys.path, the collector off), never imports `os`: the stages use
ctxcrl.lean_os, and a module on their path that imported `os` would cost each of them a fifth
of an interpreter start. The stages are fed what the stage before them really wrote."""
import json
import os
import subprocess
import sys

import pytest

from cc_hook.agents import CODEC_AGENTS, event_for, load

from hook_files import stage_dirs

#: A real `git status` (tests/fixtures: captured from git), for the post-execution events.
with open(os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "fixtures",
                       "git", "git-status", "changes.out"), encoding="utf-8") as _f:
    STATUS = _f.read()


def run_stage(module: str, argv: list, stdin: bytes, env: dict, cwd) -> tuple:
    """(stdout, the modules the stage loaded) of one stage, run as the hook runs it."""
    code = (f"import gc, sys; gc.disable(); sys.path += {stage_dirs()!r}\n"
            f"from {module} import main\n"
            "main(sys.argv[1:])\n"
            "sys.stdout.flush()\n"
            "sys.stderr.write('\\nMODULES ' + ' '.join(sorted(sys.modules)) + '\\n')\n")
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code, *argv], input=stdin, env=env,
                          cwd=cwd, capture_output=True, timeout=60)
    err = done.stderr.decode()
    assert done.returncode == 0 and "MODULES " in err, err
    return done.stdout, set(err.rpartition("MODULES ")[2].split())


@pytest.fixture
def hook_env(fake_home):
    """The environment and project of a fresh install, its filter index built (`cc-hook init`
    builds it; the first stage to need it otherwise does, on a cold path)."""
    home, data, project = fake_home
    env = dict(os.environ, CTXCRL_QUIET_CONFIG="1")
    subprocess.run([sys.executable, "-m", "cc_filter", "list"], env=env, cwd=project,
                   capture_output=True, timeout=120, check=True)
    return env, project


@pytest.mark.parametrize("agent", CODEC_AGENTS)
def test_the_pre_stages_never_import_os(agent, hook_env):
    env, project = hook_env
    try:
        event = event_for(agent, "git status && git log --oneline -n 3", str(project))
    except KeyError:
        pytest.skip(f"{agent} has no synthetic event")
    order = [("cc_hook.cli", ["decode", agent]), ("cc_gate.cli", ["--agent", agent]),
             ("cc_rewrite.cli", []), ("cc_hook.cli", ["encode", agent])]
    if getattr(load(agent), "GATE_AFTER_REWRITE", False):
        order[1], order[2] = order[2], order[1]
    data, seen = json.dumps(event).encode(), []
    for module, argv in order:
        data, loaded = run_stage(module, argv, data, env, project)
        seen.append(module)
        assert "os" not in loaded, (agent, module)
        if not data.strip():
            break  # no record (or no answer): the stages after it have nothing to do
    assert seen[:2] == [order[0][0], order[1][0]], f"{agent}: decode wrote nothing"


POST_EVENTS = {
    "copilot": {"sessionId": "s", "timestamp": 1, "cwd": "@CWD@", "toolName": "bash",
                "toolArgs": {"command": "git status", "description": "Status"},
                "toolResult": {"resultType": "success", "textResultForLlm":
                               STATUS + "<shellId: 0 completed with exit code 0>"}},
    "opencode": {"hook": "tool.execute.after", "tool": "bash", "directory": "@CWD@",
                 "args": {"command": "git status", "description": "Status"},
                 "output": {"output": STATUS, "metadata": {"exit": 0, "truncated": False}}},
    "pi": {"type": "tool_result", "toolName": "bash", "toolCallId": "call_1", "cwd": "@CWD@",
           "input": {"command": "git status"}, "content": [{"type": "text", "text": STATUS}],
           "details": {}, "isError": False},
    "cline": {"hook": "afterTool", "tool": "run_commands", "cwd": "@CWD@",
              "command": "git status", "result": STATUS, "success": True},
    "vibe": {"session_id": "s", "transcript_path": "", "cwd": "@CWD@", "parent_session_id": None,
             "hook_event_name": "post_tool", "tool_name": "file_system.bash",
             "tool_call_id": "call_1", "tool_input": {"command": "git status"},
             "tool_status": "success",
             "tool_output": {"command": "git status", "returncode": 0, "stderr": "",
                             "stdout": STATUS, "timed_out": False, "was_truncated": False},
             "tool_output_text": STATUS, "tool_error": None, "duration_ms": 5},
}


@pytest.mark.parametrize("agent", sorted(POST_EVENTS))
def test_the_post_stages_never_import_os(agent, hook_env):
    env, project = hook_env
    event = json.loads(json.dumps(POST_EVENTS[agent]).replace("@CWD@", str(project)))
    data = json.dumps(event).encode()
    for module, argv in (("cc_hook.cli", ["decode", agent]), ("cc_filter.cli", ["result"]),
                         ("cc_hook.cli", ["encode", agent])):
        data, loaded = run_stage(module, argv, data, env, project)
        assert "os" not in loaded, (agent, module)
        assert data.strip(), f"{agent}: {module} {argv} wrote nothing"
    assert b"unstaged:" in data and b"M src/cli.py" in data, data  # the filtered status came through
