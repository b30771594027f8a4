"""What the client will really run, for `cc-hook verify`: the agent's own settings files that
can switch the installed hook off, put another hook on the same tool, or override
contextcrawler's variables through an `env` block or an env file. Each finding says the file
and the exact fix. Cold path.

Claude Code reads managed settings (`/etc/claude-code/managed-settings.json` and its
`managed-settings.d/`), the user's (`~/.claude/settings.json`, or `$CLAUDE_CONFIG_DIR`), the
project's (`.claude/settings.json`, shared) and the local one (`.claude/settings.local.json`),
highest precedence first: managed, local, project, user. Any of them can:
- `"disableAllHooks": true`: no hook runs (nothing is filtered, the hook's denies do not apply);
  managed `"allowManagedHooksOnly": true` keeps only managed hooks;
- register another `PreToolUse` hook whose matcher covers `Bash`: Claude Code runs matching
  hooks in parallel and keeps the `updatedInput` of whichever finishes last
  (anthropics/claude-code#83353), so the command may run unfiltered or as the other hook wrote
  it;
- set an `env` block: its values reach the hook and every shell command the agent runs.
Gemini CLI: `hooksConfig.enabled: false` and `hooksConfig.disabled` in its system, user and
project `settings.json`, other `BeforeTool` hooks on `run_shell_command`, and the `.env` files it
loads into its own environment (`.gemini/.env`, `.env`). Codex: other `PreToolUse` hooks on
Bash in its `hooks.json` files (its trust entry is checked by the install's own artifact).
Cline CLI: its global settings' `disabledPlugins` naming the installed plugin.
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

_short = home.short_path


def _read_json(path: str):
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


def _claude_files(install: dict, user_home: str, cwd: str) -> list:
    from cc_gate.agents import claude as claude_gate

    from .agents import claude

    base = claude.user_dir(user_home)
    files = [(p, "managed") for p in claude_gate.managed_files()]
    files.append((os.path.join(base, "settings.json"), "user"))
    for root in _roots(install, cwd, user_home):
        files.append((os.path.join(root, ".claude", "settings.json"), "project"))
        files.append((os.path.join(root, ".claude", "settings.local.json"), "local"))
    return files


def _roots(install: dict, cwd: str, user_home: str) -> list:
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


def check_claude(install: dict, finding, user_home: str, cwd: str) -> None:
    for path, level in _claude_files(install, user_home, cwd):
        settings = _read_json(path)
        if settings is None:
            continue
        where = f"{level} settings {_short(path)}"
        if settings.get("disableAllHooks") is True:
            fix = ("ask whoever manages this machine's Claude Code policy" if level == "managed"
                   else f"remove \"disableAllHooks\" from {_short(path)}")
            finding.fail(f"{where} sets \"disableAllHooks\": true: Claude Code runs no hook, "
                         f"so nothing is filtered; fix: {fix}")
        if level == "managed" and settings.get("allowManagedHooksOnly") is True:
            finding.fail(f"{where} sets \"allowManagedHooksOnly\": true: Claude Code runs only "
                         "managed hooks, not contextcrawler's; fix: ask whoever manages this "
                         "machine's Claude Code policy to add the hook there")
        for command in foreign_hooks(settings, "PreToolUse", "Bash"):
            finding.warn(f"{where} registers another PreToolUse hook on Bash ({command}): "
                         "Claude Code runs both at once and keeps the updatedInput of the one "
                         "that finishes last, so a command may run unfiltered or as the other "
                         f"hook rewrote it; fix: remove it from hooks.PreToolUse in "
                         f"{_short(path)}, or give it a matcher without Bash")
        env = settings.get("env")
        if isinstance(env, dict):
            env_findings(env, f"the \"env\" block of {where}", level, finding)


def _read_env_file(path: str) -> dict | None:
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


def check_gemini(install: dict, finding, user_home: str, cwd: str) -> None:
    from cc_gate.agents import gemini as gemini_gate

    gemini_home = os.environ.get("GEMINI_CLI_HOME") or user_home
    files = [(os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or gemini_gate.SYSTEM_SETTINGS,
              "system"), (os.path.join(gemini_home, ".gemini", "settings.json"), "user")]
    env_files = [(os.path.join(gemini_home, ".gemini", ".env"), "user"),
                 (os.path.join(gemini_home, ".env"), "user")]
    for root in _roots(install, cwd, user_home):
        files.append((os.path.join(root, ".gemini", "settings.json"), "project"))
        env_files[:0] = [(os.path.join(root, ".gemini", ".env"), "project"),
                         (os.path.join(root, ".env"), "project")]
    for path, level in files:
        settings = _read_json(path)
        if settings is None:
            continue
        where = f"{level} settings {_short(path)}"
        config = settings.get("hooksConfig")
        config = config if isinstance(config, dict) else {}
        if config.get("enabled") is False:
            finding.fail(f"{where} sets hooksConfig.enabled to false: Gemini CLI runs no hook, "
                         f"so nothing is filtered; fix: remove \"enabled\": false from "
                         f"hooksConfig in {_short(path)}")
        disabled = config.get("disabled")
        for name in disabled if isinstance(disabled, list) else ():
            if isinstance(name, str) and hook_script.SCRIPT_PREFIX in name:
                finding.fail(f"{where} lists contextcrawler's hook in hooksConfig.disabled; "
                             f"fix: remove {json.dumps(name)} from it")
        for command in foreign_hooks(settings, "BeforeTool", "run_shell_command"):
            finding.warn(f"{where} registers another BeforeTool hook on run_shell_command "
                         f"({command}): its tool_input may replace the rewritten command; fix: "
                         f"remove it from hooks.BeforeTool in {_short(path)}, or give it a "
                         "matcher without run_shell_command")
    seen = set()
    for path, level in env_files:
        env = _read_env_file(path)
        if env is None or path in seen:
            continue
        seen.add(path)
        env_findings(env, f"{level} env file {_short(path)} (Gemini CLI loads it)", level,
                     finding)


def check_codex(install: dict, finding, user_home: str, cwd: str) -> None:
    from .agents import codex

    files = [(os.path.join(codex.user_dir(user_home), "hooks.json"), "user")]
    files += [(os.path.join(root, ".codex", "hooks.json"), "project")
              for root in _roots(install, cwd, user_home)]
    for path, level in files:
        settings = _read_json(path)
        if settings is None:
            continue
        for command in foreign_hooks(settings, "PreToolUse", "Bash"):
            finding.warn(f"{level} hooks {_short(path)} registers another PreToolUse hook on "
                         f"Bash ({command}): its answer may replace the rewritten command; "
                         f"fix: remove it from hooks.PreToolUse in {_short(path)}")


def cline_settings_path(user_home: str) -> str:
    """Cline CLI's global settings file, found as Cline 3.0.65 finds it."""
    if os.environ.get("CLINE_GLOBAL_SETTINGS_PATH"):
        return os.environ["CLINE_GLOBAL_SETTINGS_PATH"]
    data = os.environ.get("CLINE_DATA_DIR") or os.path.join(
        os.environ.get("CLINE_DIR") or os.path.join(user_home, ".cline"), "data")
    return os.path.join(data, "settings", "global-settings.json")


