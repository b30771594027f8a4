"""Gate tests never read the real ~/.claude, ~/.gemini or ~/.cursor, nor /etc policy files."""
import pytest


@pytest.fixture(autouse=True)
def private_home(tmp_path, monkeypatch):
    home = tmp_path / "home"
    home.mkdir()
    monkeypatch.setenv("HOME", str(home))
    monkeypatch.delenv("CLAUDE_CONFIG_DIR", raising=False)
    monkeypatch.delenv("GEMINI_CLI_SYSTEM_SETTINGS_PATH", raising=False)
    monkeypatch.delenv("CODEX_HOME", raising=False)
    import cc_gate.agents.claude as claude
    import cc_gate.agents.codex as codex
    import cc_gate.agents.gemini as gemini
    import cc_gate.rules as sources

    monkeypatch.setattr(claude, "MANAGED_SETTINGS", [str(tmp_path / "managed.json")])
    monkeypatch.setattr(gemini, "SYSTEM_SETTINGS", str(tmp_path / "gemini-system.json"))
    monkeypatch.setattr(gemini, "SYSTEM_POLICIES", str(tmp_path / "gemini-system-policies"))
    monkeypatch.setenv("XDG_DATA_HOME", str(tmp_path / "data"))
    monkeypatch.setattr(codex, "MANAGED_REQUIREMENTS", str(tmp_path / "codex-requirements.toml"))
    monkeypatch.setattr(codex, "SYSTEM_CONFIG", str(tmp_path / "codex-system.toml"))
    sources._parsed.clear()
    return home
