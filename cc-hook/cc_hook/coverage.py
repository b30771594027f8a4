"""What reaches the model compacted in this setup, for `cc-hook init`, `verify` and `test`.

Each command goes through the same stages, in the same order, as the installed hook
(`hook_script.PIPELINES`, the module's `GATE_AFTER_REWRITE`), but in this process: the agent's event
(`agents.event_for`), `cc-hook decode`, the agent's gate model (its rules, mode and
known-safe table: cc_gate), cc-rewrite, `cc-hook encode`; then `outcome.outcome_of` reads the
answer exactly as `cc-hook test` does. So the counts change by themselves when an agent module
changes what it answers (e.g. a rewrite for a command the agent asks about).

A command counts as compacted when the agent runs the filtered command, with or without asking
(outcome FILTERED, ASKS, REWRITTEN_OWN_RULES), or filters its output after it ran and a filter
applies (FILTERED_AFTER). For one that reaches the model raw only because the agent asks about
it, and that has a filter, `allow_line` gives the line that would make it compacted. Cold path.
"""
import os

from . import hook_script
from .allow_rule import SHELL_OPERATORS, rule_prefix
from .outcome import ASKS, CLIENT_DECIDES, FILTERED, FILTERED_AFTER, REFUSED, \
    REWRITTEN_OWN_RULES, outcome_of
from .typical import BUILD_TEST, EXPLORE, TYPICAL

COMPACTED_KINDS = (FILTERED, ASKS, REWRITTEN_OWN_RULES)
"""The agent runs the rewritten (filtered) command: unasked, after asking, or once its own
rules allow it."""


class Verdict:
    __slots__ = ("command", "outcome", "compacted", "has_filter", "why")

    def __init__(self, command, outcome, compacted, has_filter, why):
        self.command = command
        self.outcome = outcome
        self.compacted = compacted
        self.has_filter = has_filter
        self.why = why


def _rewriter():
    from cc_rewrite.rewrite import Rewriter

    return Rewriter()


def has_filter(command: str, cwd: str, rewriter=None) -> bool:
    """Whether cc-rewrite would run `command` through cc-filter (a filter applies)."""
    rewriter = rewriter or _rewriter()
    try:
        return rewriter.rewrite(command, {"command": command, "cwd": cwd}).changed
    except Exception:  # a rewrite bug: the hook leaves such a command alone too
        return False


def hook_answer(agent: str, command: str, cwd: str, after: bool, gate=None,
                rewriter=None) -> str:
    """The installed hook's answer text for `command`, its stages run in this process."""
    from cc_gate.stage import Gate
    from cc_peel.record import dumps, loads

    import json

    from .stage import decode, encode
    from .agents import event_for, trait

    event = event_for(agent, command, cwd)
    line = decode(agent, json.dumps(event))
    if line is None:
        return ""
    rec = loads(line)
    gate = gate or Gate(agent=agent)
    rewriter = rewriter or _rewriter()
    # the agent's pre-execution pipeline: deny-only where it filters only after execution
    # (Copilot), the rewrite where it also filters what the rewrite leaves alone (Codex)
    pre = trait(agent, "PIPELINES", (hook_script.REWRITE,))[0]
    if not after:
        pre = hook_script.REWRITE
    pipeline = hook_script.PIPELINES[pre]
    names = [name for name, rest in pipeline if name != "cc-hook"]
    if pre == hook_script.REWRITE and trait(agent, "GATE_AFTER_REWRITE", False):
        names = ["cc-rewrite", "cc-gate"]
    for name in names:
        if name == "cc-gate":
            rec = gate.answer_record(rec)
        elif name == "cc-rewrite":
            rec = rewriter.answer_record(rec)
    return encode(agent, dumps(rec))


