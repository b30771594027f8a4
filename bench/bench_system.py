"""System-wide budgets (ARCHITECTURE §9, issue 8) that no single tool's area covers:

- startup of EVERY tool on its hot invocation (no `--help`), side by side with the floor
  (`python3 -I -S -c pass`, the real interpreter), with the modules each one imports beyond the
  bare interpreter (`python -X importtime`): a failing row says why;
- the installed hook on one event for Claude Code, Cursor and Gemini CLI side by side (Claude's
  is also in bench_hook, with each stage's imports), target ≤ 4× the floor, with the CPU time
  of all the hook's processes;
- 1 GB of log lines through `cc-filter <name>` and `cc-filter run cat`: time against a plain
  Python line copy of the same file (≤ 3×) and peak memory (< 50 MB). The filter is the
  budget's typical log filter (bench_filter's, at 100 MB); the same filter plus a `replace`
  rule that rewrites every line is shown beside it, as information: one more regex
  substitution per line (~0.2 µs each in Python's `re`, ~1 s per GB) is what it measures;
- savings over every captured fixture: filters with fixtures, median savings on fixtures of
  20+ lines (issue 7: ≥ 75 %), filters under 60 %, fixtures that lost a key fact (0).

Everything runs with a private HOME and CTXCRL_HOME. The 1 GB file lives in bench/work/
(git-ignored) and is built once from a ~14 MB block. `python bench/bench_system.py [part]`
prints the rows without the shared runner (parts: startup, hook, gigabyte, savings).
"""
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
import bench_gemini  # noqa: E402  (as_client: the hook started by a process named gemini)

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)
GB_MB = 1000
GB_ROUNDS = 3  # each 1 GB command runs this many times, alternating; the best run counts
STARTUP_TARGET = 2.0
HOOK_TARGET = 4.0
HEAVY = ("re", "json", "subprocess", "signal", "docopt", "tomllib", "sqlite3", "hashlib",
         "tempfile", "pathlib", "shlex", "typing", "dataclasses", "enum", "inspect",
         "tabulate", "importlib.metadata", "datetime", "uuid", "argparse", "logging")

SYSTEM_FILTER = r'''schema_version = 1
[filter]
name = "sys-log"
description = "benchmark: a typical log filter (every common stage)"
match_command = "^sys-log(\\s|$)"
strip_ansi = true
replace = [{ pattern = "^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z ", replacement = "" }]
strip_lines_matching = ["^(\\S+ )?(DEBUG|TRACE) "]
truncate_lines_at = 200
head_lines = 40
tail_lines = 40
'''

# bench_filter's 100 MB filter, the same stages without `replace`: the two sizes compare.
PLAIN_FILTER = r'''schema_version = 1
[filter]
name = "sys-log-plain"
description = "benchmark: a typical log filter without replace"
match_command = "^sys-log-plain(\\s|$)"
strip_ansi = true
strip_lines_matching = ["^\\S+ (DEBUG|TRACE) "]
truncate_lines_at = 200
head_lines = 40
tail_lines = 40
'''

CLAUDE_SETTINGS = {"permissions": {"allow": ["Bash(git status)", "Bash(ls:*)"],
                                   "deny": ["Bash(git push --force:*)"]}}


# --- shared -----------------------------------------------------------------------------------

def _private_env(tmp: str) -> dict:
    env = dict(os.environ)
    env.update(HOME=os.path.join(tmp, "home"), CTXCRL_HOME=os.path.join(tmp, "ctxcrl"),
               LANG="C.UTF-8")
    for var in ("CTXCRL_FILTER_BIN", "CTXCRL_DISABLED", "CTXCRL_TEE_DIR", "CTXCRL_DB_PATH",
                "CLAUDE_CONFIG_DIR", "PYTHONDONTWRITEBYTECODE", "XDG_CONFIG_HOME",
                "XDG_DATA_HOME"):
        env.pop(var, None)
    for directory in (env["HOME"], env["CTXCRL_HOME"]):
        os.makedirs(directory, exist_ok=True)
    _write(os.path.join(env["HOME"], ".claude", "settings.json"), json.dumps(CLAUDE_SETTINGS))
    _write(os.path.join(env["HOME"], ".cursor", "cli-config.json"), json.dumps(
        {"permissions": {"allow": ["Shell(git status)", "Shell(ls)"],
                         "deny": ["Shell(git push --force)"]}}))
    _write(os.path.join(env["HOME"], ".gemini", "settings.json"), json.dumps(
        {"tools": {"allowed": ["run_shell_command(git status)", "run_shell_command(ls)"],
                   "exclude": ["run_shell_command(git push --force)"]}}))
    _write(os.path.join(env["CTXCRL_HOME"], "filters", "sys-log.toml"), SYSTEM_FILTER)
    _write(os.path.join(env["CTXCRL_HOME"], "filters", "sys-log-plain.toml"), PLAIN_FILTER)
    return env


