"""Agent session histories, read into one model: sessions, their shell calls, their token usage.

Every agent that keeps transcripts reads its own (its cc-hook module: `transcript_dir()`,
`TRANSCRIPT_FILES`, `read_transcript`; today Claude Code, Codex and Gemini CLI) into the
model of cc_hook.transcript (`Session`, `ShellCall`, `Usage`); this module reads them all,
never writing them. Lines that are not JSON objects are skipped and counted, never fatal.
"""
import glob
import os

from cc_hook.transcript import History


def transcript_agents():
    """(name, module) of every agent whose module reads its transcripts."""
    from cc_hook.agents import ALL_AGENTS, load

    for name in ALL_AGENTS:
        module = load(name)
        if hasattr(module, "read_transcript"):
            yield name, module


def _inside(cwd, project) -> bool:
    return project is None or (isinstance(cwd, str) and (
        cwd == project or cwd.startswith(project.rstrip("/") + "/")))


def read_history(dirs: dict | None = None, since: float | None = None,
                 project: str | None = None) -> History:
    """Every session with activity at or after `since` whose cwd is inside `project` (when
    given), oldest first. `dirs`: agent name → the folder its transcripts are in (default:
    the agent's own, `transcript_dir()`)."""
    history = History()
    for name, module in transcript_agents():
        base = (dirs or {}).get(name) or module.transcript_dir()
        pattern = os.path.join(glob.escape(base), module.TRANSCRIPT_FILES)
        for path in sorted(glob.glob(pattern, recursive=True)):
            try:
                if since is not None and os.path.getmtime(path) < since:
                    continue
            except OSError:
                continue
            session = module.read_transcript(path, history)
            if since is not None and (session.end is None or session.end < since):
                continue
            if project is not None and not _inside(session.cwd, project):
                continue
            if session.calls or session.usage:
                history.sessions.append(session)
    history.sessions.sort(key=lambda s: (s.start or 0, s.id))
    return history
