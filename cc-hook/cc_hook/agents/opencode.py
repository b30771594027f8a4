"""OpenCode: a plugin file (no hook script). Its `tool.execute.before` handler sends each `bash`
tool call as a record `{"agent": "opencode", …}` through `cc-gate | cc-rewrite` (absolute paths
resolved at install time), blocks a denied command and replaces `output.args.command` with the
rewrite. cc-gate takes the agent from the record: it has no OpenCode rules yet and falls back to
Claude's settings plus `[gate]`; once it knows "opencode", the plugin needs no change.
"""
import os

NAME = "opencode"
CONFIG_DIR = os.path.join(".config", "opencode")


def plugin_text(ctx) -> str:
    import json
    import shlex

    from ..hook_script import HOOK_VERSION, env_lines, template

    pipeline = (f"{shlex.quote(ctx.tools['cc-gate'])} | "
                f"CTXCRL_QUIET_CONFIG=1 {shlex.quote(ctx.tools['cc-rewrite'])}")
    filter_bin = ctx.filter_command if ctx.filter_command != "cc-filter" else None
    for line in reversed(env_lines(filter_bin).splitlines()):  # `X=${X:-v}; export X`
        pipeline = line.replace("; export", " && export") + " && " + pipeline
    text = template("opencode-plugin.ts")
    return text.replace("@@VERSION@@", str(HOOK_VERSION)).replace("@@PIPELINE@@",
                                                                  json.dumps(pipeline))


def artifacts(scope: str, root: str, ctx) -> list:
    from ..artifacts import OwnedFile

    if scope == "global":
        config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(ctx.user_home, ".config")
        path = os.path.join(config, "opencode", "plugins", "ctxcrl.ts")
    else:
        path = os.path.join(root, ".opencode", "plugins", "ctxcrl.ts")
    content = plugin_text(ctx) if ctx.tools else ""
    return [OwnedFile(path, content, "plugin (tool.execute.before)", kind="plugin")]
