"""Each agent's permission model, one module per agent (the agent's rule sources, pattern
syntax, modes and built-in auto-allowed commands). `REGISTRY` below is the one list of agents
(cc-hook reads it too): a new agent is its module here, its adapter in cc_hook/agents/, and
one line there.

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
  no answer, so the client decides on the original command);
- optionally `prepare(rules)`: what `decide` reads for nearly every command, loaded by the
  gate stage before it reads its input (Claude Code: the client's version and tables).

Imports nothing: `model()` loads only the module of the agent in use.
"""
#: The registry: every agent contextcrawler knows, one line each, with how it is hooked:
#: "hook" (its hook runs decode | gate | rewrite | encode), "plugin" (a plugin runs the same
#: stages), "rules" (no hook: an instructions file only, no permission model here). An agent
#: is this line, its module here (hook and plugin agents) and its module in cc_hook/agents/.
REGISTRY = {
    "claude": "hook",
    "cursor": "hook",
    "copilot": "hook",
    "gemini": "hook",
    "codex": "hook",
    "qwen": "hook",
    "vibe": "hook",
    "opencode": "plugin",
    "kilo": "plugin",
    "pi": "plugin",
    "cline": "plugin",
    "windsurf": "rules",
}
#: The agents with a permission model (a module here), by name.
AGENTS = tuple(sorted(name for name, kind in REGISTRY.items() if kind != "rules"))


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


#: Variables that say where an agent (or the user) keeps the user's own settings. Pointing into
#: the project, one of them was set by the project (an agent settings file's `env` block reaches
#: the hook, not the client, which read its settings at start): the gate would read the
#: project's files as the user's rules. Then nothing is allowed (`doubt`): deny and ask only.
CONFIG_DIR_VARIABLES = ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME",
                        "GEMINI_CLI_SYSTEM_SETTINGS_PATH", "KILO_CONFIG", "KILO_CONFIG_DIR",
                        "OPENCODE_CONFIG",
                        "OPENCODE_CONFIG_DIR", "XDG_CONFIG_HOME", "HOME")


def settings_in_project(cwd: str) -> str | None:
    """Why the user's settings cannot be told from the project's here, or None."""
    from ctxcrl import lean_os as os

    from ctxcrl import home

    roots = None
    for var in CONFIG_DIR_VARIABLES:
        value = os.environ.get(var)
        if not value:
            continue
        roots = home.project_roots(cwd) if roots is None else roots
        real = os.path.realpath(value)
        for root in roots:
            if home.inside(real, root):
                return (f"{var}={value} lies inside the project {home.short_path(root)}: the "
                        "user's own settings cannot be told from the project's, never "
                        "auto-allowed")
    return None


def load_rules(agent: str, cwd: str | None = None):
    """Every rule that applies to a command run by `agent` in `cwd` (default: the current
    directory), from the sources that agent's own model reads; never an allow when a settings
    variable points into the project (`settings_in_project`)."""
    from ctxcrl import lean_os as os

    cwd = cwd or os.getcwd()
    rules = model(agent).load_rules(cwd)
    reason = settings_in_project(cwd)
    if reason:
        rules.doubt_about(reason)
        if reason not in rules.warnings:
            rules.warnings.append(reason)
    return rules
