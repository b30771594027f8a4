"""pi's permission model (`@mariozechner/pi-coding-agent`, measured on 0.73.1): none.

pi has no permission rules of its own and never asks: its `bash` tool runs whatever the model
asks for (its README: "No permission popups"; its settings hold no allow/ask/deny, and a
headless `pi -p` ran every scripted command, tests/agents/pi/). Only an extension can refuse a
call (`tool_call` answering `{block: true, reason}`), and contextcrawler's extension filters
after execution (the command is never changed). So the only rules here are contextcrawler's own
`[gate]` in config.toml: `decide` answers "deny" when one denies some peeled spelling of some
segment, and "ask" (no answer: pi runs the command unchanged) for everything else. It never
answers allow, so no running-client flag needs reading. Imports nothing heavy.
"""
from .. import decision
from ..rules import RuleSet, config_rules

NAME = "pi"
#: pi's shell tool (what `[gate]` rules call a shell command are its own names).
SHELL_TOOLS = ("bash",)


def load_rules(cwd: str) -> RuleSet:
    """contextcrawler's `[gate]` alone: pi itself reads no permission rules."""
    return config_rules()


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.deny_only(command, rules, prefixes, lambda verdict: (
        "pi has no permission rules and runs every command; its output is filtered after it "
        f"ran ({verdict.reason})"))