def _write(path: str, text: str) -> None:
    os.makedirs(os.path.dirname(path), exist_ok=True)
    with open(path, "w") as f:
        f.write(text)


def _all_modules(ctx, argv, stdin, env, cwd) -> set:
    done = subprocess.run([ctx.python, "-X", "importtime", *argv], input=stdin,
                          capture_output=True, env=env, cwd=cwd, timeout=60)
    return {line.split("|")[-1].strip() for line in done.stderr.decode(errors="replace")
            .splitlines() if line.startswith("import time:") and line.count("|") == 2}


def _ratio(ctx, ms: float) -> float:
    return ms / ctx.floor_ms


# --- 1. startup of every tool ----------------------------------------------------------------

#: what the hook rows send: two commands every agent's rules above let run without asking (a
#: command that would ask is left alone by the hook, so it would time the no-rewrite path)
HOOK_COMMAND = "git status && ls -la"


def _claude_event(cwd: str, command: str = HOOK_COMMAND) -> bytes:
    return json.dumps({
        "session_id": "bench", "transcript_path": "/dev/null", "cwd": cwd,
        "permission_mode": "default", "hook_event_name": "PreToolUse", "tool_name": "Bash",
        "tool_input": {"command": command, "description": "bench"}}).encode()


def startup_rows(ctx, env, project) -> list:
    record = json.dumps({"agent": "claude", "cwd": project, "command": "git status",
                         "input": {"command": "git status", "description": "bench"},
                         "event": {"hook_event_name": "PreToolUse"}, "decision": "ask",
                         "reason": "no allow rule matches: git status",
                         "rewritten": "cc-filter run git status"}).encode() + b"\n"
    status = (b"On branch main\nYour branch is up to date with 'origin/main'.\n\n"
              b"nothing to commit, working tree clean\n")
    hot = [
        ("cc-lex", ["cc-lex", "git status"], None, STARTUP_TARGET),
        ("cc-peel", ["cc-peel", "git status"], None, STARTUP_TARGET),
        ("cc-gate", ["cc-gate", "git status"], None, STARTUP_TARGET),
        ("cc-rewrite", ["cc-rewrite", "git status"], None, STARTUP_TARGET),
        ("cc-filter run", ["cc-filter", "run", "true"], None, STARTUP_TARGET),
        ("cc-filter <name>", ["cc-filter", "git-status"], status, STARTUP_TARGET),
        ("cc-hook decode", ["cc-hook", "decode", "claude"], _claude_event(project),
         STARTUP_TARGET),
        ("cc-hook encode", ["cc-hook", "encode", "claude"], record, STARTUP_TARGET),
        ("cc-track (cold: report --format=json, empty db)",
         ["cc-track", "report", "--format=json"], None, None),
    ]
    baseline = ctx.import_baseline(env)
    ms = ctx.time_cmd([ctx.python, "-c", "pass"], runs=20, env=env, cwd=project)
    rows = [{"budget": "startup: the tools' interpreter alone (`<venv>/bin/python -c pass`)",
             "measured": f"{ms:.1f} ms = {_ratio(ctx, ms):.2f}× (site and .pth files included)",
             "target": "- (what every console script pays before its first import)",
             "ok": None}]
    for label, argv, stdin, limit in hot:
        argv = [ctx.bin(argv[0]), *argv[1:]]
        for _ in range(2):  # bytecode, caches, the filter index
            subprocess.run(argv, input=stdin, capture_output=True, env=env, cwd=project)
        ms = ctx.time_cmd(argv, runs=20, stdin=stdin, env=env, cwd=project)
        ratio = _ratio(ctx, ms)
        profile, total = ctx.import_profile(argv, stdin, env, baseline, cwd=project)
        profile.sort(key=lambda item: -item[1])  # largest first
        modules = _all_modules(ctx, argv, stdin, env, project)
        heavy = [m for m in HEAVY if m in modules]
        top = ", ".join(f"{name} {ms_:.1f}" for name, ms_ in profile[:8]) or "-"
        ok = None if limit is None else (ratio <= limit and not heavy)
        rows.append({
            "budget": f"startup: {label}",
            "measured": f"{ms:.1f} ms = {ratio:.2f}×; heavy imports: {', '.join(heavy) or 'none'}",
            "target": "-" if limit is None else f"≤ {limit:g}× floor, no heavy import",
            "ok": ok,
            "detail": f"`{' '.join([os.path.basename(argv[0]), *argv[1:]])}` imports "
                      f"{total:.1f} ms beyond the interpreter (cumulative ms, largest first): "
                      f"{top}",
        })
    return rows


