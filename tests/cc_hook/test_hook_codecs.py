"""decode/encode per agent (ARCHITECTURE §8 table): exact records and exact answers."""
import json

import pytest

from cc_hook import stage

CWD = "/home/dev/app"
RW = "cc-filter run git status && pytest -q"
CMD = "git status && pytest -q"
REASON_RW = "contextcrawler: output filtered through cc-filter run; gate {d}: {r}"


def claude_event(command=CMD, **extra):
    event = {"session_id": "abc", "transcript_path": "/t.jsonl", "cwd": CWD,
             "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
             "tool_input": {"command": command, "description": "Show status", "timeout": 120000}}
    event.update(extra)
    return event


# -- decode -------------------------------------------------------------------------------

DECODE_CASES = [
    ("claude", claude_event(),
     {"agent": "claude", "cwd": CWD, "command": CMD,
      "input": {"command": CMD, "description": "Show status", "timeout": 120000},
      "event": {"hook_event_name": "PreToolUse", "permission_mode": "default"}}),
    ("codex", {"session_id": "s", "cwd": CWD, "hook_event_name": "PreToolUse",
               "permission_mode": "bypassPermissions", "tool_name": "Bash",
               "tool_input": {"command": CMD}},
     {"agent": "codex", "cwd": CWD, "command": CMD, "input": {"command": CMD},
      "event": {"hook_event_name": "PreToolUse", "permission_mode": "bypassPermissions"}}),
    ("cursor", {"conversation_id": "c", "hook_event_name": "preToolUse", "tool_name": "Shell",
                "tool_input": {"command": CMD}, "workspace_roots": [CWD]},
     {"agent": "cursor", "cwd": CWD, "command": CMD, "input": {"command": CMD}}),
    ("cursor", {"tool_input": {"command": CMD, "cwd": "/elsewhere"}},
     {"agent": "cursor", "cwd": "/elsewhere", "command": CMD,
      "input": {"command": CMD, "cwd": "/elsewhere"}}),
    # the event's cwd comes before the first workspace root
    ("cursor", {"cwd": "/ev", "tool_input": {"command": CMD}, "workspace_roots": [CWD]},
     {"agent": "cursor", "cwd": "/ev", "command": CMD, "input": {"command": CMD}}),
    ("copilot", {"cwd": CWD, "hook_event_name": "PreToolUse", "tool_name": "run_in_terminal",
                 "tool_input": {"command": CMD, "explanation": "e", "isBackground": False}},
     {"agent": "copilot", "cwd": CWD, "command": CMD,
      "input": {"command": CMD, "explanation": "e", "isBackground": False},
      "event": {"hook_event_name": "PreToolUse"}}),
    ("copilot", {"cwd": CWD, "tool_name": "runTerminalCommand", "tool_input": {"command": CMD}},
     {"agent": "copilot", "cwd": CWD, "command": CMD, "input": {"command": CMD},
      "event": {"hook_event_name": "PreToolUse"}}),
    ("copilot", {"timestamp": 1704614600000, "cwd": CWD, "toolName": "bash",
                 "toolArgs": json.dumps({"command": CMD, "description": "d"})},
     {"agent": "copilot", "cwd": CWD, "command": CMD, "input": {"command": CMD, "description": "d"},
      "event": {"shape": "camel"}}),
    ("gemini", {"session_id": "s", "cwd": CWD, "hook_event_name": "BeforeTool",
                "tool_name": "run_shell_command",
                "tool_input": {"command": CMD, "description": "d", "dir_path": "src"}},
     {"agent": "gemini", "cwd": CWD, "command": CMD,
      "input": {"command": CMD, "description": "d", "dir_path": "src"}}),    # Qwen Code 0.24.4's PreToolUse event (tests/agents/qwen/)
    ("qwen", {"session_id": "s", "transcript_path": "/t.jsonl", "cwd": CWD,
              "hook_event_name": "PreToolUse", "permission_mode": "yolo",
              "tool_name": "run_shell_command", "tool_use_id": "toolu_1", "tool_call_id": "call_1",
              "tool_input": {"command": CMD, "description": "d"}},
     {"agent": "qwen", "cwd": CWD, "command": CMD, "input": {"command": CMD, "description": "d"}}),
    # pi 0.73.1's `tool_call` event as its extension forwards it (with the session's cwd;
    # tests/agents/pi/): the model's arguments pass through as they were sent
    ("pi", {"type": "tool_call", "toolName": "bash", "toolCallId": "call_1", "cwd": CWD,
            "input": {"command": CMD, "description": "scripted step"}},
     {"agent": "pi", "cwd": CWD, "command": CMD,
      "input": {"command": CMD, "description": "scripted step"}}),
    # Cline CLI 3.0.65: its plugin sends each command of a `run_commands` call alone
    ("cline", {"hook": "beforeTool", "tool": "run_commands", "cwd": CWD, "command": CMD},
     {"agent": "cline", "cwd": CWD, "command": CMD, "input": {"command": CMD}}),
    # Mistral Vibe 3.0.2's pre_tool event (tests/agents/vibe/)
    ("vibe", {"session_id": "s", "transcript_path": "/t", "cwd": CWD, "parent_session_id": None,
              "hook_event_name": "pre_tool", "tool_name": "file_system.bash",
              "tool_call_id": "call_1", "tool_input": {"command": CMD}},
     {"agent": "vibe", "cwd": CWD, "command": CMD, "input": {"command": CMD}}),
]


