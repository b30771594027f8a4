"""Budget of the agent hook (ARCHITECTURE §9, issue 5): one Claude Code PreToolUse event through the
installed hook script (`sh` + `cc-hook decode | cc-gate | cc-rewrite | cc-hook encode`), as a
ratio to `python3 -I -S -c pass` (target ≤ 4×), plus each stage alone and what each stage
imports beyond the bare interpreter (`python -X importtime`; a heavy module there fails).

Installs with `cc-hook init --agent claude` into a private HOME and CTXCRL_HOME, never the
user's. `python bench/bench_hook.py` prints the rows without the shared runner.
"""
import json
import os
import subprocess

#: Rewritten with the client's allow (issue 12): `git status` by an allow rule, `git log` as one
#: of Claude Code's built-in read-only commands (so its tables are loaded too).
COMMAND = "git status && git log --oneline -n 3"


def _env(ctx, tmp: str) -> dict:
    env = ctx.private_env(tmp, drop=("CLAUDE_CONFIG_DIR",))
    os.makedirs(os.path.join(env["HOME"], ".claude"), exist_ok=True)
    with open(os.path.join(env["HOME"], ".claude", "settings.json"), "w") as f:
        json.dump({"permissions": {"allow": ["Bash(git status)", "Bash(ls:*)"],
                                   "deny": ["Bash(git push --force:*)"]}}, f)
    return env


def _event(cwd: str) -> bytes:
    return json.dumps({
        "session_id": "0b5c1f", "transcript_path": "/tmp/t.jsonl", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": COMMAND, "description": "Status and tests"}}).encode()


def _stage_inputs(ctx, env, event: bytes) -> list:
    """[(name, argv, stdin)] for each stage, fed what the previous stage really wrote."""
    stages = [("decode", [ctx.bin("cc-hook"), "decode", "claude"]),
              ("gate", [ctx.bin("cc-gate"), "--agent", "claude"]),
              ("rewrite", [ctx.bin("cc-rewrite")]),
              ("encode", [ctx.bin("cc-hook"), "encode", "claude"])]
    out, data = [], event
    for name, argv in stages:
        out.append((name, argv, data))
        data = subprocess.run(argv, input=data, capture_output=True, env=env,
                              timeout=60).stdout
    return out


def rows(ctx) -> list:
    with ctx.scratch("hook") as tmp:
        env = _env(ctx, tmp)
        project, failed = ctx.install_hooks(tmp, env, ["claude"], "hook: install")
        if failed:
            return [failed]
        script = ctx.hook_script(env, "claude")
        event = _event(project)
        # Writes the tools' bytecode once, like an installed package has it.
        answer = subprocess.run(["/bin/sh", "-c", script], input=event, capture_output=True,
                                env=env, cwd=project, timeout=60).stdout
        hook_ms = ctx.time_cmd(["/bin/sh", "-c", script], runs=30, stdin=event, env=env)
        out = [ctx.ratio_row("hook: one Claude event through the installed script", hook_ms, 4)]
        out[0]["ok"] = out[0]["ok"] and b"updatedInput" in answer
        out.append(ctx.cpu_row("hook", ["/bin/sh", "-c", script], event, env))
        baseline = ctx.import_baseline(env)
        for name, argv, stdin in _stage_inputs(ctx, env, event):
            ms = ctx.time_cmd(argv, runs=20, stdin=stdin, env=env)
            found, import_ms = ctx.import_profile(argv, stdin, env, baseline)
            modules = [module for module, _ in found]
            heavy = sorted(m for m in modules if m in ctx.HEAVY_IMPORTS)
            out.append({"budget": f"hook stage {name}: time, imports beyond the interpreter",
                        "measured": f"{ms:.1f} ms = {ms / ctx.floor_ms:.2f}×; imports "
                                    f"{import_ms:.1f} ms: {', '.join(modules) or '-'}",
                        "target": "no heavy import (json, re, docopt, subprocess, …)",
                        "ok": not heavy})
        return out


if __name__ == "__main__":  # the script's folder is sys.path[0]: run.py is importable
    from run import print_rows

    print_rows(rows)
