"""Gemini CLI: BeforeTool hook with matcher "run_shell_command" (ARCHITECTURE §8; measured on 0.61.0).

Event: {"hook_event_name": "BeforeTool", "tool_name": "run_shell_command",
"tool_input": {"command": …, "description": …, …}, "cwd": …}.

Gemini's own decision words: only "deny" / "block" refuse (the reason reaches the model);
"ask" forces a confirmation and hangs a headless run, so it is never sent; any other decision
("allow", "ask_user" included) grants nothing: the Policy Engine then judges the tool input the
hook leaves, after the hook. Answers:
- gate allow, rewritten → {"decision": "allow", "hookSpecificOutput": {"tool_input":
  {<tool_input>, "command": R}}} (cc-gate allowed it only after judging R with Gemini's rules);
- gate ask with "prompts" (an interactive session where Gemini asks about the
  rewritten command exactly as about the original) → {"hookSpecificOutput": {"tool_input":
  {…, "command": R}}} with no decision: the client's own prompt shows R, and the approved
  run is filtered;
- gate deny → {"decision": "deny", "reason": …};
- anything else → {} (no change). Every record gets an answer, so an empty answer means the
  pipeline failed: the hook script then refuses a command that mentions cc-filter
  (FAIL_CLOSED below), which the rule installed for rewritten commands
  would otherwise let through unchecked.
"""
from ..record import decision_of, deny_reason, rewritten_of, tool_event_record, updated_input

TITLE = "Gemini CLI"
NAME = "gemini"
#: How `cc-hook test` reads its answer (outcome.outcome_of): `decision`, `tool_input`.
ANSWER_SHAPE = "decision"
CONFIG_DIR = ".gemini"
#: The project's instructions file it reads (cc-track learn writes its corrections there).
INSTRUCTIONS_FILE = "GEMINI.md"
#: Its transcripts under `transcript_dir()`: `tmp/<project>/chats/session-*.jsonl` (the
#: project's path in `tmp/<project>/.project_root`).
TRANSCRIPT_FILES = "tmp/*/chats/session-*.jsonl"
NO_ANSWER = "{}"
NO_RECORD = ""
"""What encode prints when no record reached it (a stage failed): nothing, so the hook script
knows."""
SHELL_TOOLS = ("run_shell_command",)
EVENT_NAME = "BeforeTool"
POLICY_FILE = "ctxcrl.toml"
#: The hook's stages run cc-rewrite before cc-gate: the Policy Engine judges only the rewritten
#: command, so the gate judges it too (cc_hook.hook_script.render).
GATE_AFTER_REWRITE = True
#: A pipeline that fails refuses a command that mentions cc-filter
#: (cc_hook.hook_script.FAIL_CLOSED_ANSWER).
FAIL_CLOSED = True
#: How it starts in its default setup (an interactive session), for `init`/`verify`'s count
#: made outside the client: the gate reads the approval mode and headlessness from it.
DEFAULT_START = ["gemini", "-i"]


def _allow_lines(prefixes: list) -> list:
    import json

    return ["[[rule]]", 'toolName = "run_shell_command"',
            f"commandPrefix = {json.dumps(prefixes)}", 'decision = "allow"', "priority = 100"]


#: Where an allow rule goes and its exact lines, for the commands init/verify say it asks about.
ALLOW_RULES = ("a policy file of yours, e.g. ~/.gemini/policies/allow.toml", _allow_lines)


def decode(event: dict) -> dict | None:
    return tool_event_record(NAME, event, SHELL_TOOLS, EVENT_NAME)


def encode(record: dict) -> dict | None:
    decision = decision_of(record)
    if decision == "deny":
        return {"decision": "deny", "reason": deny_reason(record)}
    rewritten = rewritten_of(record)
    if rewritten is None:
        return None
    if decision == "ask" and record.get("prompts") is True:
        # no decision: the Policy Engine asks about the rewritten command, as it would about
        # the original (cc-gate checked that in every approval mode)
        return {"hookSpecificOutput": {"tool_input": updated_input(record, rewritten)}}
    if decision != "allow":
        return None
    return {"decision": "allow",
            "hookSpecificOutput": {"tool_input": updated_input(record, rewritten)}}