@pytest.mark.parametrize("agent, event, expected", DECODE_CASES)
def test_decode_gives_the_record(agent, event, expected):
    assert json.loads(stage.decode(agent, json.dumps(event))) == expected


NOT_ANSWERED = [
    ("claude", claude_event(tool_name="Read")),
    ("claude", claude_event(hook_event_name="PostToolUse")),
    ("claude", claude_event(command="")),
    ("claude", claude_event(command="   ")),
    ("claude", {"tool_name": "Bash", "tool_input": {"command": ["git", "status"]}}),
    ("claude", {"tool_name": "Bash", "tool_input": "git status"}),
    ("claude", {"tool_name": "Bash"}),
    ("codex", {"tool_name": "apply_patch", "tool_input": {"command": "x"}}),
    ("cursor", {"tool_name": "Read", "tool_input": {"path": "a"}}),
    ("copilot", {"toolName": "edit", "toolArgs": "{\"path\": \"a\"}"}),
    ("copilot", {"toolName": "bash", "toolArgs": "{not json"}),
    ("copilot", {"toolName": "bash", "toolArgs": "[1]"}),
    ("copilot", {"tool_name": "editFiles", "tool_input": {"command": "x"}}),
    ("gemini", {"tool_name": "read_file", "tool_input": {"path": "a"}}),
    ("gemini", {"hook_event_name": "AfterTool", "tool_name": "run_shell_command",
                "tool_input": {"command": "ls"}}),
    ("pi", {"type": "tool_call", "toolName": "read", "input": {"path": "a"}}),
    ("pi", {"type": "tool_call", "toolName": "bash", "input": {"command": "  "}}),
    ("pi", {"type": "tool_call", "toolName": "bash", "input": "git status"}),
    ("pi", {"type": "tool_execution_start", "toolName": "bash", "input": {"command": "ls"}}),
    ("pi", {"toolName": "bash", "input": {"command": "ls"}}),
    ("cline", {"hook": "beforeTool", "tool": "read_files", "cwd": CWD, "command": "x"}),
    ("cline", {"hook": "beforeTool", "tool": "run_commands", "cwd": CWD, "command": "  "}),
    ("cline", {"hook": "beforeTool", "tool": "run_commands", "commands": ["ls"]}),
    ("cline", {"hook": "tool_call", "tool": "run_commands", "command": "ls"}),
    ("vibe", {"hook_event_name": "pre_tool", "tool_name": "file_system.read_file",
              "tool_input": {"path": "a"}}),
    ("vibe", {"hook_event_name": "pre_tool", "tool_name": "file_system.bash",
              "tool_input": "ls"}),
    ("vibe", {"hook_event_name": "post_agent", "tool_name": "file_system.bash",
              "tool_input": {"command": "ls"}}),
    # after execution: a timed-out command, a tool error, a command no filter applies to
    ("vibe", {"hook_event_name": "post_tool", "tool_name": "file_system.bash",
              "tool_input": {"command": "git status"}, "tool_status": "success",
              "tool_output": {"command": "git status", "returncode": -9, "stdout": "x",
                              "stderr": "", "timed_out": True, "was_truncated": False}}),
    ("vibe", {"hook_event_name": "post_tool", "tool_name": "file_system.bash",
              "tool_input": {"command": "git status"}, "tool_status": "failure",
              "tool_output": None, "tool_error": "boom"}),
    ("vibe", {"hook_event_name": "post_tool", "tool_name": "file_system.bash",
              "tool_input": {"command": "echo hi"}, "tool_status": "success",
              "tool_output": {"command": "echo hi", "returncode": 0, "stdout": "hi\n",
                              "stderr": "", "timed_out": False, "was_truncated": False}}),
]


