"""Claude Code, driven for real: a scripted Anthropic Messages API server and one `claude -p` run.

`MessagesServer` answers Claude Code's `POST /v1/messages` (streamed as SSE: message_start,
content_block_start / delta / stop, message_delta, message_stop). The first turn of the main
conversation answers one `tool_use` of `Bash` with the scenario's command; every later turn ends
with a short text. What the model receives back (the `tool_result`) is read off the logged
requests. Side requests (title generation, quota probes: no `tools` in the request) get a short
text too.

`run_claude(ws, command, ...)` runs `claude -p` as the agent user against that server, fully
offline, and returns a `Run`: the client's JSON result (`permission_denials`), the
`tool_result` the model got, and the outcome (harness.RAN / PROMPT / REFUSED).
"""
from __future__ import annotations

import json
import time
from dataclasses import dataclass, field

import harness

#: Environment that keeps Claude Code offline and quiet (no telemetry, updates, error reports,
#: or other non-essential traffic: the only host it talks to is our server).
OFFLINE_ENV = {
    "ANTHROPIC_API_KEY": "dummy",
    "CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC": "1",
    "DISABLE_AUTOUPDATER": "1",
    "DISABLE_TELEMETRY": "1",
    "DISABLE_ERROR_REPORTING": "1",
    "DISABLE_BUG_COMMAND": "1",
    "CLAUDE_CODE_DISABLE_TERMINAL_TITLE": "1",
    "CLAUDE_CODE_ENABLE_TELEMETRY": "0",
    "IS_SANDBOX": "1",  # the client runs in a throwaway workspace
}
MODEL = "claude-sonnet-4-5"
TOOL_USE_ID = "toolu_ctxcrl_01"


def _sse(event: str, data: dict) -> str:
    return f"event: {event}\ndata: {json.dumps(data)}\n\n"


def _message_stream(blocks: list, stop_reason: str) -> list:
    msg_id = f"msg_ctxcrl_{time.monotonic_ns()}"
    out = [_sse("message_start", {"type": "message_start", "message": {
        "id": msg_id, "type": "message", "role": "assistant", "model": MODEL, "content": [],
        "stop_reason": None, "stop_sequence": None,
        "usage": {"input_tokens": 10, "output_tokens": 1}}})]
    for index, block in enumerate(blocks):
        if block["type"] == "text":
            out.append(_sse("content_block_start", {"type": "content_block_start", "index": index,
                                                    "content_block": {"type": "text", "text": ""}}))
            out.append(_sse("content_block_delta", {"type": "content_block_delta", "index": index,
                                                    "delta": {"type": "text_delta",
                                                              "text": block["text"]}}))
        else:
            out.append(_sse("content_block_start", {"type": "content_block_start", "index": index,
                                                    "content_block": {"type": "tool_use",
                                                                      "id": block["id"],
                                                                      "name": block["name"],
                                                                      "input": {}}}))
            out.append(_sse("content_block_delta", {"type": "content_block_delta", "index": index,
                                                    "delta": {"type": "input_json_delta",
                                                              "partial_json": json.dumps(
                                                                  block["input"])}}))
        out.append(_sse("content_block_stop", {"type": "content_block_stop", "index": index}))
    out.append(_sse("message_delta", {"type": "message_delta",
                                      "delta": {"stop_reason": stop_reason, "stop_sequence": None},
                                      "usage": {"output_tokens": 5}}))
    out.append(_sse("message_stop", {"type": "message_stop"}))
    return out


def tool_results(body) -> list:
    """The tool_result blocks of the last user message of a /v1/messages request body."""
    if not isinstance(body, dict):
        return []
    messages = body.get("messages") or []
    if not messages or messages[-1].get("role") != "user":
        return []
    content = messages[-1].get("content")
    if not isinstance(content, list):
        return []
    return [b for b in content if isinstance(b, dict) and b.get("type") == "tool_result"]


def result_text(block: dict) -> str:
    content = block.get("content")
    if isinstance(content, str):
        return content
    if isinstance(content, list):
        return "".join(c.get("text", "") for c in content if isinstance(c, dict))
    return ""


