"""cc-track learn on real Claude Code sessions (tests/fixtures/agent-history/claude/)."""
import json
import os
import subprocess

import pytest

from agent_history import CLAUDE_PROJECTS, place
from cc_track import learn, store
from cc_hook.transcript import ShellCall
from cc_track.history import read_history
from cc_track.ingest import ingest_spool
from cc_track.sessions import link_history
from track_records import CC_TRACK

NO_CODEX = "/nonexistent-codex-home"


def history():
    return read_history({"claude": CLAUDE_PROJECTS, "codex": NO_CODEX})


def test_repeated_mistakes_become_deduplicated_ranked_rules():
    data = learn.build_learn(history())
    # the recorded sessions: `git stauts` three times (twice in one session), each fixed
    assert data["sessions"] == 2 and data["corrections"] == 6
    rules = [(r["class"], r["text"], r["count"], r["sessions"]) for r in data["rules"]]
    assert rules == [("misspelled-subcommand", "Use `git status`, not `git stauts`.", 3, 2)]
    # the wrong flag, the missing tool and the wrong directory were each corrected once:
    # counted, never proposed
    assert data["held_back"] == {"seen_once": 3, "unsafe": 0}
    first = data["rules"][0]["example"]
    assert first["failed"] == "git stauts" and "is not a git command" in first["error"]


def test_every_failure_in_the_sessions_was_paired_with_its_real_fix():
    pairs = learn.build_learn(history())["pairs"]
    assert {(p["failed"], p["exit_code"], p["fixed"]) for p in pairs} == {
        ("git stauts", 1, "git status"),
        ("git log --oneline --lenght 3", 128, "git log --oneline -n 3"),
        ("ack 'def add'", 127, "rg -n 'def add'"),
        ("cd src && python3 -c 'import calc; print(calc.add(2, 3))'", 1,
         "python3 -c 'import calc; print(calc.add(2, 3))'"),
    }


def test_a_filtered_run_rerun_with_ctxcrl_disabled_suggests_exclude_commands():
    data = learn.build_learn(history())
    assert [(r["command"], r["count"], r["sessions"]) for r in data["exclude_commands"]] == [
        ("git log", 2, 2)]  # `cc-filter run git log -n 3`, and the hook's rewrite of `git log -n 5`
    assert data["exclude_commands"][0]["toml"] == '[hooks]\nexclude_commands = ["git log"]'


def call(command, exit_code=0, output="", i=[0]):
    i[0] += 1
    c = ShellCall(f"c{i[0]}", command, float(i[0]), "/p")
    c.end_ts, c.exit_code, c.failed, c.output = c.ts + 0.1, exit_code, exit_code != 0, output
    return c


@pytest.mark.parametrize("failed, fixed, expected", [
    (call("git comit -m x", 1, "git: 'comit' is not a git command"), call("git commit -m x"),
     "misspelled-subcommand"),
    (call("ls --colour=never", 2, "ls: unrecognized option"), call("ls --color=never"),
     "wrong-flag"),
    (call("fd calc", 127, "bash: fd: command not found"), call("find . -name calc"),
     "missing-tool"),
    (call("fd calc", 127, "bash: fd: command not found"), call("git status"), None),
    (call("ack add", 127, "bash: ack: command not found"), call("grep -rn add ."),
     "missing-tool"),
    (call("cd web && npm test", 1, "bash: cd: web: No such file or directory"),
     call("npm test"), "wrong-directory"),
    (call("git stauts", 1, "git: 'stauts' is not a git command"), call("ls -la"), None),
    (call("pytest -q", 1, "1 failed"), call("git status"), None),
    (call("pytest --colour=no -q", 4, "error: unrecognized arguments: --colour=no"),
     call("pytest --color=no -q"), "wrong-flag"),
    (call("make docs", 2, "make: *** No rule to make target 'docs'.  Stop."),
     call("cd docs && make html"), "wrong-directory"),
    (call("make docs", 2, "make: *** No rule to make target 'docs'.  Stop."),
     call("cd docs && ls"), None),
])
def test_classify(failed, fixed, expected):
    found = learn.classify(failed, fixed)
    assert (found and found["class"]) == expected


def test_wrong_flag_and_wrong_directory_fixes_in_real_claude_sessions():
    """Claude Code 2.1.197, two sessions (tests/fixtures/agent-history/claude-fixes/)."""
    from agent_history import CLAUDE_FIXES

    data = learn.build_learn(read_history({"claude": CLAUDE_FIXES, "codex": NO_CODEX}))
    assert {(p["failed"], p["exit_code"], p["fixed"]) for p in data["pairs"]} == {
        ("pytest --colour=no -q --co", 4, "pytest --color=no -q --co"),
        ("make html", 2, "cd docs && make html")}
    assert [(r["class"], r["text"], r["count"], r["sessions"]) for r in data["rules"]] == [
        ("wrong-directory", "Run `make html` in `docs` (`cd docs && make html`): it fails in "
         "the project root.", 2, 2),
        ("wrong-flag", "`pytest`: use `--color=no`, not `--colour=no`.", 2, 2)]
    assert data["held_back"] == {"seen_once": 0, "unsafe": 0}


