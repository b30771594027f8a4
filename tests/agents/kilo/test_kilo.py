"""Kilo CLI 7.7.7 (`@kilocode/cli`, OpenCode lineage), the real client, offline against a
scripted model (an openai-compatible provider in its kilo.json, no login): the same scenarios
with and without contextcrawler's plugin.

Kilo filters after execution like OpenCode (ARCHITECTURE §5 rule 1, §8): the plugin never
changes the command, its `tool.execute.before` may only add a deny, and `tool.execute.after`
replaces what the model receives with the compacted output. Rules are Kilo's own
`permission.bash` in the user's ~/.config/kilo/kilo.json (over Kilo's default `"*": "ask"`)
and the project's .kilo/kilo.json. The table and the tests are OpenCode's
(postexec.PluginTable), the build rows included; the driver is OpenCode's too
(postexec.plugin_client).
"""
from postexec import PLUGIN_PROJECT_RULES, PLUGIN_RULES, BuildRows, PluginTable, plugin_client

ENV = {"KILO_DISABLE_MODELS_FETCH": "1", "KILO_DISABLE_AUTOUPDATE": "1",
       "KILO_DISABLE_LSP_DOWNLOAD": "1", "KILO_DISABLE_DEFAULT_PLUGINS": "1",
       "KILO_DISABLE_CLAUDE_CODE": "1", "KILO_DISABLE_EXTERNAL_SKILLS": "1",
       "KILO_DISABLE_SHARE": "1", "KILO_TELEMETRY_LEVEL": "off", "KILO_NO_DAEMON": "1",
       "KILO_DISABLE_SESSION_INGEST": "1", "KILO_DISABLE_CODEBASE_INDEXING": "1"}
CONFIG = {"autoupdate": False, "share": "disabled", "permission": PLUGIN_RULES}


class TestKilo(BuildRows, PluginTable):
    CLIENT = plugin_client("kilo", ".config/kilo/kilo.json", ".kilo/kilo.json", CONFIG,
                           PLUGIN_PROJECT_RULES, ENV)