def test_decode_without_a_cwd_uses_the_current_directory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    event = claude_event()
    del event["cwd"]
    assert json.loads(stage.decode("claude", json.dumps(event)))["cwd"] == str(tmp_path)


@pytest.mark.parametrize("agent, event", NOT_ANSWERED)
def test_decode_ignores_what_is_not_a_shell_call(agent, event):
    assert stage.decode(agent, json.dumps(event)) is None


@pytest.mark.parametrize("body", ["", "   \n", "{", "not json", "[1, 2]", "null", "\"x\"",
                                  '{"tool_name": "Bash"} trailing', "{" * 100000])
@pytest.mark.parametrize("agent", ["claude", "cursor", "copilot", "gemini", "codex", "qwen",
                                   "pi", "cline", "vibe"])
def test_decode_malformed_body_gives_no_record(agent, body):
    assert stage.decode(agent, body) is None


def test_decode_accepts_a_bom_once_read_body_stripped_it(tmp_path):
    path = tmp_path / "event"
    path.write_bytes(b"\xef\xbb\xbf" + json.dumps({"tool_input": {"command": "ls"}}).encode())
    with open(path, "rb") as f:
        body = stage.read_body(f.fileno())
    assert json.loads(stage.decode("cursor", body))["command"] == "ls"


def test_read_body_refuses_more_than_the_limit_and_drains_it(tmp_path):
    path = tmp_path / "big"
    path.write_bytes(b"x" * (10 * 1024 * 1024))
    with open(path, "rb") as f:
        assert stage.read_body(f.fileno()) is None
        assert f.read() == b""


@pytest.mark.parametrize("prefix, mentions", [
    (b"", True), (b"x" * ((1 << 16) - 4), True),  # straddling two reads
    (b"x" * (2 * 1024 * 1024), True),             # past the limit: still seen
    (b"cc-filte", False)])
def test_read_body_tells_whether_the_bytes_mention_cc_filter(tmp_path, prefix, mentions):
    """For the fail-closed script's mark (stage.MENTION_MARK): every byte read counts, an
    oversized event's too, and a mention split between two reads."""
    path = tmp_path / "event"
    path.write_bytes(prefix + (b"cc-filter run ls" if mentions else b"x run ls"))
    with open(path, "rb") as f:
        assert stage.read_event(f.fileno())[1] is mentions


def test_read_body_refuses_non_utf8(tmp_path):
    path = tmp_path / "latin1"
    path.write_bytes(b'{"tool_input": {"command": "echo \xe9"}}')
    with open(path, "rb") as f:
        assert stage.read_body(f.fileno()) is None


# -- encode -------------------------------------------------------------------------------

