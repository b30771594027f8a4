"""End to end, per agent: `cc-hook init` into a throwaway HOME, then the installed hook runs as
the agent runs it (`sh -c <registered command>` in the project, event on stdin, a bare PATH)
with real-shaped events, through the real cc-gate and cc-rewrite. The answers are checked
exactly against ARCHITECTURE §8, then the rewritten commands run in bash."""
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
# for `git push` (the files cc-gate reads for that agent: Claude's format for Codex, which has
# no `Bash(…)` lists of its own). Copilot and OpenCode filter after execution: their own tests
# are at the end.
RULES = {
    "claude": (".claude/settings.json",
               {"permissions": {"allow": ["Bash(git status)", "Bash(git log:*)"],
                                "deny": ["Bash(git push:*)"]}}),
    # Codex: its own prefix rules (an allow rule there would lift the command out of Codex's
    # sandbox, which a rewrite cannot keep: see cc_gate/agents/codex.py)
    "codex": (".codex/rules/default.rules",
              'prefix_rule(pattern=["git", "push"], decision="forbidden")\n'),
    "copilot": (".copilot/config.json", {}),
    "cursor": (".cursor/cli-config.json",
               {"permissions": {"allow": ["Shell(git status)", "Shell(git log)"],
                                "deny": ["Shell(git push)"]}}),
    "opencode": (".claude/settings.json",  # what cc-gate reads for OpenCode so far
                 {"permissions": {"allow": ["Bash(git status)"], "deny": ["Bash(git push:*)"]}}),
    "gemini": (".gemini/settings.json",
               {"theme": "Default", "tools": {"allowed": ["run_shell_command(git status)",
                                                          "run_shell_command(git log)"],
                                              "exclude": ["run_shell_command(git push)"]}}),
    # pi reads no permission rules; its settings file holds none
    "pi": (".pi/agent/settings.json", {"quietStartup": True}),
}
SHAPES = [("claude", None), ("cursor", None), ("gemini", None), ("codex", None)]


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
        done = subprocess.run(self.as_agent(["/bin/sh", "-c", self.script]), input=body,
                              capture_output=True, env=self.env, cwd=self.project, timeout=60)
        assert done.returncode == 0
        assert b"Traceback" not in done.stderr, done.stderr
        return done.stdout.decode()

    def as_agent(self, argv):
        """Gemini's gate reads the running client's flags: run under a process named `gemini`
        started headless (`-p`), as the real client starts its hooks."""
        if self.agent != "gemini":
            return argv
        # the inner sh: argv ["gemini", "-c", …, "-p", *argv]; `; exit` keeps it from exec-ing
        return ["bash", "-c", """exec -a gemini /bin/sh -c '"$@"; exit $?' -p "$@" """, "bash",
                *argv]

    def gate_reason(self, command):
        """The reason cc-gate gives (its wording is cc-gate's business, not this test's)."""
        if command not in self._reasons:
            done = run(self.as_agent([os.path.join(BIN, "cc-gate"), f"--agent={self.agent}",
                                      f"--cwd={self.project}", command]), self.env, self.project)
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
    """ARCHITECTURE §8, restated independently of the encoder."""
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
#: Claude Code runs these without asking (`git diff` and `wc` are among its built-in
#: read-only commands), so its hook rewrites them with an allow.
CLAUDE_READ_ONLY = {"compound-ask": ("allow", "{F} run git status && {F} run git diff"),
                    "piped": ("allow", None)}


@pytest.mark.parametrize("agent, shape", SHAPES, ids=lambda v: v or "")
@pytest.mark.parametrize("name, command, decision, rewritten", CASES, ids=[c[0] for c in CASES])
def test_answers(installs, agent, shape, name, command, decision, rewritten):
    if agent == "claude" and shape is None and name in CLAUDE_READ_ONLY:
        decision, rewritten = CLAUDE_READ_ONLY[name]
    install = installs(agent)
    rewritten = rewritten and rewritten.replace("{F}", install.filter)
    if agent == "gemini" and decision == "ask":
        # Gemini's tools.allowed denies every other shell command (the client's own
        # narrowing rule), so a headless Gemini refuses these: the gate says so.
        decision = "deny"
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
    install = installs("claude")
    done = run([CC_HOOK, "test", "claude", "git status"], install.env, install.project)
    assert done.returncode == 0, done.stderr
    assert '"permissionDecision": "allow"' in done.stdout and \
        f"{install.filter} run git status" in done.stdout


