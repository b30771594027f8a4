"""cc_gate: allow / ask / deny for a shell command from the agent's own rules (ARCHITECTURE §5).

Library API (the CLI is a thin layer over it; cc-hook may call it in-process):
- `cc_gate.agents.model(agent)` — that agent's permission model (`agents/<agent>.py`):
  `load_rules(cwd) -> RuleSet` (every source it reads) and
  `decide(command, rules, record, prefixes) -> GateDecision` (`decision`, `reason`, `rule`);
- `cc_gate.agents.load_rules(agent, cwd)` — the same rules, by agent name;
- `cc_gate.decision.decide(command, rules, transparent_prefixes=())` — the decision every
  model builds on (segments, spellings, deny > never-allowed > ask > allow);
- `cc_gate.process.client_argv(names)` — the running client's argv, for rules given as flags;
- `cc_gate.stage.Gate(agent=None, cwd=None).answer_record(record) -> record`.

Command-record lines (reading, writing, driving the stage) are `cc_peel.record`'s, shared
with cc-rewrite and cc-hook.

Imports nothing here: `cc-gate` runs on every agent command and loads only what it uses.
"""