def record(agent="claude", decision="ask", reason="no allow rule matches", rewritten=RW,
           input_=None, event=None):
    rec = {"agent": agent, "cwd": CWD, "command": CMD,
           "input": input_ or {"command": CMD, "description": "Show status", "timeout": 120000}}
    if event is not None:
        rec["event"] = event
    rec["decision"] = decision
    rec["reason"] = reason
    if rewritten is not None:
        rec["rewritten"] = rewritten
    return rec


CLAUDE_EVENT = {"hook_event_name": "PreToolUse", "permission_mode": "default"}
UPDATED = {"command": RW, "description": "Show status", "timeout": 120000}

ENCODE_CASES = [
    # Claude: ask → no answer at all (the client would check its rules on the rewritten
    # command only: its allow rules and read-only list would no longer match)
    ("claude", record(event=CLAUDE_EVENT), None),
    ("claude", record(decision="allow", reason="Bash(git status:*)", event=CLAUDE_EVENT),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                             "permissionDecisionReason": REASON_RW.format(
                                 d="allow", r="Bash(git status:*)"),
                             "updatedInput": UPDATED}}),
    ("claude", record(decision="deny", reason="deny rule Bash(git push:*)", rewritten=None),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason":
                                 "contextcrawler: deny rule Bash(git push:*)"}}),
    # a deny wins even if some stage left a rewrite behind
    ("claude", record(decision="deny", reason="r"),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "contextcrawler: r"}}),
    ("claude", record(rewritten=None), None),
    ("claude", record(decision="allow", rewritten=None), None),
    ("claude", record(rewritten=CMD), None),
    ("claude", {"agent": "claude", "command": CMD, "rewritten": RW}, None),
    # CTXCRL_DISABLED=1 cmd that runs without asking: allow, nothing rewritten
    ("claude", {"agent": "claude", "command": "CTXCRL_DISABLED=1 " + CMD, "decision": "allow",
                "reason": "r", "input": {"command": "CTXCRL_DISABLED=1 " + CMD}},
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                             "permissionDecisionReason":
                                 "contextcrawler: not filtered (CTXCRL_DISABLED=1); "
                                 "gate allow: r"}}),
    # Codex: rewrite only with allow (the gate's: Codex would run it unasked)
    ("codex", record("codex", input_={"command": CMD}, event={"permission_mode": "default"}),
     None),
    ("codex", record("codex", decision="allow", reason="Bash(git:*)", input_={"command": CMD},
                     event={"hook_event_name": "PreToolUse", "permission_mode": "default"}),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow",
                             "permissionDecisionReason": REASON_RW.format(d="allow",
                                                                          r="Bash(git:*)"),
                             "updatedInput": {"command": RW}}}),
    # an ask is no answer whatever the mode: the gate already knows Codex's modes
    ("codex", record("codex", input_={"command": CMD},
                     event={"permission_mode": "bypassPermissions"}), None),
    ("codex", record("codex", decision="allow", reason="r", rewritten=None,
                     event={"permission_mode": "bypassPermissions"}), None),
    ("codex", record("codex", decision="deny", reason="r", rewritten=None,
                     event={"permission_mode": "bypassPermissions"}),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "contextcrawler: r"}}),
    ("codex", record("codex", decision="deny", reason="r",
                     event={"permission_mode": "bypassPermissions"}),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "contextcrawler: r"}}),
    # an unknown decision counts as ask: never allowed, and no rewrite
    ("claude", record(decision="yes", reason="r"), None),
    ("codex", record("codex", decision="yes", input_={"command": CMD},
                     event={"permission_mode": "default"}), None),
    # Cursor
    ("cursor", record("cursor", decision="deny", reason="r"),
     {"continue": True, "permission": "deny", "user_message": "contextcrawler: r",
      "agent_message": "contextcrawler: r"}),
    # a rewrite only ever goes out with Cursor's allow (permission parity)
    ("cursor", record("cursor", input_={"command": CMD}), {}),
    ("cursor", record("cursor", decision="allow", input_={"command": CMD, "cwd": CWD}),
     {"continue": True, "permission": "allow", "updated_input": {"command": RW, "cwd": CWD}}),
    ("cursor", record("cursor", decision="deny", reason="r", rewritten=None),
     {"continue": True, "permission": "deny", "user_message": "contextcrawler: r",
      "agent_message": "contextcrawler: r"}),
    ("cursor", record("cursor", rewritten=None), {}),
    # Copilot filters after execution: before it, a deny or nothing — never a rewrite,
    # whatever a stage left in the record (VS Code shape = Claude's, CLI camelCase)
    ("copilot", record("copilot", input_={"command": CMD, "explanation": "e"},
                       event={"hook_event_name": "PreToolUse"}), None),
    ("copilot", record("copilot", decision="deny", reason="r",
                       event={"hook_event_name": "PreToolUse"}),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "contextcrawler: r"}}),
    ("copilot", record("copilot", input_={"command": CMD, "description": "d"},
                       event={"shape": "camel"}), None),
    ("copilot", record("copilot", decision="allow", reason="x", input_={"command": CMD},
                       event={"shape": "camel"}), None),
    ("copilot", record("copilot", decision="deny", reason="r", rewritten=None,
                       event={"shape": "camel"}),
     {"permissionDecision": "deny", "permissionDecisionReason": "contextcrawler: r"}),
    ("copilot", record("copilot", decision="deny", reason="r", event={"shape": "camel"}),
     {"permissionDecision": "deny", "permissionDecisionReason": "contextcrawler: r"}),
    ("copilot", record("copilot", rewritten=None, event={"shape": "camel"}), None),
    # Copilot after execution: the filtered text plus the exit-code trailer it replaces
    ("copilot", dict(record("copilot", rewritten=None,
                            event={"shape": "camel", "phase": "post",
                                   "trailer": "<shellId: 0 completed with exit code 1>"}),
                     exit_code=1, filtered="FAILED t.py::x"),
     {"modifiedResult": {"resultType": "success",
                         "textResultForLlm": "FAILED t.py::x\n<shellId: 0 completed with exit code 1>"}}),
    ("copilot", dict(record("copilot", rewritten=None,
                            event={"shape": "camel", "phase": "post", "trailer": "<shellId: 0 completed with exit code 0>"}),
                     exit_code=0), None),
    # OpenCode: the plugin's answers
    ("opencode", record("opencode", decision="deny", reason="r"),
     {"decision": "deny", "reason": "contextcrawler: r"}),
    ("opencode", record("opencode", decision="allow"), None),
    ("opencode", dict(record("opencode", rewritten=None, event={"phase": "post"}),
                      exit_code=0, filtered="ok main\n"), {"output": "ok main\n"}),
    ("opencode", dict(record("opencode", rewritten=None, event={"phase": "post"}),
                      exit_code=0), None),
    # Gemini
    # Gemini: never "ask"/"ask_user" (ask hangs a headless run, ask_user grants nothing); a
    # rewrite only on the gate's allow; "{}" (no change) for everything else, so that an empty
    # answer means a stage failed (the hook script then refuses what mentions cc-filter).
    ("gemini", record("gemini", input_={"command": CMD, "description": "d"}), {}),
    ("gemini", record("gemini", decision="allow", input_={"command": CMD}),
     {"decision": "allow", "hookSpecificOutput": {"tool_input": {"command": RW}}}),
    ("gemini", record("gemini", decision="deny", reason="r", rewritten=None),
     {"decision": "deny", "reason": "contextcrawler: r"}),
    ("gemini", record("gemini", decision="deny", reason="r"),
     {"decision": "deny", "reason": "contextcrawler: r"}),
    ("gemini", record("gemini", rewritten=None), {}),
    ("gemini", record("gemini", decision="allow", rewritten=None), {}),
    # an interactive session where Gemini asks about the rewritten command as about the
    # original: the rewrite, no decision (the client's own prompt)
    ("gemini", {**record("gemini", decision="ask", input_={"command": CMD}),
                "prompts": True},
     {"hookSpecificOutput": {"tool_input": {"command": RW}}}),
    ("gemini", {**record("gemini", decision="ask"), "prompts": "yes"}, {}),
    ("gemini", {**record("gemini", decision="deny", reason="r"), "prompts": True},
     {"decision": "deny", "reason": "contextcrawler: r"}),
    ("gemini", {**record("gemini", decision="ask", rewritten=None), "prompts": True},
     {}),
    ("qwen", {**record("qwen", decision="ask"), "prompts": True}, {}),  # ignores a rewrite
    # the same mark on a Claude Code record: its hook asks itself, about the rewritten command
    ("claude", {**record("claude", decision="ask", reason="r", input_={"command": CMD}),
                "prompts": True},
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "ask",
                             "permissionDecisionReason": "This command requires approval "
                             "(contextcrawler: once approved, it runs through cc-filter run, "
                             "which shortens its output; r)",
                             "updatedInput": {"command": RW}}}),
    # Qwen Code ignores a changed tool input: only a deny is ever answered, "{}" otherwise
    ("qwen", record("qwen", decision="deny", reason="r"),
     {"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "deny",
                             "permissionDecisionReason": "contextcrawler: r"}}),
    ("qwen", record("qwen", decision="allow"), {}),
    ("qwen", record("qwen", rewritten=None), {}),
    # pi: a deny blocks the call (the extension returns the answer to pi); nothing else is
    # answered before execution, not even the gate's allow: the command is never changed
    ("pi", record("pi", decision="deny", reason="deny rule git push in [gate]"),
     {"block": True, "reason": "contextcrawler: deny rule git push in [gate]"}),
    ("pi", record("pi", decision="allow"), None),
    ("pi", record("pi", rewritten=None), None),
    # Cline CLI: the plugin's answers (never a rewrite; after execution, the entry's result)
    ("cline", record("cline", decision="deny", reason="r"),
     {"decision": "deny", "reason": "contextcrawler: r"}),
    ("cline", record("cline", decision="allow"), None),
    ("cline", dict(record("cline", rewritten=None,
                          event={"phase": "post", "head": "[Command exited with code 1]\n"}),
                   exit_code=1, filtered="FAILED t.py::x\n"),
     {"result": "[Command exited with code 1]\nFAILED t.py::x\n"}),
    ("cline", dict(record("cline", rewritten=None, event={"phase": "post"}), exit_code=0),
     None),
    # Mistral Vibe: the command is never changed; a deny is answered, nothing else
    ("vibe", record("vibe", decision="deny", reason="r"),
     {"decision": "deny", "reason": "contextcrawler: r"}),
    ("vibe", record("vibe", decision="allow"), None),
    ("vibe", record("vibe"), None),
    # after execution: the filtered text replaces Vibe's result, exit code kept
    ("vibe", dict(record("vibe", rewritten=None,
                         event={"phase": "post", "returncode": 1, "truncated": False}),
                  filtered="FAILED test_calc.py::test_add\n1 failed\n"),
     {"decision": "deny", "reason": json.dumps(
         {"command": CMD, "returncode": 1, "output": "FAILED test_calc.py::test_add\n1 failed\n",
          "timed_out": False, "was_truncated": False}, separators=(",", ":"))}),
    ("vibe", dict(record("vibe", rewritten=None, event={"phase": "post", "returncode": 0})),
     None),
]


