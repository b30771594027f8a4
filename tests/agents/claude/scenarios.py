"""The Claude Code permission scenarios (issue 12 item 5), as data.

Each row: the command the model types, the rules and where they live, the client's flags and
permission mode → the outcome the real client showed **without** contextcrawler (`ran`,
`prompt` = needs approval, headless: refused for approval, `refused` = a deny). The same row is
then run with the hook installed: the outcome must be the same, except that the hook may add a
deny to a denied command (`hook` says when the issue wants another outcome on purpose).

Rule locations (`rules` keys):
  user           ~/.claude/settings.json
  user-local     ~/.claude/settings.local.json
  project        <project>/.claude/settings.json
  project-local  <project>/.claude/settings.local.json
  config-dir     $CLAUDE_CONFIG_DIR/settings.json (CLAUDE_CONFIG_DIR set to ~/alt-claude)
  managed        /etc/claude-code/managed-settings.json (private mount namespace)
  managed.d      /etc/claude-code/managed-settings.d/50-ctxcrl.json (same)
  settings-file  --settings <file>
  settings-json  --settings '<json>'
  managed-flag   --managed-settings '<json>'
Each value: {"allow": [...], "ask": [...], "deny": [...]}.

The outcomes were measured on Claude Code 2.1.197 and 2.1.332 (`python
tests/agents/claude/measure.py` prints the table again; `CTXCRL_CLAUDE_VERSION=2.1.197` runs it
on the older client). Where the two differ, `newer` holds the outcome from a version on:
2.1.332 refuses `/usr/bin/git push` and the case-in-subshell push under a deny by itself.
"""
from __future__ import annotations

import os
from dataclasses import dataclass, field

RAN, PROMPT, REFUSED = "ran", "prompt", "refused"

PUSH = "git push origin HEAD:main"
DENY_PUSH = {"deny": ["Bash(git push:*)"]}


@dataclass(frozen=True)
class Scenario:
    id: str
    command: str
    outcome: str                          # without the hook, as the real client showed it
    rules: dict = field(default_factory=dict)
    flags: tuple = ()
    mode: str | None = None               # --permission-mode
    hook: str | None = None               # with the hook, when the issue wants a change
    compacted: tuple = ()                 # facts the compacted output must keep (ran + hook)
    pushes: bool = False                  # the command would move the remote if it ran
    trusted: bool = False                 # ~/.claude.json: the user accepted the trust dialog
    newer: tuple = ()                     # (version, outcome): the outcome from that version on

    def __post_init__(self):
        outcome = self.outcome
        for version, changed in self.newer:
            if _key(client_version()) >= _key(version):
                outcome = changed
        object.__setattr__(self, "outcome", outcome)

    def expected_with_hook(self) -> tuple:
        """Outcomes allowed with the hook installed: the same, except that the hook may add a
        deny; a denied push must be refused (the client lets some spellings through itself)."""
        if self.hook is not None:
            return (self.hook,)
        if self.pushes and self.denied():
            return (REFUSED,)
        if self.outcome != REFUSED and self.denied():
            return (self.outcome, REFUSED)
        return (self.outcome,)

    def denied(self) -> bool:
        return any(v.get("deny") for v in self.rules.values())


def client_version() -> str:
    """The Claude Code version the tests run (harness.CLIENTS, without importing pytest)."""
    return os.environ.get("CTXCRL_CLAUDE_VERSION") or "2.1.332"  # = harness.CLIENTS


def _key(version: str) -> tuple:
    return tuple(int(p) for p in version.split("."))