def check_cline(install: dict, finding, user_home: str, cwd: str) -> None:
    path = cline_settings_path(user_home)
    settings = _read_json(path)
    if settings is None:
        return
    disabled = settings.get("disabledPlugins")
    disabled = {os.path.realpath(p) for p in disabled if isinstance(p, str)} \
        if isinstance(disabled, list) else set()
    for file in install.get("files", []):
        plugin = file.get("path")
        if file.get("kind") == "plugin" and plugin and os.path.realpath(plugin) in disabled:
            finding.warn(f"Cline's settings {_short(path)} list the plugin {_short(plugin)} in "
                         "disabledPlugins: Cline does not load it (nothing is filtered, its "
                         f"denies do not apply); fix: remove it from disabledPlugins in "
                         f"{_short(path)}")


def check_vibe(install: dict, finding, user_home: str, cwd: str) -> None:
    """Vibe loads a project's .vibe/hooks.toml only in a folder it trusts."""
    if install.get("scope") != "project" or not isinstance(install.get("root"), str):
        return
    from .agents.vibe import project_trust

    root = install["root"]
    trust = project_trust(root, user_home)
    if trust is not True:
        state = "marks it untrusted" if trust is False else "has not trusted it yet"
        finding.warn(f"Mistral Vibe {state}: it loads {_short(os.path.join(root, '.vibe'))}"
                     "/hooks.toml only in a trusted folder; fix: trust the folder when Vibe "
                     "asks (or start it there with --trust)")


CHECKS = {"claude": check_claude, "gemini": check_gemini, "codex": check_codex,
          "cline": check_cline, "vibe": check_vibe}


def check(install: dict, finding, user_home: str, cwd: str | None = None) -> None:
    run = CHECKS.get(install.get("agent"))
    if run is not None:
        run(install, finding, user_home, os.path.abspath(cwd or os.getcwd()))
