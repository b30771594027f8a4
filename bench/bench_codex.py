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
import subprocess

COMMAND = "git status && pytest -q"


def rows(ctx) -> list:
    with ctx.scratch("codex") as tmp:
        env = ctx.private_env(tmp, CODEX_HOME=os.path.join(tmp, "home", ".codex"))
        rules = os.path.join(env["CODEX_HOME"], "rules")
        os.makedirs(rules)
        with open(os.path.join(rules, "default.rules"), "w") as f:
            f.write('prefix_rule(pattern=["git", "push"], decision="forbidden")\n'
                    'prefix_rule(pattern=["make", "deploy"], decision="prompt")\n')
        project, failed = ctx.install_hooks(tmp, env, ["codex"], "codex hook: install")
        if failed:
            return [failed]
        script = ctx.hook_script(env, "codex")
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
        return [row, ctx.cpu_row("codex hook", ["/bin/sh", "-c", script], event, env)]


if __name__ == "__main__":  # the script's folder is sys.path[0]: run.py is importable
    from run import print_rows

    print_rows(rows)
