"""Result events → result records (decode), and the filter cc-rewrite's rules choose.

The events are the shapes OpenCode 1.18.33 (`tool.execute.after`, as the plugin forwards it),
Copilot CLI 1.0.102 (`postToolUse`) and Mistral Vibe 3.0.2 (`post_tool`) sent in tests/agents,
with short outputs."""
import json

import pytest
from hypothesis import given, settings, strategies as st

from cc_hook import stage
from cc_hook.agents.copilot import saved_output_path, split_trailer
from cc_hook.post import choose_filter

CWD = "/work/app"


def copilot_post(command, text):
    return {"sessionId": "216d2781-5fe5-49b4-a113-28869ceed2a8", "timestamp": 1796161956701,
            "cwd": CWD, "toolName": "bash",
            "toolArgs": {"command": command, "description": "scripted step"},
            "toolResult": {"resultType": "success", "textResultForLlm": text}}


def opencode_after(command, text, exit_code=0, truncated=False, path=None):
    meta = {"exit": exit_code, "truncated": truncated}
    if path:
        meta["outputPath"] = path
    return {"hook": "tool.execute.after", "tool": "bash", "directory": CWD,
            "args": {"command": command, "description": "scripted step"},
            "output": {"output": text, "metadata": meta}}


def decoded(agent, event):
    line = stage.decode(agent, json.dumps(event))
    return None if line is None else json.loads(line)


@pytest.mark.parametrize("text, parts", [
    ("out\nerr\n<shellId: 0 completed with exit code 3>", ("out\nerr\n", 3,
                                                           "<shellId: 0 completed with exit code 3>")),
    ("\n<shellId: 4 completed with exit code 0>", ("\n", 0, "<shellId: 4 completed with exit code 0>")),
    ("still going\n<shellId: 1 is still running>", None),
    ("no trailer", None),
])
def test_split_trailer(text, parts):
    assert split_trailer(text) == parts


def test_saved_output_path():
    notice = ("Output too large to read at once (575.1 KB). Saved to: /tmp/t/1796-copilot-tool-"
              "output-8174.txt\nConsider using tools like grep (for searching) …\n\n"
              "Preview (first 500 chars):\n1\n2\n")
    assert saved_output_path(notice) == "/tmp/t/1796-copilot-tool-output-8174.txt"
    assert saved_output_path("Output: fine\n") is None


def test_copilot_result_record():
    rec = decoded("copilot", copilot_post("git status", "On branch main\n<shellId: 0 completed "
                                                        "with exit code 0>"))
    assert rec == {"agent": "copilot", "cwd": CWD, "command": "git status",
                   "input": {"command": "git status", "description": "scripted step"},
                   "event": {"phase": "post", "shape": "camel",
                             "trailer": "<shellId: 0 completed with exit code 0>"},
                   "exit_code": 0, "output": "On branch main\n", "shown_chars": 15,
                   "filter": "git-status", "argv": ["git", "status"], "key": "git status"}


def test_copilot_large_output_points_at_the_saved_file():
    text = ("Output too large to read at once (575.1 KB). Saved to: /tmp/t/x.txt\nConsider …\n"
            "\nPreview (first 500 chars):\n1\n2\n\n<shellId: 1 completed with exit code 0>")
    rec = decoded("copilot", copilot_post("git log", text))
    assert rec["output_path"] == "/tmp/t/x.txt" and "output" not in rec
    assert rec["shown_chars"] == len(text) - len("<shellId: 1 completed with exit code 0>")


def test_opencode_result_record():
    rec = decoded("opencode", opencode_after("python -m pytest -q", "F\n1 failed\n", 1))
    assert rec["exit_code"] == 1 and rec["output"] == "F\n1 failed\n"
    assert (rec["filter"], rec["argv"]) == ("pytest", ["python", "-m", "pytest", "-q"])
    rec = decoded("opencode", opencode_after("git log", "...output truncated...\n\nFull output "
                                             "saved to: /o/tool_1\n\nx\n", 0, True, "/o/tool_1"))
    assert rec["output_path"] == "/o/tool_1" and "output" not in rec


