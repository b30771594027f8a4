"""Each agent's permission model, one module per agent (the agent's rule sources, pattern
syntax, modes and built-in auto-allowed commands).

Every module exposes:

- `NAME`;
- `load_rules(cwd) -> RuleSet`: every source the agent reads (its files at every level,
  managed sources, the running client's flags) plus contextcrawler's `[gate]` config; a source
  it cannot understand sets `rules.doubt` (never answer allow then);
- `decide(command, rules, record, prefixes) -> GateDecision`: the agent's own decision on the
  ORIGINAL command. "allow": the client would run it without asking (the hook rewrites it and
  answers the client's allow); "deny": the client would refuse it, or hardening found a deny
  (the hook answers deny, naming the rule); "ask": anything else, doubt included (the hook gives
  no answer, so the client decides on the original command).

Imports nothing: `model()` loads only the module of the agent in use.
"""
AGENTS = ("claude", "codex", "copilot", "cursor", "gemini", "opencode")


def model(agent: str):
    """The permission model module of `agent` (unknown → claude's)."""
    if agent == "codex":
        from . import codex as m
    elif agent == "copilot":
        from . import copilot as m
    elif agent == "cursor":
        from . import cursor as m
    elif agent == "gemini":
        from . import gemini as m
    elif agent == "opencode":
        from . import opencode as m
    else:
        from . import claude as m
    return m


def load_rules(agent: str, cwd: str | None = None):
    """Every rule that applies to a command run by `agent` in `cwd` (default: the current
    directory), from the sources that agent's own model reads."""
    import os

    return model(agent).load_rules(cwd or os.getcwd())
