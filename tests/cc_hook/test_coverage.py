"""What `cc-hook init` / `verify` / `test` say reaches the model compacted (issue 24 item 3).

EXPECTED is the one table to update when an agent module changes what its hook answers (e.g.
a rewrite for a command the agent asks about): the counts themselves come from the agent
modules, through the same stages as the installed hook, and a second test checks that the
in-process measure gives the installed hook's own answer, command by command.
"""
import io
import json

import pytest

from cc_hook import coverage, install, manifest, synthetic
from cc_hook.agents import PLUGIN_AGENTS
from cc_hook.install import Reporter
from cc_hook.outcome import filters_after, outcome_of
from cc_hook.typical import BUILD_TEST, TYPICAL

#: agent → (typical commands compacted, of which test/build/install/lint), in a fresh home:
#: no rules, the agent's default setup (Claude Code default mode, Gemini CLI interactive
#: default approval mode, Codex as `codex exec` starts it), a git project without
#: package.json (so `npm run build` / `npm run lint` have no script to resolve).
EXPECTED = {
    # issue 24: what Claude Code surely prompts for is asked with the rewrite (approved: filtered)
    "claude": (45, 13),
    "codex": (46, 13),
    "gemini": (45, 13),
    "opencode": (46, 13),
    "copilot": (46, 13),
    "qwen": (0, 0),  # its hook can deny but neither rewrite nor replace output (0.24.4)
    # Kilo CLI asks about every command outside its read-only list by default; the plugin
    # filters after execution, so an approved one reaches the model compacted too
    "kilo": (46, 13),
    # pi runs every command (no rules of its own); its extension filters after execution
    "pi": (46, 13),
    # Cline CLI runs every call unasked by default; its plugin filters after execution
    "cline": (46, 13),
    # Mistral Vibe: post_tool replaces the output (failures included), the command unchanged
    "vibe": (46, 13),
}


class Captured(Reporter):
    def __init__(self):
        super().__init__(io.StringIO(), io.StringIO())

    @property
    def text(self):
        return self.out.getvalue() + self.err.getvalue()


@pytest.fixture
def installed(fake_home, tmp_path, monkeypatch):
    import cc_gate.agents.claude as claude_gate

    monkeypatch.setattr(claude_gate, "MANAGED_SETTINGS", [str(tmp_path / "no-managed.json")])
    report = Captured()
    assert install.init(list(EXPECTED), "global", False, report=report) == 0, report.text
    return fake_home


def _measure(agent, project):
    found = manifest.installed(agent, str(project))
    after = filters_after(manifest.install_texts(found[0]), agent)
    return coverage.measure(agent, str(project), after), after


def test_the_list_is_fifty_with_fifteen_heavy_ones():
    assert len(TYPICAL) == 50 and len(BUILD_TEST) == 15 and set(BUILD_TEST) <= set(TYPICAL)


@pytest.mark.parametrize("agent", sorted(EXPECTED))
def test_counts_per_agent_in_a_fresh_home(installed, agent):
    _, _, project = installed
    verdicts, _ = _measure(agent, project)
    done = [v.command for v in verdicts if v.compacted]
    heavy = [c for c in done if c in BUILD_TEST]
    assert (len(done), len(heavy)) == EXPECTED[agent], (agent, done)


@pytest.mark.parametrize("agent", sorted(EXPECTED))
def test_the_measure_is_what_the_installed_hook_answers(installed, agent):
    """Same outcome as `cc-hook test` (the real script, run as the agent runs it; Gemini's
    under a stand-in client process started as its default setup starts it)."""
    _, _, project = installed
    sample = ["git status", "ls -la", "pytest -q", "npm install", "git push", "echo done",
              "cd src && ls", "cargo test"]
    found = manifest.installed(agent, str(project))
    after = filters_after(manifest.install_texts(found[0]), agent)
    for command in sample:
        with coverage._DefaultClient(agent):  # as measure() judges: the default start
            verdict = coverage.judge(agent, command, str(project), after)
        if agent in PLUGIN_AGENTS:
            result, _ = synthetic.run_plugin_pipeline(
                next(t for t in manifest.install_texts(found[0]) if t and
                     synthetic.PIPELINE_MARK in t), command, str(project), agent)
            from cc_hook.outcome import opencode_outcome

            real = opencode_outcome(result, command, after)
        else:
            event = synthetic.event_for(agent, command, str(project))
            run = synthetic.run_hook(synthetic.installed_command(agent, str(project))[0],
                                     event, str(project), agent=agent)
            real = outcome_of(agent, run.answer, command, after)
        assert (verdict.outcome.kind, verdict.outcome.command) == (real.kind, real.command), \
            (agent, command)