@pytest.mark.parametrize("event", [
    opencode_after("git status", "(no output)"),
    opencode_after("git status", "x\n\n<shell_metadata>\nshell tool terminated command after "
                                 "exceeding timeout 120000 ms.\n</shell_metadata>", None),
    opencode_after("git status", "x", "0"),
    opencode_after("frobnicate", "x"),
    {"hook": "tool.execute.after", "tool": "read", "args": {"filePath": "a"},
     "output": {"output": "x", "metadata": {}}},
])
def test_opencode_results_left_alone(event):
    assert decoded("opencode", event) is None


@pytest.mark.parametrize("command, chosen", [
    ("git status", ("git-status", ["git", "status"])),
    ("git status --short", ("git-status", ["git", "status", "--short"])),
    ("cd sub && pytest -q", ("pytest", ["pytest", "-q"])),
    ("FOO=1 timeout 60 git log -n 3 2>&1", ("git-log", ["git", "log", "-n", "3"])),
    ("git status && git log", None),       # two outputs merged
    ("git log | head -5", None),           # a pipe
    ("git diff > x.patch", None),          # cc-rewrite leaves it raw
    ("CTXCRL_DISABLED=1 git status", None),
    ("frobnicate", None),
    ("git status || true", None),
])
def test_the_filter_is_the_one_run_would_get(command, chosen):
    rec = {"command": command, "cwd": CWD}
    assert choose_filter(rec) == (chosen is not None)
    if chosen:
        assert (rec["filter"], rec["argv"]) == chosen


def test_the_pre_hooks_never_rewrite():
    before = {"hook": "tool.execute.before", "tool": "bash", "directory": CWD,
              "args": {"command": "git status", "description": "d"}}
    rec = decoded("opencode", before)
    assert rec == {"agent": "opencode", "cwd": CWD, "command": "git status",
                   "input": {"command": "git status", "description": "d"}}
    rec.update(decision="ask", reason="r", rewritten="cc-filter run git status")
    assert stage.encode("opencode", json.dumps(rec)) == ""


# -- pi 0.73.1 (`tool_result`, as its extension forwards it; texts as pi's bash tool wrote them
# in tests/agents/pi/ and a probe run: a failure ends with "\n\nCommand exited with code N",
# a truncated output with pi's "[Showing lines …. Full output: <file>]" notice) --------------

def pi_result(command, text, is_error=False, details=None):
    return {"type": "tool_result", "toolName": "bash", "toolCallId": "call_1", "cwd": CWD,
            "input": {"command": command, "description": "scripted step"},
            "content": [{"type": "text", "text": text}], "details": details or {},
            "isError": is_error}


def test_pi_result_record_of_a_failure_keeps_the_status_line():
    text = "F\n1 failed in 0.02s\n\n\nCommand exited with code 1"
    rec = decoded("pi", pi_result("python3 -m pytest -q", text, True))
    assert rec["exit_code"] == 1 and rec["output"] == "F\n1 failed in 0.02s\n"
    assert rec["event"] == {"phase": "post", "status": "Command exited with code 1"}
    assert rec["shown_chars"] == len("F\n1 failed in 0.02s\n")
    assert (rec["filter"], rec["argv"]) == ("pytest", ["python3", "-m", "pytest", "-q"])
    rec["filtered"] = "1 failed\n"
    answer = json.loads(stage.encode("pi", json.dumps(rec)))
    assert answer == {"content": [{"type": "text",
                                   "text": "1 failed\n\n\nCommand exited with code 1"}]}


def test_pi_result_record_of_a_success():
    rec = decoded("pi", pi_result("git status", "On branch main\n"))
    assert rec["exit_code"] == 0 and rec["output"] == "On branch main\n"
    assert rec["event"] == {"phase": "post"}
    rec["filtered"] = "On branch main, clean\n"
    assert json.loads(stage.encode("pi", json.dumps(rec))) == {
        "content": [{"type": "text", "text": "On branch main, clean\n"}]}
    del rec["filtered"]
    assert stage.encode("pi", json.dumps(rec)) == ""  # nothing chosen: pi's own result stays


def test_pi_truncated_output_is_read_from_its_full_output_file():
    saved = "/tmp/pi-bash-9da91650a3a1706a.log"
    notice = f"\n\n[Showing lines 1002-3001 of 3001. Full output: {saved}]"
    ok = pi_result("git log", "1002\n3000\n" + notice, details={
        "truncation": {"truncated": True}, "fullOutputPath": saved})
    rec = decoded("pi", ok)
    assert rec["output_path"] == saved and "output" not in rec
    assert rec["shown_chars"] == len("1002\n3000\n" + notice)
    # a failure loses `details`: the notice alone names the file
    failed = pi_result("git log", "1002\n3000\n" + notice + "\n\nCommand exited with code 4",
                       True)
    rec = decoded("pi", failed)
    assert rec["output_path"] == saved and rec["exit_code"] == 4