def test_cc_hook_test_gemini_outside_the_client(installs):
    """Gemini's rewrite depends on the running client (its approval mode, headless or not):
    outside it the gate cannot know, so nothing is rewritten."""
    install = installs("gemini")
    done = run([CC_HOOK, "test", "gemini", "git status"], install.env, install.project)
    assert done.returncode == 0, done.stderr
    # outside the client (no `gemini -p` process): never rewritten, Gemini's own flow decides
    assert done.stdout.startswith("Gemini CLI decides on the original command"), done.stdout
    assert "cc-filter run" not in done.stdout.splitlines()[0]

@pytest.mark.parametrize("command, first, receives", [
    ("git status", "Claude Code runs filtered, without asking:", "untracked:\n    new.txt"),
    ("git push origin main", "Claude Code refused by deny rule", "Not run: the agent refuses it."),
    ("git status | wc -l", "Claude Code decides on the original command",
     "The model receives (if the agent runs it: unfiltered), exit 0"),
])
def test_cc_hook_test_run_shows_what_the_model_receives(installs, command, first, receives):
    install = installs("claude")
    done = run([CC_HOOK, "test", "claude", command, "--run"], install.env, install.project)
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith(first) and receives in done.stdout, done.stdout


def test_cc_hook_test_run_is_not_tracked_as_a_real_run(installs):
    """A trial through the installed hook runs the filtered command, but tracking keeps no
    record of it: reports count the agent's runs only."""
    install = installs("claude")
    spool = os.path.join(install.env["CTXCRL_HOME"], "spool.jsonl")

    def records():
        return open(spool).read().count("\n") if os.path.exists(spool) else 0

    before = records()
    done = run([CC_HOOK, "test", "claude", "git status", "--run"], install.env, install.project)
    assert done.returncode == 0 and "untracked:" in done.stdout, done.stdout + done.stderr
    assert records() == before
    direct = run([install.filter, "run", "git", "status"], install.env, install.project)
    assert direct.returncode == 0
    assert records() == before + 1  # the same run outside the trial is recorded


def test_done_check_claude_fresh_home(tmp_path):
    """`cc-hook init --agent claude` in a fresh HOME: a PreToolUse event for
    `git status && pytest -q` gets the answer ARCHITECTURE §5 and §8 specify."""
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
    # Claude Code surely asks about `pytest -q` (no rule allows it, its read-only check
    # refuses it): the hook asks itself, for the rewritten command, so the approved run is
    # filtered (issue 24). `ask` forces the prompt: no rule of the user's can make the
    # rewritten command run unasked (issue 12), and headless `-p` refuses it as before.
    assert reason.startswith("no allow rule matches")
    answer = json.loads(done.stdout)["hookSpecificOutput"]
    assert done.returncode == 0 and answer["permissionDecision"] == "ask"
    assert answer["updatedInput"]["command"] == rewrite


# -- agents that filter after execution ------------------------------------------------------

FAKE_COPILOT = """#!{python}
# Stands in for the copilot process: the hook finds its flags in /proc, as with the real one.
import subprocess, sys
done = subprocess.run(["/bin/sh", "-c", sys.argv[1]], input=sys.stdin.buffer.read(),
                      capture_output=True)
sys.stdout.buffer.write(done.stdout)
sys.stderr.buffer.write(done.stderr)
"""

# Real events of Copilot CLI 1.0.102 (captured from its preToolUse / postToolUse hooks),
# with this test's command and output.
STATUS_TEXT = ('On branch main\nChanges not staged for commit:\n'
               '  (use "git add <file>..." to update what will be committed)\n'
               '  (use "git restore <file>..." to discard changes in working directory)\n'
               '\tmodified:   a.txt\n\nUntracked files:\n'
               '  (use "git add <file>..." to include in what will be committed)\n'
               '\tnew.txt\n\n'
               'no changes added to commit (use "git add" and/or "git commit -a")\n')


def copilot_event(command, cwd, result=None):
    event = {"sessionId": "216d2781-5fe5-49b4-a113-28869ceed2a8", "timestamp": 1796161956630,
             "cwd": cwd, "toolName": "bash",
             "toolArgs": {"command": command, "description": "scripted step"}}
    if result is not None:
        event["toolResult"] = {"resultType": "success", "textResultForLlm": result}
    return event