@pytest.mark.parametrize("agent, rec, expected", ENCODE_CASES)
def test_encode_gives_the_agents_answer(agent, rec, expected):
    out = stage.encode(agent, json.dumps(rec) + "\n")
    if expected is None:
        assert out == ""
    else:
        assert json.loads(out) == expected


@pytest.mark.parametrize("agent, no_answer", [("claude", ""), ("cursor", "{}"), ("copilot", ""),
                                              ("gemini", ""), ("codex", ""), ("qwen", "{}"),
                                              ("pi", ""), ("vibe", "")])
@pytest.mark.parametrize("body", ["", "\n", "garbage\n", "[1]\n", "git status\n", None])
def test_encode_without_a_record_gives_the_no_answer(agent, no_answer, body):
    assert stage.encode(agent, body) == no_answer


def test_encode_skips_noise_before_the_record():
    body = "\nwarning: something\n" + json.dumps(record(decision="deny", reason="r")) + "\n"
    assert json.loads(stage.encode("gemini", body)) == {"decision": "deny",
                                                        "reason": "contextcrawler: r"}


def test_answers_keep_every_tool_input_field_in_order():
    rec = record(decision="allow", reason="r",
                 input_={"timeout": 5, "command": CMD, "run_in_background": True, "x": [1, {}]})
    answer = json.loads(stage.encode("claude", json.dumps(rec)))
    assert list(answer["hookSpecificOutput"]["updatedInput"].items()) == [
        ("timeout", 5), ("command", RW), ("run_in_background", True), ("x", [1, {}])]