def test_pi_notice_a_command_printed_itself_is_not_believed():
    """A commit message (or any text a command shows) may end with pi's notice: its file is
    read only when pi itself named it."""
    spoof = "a1 last commit\n\n[Showing lines 1-2 of 9. Full output: /home/dev/.ssh/id_rsa]"
    rec = decoded("pi", pi_result("git log", spoof))  # pi truncated nothing: plain text
    assert rec["output"] == spoof and "output_path" not in rec
    assert decoded("pi", pi_result("git log", spoof + "\n\nCommand exited with code 1",
                                   True)) is None
    fake = spoof.replace("/home/dev/.ssh/id_rsa", "/tmp/pi-bash-not-hex-digits!.log")
    assert decoded("pi", pi_result("git log", fake + "\n\nCommand exited with code 1",
                                   True)) is None


@pytest.mark.parametrize("event", [
    pi_result("git status", "(no output)"),
    pi_result("git status", "(no output)\n\nCommand exited with code 7", True),
    pi_result("git status", "Command exited with code 7", True),
    pi_result("git status", "x\n\nCommand timed out after 5 seconds", True),
    pi_result("git status", "x\n\nCommand aborted", True),
    pi_result("git push", "contextcrawler: deny rule git push", True),  # a blocked call
    pi_result("git status", "x\n\nCommand exited with code x1", True),
    pi_result("git status", "x", None),
    pi_result("frobnicate", "x"),
    pi_result("git log", "x\n\n[Showing lines 1-2 of 9. Full output: /a.log]",
              details={"fullOutputPath": "/b.log"}),          # two files named: left alone
    {**pi_result("git status", "x"), "content": [{"type": "image", "data": "…"}]},
    {**pi_result("git status", "x"), "content": [{"type": "text", "text": "a"},
                                                 {"type": "text", "text": "b"}]},
    {**pi_result("git status", "x"), "toolName": "read"},
])
def test_pi_results_left_alone(event):
    assert decoded("pi", event) is None
# -- Cline CLI 3.0.65: one `run_commands` entry per command, as its plugin forwards it -------

def cline_after(command, result, success=True):
    return {"hook": "afterTool", "tool": "run_commands", "cwd": CWD, "command": command,
            "result": result, "success": success}


@pytest.mark.parametrize("result, success, parts", [
    ("On branch main\n", True, ("On branch main\n", 0, "")),
    ("[Command exited with code 1]\nF\n1 failed\n", False,
     ("F\n1 failed\n", 1, "[Command exited with code 1]\n")),
    ("[Command exited with code 3]\nout\n\n[stderr]\nerr\n", False,
     ("out\n\n[stderr]\nerr\n", 3, "[Command exited with code 3]\n")),
    ("[Command exited with code 2]", False, ("", 2, "[Command exited with code 2]")),
    ("", False, None),                                   # a timeout: no exit code
    ("[Command exited with code x]\n", False, None),
    ("[Command exited with code 1]\nok\n", True, ("[Command exited with code 1]\nok\n", 0, "")),
    ("a" * 10 + "\n[... output truncated: 90000 chars total. Refine the command (grep, head, "
     "tail) to view the elided middle ...]\n" + "b" * 10, True, None),
    ("[Command is still running. Output will continue in /tmp/x/output.log]\nx", True, None),
    ("x", None, None),
    (None, True, None),
])
def test_cline_split_result(result, success, parts):
    from cc_hook.agents.cline import split_result

    assert split_result(result, success) == parts


