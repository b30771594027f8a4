"""The time the real Gemini CLI spends per shell call, with and without contextcrawler's hook:
from the scripted model's `functionCall` of `run_shell_command` to the request that carries its
result (the hook, the command and the client's own work), median of 10 calls of `git status …`
in one headless session, two sessions each way, alternated. `bench/run.py gemini` reports it
(bench_gemini.client_row); by hand, as root or the agent user:

    python tests/agents/gemini/measure_shell_call.py
"""
import os
import shutil
import statistics
import sys
import tempfile
from pathlib import Path

sys.path[:0] = [os.path.dirname(os.path.abspath(__file__)),
                os.path.dirname(os.path.dirname(os.path.abspath(__file__)))]

import harness  # noqa: E402
from gemini_client import RAN, GeminiRun, outcome_of  # noqa: E402

#: Ten different spellings: the client stops a session that repeats one tool call.
COMMANDS = ["git status", "git status -s", "git status -b", "git status --short",
            "git status -sb", "git status .", "git status --long", "git status -uno",
            "git status -unormal", "git status --branch"]
CALLS = len(COMMANDS)
POLICY = ('[[rule]]\ntoolName = "run_shell_command"\ncommandPrefix = "git status"\n'
          'decision = "allow"\npriority = 100\n')


def session(root: Path, hook: bool) -> list:
    run = GeminiRun(root, hook=hook)
    (run.ws.project / "notes.txt").write_text("x\n")
    harness.chown_tree(run.ws.project, run.ws.user)
    run.user_policy(POLICY)
    if hook:
        run.install_hook(harness.product_venv())
    server, proc = run.run(COMMANDS)
    outcomes = [outcome_of(r) for r in server.function_responses()]
    assert outcomes == [RAN] * CALLS, (outcomes, proc.stderr[-1000:])
    return server.call_intervals()


def measure() -> tuple:
    """(ms per shell call without the hook, with it): medians of two sessions each."""
    harness.install_client("gemini")
    root = Path(tempfile.mkdtemp(prefix="ctxcrl-gemini-time-"))
    os.chmod(root, 0o755)
    try:
        medians: dict = {}
        for n, hook in enumerate((False, True, False, True)):  # alternated: the same load
            intervals = session(root / f"{hook}-{n}", hook)
            medians.setdefault(hook, []).append(statistics.median(intervals) * 1000)
    finally:
        shutil.rmtree(root, ignore_errors=True)
    return statistics.median(medians[False]), statistics.median(medians[True])


def main() -> int:
    plain, hooked = measure()
    print(f"gemini {harness.client_version('gemini')}: per shell call, median of {CALLS} "
          f"(two sessions each): without the hook {plain:.0f} ms, with it {hooked:.0f} ms, "
          f"added {hooked - plain:.0f} ms (load {os.getloadavg()[0]:.1f})")
    return 0


if __name__ == "__main__":
    sys.exit(main())
