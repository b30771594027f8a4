"""Windsurf: no hook; a rules block in the project's `.windsurfrules` tells the model to use
`cc-filter run`."""
from .cline import rules_artifacts

TITLE = "Windsurf"
NAME = "windsurf"
RULES_FILE = ".windsurfrules"


def artifacts(scope: str, root: str, ctx) -> list:
    return rules_artifacts(root, ctx, RULES_FILE)
