"""What the client will really run, for `cc-hook verify`: the agent's own settings files that
can switch the installed hook off, put another hook on the same tool, or override
contextcrawler's variables through an `env` block or an env file. Each finding says the file
and the exact fix. Cold path.

The checks themselves are each agent's: its module's `check_client(install, finding,
user_home, cwd)` (Claude Code: `disableAllHooks`, managed `allowManagedHooksOnly`, another
PreToolUse hook on Bash, which the client runs in parallel keeping the `updatedInput` of the
last to finish (anthropics/claude-code#83353), an `env` block; Gemini CLI: `hooksConfig`,
another BeforeTool hook, the `.env` files it loads; Codex: another PreToolUse hook; Cline:
`disabledPlugins`; Mistral Vibe: an untrusted project folder). This module holds what they
share: reading a settings file, finding another hook on the same tool, judging an environment
block, and the projects whose settings the client reads.
"""
import json
import os
import re

from ctxcrl import home

from . import hook_script

#: Variables that decide where contextcrawler reads trust and config, besides CTXCRL_*.
HOME_VARIABLES = ("HOME", "XDG_CONFIG_HOME", "XDG_DATA_HOME", "CLAUDE_CONFIG_DIR",
                  "CODEX_HOME", "GEMINI_CLI_HOME")
TRUE_WORDS = ("1", "true", "yes", "on")

short = home.short_path


def read_json(path: str):
    try:
        with open(path, encoding="utf-8") as f:
            text = f.read()
    except OSError:
        return None
    try:
        from cc_gate.rules import strip_jsonc

        data = json.loads(strip_jsonc(text))
    except (ValueError, ImportError):
        return None  # malformed: the registration check already says so
    return data if isinstance(data, dict) else None


def matcher_covers(matcher, tool: str) -> bool:
    """Whether a hook group's matcher selects `tool` (absent, "" and "*" select every tool;
    otherwise an exact name or a regex, as Claude Code and Gemini CLI read it)."""
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return False
    if matcher == tool:
        return True
    try:
        return re.fullmatch(matcher, tool) is not None
    except re.error:
        return False


def foreign_hooks(settings: dict, event: str, tool: str) -> list:
    """The commands (or types) of the hooks on `event` for `tool` that are not ours."""
    groups = (settings.get("hooks") or {}).get(event) if isinstance(settings.get("hooks"),
                                                                    dict) else None
    found = []
    for group in groups if isinstance(groups, list) else ():
        if not isinstance(group, dict) or not matcher_covers(group.get("matcher"), tool):
            continue
        for handler in group.get("hooks") or ():
            if not isinstance(handler, dict):
                continue
            command = handler.get("command")
            if hook_script.is_ctxcrl_command(command):
                continue
            found.append(command if isinstance(command, str) and command else
                         f"a {handler.get('type') or 'hook'} hook")
    return found


def env_findings(env: dict, where: str, level: str, finding) -> None:
    """An `env` block (or env file) that overrides contextcrawler's variables."""
    for key, value in env.items():
        if not isinstance(key, str):
            continue
        if key == "CTXCRL_DISABLED" and str(value).strip() not in ("", "0"):
            finding.fail(f"{where} sets CTXCRL_DISABLED: the hook answers nothing, no command "
                         f"is filtered; fix: remove \"{key}\" from {where}")
        elif key.startswith("CTXCRL_") or key in HOME_VARIABLES:
            text = (f"{where} sets {key}={value}: it reaches the hook and every command the "
                    "agent runs (where contextcrawler reads trust, config and its cc-filter); "
                    f"fix: remove \"{key}\" from {where}")
            if level in ("project", "local"):
                finding.fail(text)  # chosen by the repository, not by you
            else:
                finding.warn(text)


def project_roots(install: dict, cwd: str, user_home: str) -> list:
    """The projects whose settings the client reads: the install's own (project scope), and
    the one `verify` runs in (not the home folder: its settings are the user's)."""
    from .install import project_root

    roots = []
    if install.get("scope") == "project" and install.get("root"):
        roots.append(install["root"])
    here = project_root(cwd)
    if here not in roots and here not in (home.user_home(), user_home, "/"):
        roots.append(here)
    return roots


def read_env_file(path: str) -> dict | None:
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return None
    env = {}
    for line in lines:
        line = line.strip()
        if line.startswith("export "):
            line = line[len("export "):].strip()
        if not line or line.startswith("#") or "=" not in line:
            continue
        key, _, value = line.partition("=")
        env[key.strip()] = value.strip().strip("'\"")
    return env


def check(install: dict, finding, user_home: str, cwd: str | None = None) -> None:
    """The agent's own checks: its module's `check_client(install, finding, user_home, cwd)`,
    where it has one (the helpers above are what they share)."""
    from .agents import load

    try:
        run = getattr(load(install.get("agent")), "check_client", None)
    except KeyError:
        return
    if run is not None:
        run(install, finding, user_home, os.path.abspath(cwd or os.getcwd()))
