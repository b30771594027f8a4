"""Claude Code: PreToolUse hook on the Bash tool (ARCHITECTURE §8).

Event: {"hook_event_name": "PreToolUse", "tool_name": "Bash", "tool_input": {"command": …, …},
"cwd": …, "session_id": …, "permission_mode": …}. Answer with a rewrite:
{"hookSpecificOutput": {"hookEventName": "PreToolUse", "permissionDecision": "allow" (only on a
gate allow), "permissionDecisionReason": …,
"updatedInput": {<all tool_input fields>, "command": R}}};
deny → permissionDecision "deny" with the gate's rule as the reason. Codex and Copilot reuse
this shape.

A command the client surely prompts for (the gate's `"prompts": true`: no rule allows it and
its read-only check refuses it, in default, acceptEdits or plan mode) is answered
permissionDecision "ask" with the rewritten command as updatedInput: the client shows its
prompt for the rewritten command (headless `-p`: refused as without the hook; with
`--permission-prompt-tool`: the approver gets the rewritten input) and, approved, runs it
filtered (measured on 2.1.197 and 2.1.332). Without the mark an ask gets no answer: the
client's own flow runs on the original.

PreSkillShellCommand (2.1.332: the shell commands a skill's text runs, which no longer pass
the Bash hook): {"hook_event_name": "PreSkillShellCommand", "tool_name": "Bash",
"tool_input": {"command"}, "command_name", "invoked_by", …}. Its answer can only keep the
command from running: allow adds nothing, and ask, defer or any updatedInput also stop it. So
it gets the gate's deny and nothing else.
"""
from ..record import REASON_PREFIX, command_record, decision_of, deny_reason, event_meta, \
    rewrite_reason, rewritten_of, updated_input

TITLE = "Claude Code"
NAME = "claude"
CONFIG_DIR = ".claude"
#: The project's instructions file it reads (cc-track learn writes its corrections there).
INSTRUCTIONS_FILE = "CLAUDE.md"
#: Its transcripts under `transcript_dir()`: one JSON Lines file per session and project.
TRANSCRIPT_FILES = "*/*.jsonl"
NO_ANSWER = ""
SHELL_TOOLS = ("Bash",)
EVENT_NAME = "PreToolUse"
SKILL_EVENT = "PreSkillShellCommand"
#: What the model reads (headless) and the prompt shows for an ask answer, before the reason.
ASK_TEXT = "This command requires approval"
#: Where an allow rule goes and its exact lines, for the commands init/verify say it asks about.
ALLOW_RULES = ("permissions.allow in ~/.claude/settings.json",
               lambda prefixes: [f'"Bash({p}:*)",' for p in prefixes])


def decode_claude_shape(agent: str, event: dict, shell_tools) -> dict | None:
    """Claude-shaped events (Claude Code, Codex, Copilot in VS Code)."""
    if event.get("tool_name") not in shell_tools:
        return None
    event_name = event.get("hook_event_name", event.get("hookEventName", EVENT_NAME))
    if event_name != EVENT_NAME:
        return None
    tool_input = event.get("tool_input")
    if not isinstance(tool_input, dict):
        return None
    mode = event.get("permission_mode")
    return command_record(agent, event, tool_input, hook_event_name=event_name,
                          permission_mode=mode if isinstance(mode, str) else None)


def encode_claude_shape(record: dict, allow_rewrite_without_allow: bool = True) -> dict | None:
    event_name = event_meta(record).get("hook_event_name") or EVENT_NAME
    decision = decision_of(record)
    if decision == "deny":
        return {"hookSpecificOutput": {"hookEventName": event_name, "permissionDecision": "deny",
                                       "permissionDecisionReason": deny_reason(record)}}
    rewritten = rewritten_of(record)
    if rewritten is None:
        return None
    if decision != "allow" and not allow_rewrite_without_allow:
        return None
    output = {"hookEventName": event_name}
    output.update(rewrite_fields(record, rewritten, "updatedInput"))
    return {"hookSpecificOutput": output}


def rewrite_fields(record: dict, rewritten: str, input_key: str) -> dict:
    """permissionDecision "allow" (gate allow only), the reason, and the tool input with the
    rewritten command under `input_key` (Copilot CLI: "modifiedArgs")."""
    fields = {"permissionDecision": "allow"} if decision_of(record) == "allow" else {}
    fields["permissionDecisionReason"] = rewrite_reason(record)
    fields[input_key] = updated_input(record, rewritten)
    return fields


