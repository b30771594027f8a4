"""Cursor's permission model (verified against Cursor's documentation only: no client runs
here).

Sources: `~/.cursor/cli-config.json` and the project's `.cursor/cli.json`:
`permissions.allow / deny` entries `Shell(…)`; plus contextcrawler's `[gate]` config. Cursor
has no ask list; a command no allow rule matches is left to Cursor's own flow (no answer, the
original runs unfiltered after Cursor's own approval), so the hook rewrites only what Cursor's
own allow list (or `[gate] allow`) lets run without asking. Imports only `os`.
"""
from ctxcrl import lean_os as os

from .. import decision
from ..rules import RuleSet, add_config, add_settings_permissions, \
    find_project_dir, home_dir

NAME = "cursor"
#: The tool name that means "a shell command" in the agent's rules.
SHELL_TOOLS = ("Shell",)


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    home = home_dir()
    files = [os.path.join(home, ".cursor", "cli-config.json")]
    project = find_project_dir(cwd, ".cursor", home)
    if project is not None:
        files.append(os.path.join(project, ".cursor", "cli.json"))
    add_settings_permissions(rules, files, SHELL_TOOLS, lenient=True)
    add_config(rules)
    return rules


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.decide(command, rules, prefixes)