def judge(agent: str, command: str, cwd: str, after: bool, gate=None, rewriter=None) -> Verdict:
    from .agents import PLUGIN_AGENTS

    rewriter = rewriter or _rewriter()
    if agent in PLUGIN_AGENTS:  # the plugin: deny-only before, filter after
        outcome = _opencode_outcome(command, cwd, gate, after, agent)
    else:
        answer = hook_answer(agent, command, cwd, after, gate, rewriter)
        outcome = outcome_of(agent, answer, command, after)
    filtered = has_filter(command, cwd, rewriter)
    if outcome.kind in COMPACTED_KINDS:
        return Verdict(command, outcome, True, True, "runs filtered")
    if outcome.kind == FILTERED_AFTER:
        why = "filtered after it ran" if filtered else "no filter applies to it"
        return Verdict(command, outcome, filtered, filtered, why)
    if outcome.kind == REFUSED:
        return Verdict(command, outcome, False, filtered, f"refused by {outcome.reason}")
    why = ("the agent asks about it (or decides by its own rules), so it runs the original, "
           "unfiltered, even after you approve it" if filtered else "no filter applies to it")
    return Verdict(command, outcome, False, filtered, why)


def _opencode_outcome(command: str, cwd: str, gate, after: bool, agent: str = "opencode"):
    from cc_gate.stage import Gate

    from .outcome import opencode_outcome

    gate = gate or Gate(agent=agent)
    rec = gate.answer_record({"agent": agent, "cwd": cwd, "command": command})
    return opencode_outcome(rec, command, after)


class _DefaultClient:
    """While measuring outside the client: the gate finds the agent's default start as its
    client process (when the real one is not an ancestor)."""

    def __init__(self, agent: str):
        from .agents import trait

        # its module's DEFAULT_START: how it starts in its default setup (Gemini CLI: an
        # interactive session), for an agent whose gate reads flags from its running process
        self.argv = trait(agent, "DEFAULT_START")
        self.saved = None

    def __enter__(self):
        if self.argv is None:
            return self
        from cc_gate import process

        real = process.client_process
        argv = self.argv

        def client_process(names, start=None):
            return real(names, start) or (os.getpid(), list(argv))

        self.saved, process.client_process = real, client_process
        return self

    def __exit__(self, *exc):
        if self.saved is not None:
            from cc_gate import process

            process.client_process = self.saved
        return False


def measure(agent: str, cwd: str, after: bool, commands=TYPICAL) -> list:
    """One Verdict per command, for `agent` installed as it is (after: it filters after
    execution), in the agent's default setup (its module's DEFAULT_START)."""
    from cc_gate.stage import Gate

    with _DefaultClient(agent):
        gate = Gate(agent=agent)
        rewriter = _rewriter()
        return [judge(agent, c, cwd, after, gate, rewriter) for c in commands]


# -- what would add more ---------------------------------------------------------------------
def allow_rules(agent: str, commands: list) -> tuple[str, list] | None:
    """(where, the exact lines) that let the agent run `commands` unasked, so the hook can
    compact them; None when the agent has no such rule."""
    from .agents import trait

    # its module's ALLOW_RULES: (where the lines go, prefixes → the exact lines)
    found = trait(agent, "ALLOW_RULES")
    if not found or not commands:
        return None
    where, make = found
    return where, make(list(dict.fromkeys(rule_prefix(c) for c in commands)))


def worth_allowing(command: str) -> bool:
    """A simple command that only reads or builds (never one that changes a repository or a
    cluster): the only kind a hint proposes to allow."""
    if any(op in command for op in SHELL_OPERATORS):
        return False
    return command in BUILD_TEST or command in EXPLORE


