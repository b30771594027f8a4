"""Test-wide settings: every test runs with its own contextcrawler home, never the user's."""
import os

import pytest
from hypothesis import HealthCheck, settings

settings.register_profile(
    "ci", deadline=None, derandomize=True, max_examples=200,
    suppress_health_check=[HealthCheck.too_slow],
)
settings.register_profile("dev", deadline=None, max_examples=200)
settings.load_profile("ci" if os.environ.get("CI") else "dev")

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


@pytest.fixture(autouse=True)
def ctxcrl_home(tmp_path_factory, monkeypatch):
    """A private CTXCRL_HOME per test; config, data, tee and the spool all live there."""
    home = tmp_path_factory.mktemp("ctxcrl-home")
    monkeypatch.setenv("CTXCRL_HOME", str(home))
    # the tools' fallback when the data dir is not writable is $TMPDIR/ctxcrl-<uid>: per test
    monkeypatch.setenv("TMPDIR", str(tmp_path_factory.mktemp("tmpdir")))
    for var in ("CTXCRL_DISABLED", "CTXCRL_TEE_DIR", "CTXCRL_DB_PATH",
                "CTXCRL_TRUST_PROJECT_FILTERS", "CTXCRL_FILTER_BIN"):
        monkeypatch.delenv(var, raising=False)
    import ctxcrl.config

    ctxcrl.config._loaded = None
    yield home
    ctxcrl.config._loaded = None
