"""Claude Code's permission model: where its rules live and how it decides.

Sources (project files are found from the command's cwd upwards): the managed policy
(`/etc/claude-code/managed-settings.json`, macOS location), `~/.claude/settings.json` and
`settings.local.json` (`$CLAUDE_CONFIG_DIR` honoured), the project's `.claude/settings.json` and
`.claude/settings.local.json`: `permissions.allow / ask / deny` entries `Bash(…)`; plus
contextcrawler's `[gate]` config. Imports only `os`.
"""
import os

from .. import decision
from ..rules import SHELL_TOOLS, RuleSet, add_config, add_settings_permissions, \
    find_project_dir, home_dir

NAME = "claude"
#: Enterprise policy files Claude Code reads before the user's (Linux, macOS).
MANAGED_SETTINGS = [
    "/etc/claude-code/managed-settings.json",
    "/Library/Application Support/ClaudeCode/managed-settings.json",
]


def settings_files(cwd: str) -> list:
    home = home_dir()
    user_dir = os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home, ".claude")
    files = list(MANAGED_SETTINGS) + [
        os.path.join(user_dir, "settings.json"),
        os.path.join(user_dir, "settings.local.json"),
    ]
    project = find_project_dir(cwd, ".claude", home)
    if project is not None:
        project_dir = os.path.join(project, ".claude")
        if os.path.abspath(project_dir) != os.path.abspath(user_dir):
            files.append(os.path.join(project_dir, "settings.json"))
            files.append(os.path.join(project_dir, "settings.local.json"))
    return files


def add_claude_settings(rules: RuleSet, cwd: str, tools=SHELL_TOOLS["claude"]) -> None:
    add_settings_permissions(rules, settings_files(cwd), tools)


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    add_claude_settings(rules, cwd)
    add_config(rules)
    return rules


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.decide(command, rules, prefixes)