def test_copilot_before_execution_adds_denies_only(installs, tmp_path):
    install = installs("copilot")
    fake = tmp_path / "copilot"
    fake.write_text(FAKE_COPILOT.format(python=sys.executable))
    fake.chmod(0o755)
    registered = json.loads((install.home / ".copilot/hooks/ctxcrl.json").read_text())
    hook = registered["hooks"]["preToolUse"][0]["command"]
    answers = {}
    for command in ("git push origin main", "/usr/bin/git push origin main", "git status"):
        done = run([str(fake), hook, "--allow-all-tools", "--deny-tool", "shell(git push)"],
                   install.env, install.project,
                   stdin=json.dumps(copilot_event(command, str(install.project))))
        answers[command] = parse(done.stdout)
    reason = "contextcrawler: deny rule --deny-tool 'shell(git push)' in the copilot command line"
    assert answers == {
        "git push origin main": {"permissionDecision": "deny", "permissionDecisionReason": reason},
        "/usr/bin/git push origin main": {"permissionDecision": "deny",
                                          "permissionDecisionReason": reason},
        "git status": None,  # never rewritten, never allowed: Copilot decides
    }


def test_copilot_after_execution_replaces_the_result(installs):
    install = installs("copilot")
    registered = json.loads((install.home / ".copilot/hooks/ctxcrl-post.json").read_text())
    hook = registered["hooks"]["postToolUse"][0]["command"]
    assert hook == f"{install.script} post"
    trailer = "<shellId: 0 completed with exit code 0>"
    ev = copilot_event("git status", str(install.project), STATUS_TEXT + trailer)
    done = run(["/bin/sh", "-c", hook], install.env, install.project, stdin=json.dumps(ev))
    text = parse(done.stdout)["modifiedResult"]["textResultForLlm"]
    # the 4 advice lines git-status drops are counted, the raw output kept in the tee dir
    assert text.startswith("On branch main\nunstaged:\n  M a.txt\nuntracked:\n  new.txt\n"
                           "... (4 advice lines omitted)\n[full output: ")
    assert text.endswith("_git_status.log]\n" + trailer)
    # nothing to filter (no filter, several commands): Copilot keeps its own result
    for command in ("frobnicate", "git status && ls"):
        ev = copilot_event(command, str(install.project), STATUS_TEXT + trailer)
        assert run(["/bin/sh", "-c", hook], install.env, install.project,
                   stdin=json.dumps(ev)).stdout == ""


NODE_DRIVER = """
import { ContextCrawler } from %s
const hooks = await ContextCrawler({ directory: %s })
const results = []
for (const [command, text, exit] of JSON.parse(process.argv[2])) {
  const args = { command, description: "d" }
  const before = { args }
  try {
    await hooks["tool.execute.before"]({ tool: "bash", sessionID: "s", callID: "c" }, before)
  } catch (error) {
    results.push({ error: error.message })
    continue
  }
  const after = { title: command, output: text, metadata: { output: text, exit, truncated: false } }
  await hooks["tool.execute.after"]({ tool: "bash", sessionID: "s", callID: "c", args }, after)
  results.push({ args: before.args, output: after.output })
}
console.log(JSON.stringify(results))
"""


@pytest.mark.skipif(not subprocess.run(["sh", "-c", "command -v node"],
                                       capture_output=True).stdout, reason="needs node")
def test_opencode_plugin_blocks_denies_and_filters_results(tmp_path):
    home, project = tmp_path / "home", make_project(tmp_path / "project")
    (home / ".config" / "opencode").mkdir(parents=True)
    (home / ".config" / "opencode" / "opencode.json").write_text(
        json.dumps({"permission": {"bash": {"*": "allow", "git push *": "deny"}}}))
    env = {"HOME": str(home), "CTXCRL_HOME": str(tmp_path / "ctxcrl"), "PATH": BARE_PATH}
    assert run([CC_HOOK, "init", "--agent", "opencode"], env, project).returncode == 0
    plugin = home / ".config" / "opencode" / "plugins" / "ctxcrl.ts"
    module = tmp_path / "ctxcrl.mjs"  # the plugin is plain JavaScript: node can load it
    module.write_text(plugin.read_text())
    driver = tmp_path / "driver.mjs"
    driver.write_text(NODE_DRIVER % (json.dumps(str(module)), json.dumps(str(project))))
    node = subprocess.run(["sh", "-c", "command -v node"], capture_output=True,
                          text=True).stdout.strip()
    calls = [["git status", STATUS_TEXT, 0], ["/usr/bin/git push origin main", "", 0],
             ["frobnicate", "frobnicated\n", 0]]
    done = run([node, str(driver), json.dumps(calls)], env, project)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    assert results[0]["args"] == {"command": "git status", "description": "d"}
    assert results[0]["output"].startswith("On branch main\nunstaged:\n  M a.txt\nuntracked:\n"
                                           "  new.txt\n... (4 advice lines omitted)\n"
                                           "[full output: ")
    assert results[1]["error"] == ('contextcrawler: deny rule "bash": {"git push *": "deny"} '
                                   'in ~/.config/opencode/opencode.json')
    assert results[2] == {"args": {"command": "frobnicate", "description": "d"},
                          "output": "frobnicated\n"}


