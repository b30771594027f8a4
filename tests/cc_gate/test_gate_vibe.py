"""Mistral Vibe's rules as the gate reads them (3.0.2): `[tools.bash]` `denylist`,
`denylist_standalone` and `permission` of the user's ~/.vibe/config.toml (`$VIBE_HOME`) and
the project's .vibe/config.toml; Vibe's defaults when neither sets a list. Vibe filters after
execution, so the gate answers deny or ask, never allow — the real client's table is in
tests/agents/vibe/."""
import pytest

from hypothesis import given, settings, strategies as st

from cc_gate.agents import vibe
from cc_gate.rules import ASK, DENY


@pytest.fixture(autouse=True)
def no_vibe_home(monkeypatch):
    monkeypatch.delenv("VIBE_HOME", raising=False)


def write_config(folder, text):
    (folder / ".vibe").mkdir(parents=True, exist_ok=True)
    (folder / ".vibe" / "config.toml").write_text(text)


def judge(cwd, command):
    return vibe.decide(command, vibe.load_rules(str(cwd)), {"command": command}, ())


def test_the_default_denylist_applies_when_none_is_set(private_home, tmp_path):
    for command in ("vim notes.txt", "tmux", "bash -i", "git status && nano x", "gdb ./a.out"):
        assert judge(tmp_path, command).decision == DENY, command
    assert "Vibe's default denylist" in judge(tmp_path, "vim x").reason
    for command in ("vimdiff a b", "git status", "pytest -q", "bash -c 'echo hi'"):
        assert judge(tmp_path, command).decision == ASK, command


def test_standalone_programs_are_denied_only_alone(private_home, tmp_path):
    for command in ("python", "python3", "bash", "/usr/bin/python3", "su"):
        assert judge(tmp_path, command).decision == DENY, command
    for command in ("python3 -m pytest", "bash script.sh", "su -c id"):
        assert judge(tmp_path, command).decision == ASK, command


def test_user_and_project_denylists_both_count(private_home, tmp_path):
    project = tmp_path / "proj"
    project.mkdir()
    write_config(private_home, '[tools.bash]\nallowlist = ["git"]\ndenylist = ["git push"]\n')
    write_config(project, '[tools.bash]\ndenylist = ["git tag"]\n')
    assert judge(project, "git push origin main").decision == DENY
    assert judge(project, "git tag v1").decision == DENY
    assert "git push" in judge(project, "git push").reason
    # a list set in a file replaces Vibe's default: `vim` is no longer denied
    assert judge(project, "vim x").decision == ASK
    # the allowlist lets Vibe run a command unasked; the gate never allows
    assert judge(project, "git status").decision == ASK


def test_spellings_the_client_misses_are_denied(private_home, tmp_path):
    write_config(private_home, '[tools.bash]\ndenylist = ["git push"]\n')
    for command in ("git -C . push origin HEAD:main", "/usr/bin/git push",
                    "git status && git push", "env git push", "bash -c 'git push'",
                    "cc-filter run git push"):
        assert judge(tmp_path, command).decision == DENY, command


def test_permission_never_refuses_every_command(private_home, tmp_path):
    write_config(private_home, '[tools.bash]\npermission = "never"\n')
    assert judge(tmp_path, "ls").decision == DENY
    assert 'permission = "never"' in judge(tmp_path, "ls").reason


def test_vibe_home_moves_the_user_config(private_home, tmp_path, monkeypatch):
    elsewhere = tmp_path / "vibe-home"
    elsewhere.mkdir()
    (elsewhere / "config.toml").write_text('[tools.bash]\ndenylist = ["make"]\n')
    monkeypatch.setenv("VIBE_HOME", str(elsewhere))
    assert judge(tmp_path, "make all").decision == DENY


@pytest.mark.parametrize("text", ["[tools.bash\n", "denylist = 3\n[tools]\nbash = 1\n",
                                  b"\xff\xfe".decode("latin-1")])
def test_a_broken_config_is_skipped_with_a_warning(private_home, tmp_path, text):
    write_config(private_home, text)
    rules = vibe.load_rules(str(tmp_path))
    assert vibe.decide("git status", rules, None, ()).decision == ASK
    assert vibe.decide("vim x", rules, None, ()).decision == DENY  # the defaults still hold
    if text.startswith("[tools.bash\n"):
        assert any("config.toml" in w for w in rules.warnings)


def vibe_denies(command: str, denylist) -> bool:
    """Vibe 3.0.2's own check (bash.py `_matches_pattern`) on one simple command."""
    return any(command == p or command.startswith(p + " ") for p in denylist)


WORDS = st.sampled_from(["git", "push", "status", "-C", ".", "origin", "ls", "rm", "-rf",
                         "tmux", "make", "all", "x"])
DENYLIST = ["git push", "rm -rf", "tmux", "make all"]


@settings(max_examples=200, deadline=None)
@given(st.lists(st.lists(WORDS, min_size=1, max_size=5), min_size=1, max_size=3),
       st.sampled_from([" && ", " ; ", " | ", " || "]))
def test_whatever_vibe_denies_the_gate_denies_and_it_never_allows(tmp_path_factory, segments,
                                                                   joiner):
    home = tmp_path_factory.getbasetemp() / "vibe-prop-home"
    if not (home / ".vibe").exists():
        write_config(home, "[tools.bash]\ndenylist = [" +
                     ", ".join(f'"{p}"' for p in DENYLIST) + "]\n")
    import os

    old = os.environ.get("HOME")
    os.environ["HOME"] = str(home)
    try:
        texts = [" ".join(words) for words in segments]
        verdict = judge(home, joiner.join(texts))
        assert verdict.decision in (ASK, DENY)
        if any(vibe_denies(text, DENYLIST) for text in texts):
            assert verdict.decision == DENY, texts
    finally:
        os.environ["HOME"] = old if old is not None else ""