def decode(event: dict) -> dict | None:
    if event.get("hook_event_name") == SKILL_EVENT:
        if event.get("tool_name") not in SHELL_TOOLS or not isinstance(event.get("tool_input"),
                                                                        dict):
            return None
        mode = event.get("permission_mode")
        return command_record(NAME, event, event["tool_input"], hook_event_name=SKILL_EVENT,
                              permission_mode=mode if isinstance(mode, str) else None)
    return decode_claude_shape(NAME, event, SHELL_TOOLS)


def encode(record: dict) -> dict | None:
    """Claude Code applies updatedInput whatever the decision and then checks its own rules
    on the rewritten command only (ARCHITECTURE §8): a rewrite goes out only with the gate's allow
    (the original would run without asking); anything else gets no answer, except a deny.
    `CTXCRL_DISABLED=1 cmd` that the gate allows (cmd alone runs without asking) is answered
    allow without a rewrite: the prefix only turns filtering off. A command the client surely
    prompts for is answered ask with the rewrite; a skill's command only ever deny."""
    if event_meta(record).get("hook_event_name") == SKILL_EVENT:
        if decision_of(record) != "deny":
            return None
        return {"hookSpecificOutput": {"hookEventName": SKILL_EVENT, "permissionDecision": "deny",
                                       "permissionDecisionReason": deny_reason(record)}}
    answer = encode_claude_shape(record, allow_rewrite_without_allow=False)
    if answer is None:
        answer = ask_with_rewrite(record)
    if answer is None and decision_of(record) == "allow" and _disabled_prefix(record):
        return {"hookSpecificOutput": {"hookEventName": event_meta(record).get(
            "hook_event_name") or EVENT_NAME, "permissionDecision": "allow",
            "permissionDecisionReason": rewrite_reason(record).replace(
                "output filtered through cc-filter run", "not filtered (CTXCRL_DISABLED=1)")}}
    return answer


def ask_with_rewrite(record: dict) -> dict | None:
    """permissionDecision "ask" + the rewritten command, for a command the gate marked
    `"prompts": true` (the client asks on the original too); None otherwise."""
    rewritten = rewritten_of(record)
    if rewritten is None or decision_of(record) != "ask" or record.get("prompts") is not True \
            or _disabled_prefix(record):
        return None
    reason = record.get("reason")
    why = f"; {reason}" if isinstance(reason, str) and reason else ""
    return {"hookSpecificOutput": {
        "hookEventName": event_meta(record).get("hook_event_name") or EVENT_NAME,
        "permissionDecision": "ask",
        "permissionDecisionReason": f"{ASK_TEXT} ({REASON_PREFIX}: once approved, it runs "
                                    f"through cc-filter run, which shortens its output{why})"
                                    + ask_again_hint(record.get("command")),
        "updatedInput": updated_input(record, rewritten)}}


#: Where the client's own "Yes, and don't ask again" saves its rule (measured on 2.1.332).
LOCAL_SETTINGS = ".claude/settings.local.json"


def ask_again_hint(command) -> str:
    """The rule that stops the prompt, for the prompt's text: a hook's ask offers no "don't
    ask again" (2.1.332: Yes / No only), so the prompt names the allow rule the user would
    add instead (the program and its subcommand, `Bash(python3 -m pytest:*)`: narrower than
    the client's own offer, `Bash(python3 *)`), and the file the client would have saved it
    in. With that rule the gate allows the command and it runs filtered, unasked. Nothing
    for a compound command (one rule does not cover it)."""
    from ..allow_rule import SHELL_OPERATORS, rule_prefix

    if not isinstance(command, str) or any(op in command for op in SHELL_OPERATORS):
        return ""
    prefix = rule_prefix(command.strip())
    if not prefix or '"' in prefix:
        return ""
    return (f'. Not to be asked again: add "Bash({prefix}:*)" to permissions.allow in '
            f"{LOCAL_SETTINGS}")


def _disabled_prefix(record: dict) -> bool:
    command = record.get("command")
    return isinstance(command, str) and command.lstrip().startswith("CTXCRL_DISABLED=")


# -- install (cold path: imports inside)
def artifacts(scope: str, root: str, ctx) -> list:
    import os

    from ..artifacts import JsonRegistration, JsonRegistrations, LineInFile, OwnedFile
    from ..hook_script import template

    if scope == "global":
        base = user_dir(ctx.user_home)
    else:
        base = os.path.join(root, CONFIG_DIR)
    note_dir = base if scope == "global" else root
    settings = os.path.join(base, "settings.json")
    return [
        OwnedFile(os.path.join(note_dir, "CONTEXTCRAWLER.md"), template("CONTEXTCRAWLER.md"),
                  "awareness note"),
        LineInFile(os.path.join(note_dir, INSTRUCTIONS_FILE), "@CONTEXTCRAWLER.md",
                   "@CONTEXTCRAWLER.md reference"),
        # 2.1.332: skills' shell commands pass PreSkillShellCommand, not PreToolUse (its
        # matcher: the tool name); 2.1.197 ignores the key
        JsonRegistrations([JsonRegistration.matcher_group(settings, event, "Bash",
                                                          ctx.hook_command)
                           for event in (EVENT_NAME, SKILL_EVENT)],
                          f"hooks.{EVENT_NAME} and hooks.{SKILL_EVENT} (matcher Bash)"),
    ]


