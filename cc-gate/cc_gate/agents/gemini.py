"""Gemini CLI's permission model.

Sources today: `/etc/gemini-cli/settings.json` (`GEMINI_CLI_SYSTEM_SETTINGS_PATH`),
`~/.gemini/settings.json`, the project's `.gemini/settings.json` (JSON with comments):
tools.allowed → allow, tools.confirmationRequired → ask, tools.exclude → deny (and the older
top-level allowedTools / excludeTools), entries `run_shell_command(…)` / `ShellTool(…)`; plus
contextcrawler's `[gate]` config. Imports only `os`.
"""
import os

from .. import decision
from ..rules import ALLOW, ASK, DENY, SHELL_TOOLS, RuleSet, add_config, dig, \
    find_project_dir, home_dir, settings_of

NAME = "gemini"
SYSTEM_SETTINGS = "/etc/gemini-cli/settings.json"


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    home = home_dir()
    user_dir = os.path.join(home, ".gemini")
    files = [
        os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or SYSTEM_SETTINGS,
        os.path.join(user_dir, "settings.json"),
    ]
    project = find_project_dir(cwd, ".gemini", home)
    if project is not None and os.path.join(project, ".gemini") != user_dir:
        files.append(os.path.join(project, ".gemini", "settings.json"))
    tools = SHELL_TOOLS["gemini"]
    for settings, source in settings_of(rules, files, True):
        rules.add(DENY, dig(settings, "tools", "exclude"), tools, source)
        rules.add(DENY, settings.get("excludeTools"), tools, source)
        rules.add(ASK, dig(settings, "tools", "confirmationRequired"), tools, source)
        rules.add(ALLOW, dig(settings, "tools", "allowed"), tools, source)
        rules.add(ALLOW, settings.get("allowedTools"), tools, source)
    add_config(rules)
    return rules


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.decide(command, rules, prefixes)
