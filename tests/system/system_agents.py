"""Agents as the system tests see them: the event each one sends, how it finds the registered
hook, how it reads the answer (ARCHITECTURE §8) — written from the agents' documented shapes, not
from cc-hook's code — and a `Session` that replays commands the way the agent would.

An `Answer` normalises the three answer dialects:
- decision: "allow" (run without asking), "ask" (rewritten, the agent's own prompt decides),
  "deny", or None (no answer: the agent runs the original command with its own prompt);
- command: the command the agent will run (the rewrite, or the original when no rewrite).
"""
import json
import os
import subprocess
import time


class Answer:
    def __init__(self, raw: str, decision, command, reason, updated: dict | None):
        self.raw, self.decision, self.command, self.reason = raw, decision, command, reason
        self.updated = updated  # the whole tool input the agent gets back, when rewritten

    def __repr__(self):
        return f"Answer({self.raw!r})"


class Agent:
    name = ""
    settings = ""          # the settings file, relative to HOME, where the hook is registered

    def event(self, command: str, cwd: str) -> dict:
        raise NotImplementedError

    def tool_input(self, event: dict) -> dict:
        return event["tool_input"]

    def registered(self, home) -> list[str]:
        """The hook commands the agent would run, read from its settings like the agent."""
        raise NotImplementedError

    def parse(self, raw: str, original: str) -> Answer:
        raise NotImplementedError

    def rules_file(self, allow: list[str], deny: list[str]) -> tuple[str, dict]:
        """(file relative to HOME, content): the agent's own permission rules for these bare
        patterns (`git push --force`, `ls:*`), in the agent's syntax."""
        raise NotImplementedError

    def launch(self, argv: list) -> list:
        """How the agent starts its hook (argv of the hook command): as is."""
        return argv


def _load(path) -> dict:
    with open(path, encoding="utf-8-sig") as f:
        return json.load(f)


class Claude(Agent):
    name = "claude"
    settings = ".claude/settings.json"

    def event(self, command, cwd):
        return {"session_id": "e2e-claude-0001", "transcript_path": "/dev/null", "cwd": cwd,
                "permission_mode": "default", "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command, "description": "system test step",
                               "timeout": 120000}}

    def registered(self, home):
        data = _load(os.path.join(home, self.settings))
        return [h["command"] for entry in data.get("hooks", {}).get("PreToolUse", [])
                if entry.get("matcher") in ("Bash", "*", "")
                for h in entry.get("hooks", []) if h.get("type") == "command"]

    def parse(self, raw, original):
        if not raw.strip():
            return Answer(raw, None, original, None, None)
        out = json.loads(raw)["hookSpecificOutput"]
        assert out["hookEventName"] == "PreToolUse", raw
        decision = out.get("permissionDecision")
        if decision == "deny":
            return Answer(raw, "deny", None, out.get("permissionDecisionReason"), None)
        updated = out.get("updatedInput")
        command = updated["command"] if updated else original
        return Answer(raw, "allow" if decision == "allow" else ("ask" if updated else None),
                      command, out.get("permissionDecisionReason"), updated)

    def rules_file(self, allow, deny):
        return ".claude/settings.json", {
            "permissions": {"allow": [f"Bash({r})" for r in allow],
                            "deny": [f"Bash({r})" for r in deny]},
            "model": "sonnet"}


class Cursor(Agent):
    name = "cursor"
    settings = ".cursor/hooks.json"

    def event(self, command, cwd):
        return {"conversation_id": "e2e-cursor-0001", "generation_id": "gen-1",
                "hook_event_name": "preToolUse", "workspace_roots": [cwd],
                "tool_name": "Shell", "tool_input": {"command": command, "cwd": cwd}}

    def registered(self, home):
        data = _load(os.path.join(home, self.settings))
        return [h["command"] for h in data.get("hooks", {}).get("preToolUse", [])
                if h.get("matcher") in (None, "Shell", "*")]

    def parse(self, raw, original):
        data = json.loads(raw)  # Cursor always gets an object, `{}` = no change
        if data == {}:
            return Answer(raw, None, original, None, None)
        permission = data.get("permission")
        if permission == "deny":
            return Answer(raw, "deny", None,
                          data.get("user_message") or data.get("agent_message"), None)
        updated = data.get("updated_input")
        command = updated["command"] if updated else original
        return Answer(raw, permission if permission in ("allow", "ask") else None, command,
                      None, updated)

    def rules_file(self, allow, deny):
        return ".cursor/cli-config.json", {
            "version": 1, "editor": {"vimMode": False},
            "permissions": {"allow": [f"Shell({r})" for r in allow],
                            "deny": [f"Shell({r})" for r in deny]}}


