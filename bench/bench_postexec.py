"""Budgets of the agents that filter after execution (ARCHITECTURE §9, issue 13): OpenCode,
Kilo CLI, pi, Cline CLI, Copilot CLI and Mistral Vibe. Each hook, before and after execution,
as a ratio to `python3 -I -S -c pass` (target ≤ 4×):

- Copilot: the installed script on a `preToolUse` event (`decode | cc-gate | encode`) and, with
  `post`, on a `postToolUse` event carrying a real `git status` result (`decode | cc-filter
  result | encode`);
- Mistral Vibe: the installed script on a `pre_tool` event and, with `post`, on a
  `post_tool` event carrying the same `git status` result;
- OpenCode, Kilo CLI and Cline CLI: the plugin's two pipelines (the shell commands it spawns)
  on the events it sends; pi: its extension's two pipelines the same way.

Then, for information, what the real client sees per shell call (tests/agents harness, the
pinned clients, a scripted model): the time from the model's tool call to the next model
request, median of 10 `git status` calls, with and without the hook; skipped when the client
is not installed. Installs into private HOMEs, never the user's.

    python bench/run.py postexec        python bench/bench_postexec.py
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
STATUS = ('On branch main\nChanges not staged for commit:\n'
          '  (use "git add <file>..." to update what will be committed)\n'
          '  (use "git restore <file>..." to discard changes in working directory)\n'
          '\tmodified:   calc.py\n\nUntracked files:\n'
          '  (use "git add <file>..." to include in what will be committed)\n'
          '\tnotes_draft.txt\n\n'
          'no changes added to commit (use "git add" and/or "git commit -a")\n')
TRAILER = "<shellId: 0 completed with exit code 0>"


def _copilot_events(cwd: str):
    args = {"command": "git status", "description": "Status"}
    pre = {"sessionId": "s", "timestamp": 1, "cwd": cwd, "toolName": "bash", "toolArgs": args}
    post = dict(pre, toolResult={"resultType": "success", "textResultForLlm": STATUS + TRAILER})
    return json.dumps(pre).encode(), json.dumps(post).encode()


def _vibe_events(cwd: str):
    pre = {"session_id": "s", "transcript_path": "", "cwd": cwd, "parent_session_id": None,
           "hook_event_name": "pre_tool", "tool_name": "file_system.bash",
           "tool_call_id": "call_1", "tool_input": {"command": "git status"}}
    result = {"command": "git status", "returncode": 0, "stderr": "", "stdout": STATUS,
              "timed_out": False, "was_truncated": False}
    post = dict(pre, hook_event_name="post_tool", tool_status="success", tool_output=result,
                tool_output_text=STATUS, tool_error=None, duration_ms=5)
    return json.dumps(pre).encode(), json.dumps(post).encode()


def _opencode_events(cwd: str):
    args = {"command": "git status", "description": "Status"}
    pre = {"hook": "tool.execute.before", "tool": "bash", "directory": cwd, "args": args}
    post = dict(pre, hook="tool.execute.after",
                output={"output": STATUS, "metadata": {"exit": 0, "truncated": False}})
    return json.dumps(pre).encode(), json.dumps(post).encode()


def _pi_events(cwd: str):
    pre = {"type": "tool_call", "toolName": "bash", "toolCallId": "call_1",
           "input": {"command": "git status"}, "cwd": cwd}
    post = dict(pre, type="tool_result", content=[{"type": "text", "text": STATUS}],
                details={}, isError=False)
    return json.dumps(pre).encode(), json.dumps(post).encode()


def _cline_events(cwd: str):
    pre = {"hook": "beforeTool", "tool": "run_commands", "cwd": cwd, "command": "git status"}
    post = dict(pre, hook="afterTool", result=STATUS, success=True)
    return json.dumps(pre).encode(), json.dumps(post).encode()


def _plugin_pipelines(path: str) -> list:
    text = open(path, encoding="utf-8").read()
    found = []
    for name in ("PRE", "POST"):
        line = next(line for line in text.splitlines() if line.startswith(f"const {name} = "))
        found.append(json.loads(line[len(f"const {name} = "):]))
    return found


def _hook_rows(ctx) -> list:
    with ctx.scratch("postexec") as tmp:
        env = ctx.private_env(tmp, drop=("XDG_CONFIG_HOME",))
        project, failed = ctx.install_hooks(
            tmp, env, ["copilot", "opencode", "kilo", "pi", "cline", "vibe"],
            "post-execution hooks: install")
        if failed:
            return [failed]
        script = ctx.hook_script(env, "copilot")
        pre, post = _opencode_events(project)
        plugin = os.path.join(env["HOME"], ".config", "opencode", "plugins", "ctxcrl.ts")
        oc_pre, oc_post = _plugin_pipelines(plugin)
        kilo_pre, kilo_post = _plugin_pipelines(
            os.path.join(env["HOME"], ".config", "kilo", "plugins", "ctxcrl.ts"))
        cline_pre, cline_post = _plugin_pipelines(
            os.path.join(env["HOME"], ".cline", "plugins", "ctxcrl.js"))
        cl_pre, cl_post = _cline_events(project)
        cp_pre, cp_post = _copilot_events(project)
        pi_pre, pi_post = _plugin_pipelines(
            os.path.join(env["HOME"], ".pi", "agent", "extensions", "ctxcrl.ts"))
        pi_pre_event, pi_post_event = _pi_events(project)
        vibe_script = ctx.hook_script(env, "vibe")
        vibe_pre, vibe_post = _vibe_events(project)
        cases = [
            ("copilot preToolUse (deny-only pipeline)", ["/bin/sh", "-c", script], cp_pre,
             None),
            ("copilot postToolUse (git status result filtered)",
             ["/bin/sh", "-c", f"{script} post"], cp_post, b"modifiedResult"),
            ("opencode tool.execute.before (plugin pipeline)", ["/bin/sh", "-c", oc_pre], pre,
             None),
            ("opencode tool.execute.after (git status result filtered)",
             ["/bin/sh", "-c", oc_post], post, b'"output"'),
            ("kilo tool.execute.before (plugin pipeline)", ["/bin/sh", "-c", kilo_pre], pre,
             None),
            ("kilo tool.execute.after (git status result filtered)",
             ["/bin/sh", "-c", kilo_post], post, b'"output"'),
            ("pi tool_call (extension pipeline)", ["/bin/sh", "-c", pi_pre], pi_pre_event,
             None),
            ("pi tool_result (git status result filtered)", ["/bin/sh", "-c", pi_post],
             pi_post_event, b'"content"'),
            ("cline beforeTool (plugin pipeline)", ["/bin/sh", "-c", cline_pre], cl_pre, None),
            ("cline afterTool (git status result filtered)", ["/bin/sh", "-c", cline_post],
             cl_post, b'"result"'),
            ("vibe pre_tool (deny-only pipeline)", ["/bin/sh", "-c", vibe_script], vibe_pre,
             None),
            ("vibe post_tool (git status result filtered)",
             ["/bin/sh", "-c", f"{vibe_script} post"], vibe_post, b'"decision"'),
        ]
        out = []
        for name, argv, stdin, expect in cases:
            answer = subprocess.run(argv, input=stdin, capture_output=True, env=env,
                                    cwd=project, timeout=60).stdout  # bytecode written once
            ms = ctx.time_cmd(argv, runs=30, stdin=stdin, env=env)
            row = ctx.ratio_row(f"hook: {name}", ms, 4)
            if expect is not None:
                row["ok"] = row["ok"] and expect in answer
            out.append(row)
        return out


def client_added_ms(agent: str, calls: int = 10) -> tuple:
    """(median ms per shell call without the hook, with it) as the real client sees it."""
    sys.path.insert(0, os.path.join(HERE, "..", "tests", "agents"))
    sys.path.insert(0, os.path.join(HERE, "..", "tests", "agents", "cline"))
    import harness
    from openai_chat import OpenAIChatServer

    if agent in harness.PYPI_CLIENTS:
        exe = harness.install_client(agent)  # a venv: cached after its table's first run
    else:
        exe = harness.CACHE / f"{agent}-{harness.CLIENTS[agent][1]}" / "node_modules" / \
            ".bin" / harness.CLIENTS[agent][2]
    if not exe.exists():
        return None
    medians = []
    for hooked in (False, True):
        ws = harness.Workspace(__import__("pathlib").Path(
            tempfile.mkdtemp(prefix=f"ctxcrl-bench-{agent}-", dir="/tmp")), harness.agent_user())
        try:
            if hooked:
                harness.run_as_agent([str(harness.product_venv() / "cc-hook"), "init",
                                      "--agent", agent], ws, timeout=120)
            drop = {"description": None} if agent == "vibe" else None  # its schema refuses it
            with OpenAIChatServer(["git status"] * calls, lifetime=600,
                                  tool_args=drop) as server:
                _run_client(agent, exe, ws, server, harness)
                gaps = [(n - c) * 1000 for c, n in zip(server.call_times, server.next_times)]
            medians.append(statistics.median(gaps) if gaps else float("nan"))
        finally:
            shutil.rmtree(ws.root, ignore_errors=True)
    return tuple(medians)


def _run_client(agent, exe, ws, server, harness):
    if agent == "cline":
        from test_cline import ENV, providers  # tests/agents/cline: its offline setup

        ws.write(".cline/data/settings/providers.json", providers(server.url))
        # a one-word prompt reads as an unknown subcommand: "Work." fails, two words do not
        harness.run_as_agent([str(exe), "--json", "Work through the task."], ws, env=ENV,
                             timeout=500)
        return
    if agent == "pi":
        ws.write(".pi/agent/models.json", json.dumps({"providers": {"scripted": {
            "baseUrl": server.url + "/v1", "api": "openai-completions", "apiKey": "none",
            "models": [{"id": "scripted"}]}}}))
        env = {"PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1"}
        argv = [str(exe), "-p", "--provider", "scripted", "--model", "scripted",
                "--no-session", "Work."]
    elif agent == "copilot":
        env = {"COPILOT_OFFLINE": "true", "COPILOT_PROVIDER_BASE_URL": server.url + "/v1",
               "COPILOT_MODEL": "scripted"}
        argv = [str(exe), "-p", "Work.", "--no-auto-update", "--allow-tool", "shell(git:*)"]
    elif agent == "vibe":
        sys.path.insert(0, os.path.join(HERE, "..", "tests", "agents", "vibe"))
        from test_vibe import config_toml  # its provider, and an allowlist with `git`

        ws.write(".vibe/config.toml", config_toml(server.url))
        env = harness.client_env(agent)
        argv = [str(exe), "-p", "Work."]
    else:
        config = {"provider": {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "S",
                                            "options": {"baseURL": server.url + "/v1",
                                                        "apiKey": "none"},
                                            "models": {"scripted": {"name": "S"}}}},
                  "model": "scripted/scripted", "autoupdate": False, "share": "disabled"}
        prefix = "KILO" if agent == "kilo" else "OPENCODE"
        if agent == "kilo":  # Kilo asks about `git status` by default (`kilo run` rejects)
            config["permission"] = {"bash": "allow"}
        ws.write(f".config/{agent}/{agent}.json", json.dumps(config))
        env = {f"{prefix}_{name}": "1" for name in ("DISABLE_MODELS_FETCH", "DISABLE_AUTOUPDATE",
                                                    "DISABLE_LSP_DOWNLOAD",
                                                    "DISABLE_DEFAULT_PLUGINS")}
        argv = [str(exe), "run", "--model", "scripted/scripted", "Work."]
    harness.run_as_agent(argv, ws, env=env, timeout=500)


def rows(ctx) -> list:
    out = _hook_rows(ctx)
    for agent in ("copilot", "opencode", "kilo", "pi", "cline", "vibe"):
        try:
            measured = client_added_ms(agent)
        except Exception as exc:  # a client that cannot run here: say so, measure the rest
            measured = exc
        if measured is None or isinstance(measured, Exception):
            text = f"skipped: {measured or 'client not installed'}"
        else:
            raw, hooked = measured
            text = (f"{hooked - raw:+.0f} ms per call (median of 10: {raw:.0f} ms without the "
                    f"hook, {hooked:.0f} ms with it)")
        out.append({"budget": f"{agent}: added time per shell call, real client (information)",
                    "measured": text, "target": "-", "ok": None})
    return out


if __name__ == "__main__":  # the script's folder is sys.path[0]: run.py is importable
    from run import print_rows

    print_rows(rows)
