"""End to end, per agent: `cc-hook init` into a throwaway HOME, then the installed hook runs as
the agent runs it (`sh -c <registered command>` in the project, event on stdin, a bare PATH)
with real-shaped events, through the real cc-gate and cc-rewrite. The answers are checked
exactly against DESIGN §8, then the rewritten commands run in bash."""
import json
import os
import subprocess
import sys

import pytest

BIN = os.path.dirname(sys.executable)
CC_HOOK = os.path.join(BIN, "cc-hook")
BARE_PATH = "/usr/bin:/bin"
PREFIX = "contextcrawler"

# Each agent's own permission settings, with an allow rule for `git status` and a deny rule
# for `git push` (the files cc-gate reads for that agent: Claude's format for Codex and
# Copilot, which have no `Bash(…)` lists of their own).
RULES = {
    "claude": (".claude/settings.json",
               {"permissions": {"allow": ["Bash(git status)", "Bash(git log:*)"],
                                "deny": ["Bash(git push:*)"]}}),
    # Codex: its own prefix rules (an allow rule there would lift the command out of Codex's
    # sandbox, which a rewrite cannot keep: see cc_gate/agents/codex.py)
    "codex": (".codex/rules/default.rules",
              'prefix_rule(pattern=["git", "push"], decision="forbidden")\n'),
    "copilot": (".claude/settings.json",
                {"permissions": {"allow": ["Bash(git status)", "Bash(git log:*)"],
                                 "deny": ["Bash(git push:*)"]}}),
    "cursor": (".cursor/cli-config.json",
               {"permissions": {"allow": ["Shell(git status)", "Shell(git log)"],
                                "deny": ["Shell(git push)"]}}),
    "gemini": (".gemini/settings.json",
               {"theme": "Default", "tools": {"allowed": ["run_shell_command(git status)",
                                                          "run_shell_command(git log)"],
                                              "exclude": ["run_shell_command(git push)"]}}),
}
SHAPES = [("claude", None), ("cursor", None), ("copilot", None), ("copilot", "camel"),
          ("gemini", None), ("codex", None)]


def run(argv, env, cwd, stdin=None):
    return subprocess.run(argv, input=stdin, capture_output=True, text=True, env=env, cwd=cwd,
                          timeout=60)


def make_project(path):
    git = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@e", "GIT_COMMITTER_NAME": "t",
           "GIT_COMMITTER_EMAIL": "t@e", "GIT_AUTHOR_DATE": "2024-01-01T00:00:00",
           "GIT_COMMITTER_DATE": "2024-01-01T00:00:00", "PATH": BARE_PATH, "HOME": str(path)}
    path.mkdir()
    for argv in (["git", "init", "-q", "-b", "main"], ["git", "add", "a.txt"],
                 ["git", "commit", "-q", "-m", "first commit"]):
        if argv[1] == "add":
            (path / "a.txt").write_text("one\n")
        subprocess.run(argv, cwd=path, env=git, check=True, capture_output=True)
    (path / "a.txt").write_text("two\n")
    (path / "new.txt").write_text("new\n")
    return path


