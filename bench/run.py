"""`just bench`: every budget of DESIGN §9, measured side by side in one run.

Each `bench_<area>.py` beside this file exposes `rows(ctx)` returning dicts with `budget`,
`measured`, `target` and `ok`. This script gives them one shared context (the interpreter
floor, a median timer, the installed tools), prints one table, and keeps the last run in
`bench/RESULTS.md`, which the README links to.

    python bench/run.py [area ...]      # e.g. `python bench/run.py filter hook`
"""
import importlib.util
import os
import platform
import shutil
import statistics
import subprocess
import sys
import time
from datetime import datetime, timezone

HERE = os.path.dirname(os.path.abspath(__file__))


def real_interpreter() -> str:
    """The interpreter binary itself: a pyenv shim alone costs several times the floor."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return os.path.realpath(base)


class Context:
    def __init__(self):
        self.python = sys.executable
        self.floor_python = real_interpreter()
        self.bindir = os.path.dirname(sys.executable)
        self.floor_ms = self.time_cmd([self.floor_python, "-I", "-S", "-c", "pass"], runs=60)

    def bin(self, name: str) -> str:
        path = os.path.join(self.bindir, name)
        return path if os.path.exists(path) else (shutil.which(name) or name)

    def time_cmd(self, argv, runs: int = 30, stdin: bytes | None = None, env=None,
                 shell: bool = False) -> float:
        """Median wall time in ms over `runs` runs (after two warm-ups)."""
        samples = []
        for i in range(runs + 2):
            start = time.perf_counter()
            subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=env, shell=shell)
            if i >= 2:
                samples.append((time.perf_counter() - start) * 1000)
        return statistics.median(samples)

    def ratio_row(self, budget: str, ms: float, limit: float) -> dict:
        ratio = ms / self.floor_ms
        return {"budget": budget, "measured": f"{ms:.1f} ms = {ratio:.2f}×",
                "target": f"≤ {limit:g}× floor", "ok": ratio <= limit}


def load_areas(selected):
    names = sorted(n[6:-3] for n in os.listdir(HERE) if n.startswith("bench_") and n.endswith(".py"))
    for name in names:
        if selected and name not in selected:
            continue
        spec = importlib.util.spec_from_file_location(f"bench_{name}", os.path.join(HERE, f"bench_{name}.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield name, module


def main(argv) -> int:
    from tabulate import tabulate

    ctx = Context()
    table = []
    failed = 0
    for name, module in load_areas(set(argv)):
        started = time.perf_counter()
        try:
            rows = module.rows(ctx)
        except Exception as exc:  # one broken area must not hide the others
            rows = [{"budget": f"{name}: error", "measured": f"{type(exc).__name__}: {exc}",
                     "target": "-", "ok": False}]
        for row in rows:
            ok = row.get("ok")
            failed += ok is False
            table.append([name, row["budget"], row["measured"], row["target"],
                          "-" if ok is None else ("pass" if ok else "FAIL")])
        print(f"[{name}: {time.perf_counter() - started:.0f} s]", file=sys.stderr)
    header = ["area", "budget", "measured", "target", "result"]
    text = tabulate(table, header, tablefmt="github")
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    summary = (f"floor (`{ctx.floor_python} -I -S -c pass`): {ctx.floor_ms:.1f} ms · "
               f"{machine} · {stamp}")
    print(summary)
    print(text)
    if not argv:
        with open(os.path.join(HERE, "RESULTS.md"), "w") as f:
            f.write(f"# Benchmark results (last `just bench`)\n\n{summary}\n\n{text}\n")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
