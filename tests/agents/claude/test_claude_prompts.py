"""Claude Code's default setup with the user's approval automated (issue 24): the commands the
client asks about are compacted once approved, and parity holds.

`claude -p --permission-prompt-tool mcp__approver__approve` with approver.py (a recording MCP
server) stands in for the user: the client calls it wherever it would show its prompt. Each
session runs the same commands without and with the hook, no allow rules at all:
- the approver is asked the same number of times, about the same commands (with the hook: their
  rewritten form, `cc-filter run …`), and its deny is a deny both ways;
- every command has the same outcome (ran / refused), a command the client runs unasked stays
  unasked (no approver call);
- what ran with the hook reached the model compacted: a failing pytest, `npm install` of a
  local package folder (no network) and, when the agent user can run cargo
  (`harness.rust_bin()`), a failing `cargo test` — shorter, with the facts that matter
  (failing test, exit code).
The headless refusal without an approver is the permissions table's `prompt` rows.
"""
import json
import os
import shutil

import pytest

import client
import harness
import postexec
import projects

APPROVER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "approver.py")
DENY_WORD = "DENYME"
FAILING_TEST = "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n"


#: (name, command, approver answer or None when the client runs it unasked, facts the
#: compacted output keeps)
COMMANDS = [
    ("pytest-failing", "python3 -m pytest -q", "allow", ("test_add", "1 failed", "Exit code 1")),
    ("npm-install", "npm install --offline --no-audit --no-fund ./localdep", "allow",
     ("added 1 package",)),
    ("git-status", "git status", None, ("Makefile", "localdep/")),
    ("denied-by-user", f"python3 -m pytest -q -k {DENY_WORD}", "deny", ()),
    ("make", "make -s check", "allow", ("Exit code 2",)),
]
CARGO = ("cargo-test-failing", projects.CARGO_TEST, "allow",
         ("adds", "test result: FAILED", "Exit code 101"))


def prepare(ws, with_rust: bool) -> None:
    (ws.project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (ws.project / "test_calc.py").write_text(FAILING_TEST)
    local = ws.project / "localdep"
    local.mkdir()
    (local / "package.json").write_text(json.dumps({"name": "localdep", "version": "1.0.0",
                                                    "main": "index.js"}))
    (local / "index.js").write_text("module.exports = 1;\n")
    (ws.project / "Makefile").write_text("check:\n\t@echo checking\n\t@exit 2\n")
    if with_rust:
        projects.add_rust_crate(ws.project)
    harness.chown_tree(ws.root, ws.user)


def session(ws, commands, hook: bool):
    log = ws.root / f"approver-{'hook' if hook else 'plain'}.log"
    log.write_text("")
    os.chown(log, ws.user.uid, ws.user.gid)
    approver = ws.root / "approver.py"
    shutil.copy(APPROVER, approver)
    os.chmod(approver, 0o644)
    mcp = {"mcpServers": {"approver": {"command": harness.agent_python(),
                                       "args": [str(approver), str(log), "--deny", DENY_WORD]}}}
    flags = ["--mcp-config", json.dumps(mcp), "--permission-prompt-tool",
             "mcp__approver__approve"]
    if hook:
        client.install_hook(ws)
    run = client.run_claude(ws, commands, flags=flags, timeout=400)
    calls = [json.loads(line) for line in log.read_text().splitlines() if line.strip()]
    return run, calls


@pytest.fixture(scope="module")
def sessions():
    harness.install_client("claude")
    postexec.product_with_pytest()
    with_rust = harness.rust_bin() is not None
    table = COMMANDS + ([CARGO] if with_rust else [])
    ws = client.fresh_workspace()
    prepare(ws, with_rust)
    commands = [c[1] for c in table]
    plain = session(ws, commands, hook=False)
    for leftover in ("node_modules", "package.json", "package-lock.json"):
        path = ws.project / leftover
        if path.is_dir():
            shutil.rmtree(path)
        elif path.exists():
            path.unlink()
    hooked = session(ws, commands, hook=True)
    return table, plain, hooked, with_rust


def test_the_approver_is_asked_the_same_and_sees_the_rewritten_command(sessions):
    table, (plain_run, plain_calls), (hook_run, hook_calls), _ = sessions
    expected = [(c[1], c[2]) for c in table if c[2] is not None]
    assert [(c["request"]["input"]["command"], c["answer"]) for c in plain_calls] == expected, \
        plain_run.stderr[-800:]
    assert len(hook_calls) == len(plain_calls), (hook_calls, hook_run.stderr[-800:])
    for (command, answer), call in zip(expected, hook_calls):
        shown = call["request"]["input"]["command"]
        assert shown.endswith(f"cc-filter run {command}"), shown  # the prompt shows the rewrite
        assert call["answer"] == answer


def test_every_command_has_the_same_outcome(sessions):
    table, (plain_run, _), (hook_run, _), _ = sessions
    for i, (name, _command, answer, _facts) in enumerate(table):
        plain, hooked = plain_run.outcome_at(i), hook_run.outcome_at(i)
        assert plain == hooked, (name, plain, hooked, hook_run.text_at(i)[:300])
        assert plain == (harness.REFUSED if answer == "deny" else harness.RAN), (name, plain)


def test_what_ran_reached_the_model_compacted(sessions):
    table, (plain_run, _), (hook_run, _), with_rust = sessions
    for i, (name, _command, answer, facts) in enumerate(table):
        if answer == "deny":
            continue
        plain, hooked = plain_run.text_at(i), hook_run.text_at(i)
        for fact in facts:
            assert fact in hooked, (name, fact, hooked)
            assert fact in plain, (name, fact, plain)
        if name != "make":  # make's short failure has nothing to cut: passed on as it is
            assert len(hooked) < len(plain), (name, len(hooked), len(plain), hooked)
    if not with_rust:
        pytest.skip("no Rust toolchain the agent user can reach (cargo test not measured)")