CLINE_DRIVER = """
const plugin = (await import(%s)).default
plugin.setup({}, { workspaceInfo: { rootPath: %s } })
const results = []
for (const [tool, input, output] of JSON.parse(process.argv[2])) {
  const ctx = { tool: { name: tool }, input, toolCall: { toolName: tool, input } }
  const before = plugin.hooks.beforeTool(ctx)
  if (before !== undefined || output === null) { results.push({ before }); continue }
  results.push({ after: plugin.hooks.afterTool({ ...ctx, result: { output } }) })
}
console.log(JSON.stringify(results))
"""


@pytest.mark.skipif(not subprocess.run(["sh", "-c", "command -v node"],
                                       capture_output=True).stdout, reason="needs node")
def test_cline_plugin_judges_and_filters_each_command_of_a_call(tmp_path):
    """Cline CLI 3.0.65's `run_commands` takes several commands per call and answers one entry
    each: the plugin denies the whole call for one denied command, and replaces the result of
    each entry it has a filter for, Cline's exit line kept, the others untouched."""
    home, project = tmp_path / "home", make_project(tmp_path / "project")
    data = tmp_path / "ctxcrl"
    env = {"HOME": str(home), "CTXCRL_HOME": str(data), "PATH": BARE_PATH}
    assert run([CC_HOOK, "init", "--agent", "cline"], env, project).returncode == 0
    with open(data / "config.toml", "a") as f:
        f.write('\n[gate]\ndeny = ["git push:*"]\n')
    module = tmp_path / "ctxcrl.mjs"
    module.write_text((home / ".cline" / "plugins" / "ctxcrl.js").read_text())
    driver = tmp_path / "driver.mjs"
    driver.write_text(CLINE_DRIVER % (json.dumps(str(module)), json.dumps(str(project))))
    node = subprocess.run(["sh", "-c", "command -v node"], capture_output=True,
                          text=True).stdout.strip()
    pytest_out = open(os.path.join(os.path.dirname(__file__), "..", "fixtures", "python",
                                   "pytest", "failures_quiet.out"), encoding="utf-8").read()
    failing = "[Command exited with code 1]\n" + pytest_out
    calls = [
        ["run_commands", {"commands": ["git status", "echo hi"]},
         [{"query": "git status", "result": STATUS_TEXT, "success": True},
          {"query": "echo hi", "result": "hi\n", "success": True}]],
        ["run_commands", {"command": "pytest -q"},
         [{"query": "pytest -q", "result": failing, "error": "Command exited with code 1",
           "success": False}]],
        ["run_commands", {"commands": ["ls", "/usr/bin/git push origin main"]}, None],
        ["run_commands", ["git status"], [{"query": "git status", "result": "", "error":
                                            "Command timed out after 30000ms", "success": False}]],
        # entries that do not line up with the commands (Cline joined a heredoc): left alone
        ["run_commands", {"commands": ["git status", "git status"]},
         [{"query": "git status", "result": STATUS_TEXT, "success": True}]],
        ["read_files", {"paths": ["a.txt"]}, [{"query": "a.txt", "result": "x", "success": True}]],
    ]
    done = run([node, str(driver), json.dumps(calls)], env, project)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    first = results[0]["after"]["result"]["output"]
    assert first[0]["result"].startswith("On branch main\nunstaged:\n  M a.txt\nuntracked:\n")
    assert first[0]["success"] is True and first[1] == calls[0][2][1]
    second = results[1]["after"]["result"]["output"][0]
    assert second["result"].startswith("[Command exited with code 1]\n")
    assert "tests/test_cart_bugs.py::test_total_with_discount" in second["result"]
    assert "6 failed, 32 passed" in second["result"] and len(second["result"]) < len(failing)
    assert (second["success"], second["error"]) == (False, "Command exited with code 1")
    assert results[2]["before"]["skip"] is True
    assert results[2]["before"]["reason"].startswith("contextcrawler: deny rule git push:* in ")
    assert results[3:] == [{}] * 3  # afterTool answered nothing: Cline's own result stays
    env["CTXCRL_DISABLED"] = "1"
    done = run([node, str(driver), json.dumps(calls[:3])], env, project)
    assert json.loads(done.stdout) == [{}, {}, {}]