class Install:
    """One agent installed globally in its own HOME, with its rules, and a git project."""

    def __init__(self, agent, root):
        self.agent = agent
        self.home = root / "home"
        self.project = make_project(root / "project")
        self.env = {"HOME": str(self.home), "CTXCRL_HOME": str(root / "ctxcrl"),
                    "PATH": BARE_PATH, "LANG": "C.UTF-8",
                    "GEMINI_CLI_SYSTEM_SETTINGS_PATH": str(root / "none")}
        self.home.mkdir()
        relative, rules = RULES[agent]
        (self.home / relative).parent.mkdir(parents=True)
        (self.home / relative).write_text(
            rules if isinstance(rules, str) else json.dumps(rules, indent=2) + "\n")
        done = run([CC_HOOK, "init", f"--agent={agent}"], self.env, self.project)
        assert done.returncode == 0, done.stdout + done.stderr
        config = (root / "ctxcrl" / "config.toml").read_text()
        self.filter = config.split('filter_bin = "')[1].split('"')[0]
        self.script = str(root / "ctxcrl" / "hooks" / f"ctxcrl-hook-{agent}.sh")
        self._reasons = {}

    def hook(self, body):
        if not isinstance(body, (str, bytes)):
            body = json.dumps(body)
        if isinstance(body, str):
            body = body.encode()
        done = subprocess.run(["/bin/sh", "-c", self.script], input=body, capture_output=True,
                              env=self.env, cwd=self.project, timeout=60)
        assert done.returncode == 0
        assert b"Traceback" not in done.stderr, done.stderr
        return done.stdout.decode()

    def gate_reason(self, command):
        """The reason cc-gate gives (its wording is cc-gate's business, not this test's)."""
        if command not in self._reasons:
            done = run([os.path.join(BIN, "cc-gate"), f"--agent={self.agent}",
                        f"--cwd={self.project}", command], self.env, self.project)
            # bare mode: `cc-gate: <decision>: <reason>` on stderr
            self._reasons[command] = done.stderr.rstrip("\n").split(": ", 2)[2]
        return self._reasons[command]

    def bash(self, command):
        return run(["bash", "-c", command], self.env, self.project)


@pytest.fixture(scope="module")
def installs(tmp_path_factory):
    cache = {}

    def get(agent):
        if agent not in cache:
            cache[agent] = Install(agent, tmp_path_factory.mktemp(agent))
        return cache[agent]

    return get


def event(agent, shape, command, cwd, permission_mode="default"):
    if agent in ("claude", "codex"):
        return {"session_id": "0b5c", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
                "permission_mode": permission_mode, "hook_event_name": "PreToolUse",
                "tool_name": "Bash",
                "tool_input": {"command": command, "description": "Run it", "timeout": 60000}}
    if agent == "cursor":
        return {"conversation_id": "c1", "generation_id": "g1", "hook_event_name": "preToolUse",
                "tool_name": "Shell", "tool_input": {"command": command},
                "workspace_roots": [cwd]}
    if agent == "copilot" and shape == "camel":
        return {"timestamp": 1704614600000, "cwd": cwd, "toolName": "bash",
                "toolArgs": json.dumps({"command": command, "description": "Run it"})}
    if agent == "copilot":
        return {"timestamp": "2026-01-01T00:00:00.000Z", "cwd": cwd, "session_id": "s",
                "hook_event_name": "PreToolUse", "tool_name": "run_in_terminal",
                "tool_input": {"command": command, "explanation": "Run it",
                               "isBackground": False}}
    if agent == "gemini":
        return {"session_id": "s", "transcript_path": "/tmp/t.json", "cwd": cwd,
                "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00Z",
                "tool_name": "run_shell_command",
                "tool_input": {"command": command, "description": "Run it"}}
    raise KeyError(agent)


def tool_input(agent, shape, command):
    ev = event(agent, shape, command, "/")
    return json.loads(ev["toolArgs"]) if shape == "camel" else ev["tool_input"]