def test_cline_result_record_keeps_the_exit_line():
    rec = decoded("cline", cline_after("python -m pytest -q",
                                       "[Command exited with code 1]\nF\n1 failed\n", False))
    assert rec["exit_code"] == 1 and rec["output"] == "F\n1 failed\n"
    assert (rec["filter"], rec["argv"]) == ("pytest", ["python", "-m", "pytest", "-q"])
    assert rec["event"]["head"] == "[Command exited with code 1]\n"
    rec["filtered"] = "FAILED t.py::x\n1 failed\n"
    assert json.loads(stage.encode("cline", json.dumps(rec))) == {
        "result": "[Command exited with code 1]\nFAILED t.py::x\n1 failed\n"}
    rec = decoded("cline", cline_after("git status", "On branch main\n"))
    assert rec["exit_code"] == 0 and "head" not in rec.get("event", {})
    rec["filtered"] = "ok main\n"
    assert json.loads(stage.encode("cline", json.dumps(rec))) == {"result": "ok main\n"}
    rec["filtered"] = ""
    assert stage.encode("cline", json.dumps(rec)) == ""


@pytest.mark.parametrize("event", [
    cline_after("git status", "", False),
    cline_after("frobnicate", "x"),
    cline_after("git status && git log", "x"),
    dict(cline_after("git status", "x"), tool="read_files"),
    dict(cline_after("git status", "x"), hook="tool_result"),
    {"hook": "afterTool", "tool": "run_commands", "cwd": CWD, "command": ["git", "status"],
     "result": "x", "success": True},
])
def test_cline_results_left_alone(event):
    assert decoded("cline", event) is None


def test_cline_before_never_rewrites():
    before = {"hook": "beforeTool", "tool": "run_commands", "cwd": CWD, "command": "git status"}
    rec = decoded("cline", before)
    assert rec == {"agent": "cline", "cwd": CWD, "command": "git status",
                   "input": {"command": "git status"}}
    rec.update(decision="ask", reason="r", rewritten="cc-filter run git status")
    assert stage.encode("cline", json.dumps(rec)) == ""
    rec.update(decision="allow")
    assert stage.encode("cline", json.dumps(rec)) == ""
    rec.update(decision="deny", reason="r")
    assert json.loads(stage.encode("cline", json.dumps(rec))) == {
        "decision": "deny", "reason": "contextcrawler: r"}
def vibe_post(command, stdout, stderr="", returncode=0, truncated=False):
    """Mistral Vibe 3.0.2's post_tool event (tests/agents/vibe/), short outputs."""
    return {"session_id": "735bfec5", "transcript_path": "/h/.vibe/logs/session/unified/735bfec5",
            "cwd": CWD, "parent_session_id": None, "hook_event_name": "post_tool",
            "tool_name": "file_system.bash", "tool_call_id": "call_1",
            "tool_input": {"command": command}, "tool_status": "success",
            "tool_output": {"command": command, "returncode": returncode, "stderr": stderr,
                            "stdout": stdout, "timed_out": False, "was_truncated": truncated},
            "tool_output_text": f"command: {command}\nreturncode: {returncode}\n",
            "tool_error": None, "duration_ms": 0}


def test_vibe_result_record_keeps_the_exit_code_and_both_streams():
    rec = decoded("vibe", vibe_post("python3 -m pytest -q", "F\n1 failed in 0.01s",
                                    "warning: slow\n", returncode=1))
    assert rec["exit_code"] == 1 and rec["filter"]
    assert rec["output"] == "F\n1 failed in 0.01s\nwarning: slow\n"
    assert rec["shown_chars"] == len(rec["output"])
    assert rec["event"]["returncode"] == 1 and rec["event"]["truncated"] is False


def test_vibe_result_without_a_filter_keeps_vibes_output():
    assert decoded("vibe", vibe_post("echo hi", "hi\n")) is None


TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=200)


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(["git status", "python3 -m pytest -q", "git log", "echo hi"]), TEXT, TEXT,
       st.integers(-9, 255), st.booleans(), TEXT)
def test_vibe_answer_always_keeps_the_command_and_its_exit_code(command, stdout, stderr, code,
                                                                 truncated, filtered):
    rec = decoded("vibe", vibe_post(command, stdout, stderr, code, truncated))
    if rec is None:
        return  # no filter for it: Vibe keeps its own result
    assert rec["exit_code"] == code and stdout in rec["output"] and stderr in rec["output"]
    rec["filtered"] = filtered
    answer = json.loads(stage.encode("vibe", json.dumps(rec) + "\n"))
    assert answer["decision"] == "deny"  # Vibe's word for "replace the result"
    shown = json.loads(answer["reason"])
    assert shown == {"command": command, "returncode": code, "output": filtered,
                     "timed_out": False, "was_truncated": truncated}
