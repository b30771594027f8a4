"""Run the scenario table on the real client and print each outcome (with --hook: installed).

    python tests/agents/claude/measure.py [--hook] [scenario-id ...]

Prints `id<TAB>expected<TAB>measured<TAB>what the model got` per row; rows that differ from
scenarios.py are marked `!!`. Needs root (the agent user, the managed-settings namespace).
"""
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path[:0] = [str(HERE.parent), str(HERE)]

import client  # noqa: E402
import harness  # noqa: E402
from scenarios import SCENARIOS  # noqa: E402


def main(argv):
    hook = "--hook" in argv
    ids = [a for a in argv if not a.startswith("--")]
    for sc in SCENARIOS:
        if ids and sc.id not in ids:
            continue
        ws = client.fresh_workspace()
        before = ws.remote_head()
        run = client.run_scenario(ws, sc, hook=hook)
        pushed = ws.remote_head() != before
        expected = sc.expected_with_hook() if hook else (sc.outcome,)
        mark = "  " if run.outcome in expected else "!!"
        text = run.tool_text.replace("\n", "\\n")[:110]
        print(f"{mark} {sc.id:28} {'/'.join(expected):14} {run.outcome:8} "
              f"{'PUSHED ' if pushed else ''}{len(run.tool_text):5}c {text}", flush=True)


if __name__ == "__main__":
    main(sys.argv[1:])