def user_dir(user_home: str | None = None) -> str:
    """Claude Code's own folder: `$CLAUDE_CONFIG_DIR`, else `.claude` in `user_home` (default:
    the user's home folder)."""
    import os

    return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(
        user_home or os.path.expanduser("~"), CONFIG_DIR)


def installed_client_version():
    """The version of the `claude` on the PATH (its package.json, or a native install's
    versions/<X> file name), without running it; None when there is none or it cannot say."""
    import os
    import shutil

    from cc_gate.agents.claude import _version_near

    found = shutil.which("claude")
    if not found:
        return None
    return _version_near(os.path.realpath(found))


def table_problem(version="installed"):
    """What `verify` says when the client's read-only check is not the one the gate knows:
    a client newer than the newest table (or a release without one) gets no command allowed
    on the strength of the tables alone, so read-only commands reach the model unfiltered
    until the tables are extracted for it. None when the tables are current (or no client
    is found)."""
    from cc_gate.agents import claude_builtin

    if version == "installed":
        version = installed_client_version()
    if version is None or claude_builtin.table_is_current(version):
        return None
    newer = claude_builtin.newer_than_tables(version)
    return (f"Claude Code {version} is {'newer than' if newer else 'not one of'} the versions "
            f"whose read-only tables this gate holds "
            f"({', '.join(claude_builtin.table_versions())}): nothing is auto-allowed on "
            "their strength, so its read-only commands (git status, ls …) run unfiltered and "
            "its prompts are left as they are; "
            + ("update contextcrawler" if newer else "use one of those versions"))


def synthetic_event(command: str, cwd: str, shape: str | None = None) -> dict:
    """The event Claude Code sends before running `command` in `cwd` (`cc-hook test`)."""
    return {"session_id": "ctxcrl-test", "transcript_path": "", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreToolUse",
            "tool_name": "Bash",
            "tool_input": {"command": command, "description": "cc-hook test"}}


# -- transcripts (cc-track reads them; cold path: imports inside)
def transcript_dir() -> str:
    """`$CLAUDE_CONFIG_DIR/projects`, else `~/.claude/projects`."""
    import os

    return os.path.join(user_dir(), "projects")


def read_transcript(path: str, history):
    """A session file `projects/<project>/<session>.jsonl`: `assistant` lines with `tool_use`
    items (`Bash`, `input.command`) and their usage, `user` lines with the `tool_result` (a
    failure's text starts `Exit code N`), and `attachment` lines with a PreToolUse hook's
    answer (the rewritten command). One line per content block, each repeating the message's
    usage: usage is folded by `message.id`."""
    import os
    import re

    from ..transcript import Session, ShellCall, json_lines, parse_ts

    exit_code = re.compile(r"\AExit code (\d+)\b")
    session = Session(NAME, os.path.splitext(os.path.basename(path))[0], path)
    calls: dict = {}
    usage: dict = {}
    for entry in json_lines(path, history):
        ts = parse_ts(entry.get("timestamp"))
        session.seen(ts)
        if isinstance(entry.get("sessionId"), str):
            session.id = entry["sessionId"]
        if session.cwd is None and isinstance(entry.get("cwd"), str):
            session.cwd = entry["cwd"]
        kind = entry.get("type")
        if kind == "attachment" and isinstance(entry.get("attachment"), dict):
            found = _hook_rewrite(entry["attachment"])
            if found and found[0] in calls:
                calls[found[0]].rewritten = found[1]
            continue
        message = entry.get("message")
        if not isinstance(message, dict):
            continue
        content = message.get("content")
        if kind == "assistant":
            _usage(message, entry, ts, usage, session)
            for item in content if isinstance(content, list) else ():
                if (isinstance(item, dict) and item.get("type") == "tool_use"
                        and item.get("name") in SHELL_TOOLS and isinstance(item.get("id"), str)):
                    tool_input = item.get("input")
                    command = tool_input.get("command") if isinstance(tool_input, dict) else None
                    if isinstance(command, str) and command.strip():
                        call = calls[item["id"]] = ShellCall(item["id"], command, ts,
                                                             entry.get("cwd") or session.cwd)
                        session.calls.append(call)
        elif kind == "user" and isinstance(content, list):
            for item in content:
                if not (isinstance(item, dict) and item.get("type") == "tool_result"):
                    continue
                call = calls.get(item.get("tool_use_id"))
                if call is None:
                    continue
                text = _text_of(item.get("content"))
                result = entry.get("toolUseResult")
                if not text and isinstance(result, dict):
                    text = "".join(result.get(k) for k in ("stdout", "stderr")
                                   if isinstance(result.get(k), str))
                call.end_ts = ts
                call.failed = bool(item.get("is_error"))
                match = exit_code.match(text)
                # a failure's text starts "Exit code N"; a success records no code: 0
                call.exit_code = int(match.group(1)) if match else (None if call.failed else 0)
                call.read(text)
    session.usage = list(usage.values())
    return session


