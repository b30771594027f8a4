"""What reaches the model compacted, per agent, in its default setup (issue 24 item 3): out of
the 50 typical commands of cc_hook/typical.py (15 of them test, build, install and lint), how
many the installed hook compacts in a fresh home with no rules, counting those the user
approves. Measured by `cc-hook verify` itself (cc_hook/coverage.py: the installed hook's
stages in process), so the figure is the one users see. Target: at least 45 per agent.

`python bench/bench_coverage.py` prints the rows without the shared runner.
"""
import os
import re
import subprocess

AGENTS = ("claude", "codex", "gemini", "opencode", "copilot")
LINE = re.compile(r"^(.+?): (\d+) of (\d+) typical commands reach the model compacted \((\d+) of "
                  r"the (\d+) ")


def rows(ctx) -> list:
    with ctx.scratch("coverage") as tmp:
        env = {k: v for k, v in os.environ.items()
               if not k.startswith(("CTXCRL_", "CLAUDE_", "CODEX_", "GEMINI_", "OPENCODE_"))}
        env.update(HOME=os.path.join(tmp, "home"), CTXCRL_HOME=os.path.join(tmp, "ctxcrl"),
                   GEMINI_CLI_SYSTEM_SETTINGS_PATH=os.path.join(tmp, "none.json"))
        project = os.path.join(tmp, "project")
        os.makedirs(os.path.join(project, ".git"))
        os.makedirs(env["HOME"])
        args = [ctx.bin("cc-hook"), "init"] + [f"--agent={a}" for a in AGENTS]
        done = subprocess.run(args, env=env, cwd=project, capture_output=True, text=True,
                              timeout=300)
        if done.returncode != 0:
            return [{"budget": "typical commands compacted per agent", "ok": False,
                     "measured": done.stderr.strip()[-200:], "target": "cc-hook init works"}]
        out = []
        for line in done.stdout.splitlines():
            found = LINE.match(line)
            if not found:
                continue
            name, compacted, total, heavy, heavy_total = found.groups()
            out.append({"budget": f"{name}: typical commands compacted in its default setup "
                                  "(fresh home, no rules; cc-hook init's own count)",
                        "measured": f"{compacted} of {total} ({heavy} of the {heavy_total} "
                                    "test/build/install/lint)",
                        "target": "≥ 45 of 50 (issue 24)", "ok": int(compacted) >= 45})
        return out


if __name__ == "__main__":  # the script's folder is sys.path[0]: run.py is importable
    from run import print_rows

    print_rows(rows)
