"""OpenCode's permission model.

For now the Claude-format settings files (as before this module existed) plus contextcrawler's
`[gate]` config; OpenCode's own `permission.bash` is to be read here. Imports only `os`.
"""
from .. import decision
from ..rules import RuleSet, add_config
from .claude import add_claude_settings

NAME = "opencode"


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    add_claude_settings(rules, cwd)
    add_config(rules)
    return rules


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.decide(command, rules, prefixes)
