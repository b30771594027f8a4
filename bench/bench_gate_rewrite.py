"""Budgets of cc-gate and cc-rewrite (ARCHITECTURE §9, issue 4).

- `cc-rewrite 'git status'` and `cc-gate 'git status'` as ratios to `python3 -I -S -c pass`
  (target ≤ 2× each), with a realistic Claude settings file in place for the gate;
- rewriting, and gating, 10,000 realistic agent commands in one process (commands per second;
  target ≥ 2,000/s, i.e. under half a millisecond of work per agent command — most of it
  cc-peel's);
- one record through `cc-gate | cc-rewrite` as two processes (informational: the hook's own
  budget is cc-hook's).

Runs with a private HOME and CTXCRL_HOME, never the user's. `python bench/bench_gate_rewrite.py`
prints the rows without the shared runner.
"""
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(HERE)

CLAUDE_SETTINGS = {
    "permissions": {
        "allow": ["Bash(git status)", "Bash(git diff:*)", "Bash(git log:*)", "Bash(git add:*)",
                  "Bash(ls:*)", "Bash(cat:*)", "Bash(grep:*)", "Bash(rg:*)", "Bash(pytest:*)",
                  "Bash(cargo test:*)", "Bash(cargo build:*)", "Bash(npm test:*)",
                  "Bash(npm run lint)", "Bash(tail:*)", "Bash(head:*)", "Bash(wc:*)",
                  "Read(**)", "WebFetch(domain:docs.python.org)"],
        "ask": ["Bash(git commit:*)", "Bash(rm:*)"],
        "deny": ["Bash(git push --force:*)", "Bash(git * --force *)", "Bash(rm -rf /:*)",
                 "Bash(curl:*)", "Read(./.env)"],
    },
}

# What agents send, by shape; {f}, {n}, {t}, {b} are filled in at random.
TEMPLATES = [
    "git status", "git status --short", "git diff", "git diff --stat", "git diff HEAD~{n}",
    "git diff {f}", "git log --oneline -{n}", "git log -n {n} --format='%h %s'",
    "git show HEAD", "git add {f} && git commit -m 'fix: {t}'", "git add -A",
    "git commit -m \"feat: {t}\"", "git push origin {b}", "git checkout -b {b}",
    "git branch -a", "git stash && git pull --rebase && git stash pop", "git fetch origin",
    "cd src && git status", "git -C {b} status", "git --no-pager log -{n}",
    "cargo test", "cargo test 2>&1 | tail -{n}", "cargo build --release 2>&1 | head -{n}",
    "cargo clippy -- -D warnings", "pytest -q", "pytest tests/test_{t}.py -x -q",
    "python -m pytest -q 2>&1 | tail -{n}", "uv run pytest -k {t}", "npm test",
    "npm run build", "npm run lint -- --fix", "npx vitest run", "npx tsc --noEmit",
    "ls", "ls -la", "ls -la {f}", "ls src/ | wc -l", "find . -name '*.py' | head -{n}",
    "cat {f}", "head -n {n} {f}", "tail -{n} {f}", "tail -f log.txt", "cat {f} | grep {t}",
    "grep -rn {t} src/", "rg {t} --type py", "grep -c {t} {f}", "git log | grep {t}",
    "wc -l {f}", "mkdir -p build && cd build && cmake ..", "make -j4 2>&1 | tail -{n}",
    "go test ./...", "go build ./... && go vet ./...", "docker ps", "docker compose up -d",
    "echo $(git rev-parse HEAD)", "FOO=1 timeout 60 pytest -q", "time cargo build",
    "git diff > changes.patch", "ls 2>/dev/null", "sudo apt-get install -y jq",
    "for f in *.py; do python -m py_compile $f; done", "cat <<'EOF' > {f}\nhello\nEOF",
    "CTXCRL_DISABLED=1 git status", "gh pr list --json number,title", "gh pr view {n}",
    "curl -s http://localhost:8000/health | jq .", "ps aux | grep python",
    "rm -rf build/ && mkdir build", "pip install -e '.[dev]'", "ruff check . && mypy src",
]
FILES = ["README.md", "src/main.py", "src/lib.rs", "package.json", "tests/test_app.py",
         "Cargo.toml", "docs/guide.md", "app/models/user.py"]
WORDS = ["parser", "login", "cache", "retry", "timeout", "render", "config", "auth"]


def agent_commands(count: int = 10_000, seed: int = 4) -> list:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        template = rng.choice(TEMPLATES)
        out.append(template.format(f=rng.choice(FILES), n=rng.randint(1, 50),
                                   t=rng.choice(WORDS), b=rng.choice(["main", "dev", "fix-1"])))
    return out


