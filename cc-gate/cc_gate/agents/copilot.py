"""GitHub Copilot CLI's permission model: the `--deny-tool` flags of the running process.

Copilot CLI 1.0 keeps no shell rules in files (its settings hold URL lists and hooks only):
they come as flags of the `copilot` process, read from `/proc` (cc_gate.process):
`--deny-tool 'shell(git push)'`, `--deny-tool=shell(rm),shell(git:*)` (several values after
one flag, or comma-separated, are accepted as Copilot does). `--allow-tool`,
`--allow-all-tools` / `--allow-all` / `--yolo` only ever allow, and this model never allows.

How Copilot matches `shell(X)` (measured on 1.0.102): against the command's identifier — the
program name, or for `git` and `gh` the program and its first-level subcommand (`git push`).
`shell(git push)` refuses `git push -q origin main`, `FOO=1 git push` and `git -C . push`, but
`shell(git)` does not refuse `git push`; `shell(git:*)` refuses every `git …` (the stem, at a
word boundary: not `gitea`); `shell` alone refuses every command. Hardening (ARCHITECTURE §5 rule 4)
tests every spelling of every segment (peeled core, `/usr/bin/git`, `bash -c '…'`); for other
programs `shell(npm publish)` also refuses `npm publish …` (Copilot itself would match `npm`
only): the hook may only add denies.

Copilot filters after execution (ARCHITECTURE §5 rule 1): the hook never changes the command, so
this model answers **deny** or **ask** (no answer: Copilot decides on the unchanged command),
never allow. Copilot in VS Code reads the same hooks file; VS Code's
`chat.tools.terminal.autoApprove` only allows or asks, so with nothing ever rewritten it has
nothing to add and is not read. Imports only `os`.
"""
from .. import decision
from ..process import client_argv
from ..rules import ASK, DENY, Rule, RuleSet, add_config

NAME = "copilot"
PROGRAMS = ("copilot",)
#: Programs whose identifier includes the first-level subcommand (Copilot's help: git, gh).
SUBCOMMAND_PROGRAMS = ("git", "gh")
_DENY_FLAG = "--deny-tool"


def deny_tool_values(argv) -> list:
    """Every value given to `--deny-tool` (several words after it until the next option, or
    `--deny-tool=a,b`), split at top-level commas."""
    values = []
    i = 0
    argv = list(argv or ())
    while i < len(argv):
        word = argv[i]
        if word.startswith(_DENY_FLAG + "="):
            values += _split_list(word[len(_DENY_FLAG) + 1:])
        elif word == _DENY_FLAG:
            j = i + 1
            while j < len(argv) and not argv[j].startswith("-"):
                values += _split_list(argv[j])
                j += 1
            i = j
            continue
        i += 1
    return values


def _split_list(text: str) -> list:
    parts, depth, start = [], 0, 0
    for i, c in enumerate(text):
        if c == "(":
            depth += 1
        elif c == ")":
            depth = max(0, depth - 1)
        elif c == "," and depth == 0:
            parts.append(text[start:i])
            start = i + 1
    parts.append(text[start:])
    return [p.strip() for p in parts if p.strip()]


def shell_argument(value: str):
    """`shell(git push)` → "git push"; `shell` / `shell()` → "" (every command); other
    tools' patterns → None."""
    if value == "shell":
        return ""
    if value.startswith("shell(") and value.endswith(")"):
        return value[len("shell("):-1].strip()
    return None


def identifier_matcher(argument: str):
    """Does a command (one spelling, as text) fall under `shell(<argument>)`?"""
    if argument == "":
        return lambda text: bool(text.strip())
    if argument.endswith(":*"):
        stem = argument[:-2].split()
        return lambda text: text.split()[:len(stem)] == stem
    wanted = argument.split()

    def matches(text: str) -> bool:
        words = text.split()
        if not words:
            return False
        if words[0] in SUBCOMMAND_PROGRAMS and len(words) > 1 and not words[1].startswith("-"):
            identifiers = [words[:2]]
        else:
            identifiers = [words[:1], words[:2]]
        return wanted in identifiers

    return matches


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    argv = client_argv(PROGRAMS)
    if argv is None:
        rules.doubt_about("the copilot process's flags cannot be read: never auto-allowed")
    else:
        rules.files.append("flags of the running copilot process")
        for value in deny_tool_values(argv):
            argument = shell_argument(value)
            if argument is not None:
                rules.deny.append(Rule(DENY, f"--deny-tool '{value}'", argument or "*",
                                       "the copilot command line",
                                       identifier_matcher(argument)))
    add_config(rules)
    return rules


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.deny_only(command, rules, prefixes, lambda verdict: (
        f"{verdict.reason if verdict.decision == ASK else 'Copilot decides'} (Copilot filters "
        "after execution: the command is not changed)"))