def test_cc_hook_test_runs_the_opencode_plugins_pipeline(installs):
    install = installs("opencode")
    done = run([CC_HOOK, "test", "opencode", "frobnicate --all", "--run"], install.env,
               install.project)
    assert done.returncode == 0, done.stderr
    first = done.stdout.splitlines()[0]
    assert first.startswith("OpenCode ") and "refused" not in first
    assert "The model receives" in done.stdout


def pi_gate_deny(install):
    """contextcrawler's own deny for `git push` in the shared pi install's config.toml (once:
    a second [gate] table would make the file malformed)."""
    path = os.path.join(install.env["CTXCRL_HOME"], "config.toml")
    with open(path, encoding="utf-8") as f:
        if "[gate]" in f.read():
            return
    with open(path, "a", encoding="utf-8") as f:
        f.write('\n[gate]\ndeny = ["git push:*"]\n')


PI_DRIVER = """
import extension from %s
const handlers = {}
extension({ on: (name, handler) => { handlers[name] = handler } })
const ctx = { cwd: %s }
const results = []
for (const [command, text, isError] of JSON.parse(process.argv[2])) {
  const input = { command }
  const blocked = await handlers.tool_call({ type: "tool_call", toolName: "bash",
                                             toolCallId: "c", input }, ctx)
  const replaced = await handlers.tool_result({ type: "tool_result", toolName: "bash",
                                                toolCallId: "c", input, details: {}, isError,
                                                content: [{ type: "text", text }] }, ctx)
  results.push({ blocked: blocked ?? null, replaced: replaced ?? null })
}
console.log(JSON.stringify(results))
"""


@pytest.mark.skipif(not subprocess.run(["sh", "-c", "command -v node"],
                                       capture_output=True).stdout, reason="needs node")
@pytest.mark.parametrize("broken", [False, True])
def test_pi_extension_blocks_denies_filters_results_and_never_blocks_on_a_failure(installs,
                                                                                tmp_path,
                                                                                broken):
    """pi blocks a call whose `tool_call` handler throws: the extension answers a deny with
    `{block: true}`, replaces a filtered result's content (a failure keeps pi's exit line), and
    when its pipelines cannot run (a stage gone) it answers nothing at all."""
    install = installs("pi")
    pi_gate_deny(install)
    text = (install.home / ".pi" / "agent" / "extensions" / "ctxcrl.ts").read_text()
    if broken:  # every stage's interpreter gone: the pipelines print nothing and fail
        text = text.replace(sys.executable, str(tmp_path / "no-python")).replace(
            BIN + "/", str(tmp_path / "no-bin") + "/")
    module = tmp_path / "ctxcrl.mjs"  # plain JavaScript: node loads it as it is
    module.write_text(text)
    driver = tmp_path / "driver.mjs"
    driver.write_text(PI_DRIVER % (json.dumps(str(module)), json.dumps(str(install.project))))
    node = subprocess.run(["sh", "-c", "command -v node"], capture_output=True,
                          text=True).stdout.strip()
    (install.project / "test_fail.py").write_text("def test_add():\n    assert 1 + 1 == 3\n")
    pytest_out = subprocess.run([sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider",
                                 "test_fail.py"], cwd=install.project, capture_output=True,
                                text=True)  # a real failing run, as pi's bash tool merges it
    assert pytest_out.returncode == 1
    calls = [["git status", STATUS_TEXT, False],
             ["python3 -m pytest -q test_fail.py",
              pytest_out.stdout + pytest_out.stderr + "\n\nCommand exited with code 1", True],
             ["git -C . push origin main", "pushed\n", False],
             ["frobnicate", "frobnicated\n", False]]
    done = run([node, str(driver), json.dumps(calls)], install.env, install.project)
    assert done.returncode == 0, done.stderr
    results = json.loads(done.stdout)
    if broken:
        assert results == [{"blocked": None, "replaced": None}] * 4
        return
    ok, failed, push, unknown = results
    assert ok["blocked"] is None and failed["blocked"] is None
    body = ok["replaced"]["content"][0]["text"]
    assert body.startswith("On branch main\nunstaged:\n  M a.txt\n") and "[full output: " in body
    assert set(ok["replaced"]) == {"content"}  # isError stays pi's
    failure = failed["replaced"]["content"][0]["text"]
    assert "test_fail.py::test_add" in failure and "1 failed" in failure
    assert failure.endswith("\n\nCommand exited with code 1")
    assert push["blocked"] == {"block": True,
                               "reason": push["blocked"]["reason"]}
    assert push["blocked"]["reason"].startswith("contextcrawler: deny rule git push:* in [gate]")
    assert unknown == {"blocked": None, "replaced": None}


