"""The attack corpus (tests/cc_gate/attacks/*.txt, read by scripts/attack_matrix.py): through
the hook's own stages (decode | gate | rewrite | encode) every static spelling comes back
denied for Claude Code in every mode and for Codex under `codex` and `codex exec`, and a
spelling marked `# expect: ask` (its command is in a file, or only known when it runs) is
never allowed. The hidden-command classes' spellings really run their denied command under
real bash with the real git (bash_oracle.run); the static classes' own oracle test is
test_gate_static_spellings.py."""
import importlib.util
import pathlib

import pytest

import bash_oracle

ROOT = pathlib.Path(__file__).resolve().parents[2]
_spec = importlib.util.spec_from_file_location("attack_matrix",
                                               ROOT / "scripts" / "attack_matrix.py")
attack_matrix = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(attack_matrix)

ATTACKS = attack_matrix.load_corpus()
HIDDEN_CLASSES = ("git_alias", "git_config", "git_env", "trap", "source", "startup_vars",
                  "shell_alias")
HIDDEN = [a for a in ATTACKS if a.klass in HIDDEN_CLASSES]


def test_the_corpus_covers_every_hidden_command_class():
    classes = {a.klass for a in ATTACKS}
    assert set(HIDDEN_CLASSES) <= classes
    for klass in HIDDEN_CLASSES:
        assert sum(a.static for a in ATTACKS if a.klass == klass) >= 5, klass


def test_a_spelling_before_its_denied_header_is_refused(tmp_path):
    (tmp_path / "x.txt").write_text("git push\n")
    with pytest.raises(ValueError, match="denied"):
        attack_matrix.load_corpus(str(tmp_path))


@pytest.fixture(scope="module")
def oracle_runs():
    """Every spelling run once by real bash, four at a time (each mostly waits on git)."""
    if not bash_oracle.available():
        pytest.skip("bash or git is not installed")
    from concurrent.futures import ThreadPoolExecutor

    with ThreadPoolExecutor(4) as pool:
        return dict(zip(HIDDEN, pool.map(lambda a: bash_oracle.run(a.line), HIDDEN)))


@pytest.mark.parametrize("attack", HIDDEN, ids=[a.where for a in HIDDEN])
def test_every_spelling_really_runs_its_denied_command(oracle_runs, attack):
    run = oracle_runs[attack]
    assert run.ran(attack.denied), (attack.line, run.calls, run.output[-400:])


def test_the_oracle_tells_a_push_from_other_git_commands():
    assert not bash_oracle.ran("git status; git log -1; git -c alias.x=status x", "git push")
    assert not bash_oracle.ran("trap 'git status' EXIT", "git push")
    assert bash_oracle.ran("git -C . push", "git push")
    assert not bash_oracle.ran("rm -f x; rm -r y", "rm -rf")
    assert bash_oracle.ran("rm -fr build", "rm -rf")


def test_every_static_spelling_is_denied_in_every_mode_and_none_is_allowed():
    results = attack_matrix.run(ATTACKS)
    assert set(results) == set(attack_matrix.modes())
    assert attack_matrix.broken_promises(results) == []
    table = attack_matrix.table(ATTACKS, results)
    assert "| trap | static |" in table


def test_the_hook_stages_still_allow_what_is_allowed():
    """The matrix's harness is the real pipeline: allowed commands still come back allowed."""
    with attack_matrix.Sandbox() as sandbox:
        hook = attack_matrix.Hook("claude", "default", sandbox)
        assert hook.answer("git status") == "allowed"
        assert hook.answer("git -c color.ui=always log") == "allowed"
        assert hook.answer("git push") == "denied"
        assert attack_matrix.Hook("codex", "exec", sandbox).answer("ls") == "allowed"
        codex = attack_matrix.Hook("codex", "exec, denies only", sandbox)
        assert codex.answer("git status") == "allowed"
        assert codex.answer("git push") == "denied"