def test_wrong_flag_and_wrong_directory_rules():
    assert learn.classify(call("make docs", 2, "make: *** No rule to make target 'docs'."),
                          call("cd docs && make html"))["text"] == (
        "`make docs` fails here: run `make html` in `docs` (`cd docs && make html`).")
    assert learn.classify(call("pytest --colour=no", 4, "unrecognized arguments"),
                          call("pytest --color=no"))["text"] == (
        "`pytest`: use `--color=no`, not `--colour=no`.")


def test_every_correction_class_builds_its_rule_from_the_parsed_command():
    data = learn.build_learn(history())
    texts = {p["class"]: learn.classify(*pair)["text"] for p, pair in zip(
        data["pairs"], [(call(p["failed"], p["exit_code"], p["error"]), call(p["fixed"]))
                        for p in data["pairs"]])}
    assert texts == {
        "misspelled-subcommand": "Use `git status`, not `git stauts`.",
        "wrong-flag": "`git log`: use `-n`, not `--lenght`.",
        "missing-tool": "`ack` is not installed here: use `rg`.",
        "wrong-directory": "There is no `src` directory here: run `python3` from the "
                           "project root.",
    }


def test_write_and_remove_give_the_file_back_byte_for_byte(tmp_path):
    rules = learn.build_learn(history())["rules"]
    for original in (None, "# Project\n\nRun `make`.\n", "no newline at the end"):
        root = tmp_path / f"p{hash(original) & 0xffff}"
        root.mkdir()
        target = root / "CLAUDE.md"
        if original is not None:
            target.write_text(original)
        assert learn.write_rules(str(root), ["claude"], rules) == [str(target)]
        text = target.read_text()
        assert text.count("<!-- contextcrawler:learn " + learn.install_id() + " begin") == 1
        assert "- Use `git status`, not `git stauts`. (seen 3×)" in text
        assert learn.write_rules(str(root), ["claude"], rules) == []  # twice: no change
        if original is not None:
            assert text.startswith(original)
        assert learn.remove_rules(str(root)) == [str(target)]
        if original is None:
            assert not target.exists()
        elif original.endswith("\n"):
            assert target.read_text() == original
        else:
            assert target.read_text() == original + "\n"  # the one byte it cannot know


def test_write_replaces_only_its_own_block(tmp_path):
    target = tmp_path / "AGENTS.md"
    target.write_text("intro\n")
    learn.write_rules(str(tmp_path), ["codex"], [{"text": "Old rule.", "count": 1}])
    target.write_text(target.read_text() + "\nmy own notes after it\n")
    learn.write_rules(str(tmp_path), ["codex"], [{"text": "New rule.", "count": 2}])
    text = target.read_text()
    assert "Old rule." not in text and "- New rule. (seen 2×)" in text
    assert text.startswith("intro\n") and text.endswith("my own notes after it\n")


def run_here(cwd, env, *args):
    return subprocess.run([CC_TRACK, *args], capture_output=True, text=True, cwd=cwd, env=env)


@pytest.fixture
def project(tmp_path, ctxcrl_home):
    root = tmp_path / "project"
    root.mkdir()
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    placed = place(tmp_path, str(root))
    env = dict(os.environ, CLAUDE_CONFIG_DIR=placed["claude_dir"], CODEX_HOME=NO_CODEX)
    with open(placed["spool"], "rb") as f:
        subprocess.run([CC_TRACK, "record"], input=f.read(), check=True, env=env,
                       capture_output=True)
    return root, env


def test_cli_learn_write_then_remove(project):
    root, env = project
    shown = run_here(root, env, "learn", "--since=2026-11-01", "--write")
    # no terminal: the block is shown in full, nothing is written without --yes
    assert shown.returncode == 64 and "run again with --yes" in shown.stderr
    assert f"would write into {root / 'CLAUDE.md'}, in full:" in shown.stdout
    assert "- Use `git status`, not `git stauts`. (seen 3×)" in shown.stdout
    assert not (root / "CLAUDE.md").exists()
    out = run_here(root, env, "learn", "--since=2026-11-01", "--write", "--yes")
    assert out.returncode == 0, out.stderr
    assert "wrote the rules block into" in out.stdout
    text = (root / "CLAUDE.md").read_text()
    assert text.startswith("<!-- contextcrawler:learn ") and "not `git stauts`" in text
    assert text.rstrip("\n") in shown.stdout  # exactly what was shown before the --yes
    assert not (root / "AGENTS.md").exists()  # only Claude Code sessions here
    data = json.loads(run_here(root, env, "learn", "--since=2026-11-01",
                               "--format=json").stdout)
    assert data["scope"] == "project" and data["rules"][0]["count"] == 3
    out = run_here(root, env, "learn", "--remove")
    assert out.returncode == 0 and not (root / "CLAUDE.md").exists()