# --- 2. the hook for every hook agent ---------------------------------------------------------

def hook_rows(ctx, env, project) -> list:
    events = {
        "claude": json.loads(_claude_event(project)),
        "cursor": {"conversation_id": "bench", "generation_id": "g", "hook_event_name":
                   "preToolUse", "workspace_roots": [project], "tool_name": "Shell",
                   "tool_input": {"command": HOOK_COMMAND, "cwd": project}},
        "gemini": {"session_id": "bench", "cwd": project, "hook_event_name": "BeforeTool",
                   "tool_name": "run_shell_command",
                   "tool_input": {"command": HOOK_COMMAND, "description": "bench"}},
    }
    rows = []
    for agent, event in events.items():
        done = subprocess.run([ctx.bin("cc-hook"), "init", "--agent", agent], env=env,
                              cwd=project, capture_output=True, text=True, timeout=120)
        script = os.path.join(env["CTXCRL_HOME"], "hooks", f"ctxcrl-hook-{agent}.sh")
        if done.returncode != 0 or not os.path.exists(script):
            rows.append({"budget": f"hook: one {agent} event", "measured":
                         (done.stdout + done.stderr).strip()[-200:], "target": "installs",
                         "ok": False})
            continue
        body = json.dumps(event).encode()
        command = ["/bin/sh", "-c", script]
        if agent == "gemini":  # the gate reads Gemini's approval mode from its client's flags
            command = bench_gemini.as_client(os.path.dirname(env["HOME"]), command)
        answer = subprocess.run(command, input=body, capture_output=True,
                                env=env, cwd=project, timeout=60).stdout
        ms = ctx.time_cmd(command, runs=20, stdin=body, env=env, cwd=project)
        ratio = _ratio(ctx, ms)
        cpu = ctx.cpu_ms(command, body, env, project)
        floor_cpu = ctx.cpu_ms(ctx.floor_argv, None, env, project)
        rewritten = b"cc-filter run git status" in answer
        rows.append({"budget": f"hook: one {agent} event through the installed script",
                     "measured": f"{ms:.1f} ms = {ratio:.2f}×; CPU of all its processes "
                                 f"{cpu:.0f} ms = {cpu / floor_cpu:.1f}× the floor's"
                                 + ("" if rewritten else "; NO REWRITE in the answer"),
                     "target": f"≤ {HOOK_TARGET:g}× floor", "ok": ratio <= HOOK_TARGET and
                     rewritten})
    return rows


# --- 3. a gigabyte ----------------------------------------------------------------------------

def _warm(path: str) -> None:
    """Read the file once so every measurement finds it in the page cache."""
    with open(path, "rb") as f:
        while f.read(1 << 24):
            pass


