"""The awareness note: where each agent reads it, and the artifacts `init` writes for it.

One text for every agent (templates/CONTEXTCRAWLER.md): what the compacted output is, how to
read a `[full output: …]` hint, and the bypass (`CTXCRL_DISABLED=1 <command>`, honoured by the
rewrite and by the filters after execution alike). Claude Code imports files, so it gets the
note as `CONTEXTCRAWLER.md` referenced from `CLAUDE.md` (agents/claude.py); the others get it
inline, as a marked block in the instructions file they read, or, for Cursor, as a rule file
of its own. Windsurf gets its rules block instead (agents/windsurf.py). Cold path.
"""

NOTE_TEMPLATE = "CONTEXTCRAWLER.md"



def note_text() -> str:
    from .hook_script import template

    return template(NOTE_TEMPLATE)


def note_path(agent: str, scope: str, root: str, user_home: str) -> str | None:
    """The instructions file the agent reads the note from (its module's `note_path`), None
    when it reads none there (Claude Code imports the note instead, Cursor keeps user rules
    in its settings, Windsurf gets its rules block)."""
    from .agents import load

    where = getattr(load(agent), "note_path", None)
    return where(scope, root, user_home) if where else None


def artifacts(agent: str, scope: str, root: str, user_home: str) -> list:
    """The note's artifacts for this install (empty for agents that get it elsewhere)."""
    from .artifacts import MarkedBlock, OwnedFile

    path = note_path(agent, scope, root, user_home)
    if path is None:
        return []
    from .agents import trait

    rule_head = trait(agent, "NOTE_RULE_HEAD")  # Cursor: a rule file of its own
    if rule_head is not None:
        return [OwnedFile(path, rule_head + note_text(), "awareness note (rule)")]
    return [MarkedBlock(path, note_text(), "awareness note")]
