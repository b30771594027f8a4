"""Every tool's --help is written for users: it works, exits 0, and cites nothing a user
does not have (DESIGN sections)."""
import os
import subprocess
import sys

import pytest

BIN = os.path.dirname(sys.executable)
TOOLS = ("cc-lex", "cc-peel", "cc-gate", "cc-rewrite", "cc-filter", "cc-track", "cc-hook")


@pytest.mark.parametrize("tool", TOOLS)
def test_help_is_for_users(tool):
    done = subprocess.run([os.path.join(BIN, tool), "--help"], capture_output=True, text=True,
                          timeout=60)
    assert done.returncode == 0 and "Usage:" in done.stdout
    for internal in ("DESIGN", "§"):
        assert internal not in done.stdout + done.stderr


@pytest.mark.parametrize("argv, says", [
    (("cc-filter", "list", "--bogus"), "cc-filter: unknown option or argument: --bogus"),
    (("cc-hook", "bogus"), "cc-hook: unknown option or argument: bogus"),
    (("cc-track", "report", "--bogus"), "cc-track: unknown option or argument: --bogus"),
])
def test_a_wrong_word_is_named_in_words(argv, says):
    done = subprocess.run([os.path.join(BIN, argv[0]), *argv[1:]], capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 2
    assert done.stderr.splitlines()[0] == says and "Usage:" in done.stderr
    assert "Option(None" not in done.stderr and "Traceback" not in done.stderr