class Gemini(Agent):
    name = "gemini"
    settings = ".gemini/settings.json"

    def event(self, command, cwd):
        return {"session_id": "e2e-gemini-0001", "transcript_path": "", "cwd": cwd,
                "hook_event_name": "BeforeTool", "timestamp": "2025-01-01T00:00:00.000Z",
                "tool_name": "run_shell_command",
                "tool_input": {"command": command, "description": "system test step"}}

    def launch(self, argv):
        # Gemini's gate reads the running client's flags: start the hook from a process named
        # `gemini`, headless (`-p`), as the client does (`; exit` keeps sh from exec-ing).
        return ["bash", "-c", """exec -a gemini /bin/sh -c '"$@"; exit $?' -p "$@" """, "bash",
                *argv]

    def registered(self, home):
        data = _load(os.path.join(home, self.settings))
        return [h["command"] for entry in data.get("hooks", {}).get("BeforeTool", [])
                if entry.get("matcher") in ("run_shell_command", "*", "")
                for h in entry.get("hooks", []) if h.get("type") == "command"]

    def parse(self, raw, original):
        if not raw.strip():
            return Answer(raw, None, original, None, None)
        data = json.loads(raw)
        if data.get("decision") in ("deny", "block"):
            return Answer(raw, "deny", None, data.get("reason"), None)
        updated = (data.get("hookSpecificOutput") or {}).get("tool_input")
        command = updated["command"] if updated else original
        decision = {"allow": "allow", "ask_user": "ask"}.get(data.get("decision"))
        return Answer(raw, decision, command, data.get("reason"), updated)

    def rules_file(self, allow, deny):
        # The same file the hook is registered in: init must keep these keys.
        return ".gemini/settings.json", {
            "theme": "Default", "general": {"vimMode": False},
            "tools": {"allowed": [f"run_shell_command({r})" for r in allow],
                      "exclude": [f"run_shell_command({r})" for r in deny]}}


AGENTS = {a.name: a for a in (Claude(), Cursor(), Gemini())}


class Step:
    """One tool call of the agent: what the hook answered and what the agent saw."""

    def __init__(self, original, answer, output, exit_code, elapsed):
        self.original, self.answer = original, answer
        self.output, self.exit_code, self.elapsed = output, exit_code, elapsed

    @property
    def command(self):
        return self.answer.command

    def describe(self) -> str:
        return (f"command: {self.original!r}\nhook answer: {self.answer.raw.strip() or '(none)'}"
                f"\nexit code: {self.exit_code}\noutput seen by the agent:\n{self.output}")


class Session:
    """Replays an agent's shell tool calls through the installed hook, then runs the answer's
    command (or the original) with bash in the project, as the agent does."""

    def __init__(self, sandbox, agent: Agent):
        self.box, self.agent = sandbox, agent
        hooks = agent.registered(str(sandbox.home))
        assert len(hooks) == 1, f"{agent.name}: expected one registered hook, got {hooks}"
        self.hook = hooks[0]
        self.steps: list[Step] = []

    def ask_hook(self, command: str, body: bytes | None = None, env=None):
        event = self.agent.event(command, str(self.box.project))
        data = body if body is not None else json.dumps(event).encode()
        done = subprocess.run(self.agent.launch(["/bin/sh", "-c", self.hook]), input=data,
                              cwd=self.box.project, env=env or self.box.env,
                              capture_output=True, timeout=60)
        return done

    def run(self, command: str, timeout: float = 120) -> Step:
        done = self.ask_hook(command)
        assert done.returncode == 0, f"the hook exited {done.returncode}: {done.stderr!r}"
        raw = done.stdout.decode()
        answer = self.agent.parse(raw, command)
        if answer.updated is not None:
            original_input = self.agent.tool_input(self.agent.event(command, "x"))
            for key in original_input:
                if key not in ("command", "cwd"):
                    assert answer.updated.get(key) == original_input[key], \
                        f"tool input field {key!r} lost in the answer: {raw}"
        output, code = None, None
        start = time.perf_counter()
        if answer.decision != "deny":
            ran = subprocess.run(["bash", "-c", answer.command], cwd=self.box.project,
                                 env=self.box.env, stdout=subprocess.PIPE,
                                 stderr=subprocess.STDOUT, timeout=timeout)
            output, code = ran.stdout.decode("utf-8", "replace"), ran.returncode
        step = Step(command, answer, output, code, time.perf_counter() - start)
        self.steps.append(step)
        return step

    def raw(self, command: str):
        """The same command without contextcrawler (what the agent would have seen)."""
        ran = subprocess.run(["bash", "-c", command], cwd=self.box.project, env=self.box.env,
                             stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=120)
        return ran.stdout.decode("utf-8", "replace"), ran.returncode


class Checks:
    """Soft assertions: a session goes on after a failed check, and the test fails at the end
    with every failed check listed (step, what was expected, what the agent saw)."""

    def __init__(self):
        self.failures: list[str] = []

    def check(self, ok, what: str, step: Step | None = None):
        if not ok:
            self.failures.append(f"- {what}\n" + (
                "  " + step.describe().replace("\n", "\n  ") if step else ""))
        return ok

    def done(self):
        assert not self.failures, "session checks failed:\n" + "\n".join(self.failures)
