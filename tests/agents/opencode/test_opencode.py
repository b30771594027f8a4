"""OpenCode 1.18.33, the real client, offline against a scripted model (an openai-compatible
provider in its opencode.json): the same scenarios with and without contextcrawler's plugin.

OpenCode filters after execution (ARCHITECTURE §5 rule 1): the plugin never changes the command,
its `tool.execute.before` may only add a deny, and `tool.execute.after` replaces what the
model receives with the compacted output. Rules are OpenCode's own `permission.bash` in the
user's ~/.config/opencode/opencode.json and the project's .opencode/opencode.json. Each
session runs the whole table, one tool call per scenario (the ask scenario last: OpenCode
ends a headless run when it auto-rejects a prompt), the build rows included: a failing
`npm install`, `make test`, the 12,000-test pytest run and (where the agent user can run
cargo) `cargo test` reach the model compacted, their failures kept. OpenCode gives the model
no exit code, with or without the plugin. The tests: postexec.PluginTable.
"""
from postexec import PLUGIN_PROJECT_RULES, PLUGIN_RULES, BuildRows, PluginTable, plugin_client

ENV = {"OPENCODE_DISABLE_MODELS_FETCH": "1", "OPENCODE_DISABLE_AUTOUPDATE": "1",
       "OPENCODE_DISABLE_LSP_DOWNLOAD": "1", "OPENCODE_DISABLE_DEFAULT_PLUGINS": "1",
       "OPENCODE_DISABLE_CLAUDE_CODE": "1", "OPENCODE_DISABLE_EXTERNAL_SKILLS": "1"}
CONFIG = {"$schema": "https://opencode.ai/config.json", "autoupdate": False,
          "share": "disabled", "permission": PLUGIN_RULES}


class TestOpenCode(BuildRows, PluginTable):
    CLIENT = plugin_client("opencode", ".config/opencode/opencode.json",
                           ".opencode/opencode.json", CONFIG, PLUGIN_PROJECT_RULES, ENV)
