"""Windsurf: no hook; a rules block in the project's `.windsurfrules` (a file, or a `ctxcrl.md`
inside a `.windsurfrules/` folder) tells the model to use `cc-filter run`."""
import os

TITLE = "Windsurf"
NAME = "windsurf"
RULES_FILE = ".windsurfrules"


def rules_artifacts(root: str, ctx, name: str) -> list:
    from ..artifacts import MarkedBlock, OwnedFile
    from ..hook_script import template

    body = template("rules.md").replace("@@FILTER@@", ctx.filter_command)
    path = os.path.join(root, name)
    if os.path.isdir(path):
        return [OwnedFile(os.path.join(path, "ctxcrl.md"), body, "rules file")]
    return [MarkedBlock(path, body, "rules block")]


def artifacts(scope: str, root: str, ctx) -> list:
    return rules_artifacts(root, ctx, RULES_FILE)