def _probe(ctx, argv, stdin, env):
    """(exit code, wall ms, peak RSS MB, CPU s) of one run."""
    code, ms, cpu_ms, rss_mb = ctx.probe(argv, stdin, env, timeout=900)
    return code, ms, rss_mb, cpu_ms / 1000


def gigabyte_rows(ctx, env, project) -> list:
    path = ctx.log_file(GB_MB, repeat=100)  # written ~14 MB at a time
    size_mb = os.path.getsize(path) / 1e6
    _warm(path)
    cc_filter = ctx.bin("cc-filter")
    subprocess.run([cc_filter, "sys-log"], stdin=subprocess.DEVNULL, env=env, cwd=project,
                   capture_output=True)
    # (label, argv, stdin, held to the 3x budget)
    runs = [("copy", ctx.line_copy_argv, path, False),
            (f"{size_mb:.0f} MB | cc-filter sys-log-plain (TOML: ansi, strip, truncate, head/tail)",
             [cc_filter, "sys-log-plain"], path, True),
            (f"{size_mb:.0f} MB | cc-filter sys-log (the same plus a `replace` on every line)",
             [cc_filter, "sys-log"], path, False),
            (f"cc-filter run cat <{size_mb:.0f} MB file> (read filter)",
             [cc_filter, "run", "cat", path], None, True)]
    probes: dict = {run[0]: [] for run in runs}
    for _round in range(GB_ROUNDS):  # side by side: each round runs every command once
        for label, argv, stdin, _budget in runs:
            probes[label].append(_probe(ctx, argv, stdin, env))
    copies = probes.pop("copy")
    measured = [(label, budget, (next((p[0] for p in probes[label] if p[0] != 0), 0),
                                 min(p[1] for p in probes[label]),
                                 max(p[2] for p in probes[label]),
                                 min(p[3] for p in probes[label])))
                for label, _argv, _stdin, budget in runs[1:]]
    copy_ms = min(c[1] for c in copies)
    copy_cpu = min(c[3] for c in copies)
    rows = [{"budget": f"{size_mb:.0f} MB plain Python line copy (baseline, best of "
                       f"{GB_ROUNDS}, alternating with the rows below)",
             "measured": f"{copy_ms / 1000:.1f} s ({copy_cpu:.1f} s CPU), "
                         f"{max(c[2] for c in copies):.0f} MB",
             "target": "-", "ok": None}]
    for label, budget, (code, ms, rss, cpu) in measured:
        wall_ratio, cpu_ratio = ms / copy_ms, cpu / copy_cpu
        rows.append({"budget": label,
                     "measured": f"{ms / 1000:.1f} s = {wall_ratio:.2f}× copy "
                                 f"(CPU {cpu:.1f} s = {cpu_ratio:.2f}×), exit {code}",
                     "target": "≤ 3× copy (wall)" if budget else
                               "- (information; must exit 0)",
                     "ok": (wall_ratio <= 3 if budget else None) if code == 0 else False})
        rows.append({"budget": f"{label.split(' (')[0]}: peak RSS",
                     "measured": f"{rss:.0f} MB", "target": "< 50 MB", "ok": rss < 50})
    return rows


# --- 4. savings over every fixture -----------------------------------------------------------

_SAVINGS = r"""
import json, os, statistics, sys, tempfile
sys.path[:0] = {paths!r}
from cc_filter import cases
results = []
with tempfile.TemporaryDirectory() as tmp:
    for case in cases.discover({fixtures!r}):
        try:
            r = cases.run_fixture_case(case, tee_dir=os.path.join(tmp, "tee"), cwd=tmp)
        except Exception as exc:
            results.append([case.filter_name, None, 0, [f"{{type(exc).__name__}}: {{exc}}"]])
            continue
        results.append([case.filter_name, r.savings, r.raw_lines, list(r.failures)])
print(json.dumps({{"results": results}}))
"""


def _builtin_filters(ctx, env) -> list:
    done = subprocess.run([ctx.bin("cc-filter"), "list"], capture_output=True, text=True,
                          env=env, timeout=60)
    names = []
    for line in done.stdout.splitlines()[2:]:
        words = line.split()
        if len(words) > 2 and words[1] == "built-in":
            names.append(words[0])
    return names


