"""VS Code's terminal auto-approval, which GitHub Copilot's agent mode obeys.

    "chat.tools.terminal.autoApprove": {
        "git status": true,                 # a command prefix (whole words)
        "/^npm (test|run lint)$/": true,    # a regex between slashes (flags after: /…/i)
        "rm": false,                        # never auto-approve: always ask
        "/--force/": {"approve": false, "matchCommandLine": true}
    }

true → allow, false → ask (VS Code's "false" means "always confirm", not "forbid"). Read from
the user settings (Code, Code - Insiders; Linux and macOS locations) and the project's
`.vscode/settings.json` (JSON with comments). Read by the Copilot model. Imports only
`os`; `re` is imported the first time a regex key is actually matched.
"""
import os

from ..rules import ALLOW, ASK, Rule, prefix_matcher

SETTING = "chat.tools.terminal.autoApprove"


def user_settings_files(home: str) -> list:
    files = []
    for product in ("Code", "Code - Insiders"):
        files.append(os.path.join(home, ".config", product, "User", "settings.json"))
        files.append(os.path.join(home, "Library", "Application Support", product, "User",
                                  "settings.json"))
    return files


def rules_of(settings: dict, source: str) -> list:
    table = settings.get(SETTING)
    if table is None:
        table = settings.get("chat", {})
        for key in ("tools", "terminal", "autoApprove"):
            table = table.get(key) if isinstance(table, dict) else None
    if not isinstance(table, dict):
        return []
    rules = []
    for key, value in table.items():
        approve = value.get("approve") if isinstance(value, dict) else value
        if not isinstance(approve, bool) or not isinstance(key, str) or not key.strip():
            continue
        kind = ALLOW if approve else ASK
        text = f'"{key}": {"true" if approve else "false"}'
        rules.append(Rule(kind, text, key, source, _matcher(key.strip())))
    return rules


def _matcher(key: str):
    last = key.rfind("/")
    if key.startswith("/") and last > 0:
        return _RegexMatcher(key[1:last], key[last + 1:])
    return prefix_matcher(key)


class _RegexMatcher:
    __slots__ = ("source", "flags", "regex")

    def __init__(self, source: str, flags: str):
        self.source = source
        self.flags = flags
        self.regex = None

    def __call__(self, command: str) -> bool:
        if self.regex is None:
            import re

            flags = (re.IGNORECASE if "i" in self.flags else 0) | \
                (re.MULTILINE if "m" in self.flags else 0) | (re.DOTALL if "s" in self.flags else 0)
            try:
                self.regex = re.compile(self.source, flags)
            except re.error:
                self.regex = False  # JavaScript-only syntax: the rule never matches
        return bool(self.regex) and self.regex.search(command) is not None