def _tool_calls_answered(body: dict) -> int:
    count = 0
    for message in body.get("messages") or []:
        content = message.get("content") if isinstance(message, dict) else None
        if isinstance(content, list):
            count += sum(1 for b in content
                         if isinstance(b, dict) and b.get("type") == "tool_result")
    return count


class MessagesServer(harness.ScriptedServer):
    """The model: one Bash call with `commands[i]` on turn i, then a short text.

    `commands` is one command per Bash call; the model makes them one after the other (each
    next call after the previous tool_result came back), then ends.
    """

    def __init__(self, commands, lifetime: float = 300):
        super().__init__(lifetime=lifetime)
        self.commands = list(commands) if not isinstance(commands, str) else [commands]
        self.call_times: list = []    # (time the tool_use was sent, time its result came back)

    def respond(self, handler, body):
        path = handler.path.split("?", 1)[0]
        if not path.endswith("/v1/messages"):
            return 200, {"Content-Type": "application/json"}, "{}"
        headers = {"Content-Type": "text/event-stream", "Cache-Control": "no-cache"}
        main = isinstance(body, dict) and any(
            isinstance(t, dict) and t.get("name") == "Bash" for t in body.get("tools") or [])
        if not main:
            return 200, headers, _message_stream([{"type": "text", "text": "ok"}], "end_turn")
        turn = _tool_calls_answered(body)
        if tool_results(body) and self.call_times and len(self.call_times[-1]) == 1:
            self.call_times[-1].append(time.monotonic())
        if turn < len(self.commands):
            self.call_times.append([time.monotonic()])
            block = {"type": "tool_use", "id": f"{TOOL_USE_ID}_{turn}", "name": "Bash",
                     "input": {"command": self.commands[turn],
                               "description": "run the scenario's command"}}
            return 200, headers, _message_stream([block], "tool_use")
        return 200, headers, _message_stream([{"type": "text", "text": "Done."}], "end_turn")

    def _main_bodies(self) -> list:
        return [r[3] for r in self.requests if isinstance(r[3], dict) and any(
            isinstance(t, dict) and t.get("name") == "Bash" for t in r[3].get("tools") or [])]

    def results(self) -> list:
        """Every tool_result the model received, in order."""
        found = []
        for body in self._main_bodies():
            found.extend(tool_results(body))
        return found


@dataclass
class Run:
    returncode: int
    stdout: str
    stderr: str
    result: dict | None               # the client's final JSON (`--output-format json`)
    results: list = field(default_factory=list)   # tool_result blocks the model received
    call_times: list = field(default_factory=list)

    @property
    def denials(self) -> list:
        return list((self.result or {}).get("permission_denials") or [])

    @property
    def tool_text(self) -> str:
        return result_text(self.results[0]) if self.results else ""

    @property
    def outcome(self) -> str:
        """ran / prompt / refused for the (first) Bash call: a call the client lists in its
        `permission_denials` did not run; what the model was told says which of the two."""
        return self.outcome_at(0)

    def outcome_at(self, index: int) -> str:
        if index >= len(self.results):
            return "none"
        block = self.results[index]
        denied = {d.get("tool_use_id") for d in self.denials if isinstance(d, dict)}
        if block.get("tool_use_id") not in denied:
            return harness.RAN
        return outcome_of(block)

    def text_at(self, index: int) -> str:
        return result_text(self.results[index]) if index < len(self.results) else ""


#: Phrases of the tool_result Claude Code sends the model when it did not run the command.
REFUSED_MARKERS = ("has been denied", "denied", "blocked", "contextcrawler: deny rule")


def outcome_of(block: dict) -> str:
    """prompt or refused, for a call the client did not run: everything but a deny (\"This
    command requires approval\", \"Contains expansion\", \"…cannot be auto-allowed…\") is the
    client asking for approval."""
    low = result_text(block).lower()
    if any(m in low for m in REFUSED_MARKERS):
        return harness.REFUSED
    return harness.PROMPT


