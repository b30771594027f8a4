"""pi 0.73.1 (`@mariozechner/pi-coding-agent`), the real client, offline against a scripted
model (a custom `openai-completions` provider in ~/.pi/agent/models.json, no login): the same
session with and without contextcrawler's extension (`cc-hook init --agent pi`).

pi has no permission rules and never asks: every command runs. Its extension filters after
execution (ARCHITECTURE §5 rule 1, §8): `tool_call` may only block a call (contextcrawler's own
`[gate]` denies, in config.toml), and `tool_result` replaces what the model receives with the
compacted output, failures included (pi's "Command exited with code N" line stays). So with
the hook every outcome is the one without it, except the `[gate]` denies it adds, and those
never run (a sentinel file and the remote's head prove it). One headless `pi -p` session runs
the whole table, one tool call per scenario. The driver and the shared tests:
postexec.PostExecTable.
"""
import dataclasses
import json
import shutil
import subprocess

import pytest
from harness import RAN, REFUSED, run_as_agent
from postexec import (FIRST_ROWS, BuildRows, HeadlessClient, PostExecTable, assert_compacted,
                      session)

#: contextcrawler's own rules (pi has none): the only denies there are
GATE = '[gate]\ndeny = ["git push:*"]\n'
SENTINEL = "denied.sentinel"
ENV = {"PI_OFFLINE": "1", "PI_SKIP_VERSION_CHECK": "1"}


def node_is_new_enough():
    done = subprocess.run(["node", "--version"], capture_output=True, text=True) \
        if shutil.which("node") else None
    if done is None or done.returncode != 0:
        return False
    major, minor = (int(x) for x in done.stdout.strip().lstrip("v").split(".")[:2])
    return (major, minor) >= (20, 6)  # the package's engines field


def outcome(text: str) -> str:
    """A blocked call's result is the extension's reason alone."""
    return REFUSED if text.startswith("contextcrawler: ") else RAN


def configure(ws, server) -> None:
    if not node_is_new_enough():
        pytest.skip("pi 0.73.1 needs node >= 20.6 (its package's engines)")
    ws.write(".config/ctxcrl/config.toml", GATE)
    models = {"providers": {"scripted": {
        "baseUrl": server.url + "/v1", "api": "openai-completions", "apiKey": "none",
        "compat": {"supportsDeveloperRole": False, "supportsReasoningEffort": False},
        "models": [{"id": "scripted", "name": "Scripted"}]}}}
    ws.write(".pi/agent/models.json", json.dumps(models, indent=2))
    ws.write(".pi/agent/settings.json", json.dumps({"quietStartup": True}))


PI = HeadlessClient(
    "pi", argv=lambda server: ["-p", "--provider", "scripted", "--model", "scripted",
                               "--no-session", "Work through the task."],
    outcome=outcome, configure=configure, env=lambda server: dict(ENV), timeout=240)


