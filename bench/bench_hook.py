"""Budget of the agent hook (DESIGN §9, issue 5): one Claude Code PreToolUse event through the
installed hook script (`sh` + `cc-hook decode | cc-gate | cc-rewrite | cc-hook encode`), as a
ratio to `python3 -I -S -c pass` (target ≤ 4×), plus each stage alone and what each stage
imports beyond the bare interpreter (`python -X importtime`; a heavy module there fails).

Installs with `cc-hook init --agent claude` into a private HOME and CTXCRL_HOME, never the
user's. `python bench/bench_hook.py` prints the rows without the shared runner.
"""
import json
import os
import shutil
import subprocess
import sys
import tempfile

HEAVY = {"json", "re", "docopt", "subprocess", "pathlib", "tomllib", "hashlib", "shlex",
         "tempfile", "dataclasses", "typing", "inspect", "enum", "signal", "sqlite3",
         "tabulate", "importlib.metadata"}
COMMAND = "git status && pytest -q"


def _env(tmp: str) -> dict:
    env = dict(os.environ)
    env.update(HOME=os.path.join(tmp, "home"), CTXCRL_HOME=os.path.join(tmp, "ctxcrl"))
    for var in ("CTXCRL_FILTER_BIN", "CTXCRL_DISABLED", "CLAUDE_CONFIG_DIR",
                "PYTHONDONTWRITEBYTECODE"):
        env.pop(var, None)
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


def _imports(ctx, argv, stdin, env, baseline: set) -> tuple[list, float]:
    """Top-level modules a stage imports beyond `python -c pass`, and their total ms."""
    done = subprocess.run([ctx.python, "-X", "importtime", *argv], input=stdin,
                          capture_output=True, env=env, timeout=60)
    found, total = [], 0.0
    for line in done.stderr.decode(errors="replace").splitlines():
        if not line.startswith("import time:") or "|" not in line:
            continue
        _, cumulative, name = line[len("import time:"):].split("|")
        if cumulative.strip().isdigit() and not name.startswith("  ") and \
                name.strip() not in baseline:
            found.append(name.strip())
            total += int(cumulative) / 1000
    return found, total


def _baseline(ctx, env) -> set:
    done = subprocess.run([ctx.python, "-X", "importtime", "-c", "pass"], capture_output=True,
                          env=env, timeout=60)
    return {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()
            if "|" in line}


def _cpu_ms(argv, stdin: bytes | None, env, runs: int = 20) -> float:
    """CPU time (user + system, every process of the run) per run: steadier than wall time
    on a busy machine, and it shows what the pipeline costs however many cores there are."""
    import resource

    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    for _ in range(runs):
        subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
    return used * 1000 / runs


def rows(ctx) -> list:
    tmp = tempfile.mkdtemp(prefix="ctxcrl-bench-hook-")
    try:
        env = _env(tmp)
        project = os.path.join(tmp, "project")
        os.makedirs(os.path.join(project, ".git"))
        done = subprocess.run([ctx.bin("cc-hook"), "init", "--agent", "claude"], env=env,
                              cwd=project, capture_output=True, text=True, timeout=120)
        if done.returncode != 0:
            return [{"budget": "hook: install", "measured": done.stderr.strip()[-200:],
                     "target": "cc-hook init works", "ok": False}]
        script = os.path.join(env["CTXCRL_HOME"], "hooks", "ctxcrl-hook-claude.sh")
        event = _event(project)
        # Writes the tools' bytecode once, like an installed package has it.
        answer = subprocess.run(["/bin/sh", "-c", script], input=event, capture_output=True,
                                env=env, cwd=project, timeout=60).stdout
        hook_ms = ctx.time_cmd(["/bin/sh", "-c", script], runs=30, stdin=event, env=env)
        out = [ctx.ratio_row("hook: one Claude event through the installed script", hook_ms, 4)]
        out[0]["ok"] = out[0]["ok"] and b"updatedInput" in answer
        floor = getattr(ctx, "floor_python", None) or os.path.realpath(sys.executable)
        floor_cpu = _cpu_ms([floor, "-I", "-S", "-c", "pass"], None, env)
        hook_cpu = _cpu_ms(["/bin/sh", "-c", script], event, env)
        out.append({"budget": "hook: CPU time of all its processes (information)",
                    "measured": f"{hook_cpu:.1f} ms = {hook_cpu / floor_cpu:.2f}× the floor's "
                                f"{floor_cpu:.1f} ms CPU",
                    "target": "-", "ok": None})
        baseline = _baseline(ctx, env)
        for name, argv, stdin in _stage_inputs(ctx, env, event):
            ms = ctx.time_cmd(argv, runs=20, stdin=stdin, env=env)
            modules, import_ms = _imports(ctx, argv, stdin, env, baseline)
            heavy = sorted(m for m in modules if m in HEAVY)
            out.append({"budget": f"hook stage {name}: time, imports beyond the interpreter",
                        "measured": f"{ms:.1f} ms = {ms / ctx.floor_ms:.2f}×; imports "
                                    f"{import_ms:.1f} ms: {', '.join(modules) or '-'}",
                        "target": "no heavy import (json, re, docopt, subprocess, …)",
                        "ok": not heavy})
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":
    sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
    from run import Context

    for row in rows(Context()):
        print(row)
