"""Budget of the Codex hook (ARCHITECTURE §9, issue 13): one Codex PreToolUse event, as `codex exec`
sends it (`permission_mode: "bypassPermissions"`), through the installed hook script, with a
user `.rules` file to read, as a ratio to `python3 -I -S -c pass` (target ≤ 4×). The answer
must be Codex's allow + updatedInput (Codex's own model found that it runs unasked).

Installs with `cc-hook init --agent codex` into a private HOME, CODEX_HOME and CTXCRL_HOME,
never the user's. Then, for information, what the real client adds per shell call
(`client_call_times`): the pinned `codex exec` (tests/agents harness, a scripted model) runs the
same session of 10 `git status` calls without and with the hook, alternated twice so both see
the same load; the time from the model's tool call to Codex's next request, median per
session, median of the two sessions (skipped when the client cannot be installed or, not
root, no agent user).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

COMMAND = "git status && pytest -q"
HERE = os.path.dirname(os.path.abspath(__file__))
CALLS = 10


def client_call_times() -> dict:
    """{False: ms per shell call without the hook, True: with it} as the real Codex sees it,
    or {"skipped": why}."""
    agents = os.path.join(os.path.dirname(HERE), "tests", "agents")
    sys.path[:0] = [agents, os.path.join(agents, "codex")]
    try:
        import codex_client
        import harness
    except ImportError as exc:
        return {"skipped": f"cannot load the real-client harness ({exc})"}
    try:
        codex = harness.install_client("codex")
    except BaseException as exc:  # pytest.skip raises outside pytest too
        return {"skipped": f"Codex cannot be installed: {exc}"}
    medians: dict = {False: [], True: []}
    for hooked in (False, True, False, True):
        root = tempfile.mkdtemp(prefix="ctxcrl-bench-codex-client-")
        os.chmod(root, 0o755)
        try:
            run = codex_client.run_codex(codex, __import__("pathlib").Path(root) / "ws",
                                         ["git status"] * CALLS, {}, (), hooked=hooked)
            times = [t for t, _ in run.server.received]
            if len(run.server.outputs()) != CALLS or run.outcome != "ran":
                return {"skipped": f"the scripted session did not run {CALLS} calls "
                                   f"({len(run.server.outputs())} ran)"}
            medians[hooked].append(statistics.median(
                (times[i + 1] - times[i]) * 1000 for i in range(CALLS)))
        finally:
            shutil.rmtree(root, ignore_errors=True)
    return {hooked: statistics.median(values) for hooked, values in medians.items()}


def client_row() -> dict:
    times = client_call_times()
    budget = f"codex: time per shell call seen by the real client (median of {CALLS}, " \
             "`git status`, two sessions each)"
    if "skipped" in times:
        return {"budget": budget, "measured": times["skipped"], "target": "-", "ok": None}
    return {"budget": budget,
            "measured": f"{times[False]:.0f} ms without the hook, {times[True]:.0f} ms with it: "
                        f"{times[True] - times[False]:+.0f} ms (load "
                        f"{os.getloadavg()[0]:.1f})",
            "target": "information", "ok": None}


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
        return [row, ctx.cpu_row("codex hook", ["/bin/sh", "-c", script], event, env),
                client_row()]


if __name__ == "__main__":  # the script's folder is sys.path[0]: run.py is importable
    from run import print_rows

    print_rows(rows)