def expected_answer(agent, shape, command, decision, reason, rewritten, mode="default"):
    """DESIGN §8, restated independently of the encoder."""
    if decision == "deny":
        text = f"{PREFIX}: {reason}"
        if agent == "cursor":
            return {"continue": True, "permission": "deny", "user_message": text,
                    "agent_message": text}
        if agent == "gemini":
            return {"decision": "deny", "reason": text}
        if shape == "camel":
            return {"permissionDecision": "deny", "permissionDecisionReason": text}
        return {"hookSpecificOutput": {"hookEventName": "PreToolUse",
                                       "permissionDecision": "deny",
                                       "permissionDecisionReason": text}}
    # Permission parity: a rewrite only for a command the agent would run without asking;
    # otherwise no answer, so the agent's own flow judges the original.
    if rewritten is None or decision != "allow":
        return {} if agent == "cursor" else None
    if agent == "codex" and mode != "bypassPermissions":
        return None  # Codex's approval policy is not known here (no codex process): no answer
    updated = dict(tool_input(agent, shape, command), command=rewritten)
    if agent == "cursor":
        return {"continue": True, "permission": "allow", "updated_input": updated}
    if agent == "gemini":
        return {"decision": "allow", "hookSpecificOutput": {"tool_input": updated}}
    why = f"{PREFIX}: output filtered through cc-filter run; gate {decision}: {reason}"
    if agent == "codex":  # bypassPermissions (`codex exec`): no rule → runs unasked
        why = f"{PREFIX}: output filtered through cc-filter run; gate allow: {CODEX_DEFAULT}"
        decision = "allow"
    if shape == "camel":
        answer = {"permissionDecision": "allow"}
        answer.update(permissionDecisionReason=why, modifiedArgs=updated)
        return answer
    inner = {"hookEventName": "PreToolUse", "permissionDecision": "allow"}
    inner.update(permissionDecisionReason=why, updatedInput=updated)
    return {"hookSpecificOutput": inner}


def parse(answer):
    return json.loads(answer) if answer.strip() else None


CASES = [
    # name, command, gate decision, rewritten (F = the cc-filter the agent's shell will run)
    ("rewritable", "git status", "allow", "{F} run git status"),
    ("compound", "git status && git log --oneline -n 3", "allow",
     "{F} run git status && {F} run git log --oneline -n 3"),
    # one segment the agent would ask about: no rewrite, the agent judges the original
    ("compound-ask", "git status && git diff", "ask", None),
    ("denied", "git push origin main", "deny", None),
    ("unknown", "frobnicate --all", "ask", None),
    ("piped", "git status | wc -l", "ask", None),
]


@pytest.mark.parametrize("agent, shape", SHAPES, ids=lambda v: v or "")
@pytest.mark.parametrize("name, command, decision, rewritten", CASES, ids=[c[0] for c in CASES])
def test_answers(installs, agent, shape, name, command, decision, rewritten):
    install = installs(agent)
    rewritten = rewritten and rewritten.replace("{F}", install.filter)
    answer = install.hook(event(agent, shape, command, str(install.project)))
    reason = install.gate_reason(command)
    assert parse(answer) == expected_answer(agent, shape, command, decision, reason, rewritten)


CODEX_DEFAULT = "no Codex rule matches: Codex runs it in its sandbox without asking"


def test_codex_rewrites_in_bypass_permissions_mode(installs):
    install = installs("codex")
    command = "git status && git log --oneline -n 3"
    ev = event("codex", None, command, str(install.project), "bypassPermissions")
    rewritten = f"{install.filter} run git status && {install.filter} run git log --oneline -n 3"
    assert parse(install.hook(ev)) == expected_answer(
        "codex", None, command, "allow", CODEX_DEFAULT, rewritten, mode="bypassPermissions")
    push = event("codex", None, "git push origin main", str(install.project), "bypassPermissions")
    assert parse(install.hook(push))["hookSpecificOutput"]["permissionDecision"] == "deny"


def test_no_rewrite_on_ask_whatever_the_mode(installs):
    """A command the rules would ask about is never rewritten: the agent's own flow must judge
    the original (an agent's model may know that a mode runs it without asking: then the gate
    says allow)."""
    install = installs("codex")
    command = "git status && git diff"
    ev = event("codex", None, command, str(install.project), "default")
    assert "Codex approval policy" in install.gate_reason(command)  # not known here: ask
    assert parse(install.hook(ev)) is None


MALFORMED = ["{", '{"tool_name": "Read", "tool_input": {"file_path": "a.txt"}}']
MALFORMED_MORE = ["", "not json at all", "\ufeff", "[]", '{"tool_name": "Bash"}',
                  "x" * (10 << 20)]


