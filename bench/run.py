"""`just bench`: every budget of DESIGN §9, measured side by side in one run.

Each `bench_<area>.py` beside this file exposes `rows(ctx)` returning dicts with `budget`,
`measured`, `target` and `ok` (True, False, or None for information), and optionally `detail`
(why: an import profile, a list of offenders). This script gives them one shared context (the
interpreter floor, a median timer, the installed tools), prints one table, the details of
every failing budget, and keeps the last full run in `bench/RESULTS.md`, which the README links.

Timing on a shared machine: `ctx.time_cmd` runs the floor (`python3 -I -S -c pass`, the real
interpreter binary) and the measured command alternately, so both see the same load, and
`ctx.floor_ms` / `ctx.ratio_row` use the floor measured alongside the last `time_cmd` call.
The load average before and after the run is printed with the results.

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
        self.floor_argv = [self.floor_python, "-I", "-S", "-c", "pass"]
        self.bindir = os.path.dirname(sys.executable)
        self.floors: list[float] = []  # every floor median measured alongside a command
        self.global_floor_ms = self._median_of(self.floor_argv, runs=60)
        self._last_floor_ms: float | None = None

    @property
    def floor_ms(self) -> float:
        """The floor measured alongside the last `time_cmd` (else the run's first floor)."""
        return self._last_floor_ms or self.global_floor_ms

    def bin(self, name: str) -> str:
        path = os.path.join(self.bindir, name)
        return path if os.path.exists(path) else (shutil.which(name) or name)

    @staticmethod
    def _once(argv, stdin=None, env=None, shell=False, cwd=None) -> float:
        start = time.perf_counter()
        subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL,
                       stderr=subprocess.DEVNULL, env=env, shell=shell, cwd=cwd)
        return (time.perf_counter() - start) * 1000

    def _median_of(self, argv, runs: int) -> float:
        samples = [self._once(argv) for _ in range(runs + 2)][2:]
        return statistics.median(samples)

    def time_cmd(self, argv, runs: int = 30, stdin: bytes | None = None, env=None,
                 shell: bool = False, cwd=None) -> float:
        """Median wall time in ms over `runs` runs (after two warm-ups), each run next to a
        run of the floor; the floor's median becomes `ctx.floor_ms`."""
        samples, floors = [], []
        for i in range(runs + 2):
            floor = self._once(self.floor_argv)
            ms = self._once(argv, stdin, env, shell, cwd)
            if i >= 2:
                samples.append(ms)
                floors.append(floor)
        self._last_floor_ms = statistics.median(floors)
        self.floors.append(self._last_floor_ms)
        return statistics.median(samples)

    def ratio_row(self, budget: str, ms: float, limit: float) -> dict:
        ratio = ms / self.floor_ms
        return {"budget": budget,
                "measured": f"{ms:.1f} ms = {ratio:.2f}× (floor {self.floor_ms:.1f} ms)",
                "target": f"≤ {limit:g}× floor", "ok": ratio <= limit}


def load_areas(selected):
    names = sorted(n[6:-3] for n in os.listdir(HERE)
                   if n.startswith("bench_") and n.endswith(".py"))
    for name in names:
        if selected and name not in selected:
            continue
        spec = importlib.util.spec_from_file_location(f"bench_{name}",
                                                      os.path.join(HERE, f"bench_{name}.py"))
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        yield name, module


def _load() -> str:
    try:
        return " / ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "?"


def main(argv) -> int:
    from tabulate import tabulate

    load_before = _load()
    ctx = Context()
    table, details, failing = [], [], []
    timings = []
    for name, module in load_areas(set(argv)):
        started = time.perf_counter()
        try:
            rows = module.rows(ctx)
        except Exception as exc:  # one broken area must not hide the others
            rows = [{"budget": f"{name}: error", "measured": f"{type(exc).__name__}: {exc}",
                     "target": "-", "ok": False}]
        for row in rows:
            ok = row.get("ok")
            result = "-" if ok is None else ("pass" if ok else "FAIL")
            table.append([name, row["budget"], row["measured"], row["target"], result])
            if row.get("detail"):
                details.append((name, row["budget"], result, row["detail"]))
            if ok is False:
                failing.append((name, row))
        seconds = time.perf_counter() - started
        timings.append(f"{name} {seconds:.0f} s")
        print(f"[{name}: {seconds:.0f} s]", file=sys.stderr)
    header = ["area", "budget", "measured", "target", "result"]
    text = tabulate(table, header, tablefmt="github")
    stamp = datetime.now(timezone.utc).strftime("%Y-%m-%d %H:%M UTC")
    machine = f"{platform.machine()}, {os.cpu_count()} cores, Python {platform.python_version()}"
    floors = ctx.floors or [ctx.global_floor_ms]
    summary = (f"floor (`{ctx.floor_python} -I -S -c pass`): {ctx.global_floor_ms:.1f} ms at the "
               f"start, {min(floors):.1f}–{max(floors):.1f} ms alongside the measurements · "
               f"{machine} · load average {load_before} before, {_load()} after · {stamp}")
    verdict = (f"{len(failing)} budget(s) FAIL: " + ", ".join(f"{a}: {r['budget']}"
                                                              for a, r in failing)
               if failing else "every budget passes")
    why = ""
    if failing:
        lines = ["## Why the failing budgets fail", ""]
        for area, row in failing:
            detail = f"\n  {row['detail']}" if row.get("detail") else ""
            lines.append(f"- **{area}: {row['budget']}** — {row['measured']} (target "
                         f"{row['target']}){detail}")
        why = "\n".join(lines) + "\n"
    print(summary)
    print(text)
    print(verdict)
    if why:
        print()
        print(why)
    if not argv:
        profiles = ""
        if details:
            profiles = "## Details (import profiles and lists)\n\n" + "\n".join(
                f"- {area} · {budget} · {result}: {detail}"
                for area, budget, result, detail in details) + "\n"
        with open(os.path.join(HERE, "RESULTS.md"), "w") as f:
            f.write(f"# Benchmark results (last `just bench`)\n\n{summary}\n\n"
                    f"Each ratio is against the floor measured alternately with the command "
                    f"(medians of repeated runs). Areas: {', '.join(timings)}.\n\n"
                    f"{text}\n\n**{verdict}**\n\n{why}\n{profiles}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
