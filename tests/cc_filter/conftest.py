"""Fixtures for the cc-filter tests: private filter tiers and a PATH with demo tools
(plain helper functions are in filter_testkit.py)."""
import os
import stat
import textwrap

import pytest

from cc_filter.choose import catalogue

HERE = os.path.dirname(os.path.abspath(__file__))
REPO = os.path.dirname(os.path.dirname(HERE))
TEST_FILTERS = os.path.join(HERE, "demo_filters")


@pytest.fixture(autouse=True)
def _fresh_catalogue():
    catalogue.reset()
    yield
    catalogue.reset()


@pytest.fixture
def user_filters(ctxcrl_home):
    """The user tier (CTXCRL_HOME/filters); `write(name, body)` adds a TOML filter."""
    directory = os.path.join(str(ctxcrl_home), "filters")
    os.makedirs(directory, exist_ok=True)

    class Tier:
        path = directory

        @staticmethod
        def write(name: str, body: str) -> str:
            path = os.path.join(directory, f"{name}.toml")
            with open(path, "w") as f:
                f.write(textwrap.dedent(body))
            return path

        @staticmethod
        def copy(name: str) -> str:
            with open(os.path.join(TEST_FILTERS, f"{name}.toml")) as f:
                return Tier.write(name, f.read())

    return Tier


@pytest.fixture
def builtin_dir(tmp_path, monkeypatch):
    """An empty stand-in for cc_filter/filters/, so other filters never interfere."""
    directory = tmp_path / "builtin"
    directory.mkdir()
    monkeypatch.setattr(catalogue, "BUILTIN_DIR", str(directory))
    return directory


@pytest.fixture
def demo_bin(tmp_path, monkeypatch):
    """A folder on PATH; `tool(name, script)` writes an executable shell script there."""
    directory = tmp_path / "bin"
    directory.mkdir()
    monkeypatch.setenv("PATH", f"{directory}{os.pathsep}{os.environ['PATH']}")

    class Bin:
        path = directory

        @staticmethod
        def tool(name: str, script: str) -> str:
            path = directory / name
            path.write_text("#!/bin/sh\n" + textwrap.dedent(script))
            path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
            return str(path)

    return Bin
