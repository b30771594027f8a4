"""Real agent clients (see harness.py). Each agent's folder imports `harness` from here."""
import os
import sys

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import pytest  # noqa: E402


def pytest_collection_modifyitems(config, items):
    """Every real-client test is slow (a client start costs seconds): `just quick` skips them."""
    here = os.path.dirname(os.path.abspath(__file__))
    for item in items:
        if str(item.fspath).startswith(here + os.sep):
            item.add_marker(pytest.mark.slow)