# -- the report ------------------------------------------------------------------------------
def summary(agent: str, verdicts: list) -> list:
    """The lines init and verify print for one agent."""
    from .agents import title

    done = [v for v in verdicts if v.compacted]
    heavy = [v for v in verdicts if v.command in BUILD_TEST]
    heavy_done = [v for v in heavy if v.compacted]
    lines = [f"{title(agent)}: {len(done)} of {len(verdicts)} typical commands reach "
             f"the model compacted ({len(heavy_done)} of the {len(heavy)} test, build, install "
             "and lint commands)"]
    raw = [v for v in verdicts if not v.compacted]
    if raw:
        lines.append("  reach it raw: " + ", ".join(v.command for v in raw))
    fixable = [v.command for v in raw if v.has_filter and v.outcome.kind == CLIENT_DECIDES
               and worth_allowing(v.command)]
    found = allow_rules(agent, fixable)
    if found:
        where, rule_lines = found
        lines.append(f"  the agent asks about {len(fixable)} of these, so it runs them unfiltered "
                     f"even after you approve; to compact them, allow them (add to {where}):")
        lines.extend(f"    {line}" for line in rule_lines)
    return lines


def report(agent: str, cwd: str, after: bool, say) -> list:
    verdicts = measure(agent, cwd, after)
    for line in summary(agent, verdicts):
        say(line)
    return verdicts


def for_installs(installs: list, say, cwd: str | None = None) -> None:
    """init and verify: the summary for each agent with a hook or plugin among `installs` (the
    one the agent uses in `cwd`: the project's install there, else the global one)."""
    from .agents import HOOK_AGENTS, PLUGIN_AGENTS
    from .outcome import filters_after
    from .manifest import install_texts, installed

    cwd = os.path.abspath(cwd or os.getcwd())
    agents = list(dict.fromkeys(i.get("agent") for i in installs
                                if i.get("agent") in HOOK_AGENTS + PLUGIN_AGENTS))
    if not agents:
        return
    say("")
    say(f"What reaches the model compacted here ({home_short(cwd)}), out of "
        f"{len(TYPICAL)} typical commands (cc_hook/typical.py), with the rules in force now:")
    for agent in agents:
        found = installed(agent, cwd)
        if found is None:
            continue
        install, _where = found
        where = install.get("root") if install.get("scope") == "project" else cwd
        try:
            report(agent, where or cwd, filters_after(install_texts(install), agent),
                   say)
        except Exception as exc:  # a measure that fails must not fail init or verify
            say(f"{agent}: cannot tell ({type(exc).__name__}: {exc})")


def home_short(path: str) -> str:
    from ctxcrl.home import short_path

    return short_path(path)


def after_approval(agent: str, command: str, cwd: str, outcome) -> list:
    """`cc-hook test`: for a command the agent asks about (or decides on itself), whether its
    output is filtered once you approve it, why, and the rule that would compact it."""
    if outcome.kind == ASKS:
        lines = ["  approved  runs filtered (the prompt shows the rewritten command)"]
        # an agent whose prompt for a hook's ask has no "don't ask again" (Claude Code) says
        # how to save the rule by hand
        from .agents import trait

        ask_again_hint = trait(agent, "ask_again_hint")
        hint = ask_again_hint(command) if ask_again_hint else None
        if hint:
            lines.append(f"  again     {hint[2:]}")
        return lines
    if outcome.kind == REWRITTEN_OWN_RULES:
        return ["  approved  runs filtered (the agent runs the rewritten command once its own "
                "rules allow it)"]
    if outcome.kind not in (CLIENT_DECIDES, FILTERED_AFTER):
        return []
    filtered = has_filter(command, cwd)
    if outcome.kind == FILTERED_AFTER:
        return [f"  output    {'filtered after it ran' if filtered else 'unfiltered: no filter applies to it'}"
                ", asked or not"]
    if not filtered:
        return ["  approved  runs unfiltered: no filter applies to it"]
    lines = ["  approved  runs unfiltered: the hook leaves a command the agent asks about to "
             "the agent's own flow, which runs the original (permission parity)"]
    found = allow_rules(agent, [command]) if worth_allowing(command) else None
    if found:
        where, rule_lines = found
        lines.append(f"  compact   allow it (add to {where}):")
        lines.extend(f"            {line}" for line in rule_lines)
    return lines
