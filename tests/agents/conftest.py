"""Real agent clients (see harness.py). Each agent's folder imports `harness` from here."""
import os
import shutil
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pytest  # noqa: E402


def pytest_collection_modifyitems(config, items):
    """Every real-client test is slow (a client start costs seconds): `just quick` skips them."""
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.fspath).startswith(here + os.sep):
            item.add_marker(pytest.mark.slow)


@pytest.fixture
def agent_tmp():
    """A scratch folder the agent user can reach (pytest's tmp_path is root's alone, 0700)."""
    root = Path(tempfile.mkdtemp(prefix="ctxcrl-agent-"))
    os.chmod(root, 0o755)
    yield root
    shutil.rmtree(root, ignore_errors=True)