def test_unicode_survives_the_round_trip():
    command = "git commit -m 'héllo ✓ 日本'"
    rec = json.loads(stage.decode("claude", json.dumps(claude_event(command=command),
                                                       ensure_ascii=False)))
    assert rec["command"] == command
    rec.update(decision="allow", reason="r", rewritten="cc-filter run " + command)
    answer = json.loads(stage.encode("claude", json.dumps(rec)))
    assert answer["hookSpecificOutput"]["updatedInput"]["command"] == "cc-filter run " + command


# --- Codex PostToolUse: the output and exit code come from the session's transcript

def _codex_post_event(tmp_path, command, call="call_1", code=1, output=None, write=True):
    transcript = tmp_path / "rollout.jsonl"
    if write:
        item = {"type": "CommandExecution", "id": call, "command": ["/bin/bash", "-lc", command],
                "status": "failed" if code else "completed",
                "aggregated_output": output, "exit_code": code}
        lines = [{"type": "session_meta", "payload": {"id": "s"}},
                 {"type": "event_msg", "payload": {"type": "item_completed", "item": item}},
                 {"type": "event_msg", "payload": {"type": "item_completed", "item": {
                     **item, "id": "call_other", "exit_code": 0}}}]
        transcript.write_text("".join(json.dumps(x) + "\n" for x in lines))
    return {"session_id": "s", "turn_id": "t", "transcript_path": str(transcript),
            "cwd": str(tmp_path), "hook_event_name": "PostToolUse", "model": "gpt-5",
            "permission_mode": "default", "tool_name": "Bash",
            "tool_input": {"command": command}, "tool_response": (output or "")[-10000:],
            "tool_use_id": call}