def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from cc_gate.agents.gemini import filter_rule_text

    from ..artifacts import JsonRegistration, OwnedFile

    base = os.path.join(ctx.user_home if scope == "global" else root, CONFIG_DIR)
    found = [
        JsonRegistration.matcher_group(os.path.join(base, "settings.json"), "BeforeTool",
                                       "run_shell_command", ctx.hook_command),
    ]
    if scope == "global":
        # The Policy Engine judges the rewritten `cc-filter run X`: this rule lets it run
        # (user tier; Gemini CLI 0.61.0 never loads the workspace tier, so a project install
        # has no rule and compacts only what Gemini runs without one: yolo mode).
        commands = ["cc-filter"]
        if ctx.filter_command and ctx.filter_command != "cc-filter":
            commands.append(ctx.filter_command)
        found.append(OwnedFile(os.path.join(base, "policies", POLICY_FILE),
                               filter_rule_text(commands),
                               "Policy Engine rule for rewritten commands"))
    return found


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event Gemini CLI sends before running `command` in `cwd` (`cc-hook test`)."""
    import time

    return {"session_id": "ctxcrl-test", "transcript_path": "", "cwd": cwd,
            "hook_event_name": "BeforeTool", "timestamp": time.strftime(
                "%Y-%m-%dT%H:%M:%S.000Z", time.gmtime()),
            "tool_name": "run_shell_command",
            "tool_input": {"command": command, "description": "cc-hook test"}}


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """The instructions file Gemini CLI reads the awareness note from: GEMINI.md in ~/.gemini
    or in the project."""
    import os

    base = os.path.join(user_home, CONFIG_DIR) if scope == "global" else root
    return os.path.join(base, INSTRUCTIONS_FILE)


# -- transcripts (cc-track reads them; cold path: imports inside)
def transcript_dir() -> str:
    """Gemini CLI's folder: `$GEMINI_CLI_HOME/.gemini` (the client's own override of its home
    directory), else `~/.gemini`."""
    import os

    return os.path.join(os.environ.get("GEMINI_CLI_HOME") or os.path.expanduser("~"),
                        CONFIG_DIR)


def read_transcript(path: str, history):
    """A Gemini CLI chat (JSON lines): a header `{sessionId, startTime, …}`, `{"$set": …}`
    patches, and message records `{id, timestamp, type: "user" | "gemini", tokens: {input,
    output, cached, thoughts, tool}, model, toolCalls: [{id, name: "run_shell_command",
    args: {command}, result, timestamp}]}`; a message is written again when its tool calls
    complete, so records are folded by id (the last one wins)."""
    import os
    import re

    from ..transcript import Session, ShellCall, Usage, count, json_lines, parse_ts

    session = Session(NAME, os.path.splitext(os.path.basename(path))[0], path)
    session.cwd = _project_root(path)
    messages: dict = {}
    for entry in json_lines(path, history):
        if isinstance(entry.get("sessionId"), str):
            session.id = entry["sessionId"]
            session.seen(parse_ts(entry.get("startTime")))
            continue
        if entry.get("type") in ("user", "gemini") and isinstance(entry.get("id"), str):
            messages[entry["id"]] = entry
    for entry in messages.values():
        ts = parse_ts(entry.get("timestamp"))
        session.seen(ts)
        if entry.get("type") != "gemini":
            continue
        tokens = entry.get("tokens")
        model = entry.get("model") if isinstance(entry.get("model"), str) else "unknown"
        if isinstance(tokens, dict):
            cached = count(tokens.get("cached"))
            usage = Usage(entry["id"], ts, model,
                          max(count(tokens.get("input")) - cached, 0) + count(tokens.get("tool")),
                          count(tokens.get("output")) + count(tokens.get("thoughts")), cached, 0)
            session.usage.append(usage)
            session.used(model)
        for tool in entry.get("toolCalls") or ():
            if not (isinstance(tool, dict) and tool.get("name") in SHELL_TOOLS):
                continue
            args = tool.get("args") if isinstance(tool.get("args"), dict) else {}
            command = args.get("command")
            if not (isinstance(command, str) and command.strip()):
                continue
            call = ShellCall(str(tool.get("id")), command, ts, args.get("dir_path")
                             and os.path.join(session.cwd or "", args["dir_path"])
                             or session.cwd)
            call.end_ts = parse_ts(tool.get("timestamp")) or ts
            session.seen(call.end_ts)
            text = _tool_output(tool.get("result"))
            match = re.search(r"^Exit Code: (-?\d+)$", text, re.M)
            call.exit_code = int(match.group(1)) if match else (
                1 if tool.get("status") == "error" else 0)
            call.failed = call.exit_code != 0
            text = text.replace("<untrusted_context>\n", "").replace("</untrusted_context>", "")
            if text.startswith("Output: "):
                text = text[len("Output: "):]
            text = re.sub(r"\n(Exit Code: -?\d+|Process Group PGID: \d+)(?=\n|$)", "", text)
            call.read(text)
            session.calls.append(call)
    session.calls.sort(key=lambda c: (c.ts or 0))
    return session


def _project_root(path: str) -> str | None:
    """`tmp/<project>/chats/x.jsonl` → the path in `tmp/<project>/.project_root`."""
    import os

    marker = os.path.join(os.path.dirname(os.path.dirname(path)), ".project_root")
    try:
        with open(marker, encoding="utf-8") as f:
            return f.read().strip() or None
    except OSError:
        return None


def _tool_output(result) -> str:
    """The text of a run_shell_command result: `{"functionResponse": {"response": {"output":
    "<untrusted_context>\nOutput: …\nExit Code: N\nProcess Group PGID: …"}}}`."""
    texts = []
    for part in result if isinstance(result, list) else ():
        response = ((part or {}).get("functionResponse") or {}).get("response") \
            if isinstance(part, dict) else None
        if isinstance(response, dict):
            out = response.get("output", response.get("error"))
            if isinstance(out, str):
                texts.append(out)
    return "\n".join(texts)


def check_client(install: dict, finding, user_home: str, cwd: str) -> None:
    """`cc-hook verify`: hooksConfig switching the hook off, another BeforeTool hook, the
    .env files Gemini CLI loads."""
    import json
    import os

    from ..client_check import (env_findings, foreign_hooks, project_roots, read_env_file,
                                read_json, short)

    from cc_gate.agents import gemini as gemini_gate

    from ..hook_script import SCRIPT_PREFIX

    gemini_home = os.environ.get("GEMINI_CLI_HOME") or user_home
    files = [(os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or gemini_gate.SYSTEM_SETTINGS,
              "system"), (os.path.join(gemini_home, ".gemini", "settings.json"), "user")]
    env_files = [(os.path.join(gemini_home, ".gemini", ".env"), "user"),
                 (os.path.join(gemini_home, ".env"), "user")]
    for root in project_roots(install, cwd, user_home):
        files.append((os.path.join(root, ".gemini", "settings.json"), "project"))
        env_files[:0] = [(os.path.join(root, ".gemini", ".env"), "project"),
                         (os.path.join(root, ".env"), "project")]
    for path, level in files:
        settings = read_json(path)
        if settings is None:
            continue
        where = f"{level} settings {short(path)}"
        config = settings.get("hooksConfig")
        config = config if isinstance(config, dict) else {}
        if config.get("enabled") is False:
            finding.fail(f"{where} sets hooksConfig.enabled to false: Gemini CLI runs no hook, "
                         f"so nothing is filtered; fix: remove \"enabled\": false from "
                         f"hooksConfig in {short(path)}")
        disabled = config.get("disabled")
        for name in disabled if isinstance(disabled, list) else ():
            if isinstance(name, str) and SCRIPT_PREFIX in name:
                finding.fail(f"{where} lists contextcrawler's hook in hooksConfig.disabled; "
                             f"fix: remove {json.dumps(name)} from it")
        for command in foreign_hooks(settings, "BeforeTool", "run_shell_command"):
            finding.warn(f"{where} registers another BeforeTool hook on run_shell_command "
                         f"({command}): its tool_input may replace the rewritten command; fix: "
                         f"remove it from hooks.BeforeTool in {short(path)}, or give it a "
                         "matcher without run_shell_command")
    seen = set()
    for path, level in env_files:
        env = read_env_file(path)
        if env is None or path in seen:
            continue
        seen.add(path)
        env_findings(env, f"{level} env file {short(path)} (Gemini CLI loads it)", level,
                     finding)
