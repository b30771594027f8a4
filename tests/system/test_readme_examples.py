"""Every fenced example of the top-level README runs as printed against the installed tools,
in a fresh home folder (readme_examples.py says how a block is read and run)."""
import os
import re
import subprocess

import pytest

from readme_examples import BIN, README, REPO, blocks, matches, run_session, session_env, \
    sh_commands

BLOCKS = blocks()
SESSIONS = [b for b in BLOCKS if b.lang == "console"]
COMMAND_LISTS = [b for b in BLOCKS if b.lang == "sh"]


def test_the_readme_has_examples_and_only_known_kinds_of_blocks():
    assert len(SESSIONS) >= 3 and COMMAND_LISTS
    assert {b.lang for b in BLOCKS} <= {"console", "sh"}, [b for b in BLOCKS]


@pytest.mark.parametrize("block", SESSIONS, ids=repr)
def test_session_prints_what_the_readme_shows(block, tmp_path):
    outputs = run_session(block, str(tmp_path))
    assert len(outputs) == len(block.steps)
    for (command, expected), actual in zip(block.steps, outputs):
        assert matches(expected, actual), f"$ {command}\n--- README\n" + "\n".join(expected) + \
            f"\n--- the tools\n{actual}"


@pytest.mark.parametrize("block", COMMAND_LISTS, ids=repr)
def test_command_lists_run(block, tmp_path):
    home = tmp_path / "home"
    (home / "work").mkdir(parents=True)
    justfile = open(os.path.join(REPO, "Justfile")).read()
    for command in sh_commands(block):
        if command.startswith("just "):  # the dev tasks: each recipe exists
            recipe = command.split()[1]
            assert re.search(rf"^{re.escape(recipe)}( [^:]*)?:", justfile, re.M), recipe
            continue
        done = subprocess.run(["bash", "-c", command], cwd=home / "work",
                              env=session_env(str(home)), capture_output=True, text=True,
                              timeout=300, stdin=subprocess.DEVNULL)
        assert done.returncode == 0, f"{command}\n{done.stdout}{done.stderr}"


def test_the_setup_commands_left_out_are_what_ci_runs():
    """`pip install …` and `python -m pytest -q` are not re-run here: .ci/run runs them."""
    with open(os.path.join(REPO, ".ci", "run")) as f:
        ci = f.read()
    assert "python -m pip install -q '.[dev]'" in ci and "python -m pytest -q" in ci


def test_every_example_in_the_tools_table_is_shown_running():
    with open(README, encoding="utf-8") as f:
        table = [line for line in f if line.startswith("| [`cc-")]
    shown = {cmd for b in SESSIONS for cmd, _ in b.steps} | \
        {cmd for b in COMMAND_LISTS for cmd in sh_commands(b)}
    shown |= {cmd.split(" && ")[-1] for cmd in shown}
    assert len(table) == 7
    checked = 0
    for row in table:
        example = row.replace("\\|", "\0").rstrip().rstrip("|").rsplit("|", 1)[-1]
        for command in re.findall(r"`([^`]+)`", example.replace("\0", "|")):
            assert any(command in s for s in shown), command
            checked += 1
    assert checked >= 8


def test_the_tools_come_from_this_install():
    assert os.access(os.path.join(BIN, "cc-hook"), os.X_OK)
