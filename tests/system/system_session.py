"""The scripted agent session every agent replays (tests/system/test_session_<agent>.py).

The agent explores a small Python project, runs its failing tests, reads the full output it was
pointed to, reads the code, fixes it, re-runs the tests, looks at the diff, commits, looks at
the log, counts files (a pipe that must stay raw), tries a force push (denied by the agent's
own rule) and pushes. Each step is asked to the installed hook, the answer's command is run with
bash in the project, and what the agent sees is checked. At the end `cc-track report` must
account for every filtered command exactly once, with positive savings.
"""
import json
import os
import re

from conftest import CALC, CALC_FIXED
from system_agents import AGENTS, Checks, Session

# The user allows what the session runs (the hook rewrites only what the agent would run
# without asking: permission parity), and denies a force push.
ALLOW = ["ls", "git status", "git diff", "git log", "cat", "grep", "python -m pytest", "git add",
         "git commit", "git push", "head"]
DENY = ["git push --force"]
INSERTED = re.compile(r"(?:'[^']*/)?(?:\S*/)?cc-filter'? run (?:--then=\S+ )?")
HINT = re.compile(r"\[full output: ([^\]]+)\]")


def removed_insertions(command: str) -> str:
    """The command with every inserted `cc-filter run ` (maybe an absolute path, maybe with the
    `--then=` that names the pipe reading it) deleted."""
    return INSERTED.sub("", command)


def rewrites(command: str) -> int:
    return len(INSERTED.findall(command))


def install(box, agent_name: str) -> None:
    agent = AGENTS[agent_name]
    relative, rules = agent.rules_file(ALLOW, DENY)
    box.write_json(relative, rules)
    done = box.tool("cc-hook", "init", "--agent", agent_name, check=False)
    assert done.returncode == 0, f"cc-hook init --agent {agent_name}: {done.stdout}{done.stderr}"
    if relative == agent.settings:  # registered in the file holding the rules: all kept
        after = box.read_json(relative)
        for key, value in rules.items():
            assert after.get(key) == value, f"init lost {key!r} from ~/{relative}: {after}"


