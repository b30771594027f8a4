"""Claude Code's built-in read-only tables are the pinned client's own: re-extracted from its
binary and compared (scripts/claude_builtin_allow.py --check) with the table of that version —
cc-gate/cc_gate/agents/claude_builtin.json for the newest, claude_builtin-<version>.json for an
older one kept (CTXCRL_CLAUDE_VERSION=2.1.197). Bumping the pinned version makes this fail
until the tables are re-extracted."""
import os
import shutil
import subprocess
import sys

import pytest

import harness

ROOT = harness.ROOT


def test_builtin_tables_match_the_pinned_client():
    if shutil.which("node") is None:
        pytest.skip("node is not installed: the tables are evaluated with it")
    exe = harness.install_client("claude")
    native = (exe.parent.parent / "@anthropic-ai" / "claude-code-linux-x64" / "claude")
    binary = str(native if native.exists() else os.path.realpath(exe))
    version = harness.CLIENTS["claude"][1]
    tables = ROOT / "cc-gate" / "cc_gate" / "agents"
    older = tables / f"claude_builtin-{version}.json"
    out = older if older.exists() else tables / "claude_builtin.json"
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "claude_builtin_allow.py"),
                           "--check", "--out", str(out), binary], capture_output=True, text=True,
                          timeout=600)
    assert done.returncode == 0, done.stdout + done.stderr
