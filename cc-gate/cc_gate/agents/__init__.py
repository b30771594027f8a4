"""Each agent's permission model, one module per agent (the agent's rule sources, pattern
syntax, modes and built-in auto-allowed commands). `AGENTS` is the registry: a new agent is
its module here, its adapter in cc_hook/agents/, and one name in this tuple.

Every module exposes:

- `NAME`, and `SHELL_TOOLS`, the tool names its rules use for "a shell command" where it has
  such rules;
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


class UnknownAgent(KeyError):
    """An agent name no module answers for. Its text is the one message every tool prints."""

    def __str__(self):
        return unknown_agent_message(self.args[0], AGENTS)


def unknown_agent_message(agent, known) -> str:
    return f"unknown agent {agent!r} (one of: {', '.join(known)})"


def model(agent: str):
    """The permission model module of `agent`; UnknownAgent for a name not in AGENTS."""
    if agent not in AGENTS:
        raise UnknownAgent(agent)
    return __import__(f"{__name__}.{agent}", fromlist=["NAME"])


def load_rules(agent: str, cwd: str | None = None):
    """Every rule that applies to a command run by `agent` in `cwd` (default: the current
    directory), from the sources that agent's own model reads."""
    import os

    return model(agent).load_rules(cwd or os.getcwd())