def _private_env(tmp: str) -> dict:
    env = dict(os.environ)
    env["HOME"] = os.path.join(tmp, "home")
    env["CTXCRL_HOME"] = os.path.join(tmp, "ctxcrl")
    for var in ("CTXCRL_FILTER_BIN", "CTXCRL_DISABLED", "CLAUDE_CONFIG_DIR"):
        env.pop(var, None)
    os.makedirs(os.path.join(env["HOME"], ".claude"), exist_ok=True)
    with open(os.path.join(env["HOME"], ".claude", "settings.json"), "w") as f:
        json.dump(CLAUDE_SETTINGS, f, indent=2)
    os.makedirs(env["CTXCRL_HOME"], exist_ok=True)
    return env


_THROUGHPUT = r"""
import sys, time, json
sys.path[:0] = {paths!r}
from bench_gate_rewrite import agent_commands
from cc_rewrite.rewrite import rewrite, Catalogue
from cc_rewrite.refusals import RewriteSettings
from cc_gate.agents import load_rules
from cc_gate.decision import decide
commands = agent_commands()
settings = RewriteSettings.from_config()
catalogue = Catalogue("/tmp")
rewrite("git status", catalogue, settings)
start = time.perf_counter()
changed = sum(rewrite(c, catalogue, settings).changed for c in commands)
rewrite_s = time.perf_counter() - start
rules = load_rules("claude", "/tmp")
start = time.perf_counter()
verdicts = [decide(c, rules).decision for c in commands]
gate_s = time.perf_counter() - start
print(json.dumps({{"n": len(commands), "rewrite_s": rewrite_s, "changed": changed,
                  "gate_s": gate_s, "denied": verdicts.count("deny"),
                  "allowed": verdicts.count("allow")}}))
"""


def _compile_packages(ctx) -> None:
    """Write the .pyc files first: with PYTHONDONTWRITEBYTECODE set (as in some shells) an
    edited module is recompiled on every run, which is not what an installed tool pays."""
    dirs = [os.path.join(REPO, d) for d in ("ctxcrl", "cc-lex", "cc-peel", "cc-gate", "cc-rewrite",
                                             "cc-filter", "cc-track")]
    subprocess.run([ctx.python, "-m", "compileall", "-q", *dirs], capture_output=True)


def rows(ctx) -> list:
    _compile_packages(ctx)
    with tempfile.TemporaryDirectory(prefix="ctxcrl-bench-gate-") as tmp:
        env = _private_env(tmp)
        workdir = os.path.join(tmp, "home", "project")
        os.makedirs(workdir, exist_ok=True)
        result = []
        for tool, limit in (("cc-rewrite", 2), ("cc-gate", 2)):
            argv = [ctx.bin(tool), "git status"]
            subprocess.run(argv, env=env, cwd=workdir, capture_output=True)  # build caches
            ms = ctx.time_cmd(argv, runs=30, env=env)
            result.append(ctx.ratio_row(f"`{tool} 'git status'`", ms, limit))
        record = json.dumps({"agent": "claude", "cwd": workdir,
                             "command": "git add . && cargo test 2>&1 | tail -20"}).encode()
        ms = ctx.time_cmd(["sh", "-c", f"{ctx.bin('cc-gate')} | {ctx.bin('cc-rewrite')}"],
                          runs=20, stdin=record + b"\n", env=env)
        result.append({"budget": "one record through `cc-gate | cc-rewrite` (two processes)",
                       "measured": f"{ms:.1f} ms = {ms / ctx.floor_ms:.2f}×",
                       "target": "- (informational)", "ok": None})

        script = _THROUGHPUT.format(paths=[HERE])
        proc = subprocess.run([ctx.python, "-c", script], env=env, cwd=workdir,
                              capture_output=True, text=True, timeout=300)
        if proc.returncode != 0:
            tail = (proc.stderr.strip().splitlines() or ["?"])[-1]
            raise RuntimeError(f"throughput run failed: {tail}")
        figures = json.loads(proc.stdout.strip().splitlines()[-1])
        n = figures["n"]
        rate = n / figures["rewrite_s"]
        result.append({"budget": f"cc-rewrite: {n:,} agent commands in one process",
                       "measured": f"{rate:,.0f} commands/s ({figures['changed']:,} rewritten)",
                       "target": "≥ 2,000 commands/s", "ok": rate >= 2000})
        rate = n / figures["gate_s"]
        result.append({"budget": f"cc-gate: {n:,} agent commands in one process",
                       "measured": f"{rate:,.0f} commands/s ({figures['allowed']:,} allow, "
                                   f"{figures['denied']:,} deny)",
                       "target": "≥ 2,000 commands/s", "ok": rate >= 2000})
        return result


if __name__ == "__main__":
    sys.path.insert(0, HERE)
    from run import Context  # noqa: E402

    for row in rows(Context()):
        print(f"{row['budget']:<55} {row['measured']:<45} {row['target']:<22} {row['ok']}")
