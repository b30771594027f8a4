"""System tests: the installed tools together, the way an agent and a user run them.

Each test gets a temporary HOME (agent settings, contextcrawler config and data in their
default places under it) and a real git project with a small Python package whose test fails
until it is fixed, pushed to a local bare remote. Tools are called through their console
scripts, found next to the interpreter running the tests (CI: a fresh, non-editable install).

Two environments, like on a real machine:
- `user_env`: the user's shell, with the tools' bin directory on the PATH (runs `cc-hook init`,
  `cc-track report`);
- `env` (the agent's): a plain PATH *without* the tools, plus a `python` that has pytest. The
  installed hook script and the rewritten commands must work from there (cc-hook init records
  cc-filter's absolute path when the agent's shell cannot find it).
"""
import json
import os
import shutil
import subprocess
import sys

import pytest

BIN = os.path.dirname(sys.executable)
BASE_PATH = "/usr/local/bin:/usr/bin:/bin"

CALC = '''"""A tiny calculator."""


def add(a, b):
    return a - b


def mul(a, b):
    return a * b
'''

CALC_FIXED = CALC.replace("return a - b", "return a + b")

TEST_CALC = '''from calc import add, mul


def test_add():
    assert add(2, 3) == 5


def test_mul():
    assert mul(2, 3) == 6
'''


def tool(name: str) -> str:
    path = os.path.join(BIN, name)
    assert os.path.exists(path), f"{name} is not installed next to {sys.executable}"
    return path


class Sandbox:
    """A HOME, a project, the user's and the agent's environments."""

    def __init__(self, root):
        self.root = root
        self.home = root / "home"
        self.project = root / "project"
        self.agent_bin = root / "agent-bin"
        for path in (self.home, self.project, self.agent_bin):
            path.mkdir()
        # The project's interpreter (like an activated project venv): has pytest.
        python = self.agent_bin / "python"
        python.write_text(f'#!/bin/sh\nexec {sys.executable} "$@"\n')
        python.chmod(0o755)
        common = {
            "HOME": str(self.home),
            "LANG": "C.UTF-8",
            "TERM": "dumb",
            "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.invalid",
            "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.invalid",
            "GIT_CONFIG_NOSYSTEM": "1",
            "PYTHONDONTWRITEBYTECODE": "1",
        }
        self.env = dict(common, PATH=f"{self.agent_bin}:{BASE_PATH}")
        self.user_env = dict(common, PATH=f"{BIN}:{self.agent_bin}:{BASE_PATH}")

    # --- where contextcrawler keeps things (defaults under HOME: no CTXCRL_HOME set) ---
    @property
    def data_dir(self):
        return self.home / ".local" / "share" / "ctxcrl"

    @property
    def config_dir(self):
        return self.home / ".config" / "ctxcrl"

    def sh(self, command: str, check=True, env=None, **kw) -> subprocess.CompletedProcess:
        """Run `command` with bash in the project (the user's environment by default)."""
        kw.setdefault("timeout", 120)
        result = subprocess.run(["bash", "-c", command], cwd=self.project,
                                env=env or self.user_env, capture_output=True, text=True, **kw)
        if check and result.returncode != 0:
            raise AssertionError(
                f"{command!r} failed ({result.returncode}):\n{result.stdout}{result.stderr}")
        return result

    def tool(self, name: str, *args, stdin=None, check=True, cwd=None, timeout=120):
        """Run one of our console scripts as the user does."""
        result = subprocess.run([tool(name), *args], cwd=cwd or self.project, env=self.user_env,
                                input=stdin, capture_output=True, text=True, timeout=timeout)
        if check and result.returncode != 0:
            raise AssertionError(f"{name} {' '.join(args)} failed ({result.returncode}):\n"
                                 f"{result.stdout}{result.stderr}")
        return result

    def make_project(self):
        (self.project / "calc.py").write_text(CALC)
        (self.project / "test_calc.py").write_text(TEST_CALC)
        (self.project / "README.md").write_text("# calc\n\nA tiny calculator.\n")
        (self.project / ".gitignore").write_text(".pytest_cache/\n__pycache__/\n")
        self.sh("git init -q -b main && git add -A && git commit -q -m 'initial calculator'")
        bare = self.root / "remote.git"
        self.sh(f"git init -q --bare -b main {bare} && git remote add origin {bare} "
                "&& git push -q -u origin main")
        self.remote = bare

    def write_json(self, relative: str, data) -> None:
        path = self.home / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(json.dumps(data, indent=2))

    def read_json(self, relative: str):
        return json.loads((self.home / relative).read_text())


@pytest.fixture
def sandbox(tmp_path):
    box = Sandbox(tmp_path)
    box.make_project()
    return box


@pytest.fixture(scope="session", autouse=True)
def _needs_git():
    if not shutil.which("git"):
        pytest.fail("git is required for the system tests (.ci/run installs it)")