def test_cli_learn_elsewhere_sees_no_sessions(project, tmp_path):
    _root, env = project
    other = tmp_path / "other"
    other.mkdir()
    subprocess.run(["git", "init", "-q", str(other)], check=True)  # its own project
    data = json.loads(run_here(other, env, "learn", "--since=2026-11-01",
                               "--format=json").stdout)
    assert data["sessions"] == 0 and data["rules"] == []
    data = json.loads(run_here(other, env, "learn", "--since=2026-11-01", "--all",
                               "--format=json").stdout)
    assert data["sessions"] == 2


@pytest.mark.parametrize("args, message", [
    (["learn", "--all", "--write"], "--write and --remove work on the current project"),
    (["learn", "--format=csv"], "--format=csv: expected one of table, json"),
    (["learn", "--since=yesterday"], "--since"),
    (["learn", "--write", "--remove"], "Usage:"),
])
def test_cli_learn_usage_errors(project, args, message):
    root, env = project
    out = run_here(root, env, *args)
    assert out.returncode == 64 and message in out.stderr and "Traceback" not in out.stderr


def test_learn_links_the_hooks_rewrites_to_spool_records(project, tmp_path):
    root, _env = project
    db = store.connect()
    linked, unlinked, records = link_history(read_history(
        {"claude": os.path.join(str(tmp_path), "claude", "projects"), "codex": NO_CODEX}), db)
    assert len(records) == 6 and not unlinked


def test_the_same_mistake_in_three_agents_is_one_rule():
    from agent_history import CODEX_SESSIONS, GEMINI_HOME

    data = learn.build_learn(read_history(
        {"claude": CLAUDE_PROJECTS, "codex": CODEX_SESSIONS, "gemini": GEMINI_HOME}))
    assert data["sessions"] == 4
    top = data["rules"][0]
    assert (top["text"], top["count"], top["sessions"], top["agents"]) == (
        "Use `git status`, not `git stauts`.", 7, 4, ["claude", "codex", "gemini"])
    # every other correction: once per agent, one rule each. The wrong directory's fix is
    # `cd src && python3 -c '…'`, whose rule is built from the parsed words too.
    assert len(data["rules"]) == 4 and [r["count"] for r in data["rules"][1:]] == [3, 3, 3]
    (exclude,) = data["exclude_commands"]
    assert (exclude["command"], exclude["count"]) == ("git log", 4)


def test_write_goes_to_each_agents_file(tmp_path):
    from agent_history import CODEX_SESSIONS, GEMINI_HOME

    rules = learn.build_learn(read_history(
        {"claude": CLAUDE_PROJECTS, "codex": CODEX_SESSIONS, "gemini": GEMINI_HOME}))["rules"]
    agents = sorted({a for r in rules for a in r["agents"]})
    written = learn.write_rules(str(tmp_path), agents, rules)
    assert sorted(os.path.basename(p) for p in written) == ["AGENTS.md", "CLAUDE.md", "GEMINI.md"]
    assert sorted(os.path.basename(p) for p in learn.remove_rules(str(tmp_path))) == [
        "AGENTS.md", "CLAUDE.md", "GEMINI.md"]
    assert os.listdir(tmp_path) == []


def test_cli_learn_write_that_cannot_write_fails_cleanly(project):
    root, env = project
    (root / "CLAUDE.md").mkdir()  # not a file: the write must fail, root or not
    out = run_here(root, env, "learn", "--since=2026-11-01", "--write", "--yes")
    assert out.returncode == 1 and out.stderr.startswith("cc-track: learn failed")
    assert "Traceback" not in out.stderr
    assert sorted(os.listdir(root)) == [".git", "CLAUDE.md"]  # no temp file left behind


@pytest.mark.parametrize("answer, written", [("y", True), ("n", False)])
def test_cli_learn_write_on_a_terminal_asks_after_showing_the_block(project, answer, written):
    import pty

    root, env = project
    leader, follower = pty.openpty()
    os.write(leader, f"{answer}\n".encode())  # typed ahead: read by the question's readline
    proc = subprocess.Popen([CC_TRACK, "learn", "--since=2026-11-01", "--write"], cwd=root,
                            env=env, stdin=follower, stdout=follower, stderr=subprocess.PIPE)
    os.close(follower)
    shown = b""
    while True:
        try:
            chunk = os.read(leader, 65536)
        except OSError:  # EIO: the terminal's other side is closed
            break
        if not chunk:
            break
        shown += chunk
    os.close(leader)
    assert proc.wait(timeout=60) == 0 and proc.stderr.read() == b""
    text = shown.decode().replace("\r\n", "\n")
    block_at = text.index("- Use `git status`, not `git stauts`. (seen 3×)")
    assert block_at < text.index("Write this into ") < text.index("[y/N]")
    assert (root / "CLAUDE.md").exists() is written
    assert ("wrote the rules block into" in text) is written
    assert ("nothing written" in text) is not written
    assert text.count("Corrections in agent history") == 1  # the table is not shown twice