def run_session(box, agent_name: str) -> tuple[Session, Checks, int]:
    """Installs, replays the session; returns it, its checks, and the number of cc-filter runs
    the agent executed (each must be tracked exactly once)."""
    install(box, agent_name)
    (box.project / "notes.txt").write_text("todo: fix add\n")
    s = Session(box, AGENTS[agent_name])
    c = Checks()
    runs = 0

    def step(command, *, decision, rewritten=1, code=0):
        nonlocal runs
        st = s.run(command)
        c.check(st.answer.decision == decision,
                f"{command}: decision {st.answer.decision!r}, expected {decision!r}", st)
        if decision == "deny":
            return st
        n = rewrites(st.command)
        c.check(n == rewritten, f"{command}: {n} segment(s) rewritten, expected {rewritten}", st)
        c.check(removed_insertions(st.command) == command,
                f"{command}: the rewrite changed more than inserting `cc-filter run `", st)
        c.check(st.exit_code == code, f"{command}: exit code {st.exit_code}, expected {code}", st)
        c.check("Traceback" not in st.output, f"{command}: a traceback reached the agent", st)
        runs += n
        return st

    # 1. explore
    st = step("ls", decision="allow")
    for name in ("calc.py", "test_calc.py", "README.md", "notes.txt"):
        c.check(name in st.output, f"ls: {name} missing", st)

    st = step("git status", decision="allow")
    c.check("main" in st.output, "git status: the branch is not named", st)
    c.check("notes.txt" in st.output, "git status: the untracked file is not named", st)

    st = step("grep -rn add .", decision="allow")
    for fact in ("calc.py", "test_calc.py", "def add(a, b):", "from calc import add"):
        c.check(fact in st.output, f"grep: {fact!r} missing", st)
    c.check(re.search(r"calc\.py(:4:|:\s*\n\s*4:) def add", st.output),
            "grep: the line number of `def add` is missing", st)

    # 2. the failing tests
    st = step("python -m pytest -q", decision="allow", code=1)
    raw, raw_code = s.raw("python -m pytest -q")
    c.check(raw_code == 1, "pytest without contextcrawler should fail too")
    for fact in ("test_add", "assert", "== 5", "1 failed", "1 passed"):
        c.check(fact in st.output, f"pytest: {fact!r} missing from the failure report", st)
    c.check(len(st.output) < len(raw), f"pytest: no saving ({len(st.output)} ≥ {len(raw)} chars)",
            st)
    hint = HINT.search(st.output)
    if c.check(hint, "pytest: no [full output: …] hint for a failing run with dropped output",
               st):
        path = hint.group(1)
        if path.startswith("~/"):
            path = str(box.home) + path[1:]
        c.check(hint.group(1).startswith("~/.local/share/ctxcrl/tee/"),
                f"pytest: hint not under ~/.local/share/ctxcrl/tee: {hint.group(1)}", st)
        if c.check(os.path.isfile(path), f"pytest: hinted file {path} does not exist", st):
            c.check(os.stat(path).st_mode & 0o777 == 0o600, "tee file is not 0600")
            c.check(os.stat(os.path.dirname(path)).st_mode & 0o777 == 0o700,
                    "tee directory is not 0700")
            with open(path, encoding="utf-8", errors="replace") as f:
                kept = f.read()
            c.check("FAILURES" in kept and "test_add" in kept,
                    "pytest: the tee file does not hold the raw output")
            # The agent follows the hint as written.
            st = step(f"cat {hint.group(1)}", decision="allow")
            c.check("FAILURES" in st.output and "def test_add" in st.output,
                    "cat <tee file>: the full output is not shown", st)

    # 3. read, fix, re-run
    st = step("cat calc.py", decision="allow")
    c.check(st.output == CALC, "cat calc.py: a short file must come through verbatim", st)
    (box.project / "calc.py").write_text(CALC_FIXED)  # the agent's Write tool: no shell
    st = step("python -m pytest -q", decision="allow")
    c.check("2 passed" in st.output, "pytest after the fix: `2 passed` missing", st)
    c.check("failed" not in st.output, "pytest after the fix: still reports a failure", st)

    st = step("git diff", decision="allow")
    for fact in ("calc.py", "@@", "-    return a - b", "+    return a + b"):
        c.check(fact in st.output, f"git diff: {fact!r} missing", st)

    # 4. commit, log, a pipe that must stay raw
    st = step('git add -A && git commit -m "Fix add"', decision="allow", rewritten=2)
    c.check("Fix add" in st.output, "git commit: the commit is not confirmed", st)
    subject = box.sh("git log -1 --format=%s").stdout.strip()
    c.check(subject == "Fix add", f"git commit did not commit (HEAD is {subject!r})", st)
    c.check(box.sh("git status --porcelain").stdout == "", "git add -A missed files", st)

    st = step("git log | head -5", decision="allow")
    c.check("Fix add" in st.output, "git log | head -5: the new commit is missing", st)
    c.check(len(st.output.splitlines()) <= 5, "git log | head -5: more than 5 lines", st)

    if agent_name == "gemini":
        # No rule allows `wc`: headless Gemini refuses it (its tools.allowed denies every
        # other shell command), and the gate says so rather than leave it to the client.
        step("git ls-files | wc -l", decision="deny")
    else:
        st = step("git ls-files | wc -l", decision=None, rewritten=0)
        c.check(st.answer.command == "git ls-files | wc -l",
                "git ls-files | wc -l must reach the shell unchanged", st)
        c.check(st.output.strip() == "5", "git ls-files | wc -l: wrong count", st)

    # 5. a denied force push, then a normal one
    before = box.sh(f"git --git-dir={box.remote} rev-parse main").stdout
    st = step("git push --force", decision="deny")
    c.check(st.output is None, "git push --force was executed", st)
    c.check(st.answer.reason and "git push --force" in st.answer.reason,
            "the deny reason does not name the rule", st)
    c.check(box.sh(f"git --git-dir={box.remote} rev-parse main").stdout == before,
            "the remote changed after a denied push", st)

    st = step("git push", decision="allow")
    c.check("main" in st.output, "git push: the pushed branch is not named", st)
    after = box.sh(f"git --git-dir={box.remote} rev-parse main").stdout
    head = box.sh("git rev-parse HEAD").stdout
    c.check(after == head, "git push did not update the remote", st)
    return s, c, runs


def check_report(box, checks: Checks, runs: int) -> dict:
    """`cc-track report --format=json`: every filtered command once, positive savings."""
    done = box.tool("cc-track", "report", "--by-command", "--format=json", check=False)
    checks.check(done.returncode == 0, f"cc-track report exited {done.returncode}: {done.stderr}")
    report = json.loads(done.stdout)
    totals = report["totals"]
    checks.check(totals["commands"] == runs,
                 f"cc-track report counts {totals['commands']} commands, the agent ran {runs}")
    checks.check(totals["saved_tokens"] > 0, f"no tokens saved: {totals}")
    groups = [row["group"] for row in report["rows"]]
    for key in ("ls", "git status", "grep", "pytest", "cat", "git diff", "git add",
                "git commit", "git log", "git push"):
        checks.check(any(g.startswith(key) for g in groups), f"report: no row for {key}: {groups}")
    checks.check(not any(g.startswith("git ls-files") for g in groups),
                 "report: the raw `git ls-files | wc -l` was tracked")
    checks.check(not any("--force" in g for g in groups), "report: the denied push was tracked")
    again = json.loads(box.tool("cc-track", "report", "--format=json").stdout)
    checks.check(again["totals"]["commands"] == runs, "a second report counts differently")
    spool = box.data_dir / "spool.jsonl"
    checks.check(not spool.exists() or spool.read_text() == "",
                 "the spool still holds records after a report")
    return report


def replay_and_report(box, agent_name: str) -> None:
    """The whole test of one agent's session: replay it, check the report, fail on any check."""
    _, checks, runs = run_session(box, agent_name)
    check_report(box, checks, runs)
    checks.done()
