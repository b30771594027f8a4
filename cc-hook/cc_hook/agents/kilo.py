"""Kilo CLI: OpenCode's plugin under Kilo's names, measured on Kilo CLI 7.7.7
(`@kilocode/cli`, a fork of OpenCode). Kilo loads `{plugin,plugins}/*.{ts,js}` from its
config folders (`~/.config/kilo/`, `$KILO_CONFIG_DIR` instead when set, and the project's
`.kilo/`), and runs `tool.execute.before(input, {args})` / `tool.execute.after(input,
output)` around every tool exactly as OpenCode does: the before-hook runs before the bash
tool checks `permission.bash` (a throw refuses the call, the model gets the message), and
whatever the after-hook leaves in `output.output` is what the model receives, failures
included. So Kilo filters after execution like OpenCode: the same plugin and codecs
(opencode.py), under the name `kilo`.
"""
from ctxcrl import lean_os as os

from . import opencode

TITLE = "Kilo CLI"
NAME = "kilo"
#: OpenCode's plugin, so its after-execution event.
AFTER_MARK = opencode.AFTER_MARK
CONFIG_DIR = os.path.join(".config", "kilo")
NO_ANSWER = opencode.NO_ANSWER
BEFORE = opencode.BEFORE
AFTER = opencode.AFTER


def decode(event: dict) -> dict | None:
    return opencode.decode(event, NAME)


encode = opencode.encode


def global_dir(user_home: str) -> str:
    """Kilo's own config folder: `$KILO_CONFIG_DIR`, else `$XDG_CONFIG_HOME/kilo`."""
    if os.environ.get("KILO_CONFIG_DIR"):
        return os.environ["KILO_CONFIG_DIR"]
    config = os.environ.get("XDG_CONFIG_HOME") or os.path.join(user_home, ".config")
    return os.path.join(config, "kilo")


def artifacts(scope: str, root: str, ctx) -> list:
    from ..artifacts import OwnedFile

    base = global_dir(ctx.user_home) if scope == "global" else os.path.join(root, ".kilo")
    content = opencode.plugin_text(ctx, NAME, TITLE) if ctx.tools else ""
    return [OwnedFile(os.path.join(base, "plugins", "ctxcrl.ts"), content,
                      "plugin (tool.execute.before / after)", kind="plugin")]


def note_path(scope: str, root: str, user_home: str) -> str | None:
    """The instructions file Kilo reads the awareness note from: AGENTS.md in its config
    folder or in the project."""
    base = global_dir(user_home) if scope == "global" else root
    return os.path.join(base, "AGENTS.md")
