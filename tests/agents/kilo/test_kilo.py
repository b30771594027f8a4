"""Kilo CLI 7.7.7 (`@kilocode/cli`, OpenCode lineage), the real client, offline against a
scripted model (an openai-compatible provider in its kilo.json, no login): the same scenarios
with and without contextcrawler's plugin.

Kilo filters after execution like OpenCode (ARCHITECTURE §5 rule 1, §8): the plugin never
changes the command, its `tool.execute.before` may only add a deny, and `tool.execute.after`
replaces what the model receives with the compacted output. Rules are Kilo's own
`permission.bash` in the user's ~/.config/kilo/kilo.json (over Kilo's default `"*": "ask"`)
and the project's .kilo/kilo.json. Each session runs the whole table, one tool call per
scenario, the ask scenario last (`kilo run` rejects a prompt). The driver is OpenCode's
(postexec.plugin_session).
"""
import shutil
import subprocess

import pytest
from harness import PROMPT, RAN, REFUSED
from postexec import assert_compacted, outcomes_match, plugin_session, plugin_table

RULES = {"bash": {"*": "allow", "git push *": "deny", "rm *": "ask"}}
PROJECT_RULES = {"permission": {"bash": {"git tag *": "deny"}}}

# (name, command, outcome without the hook, outcome with it)
SCENARIOS = [
    ("status", "git status", RAN, RAN),
    ("failing pytest", "python3 -m pytest -q test_calc.py", RAN, RAN),
    ("log", "git log", RAN, RAN),
    ("denied push", "git commit --allow-empty -qm denied-push && git push -q origin HEAD:main",
     REFUSED, REFUSED),
    # Kilo's pattern does not see through the absolute path: the push runs without the
    # hook; the hook's hardening adds the deny (ARCHITECTURE §5 rule 4)
    ("absolute-path push",
     "git commit --allow-empty -qm abs-push && /usr/bin/git push -q origin HEAD:main",
     RAN, REFUSED),
    # a deny in the project's own .kilo/kilo.json (merged over the user's file)
    ("project-denied tag", "git tag v1.0", REFUSED, REFUSED),
    ("asked rm", "rm -f README.md", PROMPT, PROMPT),
]
ADDED_DENIES = {"absolute-path push"}
ENV = {"KILO_DISABLE_MODELS_FETCH": "1", "KILO_DISABLE_AUTOUPDATE": "1",
       "KILO_DISABLE_LSP_DOWNLOAD": "1", "KILO_DISABLE_DEFAULT_PLUGINS": "1",
       "KILO_DISABLE_CLAUDE_CODE": "1", "KILO_DISABLE_EXTERNAL_SKILLS": "1",
       "KILO_DISABLE_SHARE": "1", "KILO_TELEMETRY_LEVEL": "off", "KILO_NO_DAEMON": "1",
       "KILO_DISABLE_SESSION_INGEST": "1", "KILO_DISABLE_CODEBASE_INDEXING": "1"}
CONFIG = {"autoupdate": False, "share": "disabled", "permission": RULES}


@pytest.fixture(scope="module")
def runs():
    done = {hooked: plugin_session("kilo", hooked, SCENARIOS, ".config/kilo/kilo.json",
                                   ".kilo/kilo.json", CONFIG, PROJECT_RULES, ENV)
            for hooked in (False, True)}
    yield done
    for run in done.values():
        shutil.rmtree(run["ws"].root, ignore_errors=True)


def test_outcomes_match_the_table_with_and_without_the_hook(runs):
    without, with_hook = plugin_table(runs[False], SCENARIOS), plugin_table(runs[True], SCENARIOS)
    assert without == {name: raw for name, _, raw, _ in SCENARIOS}
    assert with_hook == {name: hooked for name, _, _, hooked in SCENARIOS}
    assert outcomes_match(without, with_hook, ADDED_DENIES) == []


def test_no_denied_push_lands(runs):
    hooked = runs[True]["ws"]
    assert hooked.remote_head() == runs[True]["initial"]
    raw = runs[False]["ws"]
    log = subprocess.run(["git", "--git-dir", str(raw.remote), "log", "--format=%s", "main"],
                         capture_output=True, text=True).stdout
    assert "denied-push" not in log  # Kilo's own deny held
    assert "abs-push" in log         # what only the hook's hardening refuses


def test_the_asked_and_denied_commands_did_not_run(runs):
    for hooked in (False, True):
        ws = runs[hooked]["ws"]
        assert (ws.project / "README.md").exists()
        assert not (ws.project / ".git" / "refs" / "tags" / "v1.0").exists()


def test_the_command_is_never_changed(runs):
    for text in runs[True]["results"][:3]:
        assert "cc-filter run" not in text


def test_the_model_receives_compacted_output(runs):
    assert_compacted(runs[False]["results"], runs[True]["results"])