@pytest.mark.parametrize("agent", ["claude", "cursor", "copilot", "gemini", "codex"])
def test_malformed_input_gets_no_answer(installs, agent):
    install = installs(agent)
    bodies = MALFORMED + (MALFORMED_MORE if agent in ("claude", "cursor") else [])
    for body in bodies:
        assert install.hook(body) == ("{}\n" if agent == "cursor" else "")


def test_cursor_event_with_a_bom(installs):
    install = installs("cursor")
    body = "\ufeff" + json.dumps(event("cursor", None, "git status", str(install.project)))
    answer = parse(install.hook(body.encode("utf-8")))
    assert answer["updated_input"] == {"command": f"{install.filter} run git status"}


@pytest.mark.parametrize("agent, shape", SHAPES, ids=lambda v: v or "")
def test_rewritten_commands_run_in_bash(installs, agent, shape):
    install = installs(agent)
    cases = [("git status && git log --oneline -n 3", 0),
             ("git status && git log --oneline nosuchref", 128)]
    for command, code in cases:
        ev = event(agent, shape, command, str(install.project), "bypassPermissions")
        answer = parse(install.hook(ev))
        rewritten = (answer.get("hookSpecificOutput", {}).get("updatedInput")
                     or answer.get("updated_input") or answer.get("modifiedArgs")
                     or answer["hookSpecificOutput"]["tool_input"])["command"]
        assert rewritten.startswith(f"{install.filter} run git status")
        raw, filtered = install.bash(command), install.bash(rewritten)
        assert (raw.returncode, filtered.returncode) == (code, code)
        out = filtered.stdout + filtered.stderr
        assert "a.txt" in out and "new.txt" in out
        if code == 0:
            assert "first commit" in out


def test_disabled_in_the_agents_environment(installs):
    install = installs("claude")
    env = dict(install.env, CTXCRL_DISABLED="1")
    done = subprocess.run(["/bin/sh", "-c", install.script], capture_output=True, env=env,
                          input=json.dumps(event("claude", None, "git status", "/")).encode(),
                          cwd=install.project, timeout=60)
    assert (done.returncode, done.stdout) == (0, b"")


def test_a_config_broken_after_install(tmp_path):
    """The user breaks config.toml (where init recorded filter_bin): the hook still rewrites
    with the cc-filter the agent's shell can run, and says so once, not once per stage."""
    install = Install("claude", tmp_path)
    config = tmp_path / "ctxcrl" / "config.toml"
    config.write_text(config.read_text() + "\n[tee\nmode = 'always'\n")
    for _ in range(2):  # parsed, then from the cache
        body = json.dumps(event("claude", None, "git status", str(install.project)))
        done = subprocess.run(["/bin/sh", "-c", install.script], input=body.encode(),
                              capture_output=True, env=install.env, cwd=install.project,
                              timeout=60)
        err = done.stderr.decode().splitlines()
        assert done.returncode == 0 and len(err) == 1, err
        assert err[0].startswith(f"ctxcrl: ignoring malformed config {config}: ")
        command = json.loads(done.stdout)["hookSpecificOutput"]["updatedInput"]["command"]
        assert command == f"{install.filter} run git status"
    ran = install.bash(command)
    assert ran.returncode == 0 and "new.txt" in ran.stdout


def test_cc_hook_test_shows_the_answer(installs):
    install = installs("gemini")
    done = run([CC_HOOK, "test", "gemini", "git status"], install.env, install.project)
    assert done.returncode == 0, done.stderr
    assert '"decision": "allow"' in done.stdout and f"{install.filter} run git status" in \
        done.stdout


