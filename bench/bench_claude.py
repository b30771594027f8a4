"""Claude Code permission parity (issue 12), measured:

- out of the 50 typical agent commands of cc_hook/typical.py (the list `cc-hook init` and
  `verify` report on; 15 of them test, build, install and lint commands), how many reach the
  model compacted in default mode with no rules at all, through the installed hook script:
  those Claude Code runs unasked (its built-in read-only commands: `allow` + the rewrite) and
  those it surely prompts for, once the user approves (`ask` + the rewrite: the approved run
  is filtered, issue 24). Goal: at least 45;
- what the real client sees per Bash call (time between the model's tool_use leaving the
  scripted server and the tool_result coming back), median over 10 calls, without and with the
  hook (needs the pinned client from npm and, as root, the agent user: else a skipped row).

`python bench/bench_claude.py` prints the rows without the shared runner.
"""
import json
import os
import statistics
import subprocess
import sys

from cc_hook.typical import EXPLORE, TYPICAL  # the one list (cc-hook init / verify use it)

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)

def compacted_count(ctx) -> dict:
    with ctx.scratch("claude") as tmp:
        env = ctx.private_env(tmp, drop=("CLAUDE_CONFIG_DIR",))
        project, failed = ctx.install_hooks(tmp, env, ["claude"],
                                            "claude: typical commands compacted")
        if failed:
            return failed
        script = ctx.hook_script(env, "claude")
        rewritten, asked = [], []
        for command in TYPICAL:
            event = json.dumps({"session_id": "b", "cwd": project, "permission_mode": "default",
                                "hook_event_name": "PreToolUse", "tool_name": "Bash",
                                "tool_input": {"command": command}})
            out = subprocess.run(["/bin/sh", "-c", script], input=event, capture_output=True,
                                 text=True, env=env, cwd=project, timeout=60).stdout
            answer = json.loads(out)["hookSpecificOutput"] if out.strip() else {}
            if answer.get("permissionDecision") == "allow" and "updatedInput" in answer:
                rewritten.append(command)
            elif answer.get("permissionDecision") == "ask" and "updatedInput" in answer:
                asked.append(command)
        missed = [c for c in TYPICAL if c not in rewritten and c not in asked]
        total = len(rewritten) + len(asked)
        return {"budget": f"claude: of {len(TYPICAL)} typical commands, compacted in default "
                          "mode (no rules; approvals automated)",
                "measured": f"{total} ({len(rewritten)} unasked, {len(asked)} once approved)",
                "target": ">= 45, every read-only one with a filter among the unasked",
                "ok": total >= 45 and all(c in rewritten for c in (
                    "git status", "git log -n 5", "git diff", "ls", "cat README.md",
                    "grep -rn TODO .", "find . -name '*.py'")),
                "detail": "unasked: " + ", ".join(rewritten) + "; once approved: "
                          + ", ".join(asked) + "; not compacted: " + (", ".join(missed) or "none")}


def client_call_times() -> dict:
    """Median ms per Bash call seen by the real Claude Code, without and with the hook."""
    sys.path[:0] = [os.path.join(ROOT, "tests", "agents"),
                    os.path.join(ROOT, "tests", "agents", "claude")]
    try:
        import client
        import harness
    except ImportError as exc:
        return {"skipped": f"cannot load the real-client harness ({exc})"}
    try:
        harness.install_client("claude")
    except BaseException as exc:  # pytest.skip raises outside pytest too
        return {"skipped": f"Claude Code cannot be installed: {exc}"}
    medians = {}
    for hook in (False, True):
        ws = client.fresh_workspace()
        if hook:
            client.install_hook(ws)
        run = client.run_claude(ws, ["git status"] * 10, timeout=300)
        times = [(end - start) * 1000 for start, end in run.call_times]
        if len(times) != 10 or run.outcome != "ran":
            return {"skipped": f"the scripted session did not run 10 calls ({run.outcome}, "
                               f"{len(times)} timed)"}
        medians[hook] = statistics.median(times)
    return medians


def rows(ctx) -> list:
    out = [compacted_count(ctx)]
    times = client_call_times()
    if "skipped" in times:
        out.append({"budget": "claude: time per Bash call seen by the real client",
                    "measured": times["skipped"], "target": "-", "ok": None})
    else:
        added = times[True] - times[False]
        out.append({"budget": "claude: time per Bash call seen by the real client (median of "
                              "10, `git status`)",
                    "measured": f"{times[False]:.0f} ms without the hook, {times[True]:.0f} ms "
                                f"with it: +{added:.0f} ms",
                    "target": "information", "ok": None})
    return out


if __name__ == "__main__":  # the script's folder is sys.path[0]: run.py is importable
    from run import print_rows

    print_rows(rows)
