"""cc-gate as a pipeline stage: records in, records with "decision" and "reason" out; bare
commands in, the same commands out (an empty line for a denied one), the verdict on stderr.

Imports only `sys`, cc_peel (the record codec, the peeler) and the cheap gate modules, all
before stdin is read, so they load while the upstream stage is still working: this runs on
every agent command.
"""
import sys

from cc_peel import record
from cc_peel.peeling import configured_prefixes

from .agents import AGENTS, UnknownAgent, load_rules, model
from .decision import EXIT_BY_DECISION, GateDecision

DECISION_ORDER = {"allow": 0, "ask": 1, "deny": 2}


class Gate:
    """Answers records and bare commands for one `cc-gate` invocation."""

    def __init__(self, agent=None, cwd=None):
        self.agent = agent
        self.bad_agent = agent is not None and agent not in AGENTS
        self.cwd = cwd
        self._rules: dict = {}
        self._warned: set = set()
        self._prefixes = None

    def rules_for(self, agent: str, cwd: str, quiet: bool = False):
        """The rules for `agent` in `cwd`, loaded once; their warnings are printed once, when
        they are first used (not by `prepare`)."""
        key = (agent, cwd)
        rules = self._rules.get(key)
        if rules is None:
            rules = self._rules[key] = load_rules(agent, cwd)
        if not quiet:
            for warning in rules.warnings:
                if warning not in self._warned:
                    self._warned.add(warning)
                    record.warn("cc-gate", warning)
        return rules

    def prepare(self) -> None:
        """Before stdin is read (record.run_stage): the rules for the current directory, where
        the agent runs its hook and so, nearly always, the records' cwd, and whatever else
        the agent's model reads for nearly every command (its module's `prepare(rules)`,
        when it has one: Claude Code's read-only tables)."""
        self.prefixes()
        agent = self._agent_for(None)
        rules = self.rules_for(agent, record.cwd_of(None, self.cwd), quiet=True)
        ahead = getattr(model(agent), "prepare", None)
        if ahead is not None:
            ahead(rules)

    def prefixes(self) -> tuple:
        if self._prefixes is None:
            self._prefixes = configured_prefixes()
        return self._prefixes

    def _agent_for(self, rec) -> str:
        if self.agent is not None:
            return self.agent
        agent = rec.get("agent") if rec is not None else None
        return "claude" if agent is None else agent

    def judge(self, command: str, rec=None):
        try:
            agent = self._agent_for(rec)
            rules = self.rules_for(agent, record.cwd_of(rec, self.cwd))
            return model(agent).decide(command, rules, rec, self.prefixes())
        except UnknownAgent as exc:  # whose rules apply is unknown: never allow
            if str(exc) not in self._warned:
                self._warned.add(str(exc))
                record.warn("cc-gate", str(exc))
            return GateDecision("ask", f"{exc}: never auto-allowed")
        except Exception as exc:  # a bug may hide a deny: never allow, let the agent ask
            record.warn("cc-gate", f"internal error {exc!r}")
            return GateDecision("ask", f"internal error ({exc.__class__.__name__}): "
                                       "never auto-allowed")

    def answer_record(self, rec: dict) -> dict:
        verdict = self.judge(rec["command"], rec)
        rec["decision"] = verdict.decision
        rec["reason"] = verdict.reason
        rec.pop("prompts", None)  # only this stage says it
        if verdict.decision == "ask" and getattr(verdict, "prompts", False):
            rec["prompts"] = True  # the user surely sees a prompt for it: a rewrite is safe
        return rec

    def answer_bare(self, command: str):
        """The command itself for the next stage (an empty line when denied: a denied command
        never reaches it), and `cc-gate: <decision>: <reason>` on stderr."""
        verdict = self.judge(command)
        record.warn("cc-gate", f"{verdict.decision}: {verdict.reason}")
        return ("" if verdict.decision == "deny" else command), verdict.decision

    def run(self, command_arg) -> int:
        results = record.run_stage("cc-gate", command_arg, self.answer_record, self.answer_bare,
                                   self.prepare)
        if not results:
            return 0  # record mode (or nothing but empty lines)
        return EXIT_BY_DECISION[max(results, key=DECISION_ORDER.__getitem__)]

    def list_rules(self) -> int:
        agent = self.agent or "claude"
        rules = self.rules_for(agent, record.cwd_of(None, self.cwd))
        out = sys.stdout
        every = rules.all()
        for rule in every:
            out.write(f"{rule.kind}\t{rule.text}\t{rule.source}\n")
        if not every:
            out.write(f"no rules for {agent} (files read: {', '.join(rules.files) or 'none'})\n")
        return 0