def test_cc_hook_test_runs_pis_extension_pipeline(installs):
    install = installs("pi")
    done = run([CC_HOOK, "test", "pi", "git status"], install.env, install.project)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == \
        "pi runs unchanged; its output is filtered after it ran"
    # pi has no rules of its own: contextcrawler's [gate] is the only deny
    pi_gate_deny(install)
    done = run([CC_HOOK, "test", "pi", "git -C . push", "--run"], install.env, install.project)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0].startswith("pi refused by deny rule git push:* in [gate]")
    assert "Not run: the agent refuses it." in done.stdout


def test_gemini_installs_the_rule_for_rewritten_commands(installs):
    """`init --agent gemini` (global) writes the Policy Engine rule that lets a rewritten
    `cc-filter run …` run; the rule names both spellings cc-rewrite may write."""
    install = installs("gemini")
    text = (install.home / ".gemini" / "policies" / "ctxcrl.toml").read_text()
    assert 'toolName = "run_shell_command"' in text and 'decision = "allow"' in text
    assert '"cc-filter run"' in text and f'"{install.filter} run"' in text
    assert 'interactive = false' in text and 'modes = ["default", "autoEdit"]' in text


@pytest.mark.parametrize("how", ["disabled", "tampered", "a stage crashes", "no stage starts"])
def test_gemini_hook_fails_closed_for_cc_filter_commands(tmp_path, how):
    """When the pipeline cannot answer, the installed rule would let a `cc-filter run X`
    through unchecked: the script denies an event that mentions cc-filter, and still gives
    no answer for anything else — whether decode read the event (its mark says so: a stage
    after it crashed, the script was changed) or not (CTXCRL_DISABLED, no Python)."""
    from cc_hook import hook_script

    install = Install("gemini", tmp_path)
    env = dict(install.env)
    if how == "disabled":
        env["CTXCRL_DISABLED"] = "1"
    elif how == "tampered":
        with open(install.script, "a") as f:
            f.write("# changed\n")
    else:
        with open(install.script) as f:
            text = f.read()
        if how == "a stage crashes":  # the gate, after decode read the event
            text = text.replace("from cc_gate.cli import run; run()", "import posix; posix._exit(9)")
        else:  # decode cannot even start: the event stays unread
            text = text.replace("CTXCRL_MENTION_FD=3 ", "CTXCRL_MENTION_FD=3 /nonexistent/python ")
        with open(install.script, "w") as f:
            f.write(text)
        with open(hook_script.hash_path(install.script), "w") as f:
            f.write(hook_script.sha256_text(text) + "\n")

    def answer(command):
        body = json.dumps(event("gemini", None, command, str(install.project))).encode()
        done = subprocess.run(install.as_agent(["/bin/sh", "-c", install.script]), input=body,
                              capture_output=True, env=env, cwd=install.project, timeout=60)
        assert done.returncode == 0
        return parse(done.stdout.decode())

    denied = answer("cc-filter run git push origin main")
    assert denied["decision"] == "deny" and "could not check" in denied["reason"]
    assert answer("git status") is None


