"""ctxcrl.config: defaults, the marshal cache, a malformed file (defaults + one warning per
load, cached too), CTXCRL_QUIET_CONFIG (the hook's later stages)."""
import os
import subprocess
import sys

import pytest
from ctxcrl import config

BROKEN = '[hooks]\nfilter_bin = "/opt/cc-filter"\n[tee\nmode = "always"\n'


@pytest.fixture
def config_file(ctxcrl_home):
    return ctxcrl_home / "config.toml"


def load():
    config._loaded = None
    return config.load_config()


def test_no_file_gives_the_defaults(config_file, capsys):
    assert load() == config._merge(config.DEFAULTS, {})
    assert capsys.readouterr().err == ""


def test_a_file_overrides_the_defaults(config_file):
    config_file.write_text('[tee]\nmode = "always"\n[economics]\nsonnet = 3.0\n')
    loaded = load()
    assert loaded["tee"]["mode"] == "always" and loaded["tee"]["min_size"] == 500
    assert loaded["economics"] == {"sonnet": 3.0}


def test_a_malformed_file_gives_the_defaults_and_one_warning_per_load(config_file, capsys):
    config_file.write_text(BROKEN)
    for _ in range(2):  # the second load comes from the cache, and still says so
        assert load() == config._merge(config.DEFAULTS, {})
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and err[0].startswith(
            f"ctxcrl: ignoring malformed config {config_file}: ")


def test_a_malformed_file_is_parsed_once(config_file, ctxcrl_home):
    """tomllib (~20 ms of imports) runs when the file changed, not on every hook stage."""
    config_file.write_text(BROKEN)
    code = ("import sys; from ctxcrl import config; config.load_config(); "
            "print('tomllib' in sys.modules)")
    env = dict(os.environ, CTXCRL_HOME=str(ctxcrl_home))
    runs = [subprocess.run([sys.executable, "-c", code], env=env, capture_output=True,
                           text=True, timeout=60) for _ in range(2)]
    assert [r.stdout for r in runs] == ["True\n", "False\n"]
    assert all(len(r.stderr.splitlines()) == 1 for r in runs)


@pytest.mark.parametrize("value, quiet", [("1", True), ("yes", True), ("0", False), ("", False)])
def test_ctxcrl_quiet_config_silences_the_warning(config_file, capsys, monkeypatch, value,
                                                   quiet):
    config_file.write_text(BROKEN)
    monkeypatch.setenv("CTXCRL_QUIET_CONFIG", value)
    load()
    assert (capsys.readouterr().err == "") is quiet


def test_an_unreadable_file_is_not_cached(config_file, capsys, monkeypatch):
    config_file.write_text('[tee]\nmode = "never"\n')

    def unreadable(path):
        raise PermissionError(13, "Permission denied")

    with monkeypatch.context() as patch:
        patch.setattr(config, "_parse", unreadable)
        assert load()["tee"]["mode"] == "failures"
        assert "ignoring unreadable config" in capsys.readouterr().err
    assert load()["tee"]["mode"] == "never"  # readable again (chmod keeps the mtime)


def test_a_malformed_file_keeps_its_gate_denies_and_asks(config_file, capsys):
    """A typo in another table must not drop a [gate] deny: that table is read on its own (its
    allow rules are not taken from a file that does not parse)."""
    config_file.write_text('[tee\nmode = "always"\n[gate]\n# mine\ndeny = ["Bash(git push:*)"]\n'
                           'ask = ["Bash(rm:*)"]\nallow = ["Bash(curl:*)"]\n[tracking]\n'
                           'enabled = true\n')
    for _ in range(2):  # the second load comes from the cache
        gate = load()["gate"]
        assert gate == {"allow": [], "deny": ["Bash(git push:*)"], "ask": ["Bash(rm:*)"]}
        err = capsys.readouterr().err.splitlines()
        assert len(err) == 1 and err[0].startswith(
            f"ctxcrl: ignoring malformed config {config_file}: ")
        assert err[0].endswith("; its [gate] deny rules and ask rules still apply")


@pytest.mark.parametrize("text", [
    '[gate\ndeny = ["Bash(git push:*)"]\n',             # the header itself is broken
    '[gate]\ndeny = ["Bash(git push:*)"\n[tee]\n',       # the table is broken
    '[tee\n[gate]\ndeny = "Bash(git push:*)"\n',         # not a list
    BROKEN,                                              # no [gate] at all
])
def test_a_gate_table_that_cannot_be_read_gives_no_rules(config_file, capsys, text):
    config_file.write_text(text)
    assert load()["gate"] == {"allow": [], "ask": [], "deny": []}
    err = capsys.readouterr().err
    assert "ignoring malformed config" in err and "still apply" not in err
