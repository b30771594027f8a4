"""One command-line convention in all seven tools: --help is written for users (it works,
exits 0, cites nothing a user does not have), --version prints `<tool> <version>`, and a usage
error names the word it did not understand and exits 64, a code no tool uses for an answer."""
import os
import subprocess
import sys

import pytest
import tomllib

from ctxcrl.console import VERSION

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BIN = os.path.dirname(sys.executable)
TOOLS = ("cc-lex", "cc-peel", "cc-gate", "cc-rewrite", "cc-filter", "cc-track", "cc-hook")


@pytest.mark.parametrize("tool", TOOLS)
def test_help_is_for_users(tool):
    done = subprocess.run([os.path.join(BIN, tool), "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "Usage:" in done.stdout
    for internal in ("DESIGN", "§"):
        assert internal not in done.stdout + done.stderr


@pytest.mark.parametrize("tool", TOOLS)
def test_version_is_tool_and_version(tool):
    done = subprocess.run([os.path.join(BIN, tool), "--version"], capture_output=True,
                          text=True, timeout=60)
    assert (done.returncode, done.stdout, done.stderr) == (0, f"{tool} {VERSION}\n", "")


def test_the_version_is_the_distributions():
    with open(os.path.join(REPO, "pyproject.toml"), "rb") as f:
        assert tomllib.load(f)["project"]["version"] == VERSION


@pytest.mark.parametrize("argv, says", [
    ((tool, "--bogus"), f"{tool}: unknown option or argument: --bogus") for tool in TOOLS
] + [
    (("cc-filter", "list", "--bogus"), "cc-filter: unknown option or argument: --bogus"),
    (("cc-hook", "bogus"), "cc-hook: unknown option or argument: bogus"),
    (("cc-track", "report", "--bogus"), "cc-track: unknown option or argument: --bogus"),
])
def test_a_wrong_word_is_named_in_words(argv, says):
    done = subprocess.run([os.path.join(BIN, argv[0]), *argv[1:]], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 64
    assert done.stderr.splitlines()[0] == says and "Usage:" in done.stderr
    assert "Option(None" not in done.stderr and "Traceback" not in done.stderr