class TestPi(BuildRows, PostExecTable):
    CLIENT = PI
    # (name, command, outcome without the hook, outcome with it)
    SCENARIOS = [
        *FIRST_ROWS,
        # pi runs it (no rules of its own); the hook's [gate] deny refuses the whole call
        ("gate-denied push", f"touch ~/{SENTINEL} && git commit --allow-empty -qm denied-push "
                             "&& git push -q origin HEAD:main", RAN, REFUSED),
        # a spelling a prefix rule would miss: the gate peels it
        ("hidden push", "git commit --allow-empty -qm hidden-push && git -C . push -q origin "
                        "HEAD:main", RAN, REFUSED),
        ("no filter", "echo done", RAN, RAN),
        ("bypass", "CTXCRL_DISABLED=1 git status", RAN, RAN),
    ]
    ADDED_DENIES = {"gate-denied push", "hidden push"}

    def exit_code_shown(self, text: str, code: int) -> bool:
        return text.endswith(f"Command exited with code {code}")

    def test_no_denied_command_runs(self, runs):
        hooked = runs[True]["ws"]
        assert not (hooked.home / SENTINEL).exists()
        # without the hook pi runs them: the table's "ran" is a fact
        raw = runs[False]["ws"]
        assert (raw.home / SENTINEL).exists() and raw.remote_head() != runs[False]["initial"]
        refused = self.results(runs[True])
        assert refused["gate-denied push"].startswith("contextcrawler: deny rule git push:*")

    def test_the_model_receives_compacted_output(self, runs):
        assert_compacted(runs[False]["results"], runs[True]["results"])

    def test_a_failure_keeps_its_exit_code(self, runs):
        for run in runs.values():
            assert run["results"][1].endswith("\n\nCommand exited with code 1")

    def test_what_no_filter_takes_is_unchanged(self, runs):
        raw, hooked = self.results(runs[False]), self.results(runs[True])
        for name in ("no filter", "bypass"):  # `echo done`, the bypass: pi's own text, as is
            assert hooked[name] == raw[name]
        assert "(use \"git" in hooked["bypass"]

    def test_the_awareness_note_reaches_the_model(self, runs):
        def system(run):
            first = run["server"].chat_requests()[0]["messages"][0]
            return json.dumps(first.get("content"))

        assert "CTXCRL_DISABLED=1" in system(runs[True])
        assert "CTXCRL_DISABLED=1" not in system(runs[False])


def test_a_project_install_filters_too():
    project_install = dataclasses.replace(PI, init_args=("--project",))
    run = session(project_install, True, TestPi.SCENARIOS[:1])
    try:
        assert (run["ws"].project / ".pi" / "extensions" / "ctxcrl.ts").exists()
        assert not (run["ws"].home / ".pi" / "agent" / "extensions").exists()
        status = run["results"][0]
        assert "M calc.py" in status and "(use \"git" not in status
    finally:
        shutil.rmtree(run["ws"].root, ignore_errors=True)


def test_a_truncated_output_is_filtered_from_pis_full_output_file():
    """400 commits: `git log` prints 2,400 lines, pi keeps the last 2000 (the oldest commits)
    and names its file with the whole output; the filter reads that file, so the newest
    commits reach the model, compacted."""
    def many_commits(ws):  # one git fast-import: 400 commits in a blink
        branch = run_as_agent(["git", "symbolic-ref", "--short", "HEAD"], ws).stdout.strip()
        stream = []
        parent = run_as_agent(["git", "rev-parse", "HEAD"], ws).stdout.strip()
        for n in range(1, 401):
            message = f"note {n}: keep a record\n"
            stream.append(f"commit refs/heads/{branch}\ncommitter Dev <dev@example.invalid> "
                          f"{1_700_000_000 + n} +0000\ndata {len(message)}\n{message}"
                          + (f"from {parent}\n" if n == 1 else "") + "\n")
        done = run_as_agent(["git", "fast-import", "--quiet"], ws, stdin="".join(stream),
                            timeout=120)
        assert done.returncode == 0, done.stderr

    def configure_long_log(ws, server):
        configure(ws, server)
        many_commits(ws)

    long_log = dataclasses.replace(PI, configure=configure_long_log)
    scenario = [("long log", "git log", RAN, RAN)]
    runs = {hooked: session(long_log, hooked, scenario) for hooked in (False, True)}
    try:
        raw, hooked = runs[False]["results"][0], runs[True]["results"][0]
        assert "[Showing lines " in raw and " Full output: " in raw
        assert "note 400: keep a record" not in raw  # pi's tail cut the newest commits
        assert "note 400: keep a record" in hooked and "more commits omitted" in hooked
        assert "[full output: " in hooked  # contextcrawler's own copy of the whole output
        assert "[Showing lines" not in hooked and len(hooked) < len(raw)
    finally:
        for run in runs.values():
            shutil.rmtree(run["ws"].root, ignore_errors=True)
