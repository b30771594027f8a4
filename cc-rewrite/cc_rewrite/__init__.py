"""cc_rewrite: run each segment that has a filter through `cc-filter run` (ARCHITECTURE §5).

Library API (the CLI is a thin layer over it; cc-hook may call it in-process):
- `cc_rewrite.rewrite.rewrite(command, catalogue=None, settings=None) -> Rewrite`
  (`text`, `changed`, `notes`, `explain()`);
- `cc_rewrite.rewrite.Catalogue(cwd, lookup=None)` — cc-filter's catalogue, answers cached;
- `cc_rewrite.refusals.RewriteSettings.from_config()` — exclude_commands, filter program, …;
- `cc_rewrite.rewrite.Rewriter(cwd=None).answer_record(record) -> record`.

Imports nothing here: `cc-rewrite` runs on every agent command and loads only what it uses.
"""
