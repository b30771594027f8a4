"""cc-track reads every agent's transcripts through that agent's cc-hook module: the agents
that have a reader, where each looks (the client's own folder variables), and the files
`learn` writes for them."""
import subprocess
import sys

from cc_hook.agents import ALL_AGENTS, load
from cc_track import learn
from cc_track.history import read_history, transcript_agents


def test_the_agents_with_transcripts_have_the_whole_interface():
    found = dict(transcript_agents())
    assert sorted(found) == ["claude", "codex", "gemini"]
    for name, module in found.items():
        assert isinstance(module.TRANSCRIPT_FILES, str) and module.TRANSCRIPT_FILES
        assert callable(module.read_transcript) and callable(module.transcript_dir)
        assert learn.instructions_file(name) == module.INSTRUCTIONS_FILE
    # an agent without a reader needs none of it, and is simply not read
    for name in set(ALL_AGENTS) - set(found):
        assert not hasattr(load(name), "read_transcript")


def test_each_agent_looks_where_its_client_keeps_them(monkeypatch, tmp_path):
    monkeypatch.setenv("CLAUDE_CONFIG_DIR", str(tmp_path / "claude"))
    monkeypatch.setenv("CODEX_HOME", str(tmp_path / "codex"))
    monkeypatch.setenv("GEMINI_CLI_HOME", str(tmp_path / "gemini-home"))
    found = {name: module.transcript_dir() for name, module in transcript_agents()}
    assert found == {"claude": str(tmp_path / "claude" / "projects"),
                     "codex": str(tmp_path / "codex" / "sessions"),
                     "gemini": str(tmp_path / "gemini-home" / ".gemini")}
    for var in ("CLAUDE_CONFIG_DIR", "CODEX_HOME", "GEMINI_CLI_HOME"):
        monkeypatch.delenv(var)
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    found = {name: module.transcript_dir() for name, module in transcript_agents()}
    home = tmp_path / "home"
    assert found == {"claude": str(home / ".claude" / "projects"),
                     "codex": str(home / ".codex" / "sessions"), "gemini": str(home / ".gemini")}


def test_a_folder_without_transcripts_reads_as_no_sessions(tmp_path):
    nowhere = str(tmp_path / "none")
    history = read_history({name: nowhere for name, _m in transcript_agents()})
    assert (history.sessions, history.files, history.malformed) == ([], 0, 0)


def test_the_hook_stages_never_load_the_transcript_readers_model():
    """The readers live in the agents' hot-path modules; what they read into stays unloaded."""
    code = ("import sys\nfrom cc_hook.agents import load\n"
            "for name in ('claude', 'codex', 'gemini'):\n    load(name)\n"
            "print('cc_hook.transcript' in sys.modules, 'json' in sys.modules)")
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          timeout=60)
    assert done.stdout.split() == ["False", "False"], done.stderr