S = Scenario
#: 2.1.332 refuses these under `Bash(git push:*)` by itself.
NEWER = {"abspath": (("2.1.332", REFUSED),), "case-subshell": (("2.1.332", REFUSED),)}
SCENARIOS = [
    # -- built-in auto-allow, default mode: read-only commands run without asking
    S("auto-git-status", "git status", RAN, compacted=("calc.py", "notes.txt")),
    S("auto-git-log", "git log", RAN, compacted=("step 7",)),
    S("auto-git-diff", "git diff", RAN, compacted=("calc.py",)),
    S("auto-git-show", "git show --stat HEAD", RAN),
    S("auto-git-branch", "git branch", RAN),
    S("auto-ls", "ls -la src", RAN, compacted=("mod_07.py",)),
    S("auto-cat", "cat src/mod_03.py", RAN),
    S("auto-grep", "grep -rn value src", RAN, compacted=("mod_11.py",)),
    S("auto-find", "find . -name '*.py' -not -path './.git/*'", RAN,
      compacted=("mod_19", "calc")),  # the find filter folds names: ./src/: {mod_09,…}.py
    S("auto-wc", "wc -l calc.py README.md", RAN),
    S("auto-tree", "tree src", RAN),  # auto-allowed; on a machine without tree: exit 127
    S("auto-du", "du -sh src", RAN),
    S("auto-compound", "git status && git diff --stat", RAN),
    S("auto-pipe", "git log --oneline | head -3", RAN),
    S("not-auto-env", "env", PROMPT),
    S("not-auto-make", "make -v", PROMPT),
    S("find-exec", "find . -name '*.md' -exec cat {} ;", PROMPT),
    # -- acceptEdits and plan
    S("acceptedits-git-status", "git status", RAN, mode="acceptEdits"),
    S("acceptedits-mkdir", "mkdir -p build/out", RAN, mode="acceptEdits"),
    S("acceptedits-make", "make -v", PROMPT, mode="acceptEdits"),
    S("plan-git-status", "git status", RAN, mode="plan"),
    S("dontask-make", "make -v", REFUSED, mode="dontAsk"),  # dontAsk refuses what would ask
    # -- allow rules
    # an untrusted workspace: the client drops the allow rules of .claude/settings.json
    S("allow-project-untrusted", "git add README.md", PROMPT,
      rules={"project": {"allow": ["Bash(git add:*)"]}}),
    S("allow-project-trusted", "git add README.md", RAN, trusted=True,
      rules={"project": {"allow": ["Bash(git add:*)"]}}),
    S("allow-project-local", "git add README.md", RAN,
      rules={"project-local": {"allow": ["Bash(git add:*)"]}}),
    S("allow-config-dir", "git add README.md", RAN,
      rules={"config-dir": {"allow": ["Bash(git add:*)"]}}),
    S("allow-user", "git add README.md", RAN, rules={"user": {"allow": ["Bash(git add:*)"]}}),
    S("allow-flag", "git add README.md", RAN, flags=("--allowedTools", "Bash(git add:*)")),
    S("allow-partial-compound", f"git add README.md && {PUSH}", PROMPT,
      rules={"project-local": {"allow": ["Bash(git add:*)"]}}, pushes=True),
    S("allow-status-flag", "git status", RAN, flags=("--allowedTools", "Bash(git status:*)")),
    # -- deny rules from every source (bypassPermissions: without a deny the push would run)
    *[S(f"deny-{where}", PUSH, REFUSED, mode="bypassPermissions", rules={where: DENY_PUSH},
        pushes=True)
      for where in ("user", "project", "project-local", "config-dir", "managed", "managed.d",
                    "settings-file", "settings-json", "managed-flag")],
    S("deny-user-local", PUSH, RAN, mode="bypassPermissions", rules={"user-local": DENY_PUSH},
      pushes=True),
    S("deny-flag", PUSH, REFUSED, mode="bypassPermissions",
      flags=("--disallowedTools", "Bash(git push:*)"), pushes=True),
    S("deny-default-mode", PUSH, REFUSED, rules={"project": DENY_PUSH}, pushes=True),
    # -- ask rules
    S("ask-project", "git status", PROMPT, rules={"project": {"ask": ["Bash(git status:*)"]}}),
    S("ask-bypass", "git status", PROMPT, mode="bypassPermissions",
      rules={"project": {"ask": ["Bash(git status:*)"]}}),
    # -- bypassPermissions
    S("bypass-runs", "git log", RAN, mode="bypassPermissions", compacted=("step 7",)),
    S("bypass-deny-compound", f"git status && {PUSH}", REFUSED, mode="bypassPermissions",
      rules={"project": DENY_PUSH}, pushes=True),
    # -- wrapped spellings of a denied push (bypassPermissions)
    *[S(f"wrapped-{name}", command, outcome, mode="bypassPermissions",
        rules={"project": DENY_PUSH}, pushes=True,
        newer=NEWER.get(name, ()))
      for name, command, outcome in (
          ("timeout", f"timeout 30 {PUSH}", REFUSED),
          ("env", f"FOO=1 {PUSH}", REFUSED),
          ("abspath", f"/usr/bin/{PUSH}", RAN),
          ("git-C", f"git -C . push origin HEAD:main", RAN),
          ("no-pager", f"git --no-pager push origin HEAD:main", RAN),
          ("bash-c", f"bash -c '{PUSH}'", RAN),
          ("sh-c", f"sh -c '{PUSH}'", RAN),
          ("cc-filter", f"cc-filter run {PUSH}", RAN),
          ("param", "c=push; git ${c:-push} origin HEAD:main", RAN),
          ("param-assign", "git ${c:=push} origin HEAD:main", RAN),
          ("param-quoted", 'git "${c:-push}" origin HEAD:main', RAN),
          ("loop", "for c in push; do git $c origin HEAD:main; done", RAN),
          ("case-subshell", f"(case a in a) {PUSH};; esac)", RAN),
      )],
    # -- parameter expansion with git allowed and push denied (default mode)
    S("param-allowed-git", "git ${c:-push} origin HEAD:main", PROMPT,
      rules={"project": {"allow": ["Bash(git:*)"], "deny": ["Bash(git push:*)"]}},
      pushes=True),
    # -- the documented bypass
    S("disabled-prefix", "CTXCRL_DISABLED=1 git status", PROMPT, hook=RAN),
]

BY_ID = {s.id: s for s in SCENARIOS}
assert len(BY_ID) == len(SCENARIOS), "scenario ids must be unique"
