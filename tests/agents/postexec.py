"""What the OpenCode and Copilot real-client tests share: both filter after execution, so the
same story holds for each (ARCHITECTURE §5 rule 1): the command is never changed, the outcome of
every scenario is the same with and without the hook except that the hook may add a deny, no
denied push lands, and the model receives compacted output for `git status`, a failing
pytest and `git log`.

`prepare_project(ws)` gives the workspace's project something to show: twelve commits (for
`git log`), a modified and an untracked file (for `git status`), and the harness's failing
test (`add` subtracts). `product_with_pytest()` is the product venv plus pytest, so the agent
user can run `python3 -m pytest` from its PATH.
"""
from __future__ import annotations

import subprocess
import tempfile
from pathlib import Path

from harness import RAN, chown_tree, product_venv, run_as_agent

SUBJECTS = [f"Add step {n} of the calculator" for n in range(1, 13)]
UNTRACKED = "notes_draft.txt"


def fresh_root(name: str) -> Path:
    """A folder the agent user can reach (pytest's own tmp folders sit under a 0700 one)."""
    return Path(tempfile.mkdtemp(prefix=f"ctxcrl-{name}-", dir="/tmp"))


def product_with_pytest():
    bin_dir = product_venv()
    if not (bin_dir / "pytest").exists():
        done = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "pytest"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            import pytest

            pytest.skip("cannot install pytest into the product venv from the package "
                        f"registry: {done.stderr.strip()[-300:]}")
    return bin_dir


def prepare_project(ws) -> None:
    def git(*args):
        done = run_as_agent(["git", *args], ws, timeout=60)
        assert done.returncode == 0, done.stderr

    for n, subject in enumerate(SUBJECTS, 1):
        with (ws.project / "steps.txt").open("a") as f:
            f.write(f"step {n}\n")
        chown_tree(ws.project, ws.user)
        git("add", "steps.txt")
        git("commit", "-q", "-m", subject, "-m", f"Longer description of step {n}, wrapped\n"
            "over two lines.")
    git("push", "-q", "origin", "HEAD:main")
    (ws.project / "calc.py").write_text("def add(a, b):\n    # TODO: fix\n    return a - b\n")
    (ws.project / UNTRACKED).write_text("draft\n")
    chown_tree(ws.root, ws.user)


def outcomes_match(without: dict, with_hook: dict, added_denies: set) -> list:
    """The scenarios whose outcome differs other than by a deny the hook added."""
    bad = []
    for name, outcome in without.items():
        hooked = with_hook.get(name)
        if hooked == outcome:
            continue
        if name in added_denies and hooked == "refused":
            continue
        bad.append((name, outcome, hooked))
    return bad


__all__ = ["RAN", "SUBJECTS", "UNTRACKED", "outcomes_match", "prepare_project",
           "product_with_pytest"]
