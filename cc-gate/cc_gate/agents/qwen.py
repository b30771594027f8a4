"""Qwen Code's permission rules for its shell tool (measured on 0.24.4).

Sources, as the client reads them: `permissions.allow / ask / deny` of the system settings
(`/etc/qwen-code/settings.json`, or `QWEN_CODE_SYSTEM_SETTINGS_PATH`), the user's
`~/.qwen/settings.json` and the project's `.qwen/settings.json`, plus contextcrawler's `[gate]`.
The rule format is Claude Code's (`Bash(git push)`, `Bash(git push:*)`, `Bash(npm *)`, and the
tool names `Bash`, `Shell`, `ShellTool`, `run_shell_command` for the same shell tool), so the
shared settings reader parses them.

Qwen Code's PreToolUse hook can refuse a call but cannot change it (0.24.4 ignores
`updatedInput`), and its PostToolUse hook can only append to the output, so nothing is ever
rewritten for it: `decide` answers "deny" when a rule denies any peeled spelling of any segment
(the client's own deny, or one it misses such as `git -C . push` for `Bash(git push)`), and
"ask" (no answer: the client decides on the original command) otherwise. It never answers
allow, so the approval mode and the flags of the running client need not be read.
"""
from ctxcrl import lean_os as os

from .. import decision
from ..rules import RuleSet, add_config, add_settings_permissions, \
    find_project_dir, home_dir

NAME = "qwen"
#: The tool names Qwen Code's rules use for its shell tool (its TOOL_NAME_ALIASES).
SHELL_TOOLS = ("Bash", "run_shell_command", "Shell", "ShellTool")
CONFIG_DIR = ".qwen"
SYSTEM_SETTINGS = "/etc/qwen-code/settings.json"


def settings_files(cwd: str) -> list:
    """The settings files Qwen Code reads, system first."""
    home = home_dir()
    user_dir = os.path.join(home, CONFIG_DIR)
    files = [os.environ.get("QWEN_CODE_SYSTEM_SETTINGS_PATH") or SYSTEM_SETTINGS]
    project = find_project_dir(cwd, CONFIG_DIR, home)
    if project is not None and os.path.join(project, CONFIG_DIR) != user_dir:
        files.append(os.path.join(project, CONFIG_DIR, "settings.json"))
    files.append(os.path.join(user_dir, "settings.json"))
    return files


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    add_settings_permissions(rules, settings_files(cwd), SHELL_TOOLS, lenient=True)
    add_config(rules)
    return rules


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.deny_only(command, rules, prefixes, lambda verdict: (
        f"Qwen Code's hook cannot rewrite a command: the client decides ({verdict.reason})"))
