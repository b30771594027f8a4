"""The real agent histories in tests/fixtures/agent-history/, placed where the tools look.

`place(tmp, project)` copies Claude Code's session files into a fresh `CLAUDE_CONFIG_DIR`
with the recorded project path (`/home/dev/project`) moved to `project`, so `cc-track` run in
that directory sees them as the current project's; the spool the sessions' `cc-filter run`
calls appended gets the same move. Nothing else in the files changes.
"""
import json
import os
import re
import shutil

HISTORY = os.path.join(os.path.dirname(os.path.dirname(__file__)), "fixtures", "agent-history")
CLAUDE_PROJECTS = os.path.join(HISTORY, "claude", "projects")
CLAUDE_SPOOL = os.path.join(HISTORY, "claude", "spool.jsonl")
#: Two more Claude Code sessions: a wrong flag and a wrong directory, each fixed, in both.
CLAUDE_FIXES = os.path.join(HISTORY, "claude-fixes", "projects")
RECORDED_PROJECT = "/home/dev/project"


def claude_files() -> list[str]:
    return sorted(os.path.join(root, name) for root, _dirs, names in os.walk(CLAUDE_PROJECTS)
                  for name in names if name.endswith(".jsonl"))


def spool_records() -> list[dict]:
    with open(CLAUDE_SPOOL, encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def _moved(text: str, project: str) -> str:
    return text.replace(RECORDED_PROJECT, project)


def place(tmp, project: str) -> dict:
    """{"claude_dir", "projects_dir", "spool"} under tmp, for sessions of `project`."""
    claude_dir = os.path.join(str(tmp), "claude")
    folder = re.sub(r"[^A-Za-z0-9]", "-", project)
    target = os.path.join(claude_dir, "projects", folder)
    os.makedirs(target)
    for path in claude_files():
        with open(path, encoding="utf-8") as f:
            text = f.read()
        with open(os.path.join(target, os.path.basename(path)), "w", encoding="utf-8") as f:
            f.write(_moved(text, project))
    spool = os.path.join(str(tmp), "spool.jsonl")
    with open(CLAUDE_SPOOL, encoding="utf-8") as f:
        text = f.read()
    with open(spool, "w", encoding="utf-8") as f:
        f.write(_moved(text, project))
    return {"claude_dir": claude_dir, "projects_dir": os.path.join(claude_dir, "projects"),
            "spool": spool}


def copy_plain(tmp) -> str:
    """The projects folder as recorded (no path moved)."""
    target = os.path.join(str(tmp), "projects")
    shutil.copytree(CLAUDE_PROJECTS, target)
    return target


CODEX_SESSIONS = os.path.join(HISTORY, "codex", "sessions")
CODEX_SPOOL = os.path.join(HISTORY, "codex", "spool.jsonl")


def codex_files() -> list[str]:
    return sorted(os.path.join(root, name) for root, _dirs, names in os.walk(CODEX_SESSIONS)
                  for name in names if name.endswith(".jsonl"))


GEMINI_HOME = os.path.join(HISTORY, "gemini")  # laid out as ~/.gemini
GEMINI_SPOOL = os.path.join(HISTORY, "gemini", "spool.jsonl")


def gemini_files() -> list[str]:
    chats = os.path.join(GEMINI_HOME, "tmp")
    return sorted(os.path.join(root, name) for root, _dirs, names in os.walk(chats)
                  for name in names if name.endswith(".jsonl"))