def test_init_and_verify_say_it_with_the_lines_to_add(fake_home, tmp_path, monkeypatch):
    import cc_gate.agents.claude as claude_gate

    from cc_hook import verify

    monkeypatch.setattr(claude_gate, "MANAGED_SETTINGS", [str(tmp_path / "no-managed.json")])
    report = Captured()
    assert install.init(["claude"], "global", False, report=report, coverage=True) == 0
    text = report.text
    assert "Claude Code: 45 of 50 typical commands reach the model compacted (13 of the 15" \
        in text
    assert "reach it raw: pwd, echo done, npm run build, npm run lint, cd src && ls" in text
    assert '"Bash(git push:*)"' not in text  # never proposes to allow what changes a repository
    report = Captured()
    assert verify.verify(report, coverage=True) == 0
    assert "Claude Code: 45 of 50" in report.text
    # an allow rule keeps it compacted, and now without asking
    home = fake_home[0]
    settings = home / ".claude" / "settings.json"
    data = json.loads(settings.read_text())
    data.setdefault("permissions", {})["allow"] = ["Bash(pytest:*)", "Bash(npm install:*)"]
    settings.write_text(json.dumps(data))
    report = Captured()
    verify.verify(report, coverage=True)
    assert "Claude Code: 45 of 50 typical commands reach the model compacted (13 of the 15" \
        in report.text
    report = Captured()
    synthetic.test("claude", "pytest -q", report=report)
    assert "Claude Code runs filtered, without asking" in report.text


def test_cc_hook_test_says_what_happens_after_approval(fake_home, tmp_path, monkeypatch):
    import cc_gate.agents.claude as claude_gate

    monkeypatch.setattr(claude_gate, "MANAGED_SETTINGS", [str(tmp_path / "no-managed.json")])
    assert install.init(["claude", "copilot"], "global", False, report=Captured()) == 0
    report = Captured()
    assert synthetic.test("claude", "pytest -q", report=report) == 0
    assert "Claude Code asks you first, then runs filtered" in report.text
    assert "approved  runs filtered (the prompt shows the rewritten command)" in report.text
    # where the hook must leave the prompt to the client (dontAsk refuses, and any doubt),
    # cc-hook test says it stays unfiltered and which rule would change that
    report = Captured()
    assert synthetic.test("claude", "pytest -q && git status --porcelain=v1",
                          report=report) == 0
    assert "Claude Code asks you first, then runs filtered" in report.text
    report = Captured()
    synthetic.test("claude", "echo hi", report=report)
    assert "runs unfiltered: no filter applies to it" in report.text
    report = Captured()
    synthetic.test("copilot", "pytest -q", report=report)
    assert "filtered after it ran, asked or not" in report.text


@pytest.mark.parametrize("command, prefix", [
    ("pytest -q", "pytest"), ("python -m pytest -x", "python -m pytest"),
    ("npm run build", "npm run build"), ("cargo test", "cargo test"), ("go test ./...", "go test"),
    ("make", "make"), ("ruff check .", "ruff check"), ("tsc --noEmit", "tsc"),
    ("pip install -r requirements.txt", "pip install"), ("cat README.md", "cat"),
    ("grep -rn TODO .", "grep"), ("rg TODO", "rg")])
def test_rule_prefixes(command, prefix):
    assert coverage.rule_prefix(command) == prefix


def test_rule_lines_per_agent():
    assert coverage.allow_rules("codex", ["cargo test"])[1] == \
        ['prefix_rule(pattern=["cargo", "test"], decision="allow")']
    where, lines = coverage.allow_rules("gemini", ["pytest -q", "make"])
    assert lines[2] == 'commandPrefix = ["pytest", "make"]' and "policies" in where
    import tomllib

    assert tomllib.loads("\n".join(lines))["rule"][0]["decision"] == "allow"
    assert coverage.allow_rules("copilot", ["make"]) is None  # filters after execution anyway
