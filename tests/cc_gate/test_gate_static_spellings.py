"""The static spellings of a denied command (tests/cc_gate/attacks/): real bash runs each as
the denied command, and the gate denies each, for Claude Code in every mode and for Codex
(interactive and `codex exec`).

Classes: brace expansion (braces*.txt), git's exec path (exec_path.txt), `env -S`
(env_split.txt), launchers (launchers.txt), shells fed a static script (shell_fed.txt). The
rules are those of the attack: deny `git push`, `rm -rf`, `curl`, allow `git` (Claude), the
same three `forbidden` prefix rules (Codex). The bash oracle is tests/cc_gate/bash_oracle.py.
"""
import os
import re
import shutil

import pytest
from bash_oracle import BASH, BashOracle, read_corpus
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



@pytest.mark.parametrize("denied, spelling", CASES)
def test_a_rewrite_never_changes_the_verdict(private_home, monkeypatch, denied, spelling):
    """The hook runs the gate, then cc-rewrite: a rewritten spelling must still be denied."""
    from cc_rewrite.refusals import RewriteSettings
    from cc_rewrite.rewrite import rewrite

    rewritten = rewrite(spelling, None, RewriteSettings()).text
    if rewritten != spelling:
        assert set(verdicts(rewritten, private_home, monkeypatch).values()) == {DENY}, rewritten


# Spellings of more than one line (the corpus holds one a line), bash-checked the same way.
MULTILINE = [
    "bash -s <<EOF\ngit push\nEOF",
    "sh <<'EOF'\ngit push\nEOF",
    "cat <<'EOF' | sh\ngit push\nEOF",
    "bash <<-EOF\n\tgit pu{sh,}\n\tEOF",
    "prlimit sh <<EOF\ngit push\nEOF",
    "cat <<EOF | prlimit bash\ngit push\nEOF",
]


@pytest.mark.parametrize("spelling", MULTILINE)
def test_multiline_spellings(private_home, monkeypatch, oracle, spelling):
    assert oracle.saw(spelling, "git push"), oracle.run(spelling)
    assert set(verdicts(spelling, private_home, monkeypatch).values()) == {DENY}


# Launchers not installed here (bash cannot show what they run): the gate still reads them.
NOT_HERE = [
    "sudo git push", "sudo -u dev git push", "sudo -E -H -u dev -- git push",
    "sudo A=1 git push", "sudo sh -c 'git push'", "sudo -s git push", "sudo -i git push",
    "doas git push", "doas -u dev git push", "run0 git push", "run0 --user=dev git push",
    "firejail --quiet git push", "firejail --noprofile -- git push",
    "systemd-run --user --scope git push", "systemd-run -p Nice=5 --wait git push",
    "valgrind --tool=none git push", "ltrace -o /dev/null git push", "unbuffer git push",
    "unbuffer -p git push", "chronic git push", "chronic -e git push",
    "caffeinate -i git push", "torsocks git push", "proxychains -q git push",
    "catchsegv git push", "pkexec git push", "bwrap --bind / / git push",
    "eatmydata git push", "fakeroot git push", "faketime '2020-01-01' git push",
    "numactl --interleave=all git push", "mise exec -- git push", "direnv exec . git push",
    "doppler run -- git push", "aws-vault exec prod -- git push",
]


@pytest.mark.parametrize("spelling", NOT_HERE)
def test_launchers_that_are_not_installed_here(private_home, monkeypatch, spelling):
    assert set(verdicts(spelling, private_home, monkeypatch).values()) == {DENY}


# What the gate cannot see statically is never allowed (at most an ask), in any mode:
# a script read from a file or a pipe of unknown text, a variable the command comes from, an
# option of a launcher it cannot read, a brace expansion too large to check.
DYNAMIC = [
    "cat script.sh | sh", "sh < script.sh", "bash -s < script.sh", "echo \"$CMD\" | bash",
    "printf '%s\\n' \"$CMD\" | sh", "bash <(cat script.sh)", "env -S \"$CMD\"",
    "env -S 'git ${SUB}'", "prlimit --bogus-option git status", "timeout --bogus 5 git status",
    "git {1..100000}", "$(git --exec-path)/git-$SUB", "sh -c \"$CMD\"", "eval \"$CMD\"",
    "x=$(cat f); $x",
]


@pytest.mark.parametrize("spelling", DYNAMIC)
def test_what_the_gate_cannot_see_is_never_allowed(private_home, monkeypatch, spelling):
    got = verdicts(spelling, private_home, monkeypatch)
    assert ALLOW not in got.values(), got
