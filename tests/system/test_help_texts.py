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
