"""Budget of the Codex hook (ARCHITECTURE §9, issue 13): one Codex PreToolUse event, as `codex exec`
sends it (`permission_mode: "bypassPermissions"`), through the installed hook script, with a
user `.rules` file to read, as a ratio to `python3 -I -S -c pass` (target ≤ 4×). The answer
must be Codex's allow + updatedInput (Codex's own model found that it runs unasked).

Installs with `cc-hook init --agent codex` into a private HOME, CODEX_HOME and CTXCRL_HOME,
never the user's. What the real client adds per shell call is measured by
tests/agents/codex/test_codex_client.py::test_added_time_per_shell_call.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

COMMAND = "git status && pytest -q"


def rows(ctx) -> list:
    tmp = tempfile.mkdtemp(prefix="ctxcrl-bench-codex-")
    try:
        env = dict(os.environ)
        env.update(HOME=os.path.join(tmp, "home"), CTXCRL_HOME=os.path.join(tmp, "ctxcrl"),
                   CODEX_HOME=os.path.join(tmp, "home", ".codex"))
        for var in ("CTXCRL_FILTER_BIN", "CTXCRL_DISABLED", "PYTHONDONTWRITEBYTECODE"):
            env.pop(var, None)
        rules = os.path.join(env["CODEX_HOME"], "rules")
        os.makedirs(rules)
        with open(os.path.join(rules, "default.rules"), "w") as f:
            f.write('prefix_rule(pattern=["git", "push"], decision="forbidden")\n'
                    'prefix_rule(pattern=["make", "deploy"], decision="prompt")\n')
        project = os.path.join(tmp, "project")
        os.makedirs(os.path.join(project, ".git"))
        done = subprocess.run([ctx.bin("cc-hook"), "init", "--agent", "codex"], env=env,
                              cwd=project, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            return [{"budget": "codex hook: install", "measured": done.stderr.strip()[-200:],
                     "target": "cc-hook init --agent codex works", "ok": False}]
        script = os.path.join(env["CTXCRL_HOME"], "hooks", "ctxcrl-hook-codex.sh")
        event = json.dumps({
            "session_id": "01a2", "turn_id": "01a3", "transcript_path": "/tmp/t.jsonl",
            "cwd": project, "hook_event_name": "PreToolUse", "model": "gpt-5",
            "permission_mode": "bypassPermissions", "tool_name": "Bash",
            "tool_input": {"command": COMMAND}, "tool_use_id": "call_1"}).encode()
        answer = subprocess.run(["/bin/sh", "-c", script], input=event, capture_output=True,
                                env=env, cwd=project, timeout=60).stdout
        ms = ctx.time_cmd(["/bin/sh", "-c", script], runs=30, stdin=event, env=env)
        row = ctx.ratio_row("codex hook: one Codex event through the installed script", ms, 4)
        try:
            out = json.loads(answer)["hookSpecificOutput"]
            row["ok"] = row["ok"] and out.get("permissionDecision") == "allow" \
                and "cc-filter" in out["updatedInput"]["command"]
        except (ValueError, KeyError, TypeError):
            row["ok"] = False
            row["measured"] += f"; unexpected answer {answer[:120]!r}"
        floor_cpu = ctx.cpu_ms(ctx.floor_argv, None, env, runs=20)
        hook_cpu = ctx.cpu_ms(["/bin/sh", "-c", script], event, env, runs=20)
        return [row, {"budget": "codex hook: CPU time of all its processes (information)",
                      "measured": f"{hook_cpu:.1f} ms = {hook_cpu / floor_cpu:.2f}× the floor's "
                                  f"{floor_cpu:.1f} ms CPU", "target": "-", "ok": None}]
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from run import Context

    for row in rows(Context()):
        print(row)