def test_codex_post_event_reads_the_exit_code_from_the_transcript(tmp_path):
    out = "x\n" * 50
    rec = json.loads(stage.decode("codex", json.dumps(_codex_post_event(
        tmp_path, "git log", code=3, output=out))))
    assert rec["exit_code"] == 3 and rec["output"] == out and rec["event"]["phase"] == "post"
    assert rec["shown_chars"] == len(out)
    answer = json.loads(stage.encode("codex", json.dumps({**rec, "filtered": "short\n"})))
    assert answer == {"decision": "block",
                      "reason": "Process exited with code 3\nOutput:\nshort\n"}


@pytest.mark.parametrize("command, write", [
    ("git log", False),                      # no transcript entry: Codex's own output stays
    ("cc-filter run git log", True),         # rewritten before execution: filtered already
    ("echo hi | wc -l", True),               # no filter for the whole command
])
def test_codex_post_event_without_a_result_record(tmp_path, command, write):
    event = _codex_post_event(tmp_path, command, output="x\n" * 50, write=write)
    assert stage.decode("codex", json.dumps(event)) in ("", None)


def test_codex_post_answer_needs_the_filtered_text(tmp_path):
    rec = json.loads(stage.decode("codex", json.dumps(_codex_post_event(
        tmp_path, "git log", code=0, output="x\n" * 50))))
    assert stage.encode("codex", json.dumps(rec)) == ""  # cc-filter result chose nothing