def test_done_check_claude_fresh_home(tmp_path):
    """`cc-hook init --agent claude` in a fresh HOME: a PreToolUse event for
    `git status && pytest -q` gets the answer DESIGN §5 and §8 specify."""
    home, project = tmp_path / "home", make_project(tmp_path / "project")
    home.mkdir()
    env = {"HOME": str(home), "CTXCRL_HOME": str(tmp_path / "ctxcrl"), "PATH": BARE_PATH}
    assert run([CC_HOOK, "init", "--agent", "claude"], env, project).returncode == 0
    settings = json.loads((home / ".claude" / "settings.json").read_text())
    script = settings["hooks"]["PreToolUse"][0]["hooks"][0]["command"]
    command = "git status && pytest -q"
    ev = event("claude", None, command, str(project))
    done = subprocess.run(["/bin/sh", "-c", script], input=json.dumps(ev), capture_output=True,
                          text=True, env=env, cwd=project, timeout=60)
    rewrite = run([os.path.join(BIN, "cc-rewrite"), command], env, project).stdout.strip()
    gate = run([os.path.join(BIN, "cc-gate"), "--agent", "claude", command], env, project)
    assert gate.stdout == command + "\n"  # bare mode passes the command on
    tool, decision, reason = gate.stderr.rstrip("\n").split(": ", 2)
    assert (tool, decision) == ("cc-gate", "ask")
    assert rewrite.startswith(os.path.join(BIN, "cc-filter") + " run git status && ")
    # Claude Code would ask about `pytest -q` (no rule allows it): no answer, so the client's
    # own prompt judges the original command (a rewrite here would need approval for
    # `cc-filter run …` and escape the user's rules: issue 12)
    assert reason.startswith("no allow rule matches")
    assert (done.returncode, done.stdout) == (0, "")


NODE_DRIVER = """
import { ContextCrawler } from %s
const hooks = await ContextCrawler({ directory: %s })
for (const command of JSON.parse(process.argv[2])) {
  const output = { args: { command, description: "d" } }
  try {
    await hooks["tool.execute.before"]({ tool: "bash" }, output)
    console.log(JSON.stringify(output.args))
  } catch (error) {
    console.log(JSON.stringify({ error: error.message }))
  }
}
const other = { args: { filePath: "a.txt" } }
await hooks["tool.execute.before"]({ tool: "read" }, other)
console.log(JSON.stringify(other.args))
"""


@pytest.mark.skipif(not subprocess.run(["sh", "-c", "command -v node"],
                                       capture_output=True).stdout, reason="needs node")
def test_opencode_plugin_rewrites_and_blocks(tmp_path):
    home, project = tmp_path / "home", make_project(tmp_path / "project")
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(
        json.dumps({"permissions": {"deny": ["Bash(git push:*)"]}}))
    env = {"HOME": str(home), "CTXCRL_HOME": str(tmp_path / "ctxcrl"), "PATH": BARE_PATH}
    assert run([CC_HOOK, "init", "--agent", "opencode"], env, project).returncode == 0
    plugin = home / ".config" / "opencode" / "plugins" / "ctxcrl.ts"
    module = tmp_path / "ctxcrl.mjs"  # the plugin is plain JavaScript: node can load it
    module.write_text(plugin.read_text())
    driver = tmp_path / "driver.mjs"
    driver.write_text(NODE_DRIVER % (json.dumps(str(module)), json.dumps(str(project))))
    node = subprocess.run(["sh", "-c", "command -v node"], capture_output=True,
                          text=True).stdout.strip()
    commands = ["git status", "git push origin main", "frobnicate"]
    done = run([node, str(driver), json.dumps(commands)], env, project)
    assert done.returncode == 0, done.stderr
    config = (tmp_path / "ctxcrl" / "config.toml").read_text()
    filter_bin = config.split('filter_bin = "')[1].split('"')[0]
    results = [json.loads(line) for line in done.stdout.splitlines()]
    # no allow rule: OpenCode's own permission check must see the original, so no rewrite
    assert results[0] == {"command": "git status", "description": "d"}
    assert filter_bin
    assert results[1]["error"].startswith("contextcrawler: ") and "git push" in \
        results[1]["error"]
    assert results[2] == {"command": "frobnicate", "description": "d"}
    assert results[3] == {"filePath": "a.txt"}
