"""The static spellings of a denied command (tests/cc_gate/attacks/): real bash runs each as
the denied command, and the gate denies each, for Claude Code in every mode and for Codex
(interactive and `codex exec`).

Classes: brace expansion (braces*.txt), git's exec path (exec_path.txt), `env -S`
(env_split.txt), launchers (launchers.txt), shells fed a static script (shell_fed.txt). The
rules are those of the attack: deny `git push`, `rm -rf`, `curl`, allow `git` (Claude), the
same three `forbidden` prefix rules (Codex). The bash oracle is tests/cc_gate/static_oracle.py.
"""
import os
import re
import shutil

import pytest
from static_oracle import BASH, BashOracle, read_corpus
from settings_files import write_json

from cc_gate.agents import claude, codex
from cc_gate.rules import ALLOW, DENY, RuleSet

HERE = os.path.dirname(__file__)
CLASSES = ("braces", "braces_rm", "braces_curl", "exec_path", "env_split", "launchers",
           "shell_fed")
CASES = []
for name in CLASSES:
    denied, spellings = read_corpus(os.path.join(HERE, "attacks", name + ".txt"))
    CASES.extend(pytest.param(denied, s, id=f"{name}:{s}") for s in spellings)

CLAUDE_MODES = ("default", "acceptEdits", "plan", "dontAsk", "bypassPermissions")
CODEX_RULES = '''
prefix_rule(pattern=["git", "push"], decision="forbidden")
prefix_rule(pattern=["rm", "-rf"], decision="forbidden")
prefix_rule(pattern=["curl"], decision="forbidden")
'''
#: programs some spellings need; where one is missing here, bash cannot show what it runs
OPTIONAL = ("parallel", "busybox", "npx", "npm", "script", "strace", "prlimit", "setpriv",
            "runuser", "chroot", "nsenter", "sg", "su", "watch", "unshare", "chrt", "taskset",
            "ionice", "flock", "setsid", "dash")


def claude_rules() -> RuleSet:
    rules = RuleSet()
    rules.add(DENY, ["Bash(git push:*)", "Bash(rm -rf:*)", "Bash(curl:*)"], claude.TOOLS,
              "~/.claude/settings.json")
    rules.add(ALLOW, ["Bash(git:*)"], claude.TOOLS, "~/.claude/settings.json")
    return rules


def verdicts(command: str, home, monkeypatch) -> dict:
    """decision per agent and mode."""
    import cc_gate.process as process

    out = {}
    rules = claude_rules()
    for mode in CLAUDE_MODES:
        record = {"command": command, "event": {"permission_mode": mode}}
        out[f"claude {mode}"] = claude.decide(command, rules, record).decision
    write_json(home / ".codex/rules/default.rules", CODEX_RULES)
    monkeypatch.setattr(process, "client_argv", lambda names, start=None: ["codex"])
    loaded = codex.load_rules(str(home))
    out["codex"] = codex.decide(command, loaded, {}, ()).decision
    out["codex exec"] = codex.decide(
        command, loaded, {"event": {"permission_mode": "bypassPermissions"}}, ()).decision
    return out


@pytest.mark.parametrize("denied, spelling", CASES)
def test_the_gate_denies_every_static_spelling_in_every_mode(private_home, monkeypatch,
                                                            denied, spelling):
    got = verdicts(spelling, private_home, monkeypatch)
    assert set(got.values()) == {DENY}, got


@pytest.fixture(scope="module")
def oracle():
    if BASH is None:
        pytest.skip("bash is not installed")
    found = BashOracle()
    yield found
    found.close()


@pytest.mark.parametrize("denied, spelling", CASES)
def test_real_bash_runs_the_denied_command(oracle, denied, spelling):
    for program in OPTIONAL:
        if re.search(rf"(^|[\s|;&(`/]){program}\b", spelling) and shutil.which(program) is None:
            pytest.skip(f"{program} is not installed")
    if oracle.mounts is None and oracle.needs_mounts(spelling):
        pytest.skip("no private mount namespace to put the stubs at absolute paths")
    assert oracle.saw(spelling, denied), oracle.run(spelling)

