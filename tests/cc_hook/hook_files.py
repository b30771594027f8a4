"""Reading files back in cc-hook tests, and the folders the installed hook's stages import from."""
import os
import sys


def read(path) -> str | None:
    try:
        with open(path, encoding="utf-8") as f:
            return f.read()
    except FileNotFoundError:
        return None


def tree(root) -> dict:
    """{relative path: bytes} of every file under root (to compare before/after)."""
    files = {}
    for directory, _, names in os.walk(root):
        for name in names:
            path = os.path.join(directory, name)
            with open(path, "rb") as f:
                files[os.path.relpath(path, root)] = f.read()
    return files


def stage_dirs() -> list:
    """The folders `cc-hook init` puts on the stages' sys.path (hook_script.stage_launcher)."""
    from cc_hook import hook_script

    launcher = hook_script.stage_launcher(
        {name: os.path.join(os.path.dirname(sys.executable), name) for name in
         ("cc-hook", "cc-gate", "cc-rewrite")})
    assert launcher is not None, "the venv's console scripts run this interpreter"
    return launcher[1]
