"""Budget of Gemini CLI's hook (ARCHITECTURE §9, issue 13): one BeforeTool event for an allowed
`git status` through the installed script (`sh` + `cc-hook decode | cc-rewrite | cc-gate |
cc-hook encode`: the gate judges Gemini's policies on the original and the rewritten command),
as a ratio to `python3 -I -S -c pass` (target ≤ 4×), plus what the gate stage imports with its
policy cache warm (tomllib, re: must not appear) and cold (the one run that parses TOML).

The hook runs under a process named `gemini` started with `-p` (`exec -a`), as the real
client starts it: the gate reads the client's flags from /proc. That stand-in is one more `sh`
start than the real client costs (it is already running): it is timed alone and taken off. Installs with `cc-hook init --agent gemini` into a
private HOME and CTXCRL_HOME. Then, for information, what the real client adds per shell
call (`client_row`): the pinned Gemini CLI runs the same headless session (10 `git status`
spellings, allowed by a user policy) without and with the hook, alternated twice, the time
from the model's functionCall to the request carrying its result, median per session, median
of the two (tests/agents/gemini/measure_shell_call.py; skipped when the client cannot be
installed). `python bench/bench_gemini.py` prints the rows alone.
"""
import json
import os
import subprocess
import sys

POLICY = ('[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = ["git status", "git log"]\n'
          'decision = "allow"\npriority = 100\n\n[[rule]]\ntoolName = "run_shell_command"\n'
          'commandPrefix = "git push"\ndecision = "deny"\npriority = 200\n')


def _env(ctx, tmp: str) -> dict:
    env = ctx.private_env(tmp, GEMINI_CLI_SYSTEM_SETTINGS_PATH=os.path.join(tmp, "none.json"))
    policies = os.path.join(env["HOME"], ".gemini", "policies")
    os.makedirs(policies, exist_ok=True)
    with open(os.path.join(policies, "mine.toml"), "w") as f:
        f.write(POLICY)
    return env


def _event(cwd: str) -> bytes:
    return json.dumps({
        "session_id": "s1", "transcript_path": "/tmp/t.json", "cwd": cwd,
        "hook_event_name": "BeforeTool", "timestamp": "2026-01-01T00:00:00Z",
        "tool_name": "run_shell_command",
        "tool_input": {"command": "git status", "description": "Show the status"}}).encode()


def as_client(tmp: str, argv: list) -> list:
    """`argv` started from a process named `gemini` with `-p`, as the real client starts its
    hook: `<tmp>/gemini` is a symlink to /bin/sh (`; exit $?` keeps it from exec-ing)."""
    client = os.path.join(tmp, "gemini")
    if not os.path.exists(client):
        os.symlink("/bin/sh", client)
    return [client, "-c", '"$@"; exit $?', "-p", *argv]


def rows(ctx) -> list:
    with ctx.scratch("gemini") as tmp:
        env = _env(ctx, tmp)
        project, failed = ctx.install_hooks(tmp, env, ["gemini"], "gemini hook: install")
        if failed:
            return [failed]
        script = ctx.hook_script(env, "gemini")
        event = _event(project)
        command = as_client(tmp, ["/bin/sh", "-c", script])
        # bytecode written and the policy cache filled once, like a running install has them
        answer = subprocess.run(command, input=event, capture_output=True, env=env,
                                cwd=project, timeout=60).stdout
        # the stand-in `gemini` process is one more `sh` start than the real client (which is
        # already running when it starts its hook): timed alone and taken off
        stand_in = max(0.0, ctx.time_cmd(as_client(tmp, ["/bin/true"]), runs=30, env=env)
                       - ctx.time_cmd(["/bin/true"], runs=30, env=env))
        hook_ms = ctx.time_cmd(command, runs=30, stdin=event, env=env, cwd=project)
        out = [ctx.ratio_row("gemini hook: one BeforeTool event through the installed script",
                             hook_ms - stand_in, 4)]
        out[0]["measured"] += (f"; {hook_ms:.1f} ms with the stand-in client's own start "
                               f"({stand_in:.1f} ms)")
        out[0]["ok"] = out[0]["ok"] and b"cc-filter run git status" in answer
        if b"cc-filter run" not in answer:
            out[0]["detail"] = f"answer: {answer[:300]!r}"
        out.append(ctx.cpu_row("gemini hook", command, event, env, cwd=project))
        out.extend(_gate_imports(ctx, env, tmp, project, event))
        out.append(client_row())
        return out


def _gate_imports(ctx, env, tmp, project, event) -> list:
    """The gate stage's imports, warm cache and cold, under a `gemini -p` parent."""
    decode = subprocess.run([ctx.bin("cc-hook"), "decode", "gemini"], input=event,
                            capture_output=True, env=env, timeout=60).stdout
    record = subprocess.run([ctx.bin("cc-rewrite")], input=decode, capture_output=True,
                            env=env, timeout=60).stdout
    baseline = ctx.import_baseline(env)
    out = []
    for label, cold in (("warm policy cache", False), ("cold cache: parses TOML", True)):
        if cold:
            for root, _dirs, files in os.walk(tmp):
                if "gemini-policies.json" in files:
                    os.remove(os.path.join(root, "gemini-policies.json"))
        argv = [ctx.python, "-X", "importtime", ctx.bin("cc-gate"), "--agent", "gemini"]
        done = subprocess.run(as_client(tmp, argv), input=record, capture_output=True,
                              env=env, cwd=project, timeout=60)
        found = ctx.import_times(done.stderr, baseline)
        modules = [m for m, _ in found]
        heavy = sorted(m for m in modules if m in ctx.HEAVY_IMPORTS)
        verdict = b'"decision": "allow"' in done.stdout
        out.append({"budget": f"gemini gate stage ({label}): imports",
                    "measured": f"{sum(ms for _, ms in found):.1f} ms: "
                                f"{', '.join(modules) or '-'}; decision allow: {verdict}",
                    "target": "no heavy import" if not cold else "information (once per "
                                                                  "policy change)",
                    "ok": (not heavy and verdict) if not cold else None})
    return out


def client_row() -> dict:
    """The added time per shell call the real Gemini CLI sees (information)."""
    agents = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "tests",
                          "agents")
    sys.path[:0] = [agents, os.path.join(agents, "gemini")]
    budget = "gemini: time per shell call seen by the real client (median of 10, " \
             "`git status …`, two sessions each)"
    try:
        import measure_shell_call

        plain, hooked = measure_shell_call.measure()
    except BaseException as exc:  # pytest.skip raises outside pytest too
        return {"budget": budget, "measured": f"skipped: {exc}"[:300], "target": "-",
                "ok": None}
    return {"budget": budget,
            "measured": f"{plain:.0f} ms without the hook, {hooked:.0f} ms with it: "
                        f"{hooked - plain:+.0f} ms (load {os.getloadavg()[0]:.1f})",
            "target": "information", "ok": None}


if __name__ == "__main__":  # the script's folder is sys.path[0]: run.py is importable
    from run import print_rows

    print_rows(rows)
