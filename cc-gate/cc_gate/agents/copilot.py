"""GitHub Copilot's permission model (CLI and VS Code agent mode).

Sources today: the Claude-format settings files (Copilot speaks Claude's hook format), VS
Code's `chat.tools.terminal.autoApprove` (vscode.py: user settings and the project's
`.vscode/settings.json`), plus contextcrawler's `[gate]` config. Imports only `os`.
"""
import os

from .. import decision
from ..rules import RuleSet, add_config, find_project_dir, home_dir, settings_of
from . import vscode
from .claude import add_claude_settings

NAME = "copilot"


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    add_claude_settings(rules, cwd)
    home = home_dir()
    files = vscode.user_settings_files(home)
    project = find_project_dir(cwd, ".vscode", home)
    if project is not None:
        files.append(os.path.join(project, ".vscode", "settings.json"))
    for settings, source in settings_of(rules, files, True):
        for rule in vscode.rules_of(settings, source):
            rules.bucket(rule.kind).append(rule)
    add_config(rules)
    return rules


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.decide(command, rules, prefixes)
