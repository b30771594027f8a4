"""Every cc-hook test runs in a throwaway HOME and CTXCRL_HOME: nothing touches the real ~."""
import pytest

AGENT_ENV = ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "CLAUDE_CONFIG_DIR", "CODEX_HOME",
             "CTXCRL_DISABLED", "CTXCRL_FILTER_BIN", "CTXCRL_TEE_DIR", "CTXCRL_DB_PATH",
             "PI_CODING_AGENT_DIR", "VIBE_HOME", "GEMINI_CLI_SYSTEM_SETTINGS_PATH")


@pytest.fixture
def fake_home(tmp_path, monkeypatch):
    """(home, ctxcrl_home, project): a fresh user home, data/config dir and git project."""
    home = tmp_path / "home"
    data = tmp_path / "ctxcrl"
    project = tmp_path / "project"
    for path in (home, data, project / ".git"):
        path.mkdir(parents=True)
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.setenv("CTXCRL_HOME", str(data))
    monkeypatch.setenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", str(tmp_path / "no-system-settings"))
    for name in AGENT_ENV[:-1]:
        monkeypatch.delenv(name, raising=False)
    monkeypatch.chdir(project)
    return home, data, project