def claude_argv(exe, flags=(), output: str = "json") -> list:
    return [str(exe), "-p", "run the scenario", "--output-format", output,
            "--model", MODEL, *flags]


def run_claude(ws: harness.Workspace, commands, flags=(), env: dict | None = None,
               timeout: float = 120, binds: dict | None = None) -> Run:
    exe = harness.install_client("claude")
    with MessagesServer(commands, lifetime=timeout + 30) as server:
        extra = dict(OFFLINE_ENV)
        extra["ANTHROPIC_BASE_URL"] = server.url
        extra.update(env or {})
        proc = harness.run_as_agent(claude_argv(exe, flags), ws, env=extra, timeout=timeout,
                                    binds=binds)
        results = server.results()
        times = [t for t in server.call_times if len(t) == 2]
    result = None
    for line in reversed(proc.stdout.strip().splitlines()):
        try:
            value = json.loads(line)
        except ValueError:
            continue
        if isinstance(value, dict):
            result = value
            break
    return Run(proc.returncode, proc.stdout, proc.stderr, result, results, times)


# -- a scenario's workspace ------------------------------------------------------------------
MANAGED_DIR = "/etc/claude-code"
ALT_CONFIG = "alt-claude"   # CLAUDE_CONFIG_DIR, under HOME


def populate(ws: harness.Workspace) -> None:
    """A project worth compacting: 24 modules over 7 commits, some changed, some untracked."""
    import os
    import subprocess

    harness.chown_tree(ws.root, ws.user)
    src = ws.project / "src"
    src.mkdir(exist_ok=True)
    git = ["git", "-c", "user.name=Dev", "-c", "user.email=dev@example.invalid"]
    run = dict(cwd=ws.project, check=True, capture_output=True,
               env={"HOME": str(ws.home), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8"})
    if os.geteuid() == 0:
        run.update(user=ws.user.uid, group=ws.user.gid, extra_groups=[])
    for step in range(1, 8):
        for i in range(step * 3 - 2, step * 3 + 2):
            (src / f"mod_{i:02d}.py").write_text(
                f'"""module {i}"""\n\n\ndef value_{i}():\n    return {i} * {step}  # value\n')
        subprocess.run(git + ["add", "."], **run)
        if step == 7:  # the last commit is not on the remote yet: a push that ran shows
            subprocess.run(git + ["push", "-q", "origin", "HEAD:main"], **run)
        subprocess.run(git + ["commit", "-q", "-m", f"step {step}: modules up to {step * 3 + 1}"],
                       **run)
    (ws.project / "calc.py").write_text("def add(a, b):\n    return a + b\n\n\n"
                                        "def sub(a, b):\n    return a - b\n")
    for i in (2, 5, 9):
        (src / f"mod_{i:02d}.py").write_text(f'"""module {i}, changed"""\n\nVALUE = {i}\n')
    for name in ("notes.txt", "todo.md", "scratch.py", "data.csv"):
        (ws.project / name).write_text(f"{name}\n")
    harness.chown_tree(ws.root, ws.user)


_TEMPLATE: list = []


def fresh_workspace() -> harness.Workspace:
    """A populated workspace, copied from one built once per process (populating costs a
    dozen git commands; a copy a few milliseconds)."""
    import os
    import shutil
    import subprocess
    import tempfile
    from pathlib import Path

    if not _TEMPLATE:
        template = harness.Workspace(Path(tempfile.mkdtemp(prefix="ctxcrl-claude-template-")),
                                     harness.agent_user())
        populate(template)
        _TEMPLATE.append(template)
    template = _TEMPLATE[0]
    root = Path(tempfile.mkdtemp(prefix="ctxcrl-claude-"))
    os.chmod(root, 0o755)
    for name in ("home", "remote.git"):
        shutil.copytree(template.root / name, root / name, symlinks=True)
    ws = object.__new__(harness.Workspace)
    ws.root, ws.user = root, template.user
    ws.home, ws.project, ws.remote = root / "home", root / "home" / "project", root / "remote.git"
    subprocess.run(["git", "-c", "safe.directory=*", "-C", str(ws.project), "remote", "set-url",
                    "origin", str(ws.remote)], check=True, capture_output=True)
    harness.chown_tree(root, ws.user)
    return ws


def reset_remote(ws: harness.Workspace, head: str) -> None:
    """Put the bare remote's main back to `head` (after a run whose push landed)."""
    import subprocess

    subprocess.run(["git", "-c", "safe.directory=*", "--git-dir", str(ws.remote), "update-ref",
                    "refs/heads/main", head], check=True, capture_output=True)
    harness.chown_tree(ws.remote, ws.user)


def settings_for(rules: dict) -> str:
    return json.dumps({"permissions": {k: list(v) for k, v in rules.items()}}, indent=2)


def place_rules(ws: harness.Workspace, scenario) -> tuple:
    """Write the scenario's rules where they live; (extra flags, extra env, binds)."""
    flags, env, binds = list(scenario.flags), {}, {}
    if scenario.trusted:
        ws.write(".claude.json", json.dumps({"projects": {str(ws.project): {
            "hasTrustDialogAccepted": True}}}))
    if scenario.mode:
        flags += ["--permission-mode", scenario.mode]
    managed = ws.root / "managed"
    for where, rules in scenario.rules.items():
        text = settings_for(rules)
        if where == "user":
            ws.write(".claude/settings.json", text)
        elif where == "user-local":
            ws.write(".claude/settings.local.json", text)
        elif where == "project":
            ws.write("project/.claude/settings.json", text)
        elif where == "project-local":
            ws.write("project/.claude/settings.local.json", text)
        elif where == "config-dir":
            ws.write(f"{ALT_CONFIG}/settings.json", text)
            env["CLAUDE_CONFIG_DIR"] = str(ws.home / ALT_CONFIG)
        elif where in ("managed", "managed.d"):
            target = managed / ("managed-settings.json" if where == "managed"
                                else "managed-settings.d/50-ctxcrl.json")
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_text(text)
            os_chmod_tree(managed)
            binds[MANAGED_DIR] = managed
        elif where == "settings-file":
            path = ws.write("flag-settings.json", text)
            flags += ["--settings", str(path)]
        elif where == "settings-json":
            flags += ["--settings", json.dumps(json.loads(text))]
        elif where == "managed-flag":
            flags += ["--managed-settings", json.dumps(json.loads(text))]
        else:
            raise ValueError(f"unknown rule location {where!r}")
    return flags, env, binds


def os_chmod_tree(path) -> None:
    import os

    for dirpath, dirnames, filenames in os.walk(path):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            os.chmod(os.path.join(dirpath, name), 0o644)


def install_hook(ws: harness.Workspace, env: dict | None = None) -> None:
    """`cc-hook init --agent claude`, as the agent user, with the product's own install."""
    bin_dir = harness.product_venv()
    proc = harness.run_as_agent([str(bin_dir / "cc-hook"), "init", "--agent", "claude"], ws,
                                env=env, timeout=120)
    if proc.returncode != 0:
        raise RuntimeError(f"cc-hook init failed ({proc.returncode}): {proc.stderr[-2000:]}")


def run_scenario(ws: harness.Workspace, scenario, hook: bool, timeout: float = 120,
                 commands=None) -> Run:
    """One `claude -p` session with the scenario's rules, flags and mode; the model calls Bash
    with the scenario's command (or each of `commands`, scenarios sharing that setup)."""
    flags, env, binds = place_rules(ws, scenario)
    if hook:
        install_hook(ws, env)
    return run_claude(ws, commands or scenario.command, flags=flags, env=env, binds=binds,
                      timeout=timeout)


def setup_key(scenario) -> str:
    """Scenarios with the same key run in one session (same rules, flags, mode, trust)."""
    return json.dumps([scenario.rules, list(scenario.flags), scenario.mode, scenario.trusted],
                      sort_keys=True)
