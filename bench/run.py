"""`just bench`: every budget of ARCHITECTURE §9, measured side by side in one run.

Each `bench_<area>.py` beside this file exposes `rows(ctx)` returning dicts with `budget`,
`measured`, `target` and `ok` (True, False, or None for information), and optionally `detail`
(why: an import profile, a list of offenders). This script gives them one shared context (the
interpreter floor, a median timer, the installed tools), prints one table, the details of
every failing budget, and keeps the last full run in `bench/RESULTS.md`, which the README links.

What every agent's bench needs is here once: `ctx.scratch(area)` (a folder removed
afterwards), `ctx.private_env(tmp)` (HOME and CTXCRL_HOME inside it, never the user's),
`ctx.install_hooks(tmp, env, agents, budget)` and `ctx.hook_script(env, agent)` (`cc-hook
init` in a fresh project), `ctx.cpu_row`, `ctx.import_profile` / `ctx.import_times` and
`HEAVY_IMPORTS`; `print_rows(rows)` runs one area without the shared table
(`python bench/bench_hook.py`).

Timing on a shared machine: `ctx.time_cmd` runs the floor (`python3 -I -S -c pass`, the real
interpreter binary) and the measured command alternately, so both see the same load, and
`ctx.floor_ms` / `ctx.ratio_row` use the floor measured alongside the last `time_cmd` call:
the floor as the pairs see it, so that `ms / ctx.floor_ms` is the median of the per-pair
ratios (a pair's two runs see the same moment of the machine; a ratio of two medians lets
the machine's drift between runs move it: 3.2–3.9× for the hook on an idle 2-core machine,
where the paired median stays within 3.25–3.32×).
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
WORK = os.path.join(HERE, "work")  # generated inputs (git-ignored)

# The baseline of the throughput budgets: a plain Python copy of stdin to stdout, line by line.
LINE_COPY = ("import sys\nw = sys.stdout.buffer.write\nfor line in sys.stdin.buffer:\n"
             "    w(line)\n")

# Runs `argv` with stdin from a file (or /dev/null); prints its exit code, wall ms, CPU ms
# (user + system, its children included) and peak RSS in KB.
RSS_PROBE = """
import json, resource, subprocess, sys, time
argv, stdin = json.loads(sys.argv[1])
start = time.perf_counter()
with open(stdin or "/dev/null", "rb") as f:
    p = subprocess.run(argv, stdin=f, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
usage = resource.getrusage(resource.RUSAGE_CHILDREN)
print(json.dumps([p.returncode, (time.perf_counter() - start) * 1000,
                  (usage.ru_utime + usage.ru_stime) * 1000, usage.ru_maxrss]))
"""


def real_interpreter() -> str:
    """The interpreter binary itself: a pyenv shim alone costs several times the floor."""
    base = getattr(sys, "_base_executable", None) or sys.executable
    return os.path.realpath(base)


class Context:
    #: Modules a hook stage must not import (each costs a noticeable share of the floor).
    HEAVY_IMPORTS = frozenset({
        "json", "re", "docopt", "subprocess", "pathlib", "tomllib", "hashlib", "shlex",
        "tempfile", "dataclasses", "typing", "inspect", "enum", "signal", "sqlite3", "tabulate",
        "importlib.metadata"})

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
        run of the floor. `ctx.floor_ms` becomes the floor as the pairs see it: the median
        time over the median of the per-pair ratios (module docstring)."""
        samples, floors, ratios = [], [], []
        for i in range(runs + 2):
            floor = self._once(self.floor_argv)
            ms = self._once(argv, stdin, env, shell, cwd)
            if i >= 2:
                samples.append(ms)
                floors.append(floor)
                ratios.append(ms / floor)
        median = statistics.median(samples)
        self._last_floor_ms = median / statistics.median(ratios)
        self.floors.append(statistics.median(floors))
        return median

    def cpu_ms(self, argv, stdin: bytes | None = None, env=None, cwd=None,
               runs: int = 10) -> float:
        """User + system CPU per run, every process of the run included: steadier than wall
        time on a shared machine, and what a pipeline costs however many cores there are."""
        import resource

        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        for _ in range(runs):
            subprocess.run(argv, input=stdin, stdout=subprocess.DEVNULL,
                           stderr=subprocess.DEVNULL, env=env, cwd=cwd)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        used = (after.ru_utime + after.ru_stime) - (before.ru_utime + before.ru_stime)
        return used * 1000 / runs

    @staticmethod
    def probe(argv, stdin_path: str | None = None, env=None, timeout: float = 600):
        """One run of `argv` (stdin from a file) in a child of its own, so its peak RSS is its
        own: (exit code, wall ms, CPU ms, peak RSS in MB)."""
        import json

        done = subprocess.run([sys.executable, "-c", RSS_PROBE, json.dumps([argv, stdin_path])],
                              capture_output=True, text=True, env=env, timeout=timeout)
        code, ms, cpu_ms, rss_kb = json.loads(done.stdout)
        return code, ms, cpu_ms, rss_kb / 1024

    @staticmethod
    def log_file(mb: int, repeat: int = 1) -> str:
        return log_file(mb, repeat)

    @property
    def line_copy_argv(self) -> list:
        return [self.floor_python, "-I", "-S", "-c", LINE_COPY]

    @staticmethod
    def scratch(name: str):
        """A temporary folder for one area's homes and projects, removed afterwards
        (`with ctx.scratch("hook") as tmp:`)."""
        import tempfile

        return tempfile.TemporaryDirectory(prefix=f"ctxcrl-bench-{name}-",
                                           ignore_cleanup_errors=True)

    @staticmethod
    def hook_script(env: dict, agent: str) -> str:
        """The hook script `cc-hook init` wrote for `agent` under `env`'s CTXCRL_HOME."""
        return os.path.join(env["CTXCRL_HOME"], "hooks", f"ctxcrl-hook-{agent}.sh")

    @staticmethod
    def private_env(tmp: str, drop=(), **values) -> dict:
        """This environment with HOME (created) and CTXCRL_HOME inside `tmp`, never the user's,
        `values` set, and contextcrawler's switches, PYTHONDONTWRITEBYTECODE and `drop` unset."""
        env = dict(os.environ)
        env.update(HOME=os.path.join(tmp, "home"), CTXCRL_HOME=os.path.join(tmp, "ctxcrl"),
                   **values)
        for var in ("CTXCRL_FILTER_BIN", "CTXCRL_DISABLED", "PYTHONDONTWRITEBYTECODE", *drop):
            env.pop(var, None)
        os.makedirs(env["HOME"], exist_ok=True)
        return env

    def install_hooks(self, tmp: str, env: dict, agents, budget: str):
        """`cc-hook init --agent A …` in a new project `<tmp>/project` (a git folder), under
        `env`: (project, None), or (project, a failing row named `budget`) when init fails."""
        project = os.path.join(tmp, "project")
        os.makedirs(os.path.join(project, ".git"))
        argv = [self.bin("cc-hook"), "init"] + [f"--agent={agent}" for agent in agents]
        done = subprocess.run(argv, env=env, cwd=project, capture_output=True, text=True,
                              timeout=300)
        if done.returncode == 0:
            return project, None
        return project, {"budget": budget, "measured": done.stderr.strip()[-200:],
                         "target": "cc-hook init works", "ok": False}

    def cpu_row(self, budget: str, argv, stdin: bytes | None, env, cwd=None) -> dict:
        """For information: the CPU time of all of `argv`'s processes against the floor's."""
        floor_cpu = self.cpu_ms(self.floor_argv, None, env, runs=20)
        cpu = self.cpu_ms(argv, stdin, env, cwd=cwd, runs=20)
        return {"budget": f"{budget}: CPU time of all its processes (information)",
                "measured": f"{cpu:.1f} ms = {cpu / floor_cpu:.2f}× the floor's "
                            f"{floor_cpu:.1f} ms CPU", "target": "-", "ok": None}

    @staticmethod
    def import_times(stderr: bytes, baseline: set) -> list:
        """[(module, cumulative ms)] of the top-level imports in `python -X importtime`'s
        stderr beyond `baseline`, in import order."""
        found = []
        for line in stderr.decode(errors="replace").splitlines():
            if not line.startswith("import time:") or line.count("|") != 2:
                continue
            _, cumulative, name = line[len("import time:"):].split("|")
            if cumulative.strip().isdigit() and not name.startswith("  ") \
                    and name.strip() not in baseline:
                found.append((name.strip(), int(cumulative) / 1000))
        return found

    def import_baseline(self, env) -> set:
        """The modules `<venv python> -c pass` imports: what every console script pays."""
        done = subprocess.run([self.python, "-X", "importtime", "-c", "pass"],
                              capture_output=True, env=env, timeout=60)
        return {line.split("|")[-1].strip() for line in done.stderr.decode().splitlines()
                if "|" in line}

    def import_profile(self, argv, stdin, env, baseline: set, cwd=None) -> tuple[list, float]:
        """[(module, cumulative ms)] of the top-level imports of a console script (argv[0], a
        Python file) beyond `baseline`, in import order, and their total ms."""
        done = subprocess.run([self.python, "-X", "importtime", *argv], input=stdin,
                              capture_output=True, env=env, cwd=cwd, timeout=60)
        found = self.import_times(done.stderr, baseline)
        return found, sum(ms for _, ms in found)

    def ratio_row(self, budget: str, ms: float, limit: float) -> dict:
        ratio = ms / self.floor_ms
        return {"budget": budget,
                "measured": f"{ms:.1f} ms = {ratio:.2f}× (floor {self.floor_ms:.1f} ms)",
                "target": f"≤ {limit:g}× floor", "ok": ratio <= limit}


def print_rows(rows, *args) -> None:
    """`python bench/bench_<area>.py`: that area's rows alone, without the shared runner."""
    for row in rows(Context(), *args):
        print(row)


def log_block() -> bytes:
    """1,000 varied log lines (levels, colours, ids) the log budgets repeat."""
    levels = ["INFO ", "DEBUG", "WARN ", "DEBUG", "INFO ", "TRACE", "ERROR", "INFO "]
    lines = []
    for i in range(1000):
        level = levels[i % len(levels)].strip()
        colour = "\x1b[33m" if level == "WARN" else ("\x1b[31m" if level == "ERROR" else "")
        reset = "\x1b[0m" if colour else ""
        lines.append(f"2024-11-30T12:{i % 60:02d}:{i % 59:02d}.{i:03d}Z {colour}{level:5}{reset} "
                     f"worker-{i % 7} request id={i * 7919 % 100000:05d} path=/api/v1/items/{i}"
                     f" took {i % 97} ms status={200 if i % 13 else 500}\n")
    return "".join(lines).encode()


def log_file(mb: int, repeat: int = 1) -> str:
    """bench/work/log-<mb>mb.txt, at least `mb` MB of `log_block()` (written `repeat` blocks
    at a time), built once and reused."""
    path = os.path.join(WORK, f"log-{mb}mb.txt")
    if os.path.exists(path) and os.path.getsize(path) >= mb * 1_000_000:
        return path
    os.makedirs(WORK, exist_ok=True)
    data = log_block() * repeat
    tmp = path + ".tmp"
    with open(tmp, "wb") as f:
        written = 0
        while written < mb * 1_000_000:
            f.write(data)
            written += len(data)
    os.replace(tmp, path)
    return path


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

    # Measure what users run: tools that find their .pyc files. With this set (some sandboxes
    # and CI images do), every measured start would compile its modules again.
    os.environ.pop("PYTHONDONTWRITEBYTECODE", None)
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
                    f"Each ratio is against the floor measured alternately with the command: "
                    f"the median of the per-pair ratios over repeated runs (a floor shown "
                    f"with a ratio is the one those pairs imply). Areas: "
                    f"{', '.join(timings)}.\n\n"
                    f"{text}\n\n**{verdict}**\n\n{why}\n{profiles}")
    return 1 if failing else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
