"""Kilo CLI's permission model: OpenCode's `permission.bash` format under Kilo's own names,
measured on Kilo CLI 7.7.7 (`@kilocode/cli`, a fork of OpenCode).

Sources, in merge order (later wins, objects merge key by key; see opencode.py):

1. global `$XDG_CONFIG_HOME/kilo/` `config.json`, `kilo.json`, `kilo.jsonc`, `opencode.json`,
   `opencode.jsonc`;
2. `$KILO_CONFIG` (a file);
3. the project's `kilo.jsonc`, `kilo.json`, `opencode.jsonc`, `opencode.json` from the git work
   tree's root down to the cwd (skipped with `KILO_DISABLE_PROJECT_CONFIG`);
4. the same four names in each `.kilo/` and `.kilocode/` folder from the root down, and in
   `$KILO_CONFIG_DIR`;
5. `$KILO_CONFIG_CONTENT` (inline JSON); 6. the managed `/etc/kilo/`; 7. `$KILO_PERMISSION`;
8. the running agent's `agent.<name>.permission` (`--agent`, default `code`: Kilo's name for
   OpenCode's `build`).

Kilo's own default for bash is `"*": "ask"` with a read-only allow list (`cat *`, `ls *`,
`grep *`, `git`-free); it has no deny, and this model only ever answers deny (Kilo filters
after execution like OpenCode: the plugin never changes the command) or ask. Imports only `os`.
"""
from . import opencode

NAME = "kilo"
PROGRAMS = ("kilo", "kilocode")
SHELL_TOOLS = ("bash",)
_FILES = ("kilo.jsonc", "kilo.json", "opencode.jsonc", "opencode.json")
LAYOUT = opencode.Layout(
    "Kilo CLI", PROGRAMS, "kilo",
    ("config.json", "kilo.json", "kilo.jsonc", "opencode.json", "opencode.jsonc"),
    {key: f"KILO_{key}" for key in ("CONFIG", "CONFIG_DIR", "CONFIG_CONTENT", "PERMISSION",
                                    "DISABLE_PROJECT_CONFIG")},
    _FILES, (".kilo", ".kilocode"), _FILES, "/etc/kilo", "code")


def load_rules(cwd: str):
    return opencode.load_rules(cwd, LAYOUT)


def decide(command: str, rules, record=None, prefixes=()):
    return opencode.decide(command, rules, record, prefixes, label=LAYOUT.label)