def _text_of(content) -> str:
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(item["text"] for item in content
                       if isinstance(item, dict) and isinstance(item.get("text"), str))
    return ""


def _hook_rewrite(attachment: dict) -> tuple | None:
    """(tool_use id, rewritten command) from a PreToolUse hook's recorded answer."""
    import json

    if attachment.get("type") != "hook_success" or attachment.get("hookEvent") != EVENT_NAME:
        return None
    try:
        answer = json.loads(attachment.get("stdout") or "")
        command = answer["hookSpecificOutput"]["updatedInput"]["command"]
    except (ValueError, TypeError, KeyError):
        return None
    if isinstance(command, str) and isinstance(attachment.get("toolUseID"), str):
        return attachment["toolUseID"], command
    return None


def _usage(message, entry, ts, usage: dict, session) -> None:
    from ..transcript import Usage, count

    counts = message.get("usage")
    model = message.get("model")
    if not isinstance(counts, dict) or not isinstance(model, str) or model == "<synthetic>":
        return
    key = message.get("id") or entry.get("requestId") or entry.get("uuid")
    if key in usage:
        return  # the same API message, another of its content blocks
    usage[key] = Usage(key, ts, model, count(counts.get("input_tokens")),
                       count(counts.get("output_tokens")),
                       count(counts.get("cache_read_input_tokens")),
                       count(counts.get("cache_creation_input_tokens")))
    session.used(model)


def _settings_files(install: dict, user_home: str, cwd: str) -> list:
    """The settings files Claude Code reads for this install, with their level."""
    import os

    from cc_gate.agents import claude as claude_gate

    from ..client_check import project_roots

    base = user_dir(user_home)
    files = [(p, "managed") for p in claude_gate.managed_files()]
    files.append((os.path.join(base, "settings.json"), "user"))
    for root in project_roots(install, cwd, user_home):
        files.append((os.path.join(root, ".claude", "settings.json"), "project"))
        files.append((os.path.join(root, ".claude", "settings.local.json"), "local"))
    return files


def check_client(install: dict, finding, user_home: str, cwd: str) -> None:
    """`cc-hook verify`: settings that switch the hook off, another PreToolUse hook on Bash,
    an `env` block overriding contextcrawler's variables."""
    from ..client_check import env_findings, foreign_hooks, read_json, short

    for path, level in _settings_files(install, user_home, cwd):
        settings = read_json(path)
        if settings is None:
            continue
        where = f"{level} settings {short(path)}"
        if settings.get("disableAllHooks") is True:
            fix = ("ask whoever manages this machine's Claude Code policy" if level == "managed"
                   else f"remove \"disableAllHooks\" from {short(path)}")
            finding.fail(f"{where} sets \"disableAllHooks\": true: Claude Code runs no hook, "
                         f"so nothing is filtered; fix: {fix}")
        if level == "managed" and settings.get("allowManagedHooksOnly") is True:
            finding.fail(f"{where} sets \"allowManagedHooksOnly\": true: Claude Code runs only "
                         "managed hooks, not contextcrawler's; fix: ask whoever manages this "
                         "machine's Claude Code policy to add the hook there")
        for command in foreign_hooks(settings, "PreToolUse", "Bash"):
            finding.warn(f"{where} registers another PreToolUse hook on Bash ({command}): "
                         "Claude Code runs both at once and keeps the updatedInput of the one "
                         "that finishes last, so a command may run unfiltered or as the other "
                         f"hook rewrote it; fix: remove it from hooks.PreToolUse in "
                         f"{short(path)}, or give it a matcher without Bash")
        env = settings.get("env")
        if isinstance(env, dict):
            env_findings(env, f"the \"env\" block of {where}", level, finding)