def _first_filters(name: str) -> bool:
    """The git and files filters (issue 3); the rest is the catalogue issue 7 measures."""
    return name.startswith("git-") or name in ("ls", "find", "tree", "grep", "read")


def savings_rows(ctx, env) -> list:
    paths = [os.path.join(REPO, d) for d in ("cc-filter", "cc-track", "cc-peel", "cc-lex", "ctxcrl")]
    script = _SAVINGS.format(paths=paths, fixtures=os.path.join(REPO, "tests", "fixtures"))
    done = subprocess.run([ctx.python, "-c", script], capture_output=True, text=True, env=env,
                          timeout=600)
    if done.returncode != 0:
        raise RuntimeError((done.stderr.strip().splitlines() or ["?"])[-1])
    data = json.loads(done.stdout.strip().splitlines()[-1])
    results = data["results"]
    by_filter: dict = {}
    for name, savings, lines, failures in results:
        by_filter.setdefault(name, []).append((savings, lines, failures))
    big = [s for _, s, n, _ in results if s is not None and n >= 20]
    low = sorted(f"{name} {100 * min(s for s, n, _ in rs if s is not None and n >= 20):.0f}%"
                 for name, rs in by_filter.items()
                 if any(s is not None and n >= 20 for s, n, _ in rs)
                 and min(s for s, n, _ in rs if s is not None and n >= 20) < 0.60)
    lost = [f"{name}: {fails[0]}" for name, _, _, fails in results if fails]
    builtin = _builtin_filters(ctx, env)
    without = sorted(set(builtin) - set(by_filter))
    median = statistics.median(big) if big else 0.0
    catalogue = [s for name, s, n, _ in results
                 if s is not None and n >= 20 and not _first_filters(name)]
    cat_median = statistics.median(catalogue) if catalogue else 0.0
    return [
        {"budget": "savings: fixtures of 20+ lines, median over all filters",
         "measured": f"{100 * median:.0f}% over {len(big)} fixtures "
                     f"({len(results)} fixtures, {len(by_filter)} filters)",
         "target": "-", "ok": None},
        {"budget": "savings: the issue-7 catalogue (all but git/files), median on 20+ lines",
         "measured": f"{100 * cat_median:.0f}% over {len(catalogue)} fixtures",
         "target": "≥ 75%", "ok": bool(catalogue) and cat_median >= 0.75},
        {"budget": "savings: filters under 60% on a 20+-line fixture",
         "measured": ", ".join(low) or "none", "target": "none", "ok": not low},
        {"budget": "fidelity: fixture cases that lose a key fact or fail a check",
         "measured": f"{len(lost)}" + (f": {'; '.join(lost[:6])}" if lost else ""),
         "target": "0", "ok": not lost},
        {"budget": "coverage: built-in filters without a fixture case",
         "measured": ", ".join(without) or "none", "target": "none", "ok": not without},
    ]


# --- the area ---------------------------------------------------------------------------------

PARTS = ("startup", "hook", "gigabyte", "savings")


def rows(ctx, parts=PARTS) -> list:
    tmp = tempfile.mkdtemp(prefix="ctxcrl-bench-system-")
    try:
        env = _private_env(tmp)
        project = os.path.join(tmp, "project")
        os.makedirs(os.path.join(project, ".git"))
        out = []
        for part, fn in (("startup", lambda: startup_rows(ctx, env, project)),
                         ("hook", lambda: hook_rows(ctx, env, project)),
                         ("gigabyte", lambda: gigabyte_rows(ctx, env, project)),
                         ("savings", lambda: savings_rows(ctx, env))):
            if part not in parts:
                continue
            try:
                out.extend(fn())
            except Exception as exc:  # one broken part must not hide the others
                out.append({"budget": f"system {part}: error",
                            "measured": f"{type(exc).__name__}: {exc}"[:300], "target": "-",
                            "ok": False})
        return out
    finally:
        shutil.rmtree(tmp, ignore_errors=True)


if __name__ == "__main__":  # the script's folder is sys.path[0]: run.py is importable
    from run import print_rows

    print_rows(rows, tuple(sys.argv[1:]) or PARTS)
