"""cc-track test fixtures: UTC, no Claude dir from the environment, and a fixed database.
(The root conftest already gives every test its own CTXCRL_HOME.)"""
import os
import time

import pytest

from ctxcrl import config as cc_config
from cc_track import store
from cc_track.ingest import ingest_spool
from ctxcrl.spool import append
from track_records import NOW, fixed_records


@pytest.fixture(autouse=True)
def utc():
    old = os.environ.get("TZ")
    os.environ["TZ"] = "UTC"
    time.tzset()
    yield
    if old is None:
        os.environ.pop("TZ", None)
    else:
        os.environ["TZ"] = old
    time.tzset()


@pytest.fixture
def ctxcrl_home(ctxcrl_home, monkeypatch, tmp_path_factory):
    """No agent history from the machine: Claude Code's, Codex's and Gemini's dirs are empty."""
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path_factory.mktemp("claude-config")))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path_factory.mktemp("codex-home")))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path_factory.mktemp("gemini-home")))
    return ctxcrl_home


@pytest.fixture
def fixed_db(ctxcrl_home):
    """tracking.db holding fixed_records(), ingested the normal way."""
    for record in fixed_records():
        assert append(record)
    db = store.connect()
    ingest_spool(db, cc_config.load_config(), now=NOW)
    yield db
    db.close()
