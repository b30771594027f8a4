"""cc_gate: allow / ask / deny for a shell command from the agent's own rules (DESIGN §5).

Library API (the CLI is a thin layer over it; cc-hook may call it in-process):
- `cc_gate.rules.load_rules(agent, cwd) -> RuleSet` — every rule that applies;
- `cc_gate.decision.decide(command, rules, transparent_prefixes=()) -> GateDecision`
  (`decision`, `reason`, `rule`);
- `cc_gate.stage.Gate(agent=None, cwd=None).answer_record(record) -> record`.

Command-record lines (reading, writing, driving the stage) are `cc_peel.record`'s, shared
with cc-rewrite and cc-hook.

Imports nothing here: `cc-gate` runs on every agent command and loads only what it uses.
"""