def test_gemini_uninstall_removes_the_rule(tmp_path):
    install = Install("gemini", tmp_path)
    rule = install.home / ".gemini" / "policies" / "ctxcrl.toml"
    assert rule.exists()
    done = run([CC_HOOK, "uninstall", "--agent", "gemini"], install.env, install.project)
    assert done.returncode == 0, done.stderr
    assert not rule.exists()


# -- Claude Code: a command it surely prompts for is answered ask with the rewrite (issue 24)

@pytest.mark.parametrize("mode, asks", [("default", True), ("acceptEdits", True), ("plan", True),
                                        ("dontAsk", False), ("auto", False)])
def test_claude_asks_for_the_rewritten_command_where_it_would_prompt(installs, mode, asks):
    install = installs("claude")
    command = "pytest -q tests"
    answer = parse(install.hook(event("claude", None, command, str(install.project), mode)))
    if not asks:  # dontAsk refuses it, auto's classifier decides: the client, on the original
        assert answer is None
        return
    inner = answer["hookSpecificOutput"]
    assert inner["permissionDecision"] == "ask"
    assert inner["updatedInput"] == dict(tool_input("claude", None, command),
                                         command=f"{install.filter} run {command}")
    assert inner["permissionDecisionReason"].startswith("This command requires approval")
    # no "don't ask again" in a hook's prompt: it names the rule and the client's own file
    assert inner["permissionDecisionReason"].endswith(
        'Not to be asked again: add "Bash(pytest:*)" to permissions.allow in '
        '.claude/settings.local.json')
    done = run([CC_HOOK, "test", "claude", command], install.env, install.project)
    assert "asks you first, then runs filtered" in done.stdout, done.stdout
    assert 'Not to be asked again: add "Bash(pytest:*)"' in done.stdout, done.stdout


def test_claude_the_rule_the_prompt_names_stops_the_prompt_and_keeps_the_filter(installs):
    """The rule the ask names, saved where the prompt says, makes the gate allow the command:
    it runs filtered, unasked (as the client runs it unasked with that rule)."""
    install = installs("claude")
    command = "pytest -q tests"
    inner = parse(install.hook(event("claude", None, command, str(install.project),
                                     "default")))["hookSpecificOutput"]
    rule = inner["permissionDecisionReason"].split('add "', 1)[1].split('"', 1)[0]
    local = install.project / ".claude" / "settings.local.json"
    local.parent.mkdir(exist_ok=True)
    local.write_text(json.dumps({"permissions": {"allow": [rule]}}))
    inner = parse(install.hook(event("claude", None, command, str(install.project),
                                     "default")))["hookSpecificOutput"]
    assert inner["permissionDecision"] == "allow"
    assert inner["updatedInput"]["command"] == f"{install.filter} run {command}"
    # a compound command gets no such hint: one rule would not cover it
    compound = parse(install.hook(event("claude", None, "pytest -q && cargo test",
                                        str(install.project), "default")))
    if compound is not None:
        assert "Not to be asked again" not in compound["hookSpecificOutput"].get(
            "permissionDecisionReason", "")


def test_claude_plan_mode_leaves_read_only_commands_alone(installs):
    install = installs("claude")
    ev = event("claude", None, "git status", str(install.project), "plan")
    assert parse(install.hook(ev)) is None


def skill_event(command, cwd):
    return {"session_id": "s", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
            "permission_mode": "default", "hook_event_name": "PreSkillShellCommand",
            "tool_name": "Bash", "tool_input": {"command": command},
            "tool_use_id": "u:inner:preamble-0", "command_name": "pushit",
            "command_source": "projectSettings", "invoked_by": "user"}


@pytest.mark.parametrize("command", ["git push origin main", "git -C . push origin main",
                                     "/usr/bin/git push"])
def test_claude_skill_commands_get_the_gates_denies(installs, command):
    install = installs("claude")
    answer = parse(install.hook(skill_event(command, str(install.project))))
    assert answer == {"hookSpecificOutput": {
        "hookEventName": "PreSkillShellCommand", "permissionDecision": "deny",
        "permissionDecisionReason": f"{PREFIX}: {install.gate_reason(command)}"}}


@pytest.mark.parametrize("command", ["git status", "pytest -q", "frobnicate"])
def test_claude_skill_commands_get_nothing_else(installs, command):
    """Its answer can only stop the command (ask and updatedInput stop it too): no answer."""
    install = installs("claude")
    assert parse(install.hook(skill_event(command, str(install.project)))) is None
