"""ctxcrl.home: which homes may hold trust (issue 23 item 3). A home inside the current
project, not owned by the user, or writable by others trusts nothing: no config.toml, no user
filters, no trusted project filters, and one line on stderr."""
import json
import os

import pytest

from ctxcrl import config, home


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "repo"
    (root / ".git").mkdir(parents=True)
    sub = root / "src"
    sub.mkdir()
    monkeypatch.chdir(sub)
    home._untrusted_cache.clear()
    home._warned_untrusted.clear()
    config._loaded = None
    yield root
    home._untrusted_cache.clear()
    config._loaded = None


def _gate_config(folder):
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "config.toml").write_text('[gate]\nallow = ["Bash(*)"]\n')


def test_the_default_test_home_is_trusted(project, ctxcrl_home):
    assert home.untrusted_home() is None and home.trusted_home()


def test_a_home_inside_the_project_trusts_nothing(project, monkeypatch, capfd):
    fake = project / ".ctx"
    _gate_config(fake)
    monkeypatch.setenv("CTXCRL_HOME", str(fake))
    assert "lies inside the project" in home.untrusted_home()
    assert config.section("gate")["allow"] == []  # the defaults, not the project's file
    config._loaded = None
    config.load_config()
    err = capfd.readouterr().err
    assert err.count("trusting nothing in contextcrawler's home") == 1, err


def test_xdg_homes_inside_the_project_trust_nothing(project, monkeypatch, tmp_path):
    monkeypatch.delenv("CTXCRL_HOME")
    monkeypatch.setenv("HOME", str(tmp_path / "user"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(project / "cfg"))
    _gate_config(project / "cfg" / "ctxcrl")
    assert "lies inside the project" in home.untrusted_home()
    assert config.section("gate")["allow"] == []
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "user-cfg"))
    monkeypatch.setenv("XDG_DATA_HOME", str(project / "data"))
    assert "lies inside the project" in home.untrusted_home()


def test_a_symlink_into_the_project_is_seen_through(project, monkeypatch, tmp_path):
    (project / "h").mkdir()
    os.symlink(project / "h", tmp_path / "innocent")
    monkeypatch.setenv("CTXCRL_HOME", str(tmp_path / "innocent"))
    assert "lies inside the project" in home.untrusted_home()


def test_a_home_others_can_write_trusts_nothing(project, monkeypatch, tmp_path):
    shared = tmp_path / "shared"
    _gate_config(shared)
    shared.chmod(0o777)
    monkeypatch.setenv("CTXCRL_HOME", str(shared))
    assert "can be written by other users" in home.untrusted_home()
    assert config.section("gate")["allow"] == []
    shared.chmod(0o770)
    home._untrusted_cache.clear()
    assert "can be written by other users" in home.untrusted_home()
    shared.chmod(0o700)
    home._untrusted_cache.clear()
    config._loaded = None
    assert home.untrusted_home() is None
    assert config.section("gate")["allow"] == ["Bash(*)"]  # the user's own file is read


@pytest.mark.skipif(os.getuid() != 0, reason="chown to another user needs root")
def test_a_home_owned_by_someone_else_trusts_nothing(project, monkeypatch, tmp_path):
    theirs = tmp_path / "theirs"
    theirs.mkdir(mode=0o700)
    os.chown(theirs, 12345, 12345)
    monkeypatch.setenv("CTXCRL_HOME", str(theirs))
    assert "is not owned by you" in home.untrusted_home()


def test_a_trusted_json_others_can_write_pins_nothing(project, ctxcrl_home, monkeypatch):
    from cc_filter.choose import trust

    pinned = project / ".ctxcrl" / "filters" / "p.toml"
    pinned.parent.mkdir(parents=True)
    pinned.write_text("x")
    trust.trust(str(pinned))
    assert trust.status(str(pinned), trust.file_sha256(str(pinned))) == trust.TRUSTED
    os.chmod(home.trusted_path(), 0o666)
    assert trust.load() == {}
    assert trust.status(str(pinned), trust.file_sha256(str(pinned))) == trust.UNTRUSTED


def test_trust_is_never_recorded_into_a_home_inside_the_project(project, monkeypatch):
    from cc_filter.choose import trust

    monkeypatch.setenv("CTXCRL_HOME", str(project / ".ctx"))
    with pytest.raises(OSError, match="lies inside the project"):
        trust.save({"/x": "0" * 64})
    assert not (project / ".ctx" / "trusted.json").exists()


def test_the_users_home_folder_is_not_a_project(monkeypatch, tmp_path):
    """A home folder under version control (dotfiles) keeps ~/.local/share/ctxcrl trusted."""
    monkeypatch.setattr(home, "user_home", lambda: str(tmp_path))
    (tmp_path / ".git").mkdir()
    monkeypatch.chdir(tmp_path)
    assert home.project_roots() == []
    (tmp_path / "work").mkdir()
    monkeypatch.chdir(tmp_path / "work")
    assert home.project_roots() == []


def test_an_agents_project_dir_variable_only_adds_distrust(project, monkeypatch, tmp_path):
    other = tmp_path / "other"
    other.mkdir()
    monkeypatch.setenv("CLAUDE_PROJECT_DIR", str(other))
    assert str(other) in home.project_roots() and str(project) in home.project_roots()
    monkeypatch.setenv("CTXCRL_HOME", str(other / "h"))
    assert "lies inside the project" in home.untrusted_home()


def test_settings_variables_into_the_project_allow_nothing(project, monkeypatch):
    from cc_gate.agents import load_rules

    fake = project / ".fake-claude"
    fake.mkdir()
    (fake / "settings.json").write_text(json.dumps({"permissions": {"allow": ["Bash(*)"]}}))
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(fake))
    rules = load_rules("claude", str(project / "src"))
    assert rules.doubt and "CLAUDE_CONFIG_DIR" in rules.doubt
    for var in ("CODEX_HOME", "GEMINI_CLI_HOME", "XDG_CONFIG_HOME"):
        monkeypatch.delenv("CLAUDE_CONFIG_DIR")
        monkeypatch.setenv(var, str(fake))
        assert var in load_rules("codex", str(project)).doubt
        monkeypatch.delenv(var)
        monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(fake))


def test_a_config_file_others_can_write_is_not_read(project, ctxcrl_home, capfd):
    _gate_config(ctxcrl_home)
    assert config.section("gate")["allow"] == ["Bash(*)"]
    os.chmod(ctxcrl_home / "config.toml", 0o666)
    config._loaded = None
    assert config.section("gate")["allow"] == []
    assert "is not yours alone" in capfd.readouterr().err


def test_a_user_filters_folder_others_can_write_is_skipped(project, ctxcrl_home, capfd):
    from cc_filter.choose import catalogue

    folder = ctxcrl_home / "filters"
    folder.mkdir()
    (folder / "mine.toml").write_text('schema_version = 1\n[filter]\nname = "mine"\n'
                                      'match_command = "^mytool"\n')
    catalogue.reset()
    assert catalogue.lookup("mytool", fallback=False).name == "mine"
    folder.chmod(0o777)
    catalogue.reset()
    assert catalogue.lookup("mytool", fallback=False) is None
    assert "can be written by other users" in capfd.readouterr().err
    folder.chmod(0o700)
    catalogue.reset()
