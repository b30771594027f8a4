"""The awareness note: where each agent reads it, and the artifacts `init` writes for it.

One text for every agent (templates/CONTEXTCRAWLER.md): what the compacted output is, how to
read a `[full output: …]` hint, and the bypass (`CTXCRL_DISABLED=1 <command>`, honoured by the
rewrite and by the filters after execution alike). Claude Code imports files, so it gets the
note as `CONTEXTCRAWLER.md` referenced from `CLAUDE.md` (agents/claude.py); the others get it
inline, as a marked block in the instructions file they read, or, for Cursor, as a rule file
of its own. Cline and Windsurf get their rules block instead (agents/cline.py). Cold path.
"""
import os

NOTE_TEMPLATE = "CONTEXTCRAWLER.md"

CURSOR_RULE_HEAD = ("---\ndescription: contextcrawler compacts shell output; how to read it\n"
                    "alwaysApply: true\n---\n")


def note_text() -> str:
    from .hook_script import template

    return template(NOTE_TEMPLATE)


def _global_base(agent: str, user_home: str) -> str | None:
    if agent == "codex":
        return os.environ.get("CODEX_HOME") or os.path.join(user_home, ".codex")
    if agent == "opencode":
        config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(user_home, ".config")
        return os.path.join(config, "opencode")
    if agent == "kilo":
        from .agents.kilo import global_dir

        return global_dir(user_home)
    if agent == "gemini":
        return os.path.join(user_home, ".gemini")
    if agent == "copilot":
        return os.path.join(user_home, ".copilot")
    return None


def note_path(agent: str, scope: str, root: str, user_home: str) -> str | None:
    """The instructions file the agent reads the note from, None when it reads none there
    (Cursor keeps user rules in its settings, not in a file)."""
    if scope == "global":
        base = _global_base(agent, user_home)
        names = {"codex": "AGENTS.md", "opencode": "AGENTS.md", "kilo": "AGENTS.md",
                 "gemini": "GEMINI.md", "copilot": "copilot-instructions.md"}
        return os.path.join(base, names[agent]) if base and agent in names else None
    names = {"codex": "AGENTS.md", "opencode": "AGENTS.md", "kilo": "AGENTS.md",
             "gemini": "GEMINI.md", "copilot": os.path.join(".github", "copilot-instructions.md"),
             "cursor": os.path.join(".cursor", "rules", "ctxcrl.mdc")}
    return os.path.join(root, names[agent]) if agent in names else None


def artifacts(agent: str, scope: str, root: str, user_home: str) -> list:
    """The note's artifacts for this install (empty for agents that get it elsewhere)."""
    from .artifacts import MarkedBlock, OwnedFile

    path = note_path(agent, scope, root, user_home)
    if path is None:
        return []
    if agent == "cursor":
        return [OwnedFile(path, CURSOR_RULE_HEAD + note_text(), "awareness note (rule)")]
    return [MarkedBlock(path, note_text(), "awareness note")]
