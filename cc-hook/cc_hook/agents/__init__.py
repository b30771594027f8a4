"""One module per agent. Each hook agent's module has the two pipeline codecs (hot path,
imports nothing heavy) and describes where its hook is registered (used by `init`).

- `decode(event: dict) -> dict | None`: the agent's event → a command record, or None when the
  event is not a shell tool call this agent's hook should answer.
- `encode(record: dict) -> dict | None`: the final record → the agent's JSON answer, or None
  for "no answer" (then the stage prints `NO_ANSWER`: "" for most agents, "{}" for Cursor).
- `CONFIG_DIR` (hook and plugin agents): the agent's folder under the home folder; `status`
  names agents that have it but no install;
- `TITLE`: its name for people; `synthetic_event(command, cwd, shape)` (hook agents): the
  event it sends, for `cc-hook test`.
- only an agent whose session transcripts cc-track reads: `transcript_dir()`,
  `TRANSCRIPT_FILES` (a glob below it), `read_transcript(path, history)` (into
  cc_hook.transcript's model) and `INSTRUCTIONS_FILE` (where `cc-track learn` writes).

Which agents there are is cc_gate.agents.REGISTRY (one line per agent).
"""

from cc_gate.agents import REGISTRY

HOOK_AGENTS = tuple(name for name, kind in REGISTRY.items() if kind == "hook")
"""Agents whose hook runs the piped stages (decode | gate | rewrite | encode)."""
PLUGIN_AGENTS = tuple(name for name, kind in REGISTRY.items() if kind == "plugin")
RULES_AGENTS = tuple(name for name, kind in REGISTRY.items() if kind == "rules")
CODEC_AGENTS = HOOK_AGENTS + PLUGIN_AGENTS
"""Agents with `decode` / `encode` stages (the OpenCode and Kilo plugins run them too)."""
ALL_AGENTS = HOOK_AGENTS + PLUGIN_AGENTS + RULES_AGENTS


def load(name: str):
    """The agent's module; raises KeyError for an unknown agent name."""
    if name not in ALL_AGENTS:
        raise KeyError(name)
    module = __import__(f"cc_hook.agents.{name}", fromlist=["_"])
    return module


def trait(name: str, attribute: str, default=None):
    """What the agent's module states as `attribute`, one only some agents have
    (`ALLOW_RULES`, `DEFAULT_START`, `GATE_AFTER_REWRITE`, `ask_again_hint` …): `default` when
    its module states nothing, or for an agent nobody knows."""
    try:
        return getattr(load(name), attribute, default)
    except KeyError:
        return default


def title(name: str) -> str:
    """The agent's name for people (`Claude Code`): its module's TITLE; the name itself for
    an agent nobody knows."""
    try:
        return load(name).TITLE
    except (KeyError, AttributeError):
        return name


def event_for(agent: str, command: str, cwd: str, shape: str | None = None) -> dict:
    """The event `agent` sends before running `command` in `cwd` (its module's
    `synthetic_event`), in the form its installed hooks receive unless `shape` names another
    (Copilot: "vscode"); KeyError for an agent that sends none."""
    module = load(agent)
    if not hasattr(module, "synthetic_event"):
        raise KeyError(agent)
    return module.synthetic_event(command, cwd, shape)
