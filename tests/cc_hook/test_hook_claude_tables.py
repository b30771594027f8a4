"""`cc-hook verify` on a Claude Code whose read-only check the gate's tables do not hold
(issue 24): a newer client gets nothing auto-allowed on the tables alone, and verify says so."""
import io
import json
import os

import pytest

from cc_gate.agents import claude_builtin
from cc_hook import install, verify
from cc_hook.agents import claude
from cc_hook.install import Reporter


def fake_client(root, version, native=False):
    """A `claude` on the PATH as npm installs it (…/node_modules/.bin/claude → the package's
    bin/claude.exe, package.json next to it) or as the native installer does
    (~/.local/bin/claude → ~/.local/share/claude/versions/<version>)."""
    bin_dir = root / "bin"
    bin_dir.mkdir(parents=True)
    if native:
        target = root / "share" / "claude" / "versions" / version
        target.parent.mkdir(parents=True)
    else:
        package = root / "node_modules" / "@anthropic-ai" / "claude-code"
        (package / "bin").mkdir(parents=True)
        (package / "package.json").write_text(json.dumps(
            {"name": "@anthropic-ai/claude-code", "version": version}))
        target = package / "bin" / "claude.exe"
    target.write_text("#!/bin/sh\n")
    target.chmod(0o755)
    (bin_dir / "claude").symlink_to(target)
    return bin_dir


@pytest.mark.parametrize("native", [False, True])
def test_the_installed_clients_version_is_read_without_running_it(tmp_path, monkeypatch,
                                                                 native):
    monkeypatch.setenv("PATH", str(fake_client(tmp_path, "2.1.332", native)))
    assert claude.installed_client_version() == "2.1.332"
    assert claude.table_problem() is None


def test_verify_warns_about_a_client_newer_than_the_tables(fake_home, tmp_path, monkeypatch):
    newer = "2.1.999"
    assert claude_builtin.newer_than_tables(newer)
    bin_dir = fake_client(tmp_path / "client", newer)
    monkeypatch.setenv("PATH", f"{bin_dir}:{os.environ['PATH']}")
    report = Reporter(io.StringIO(), io.StringIO())
    assert install.init(["claude"], "global", False, report=report) == 0
    report = Reporter(io.StringIO(), io.StringIO())
    assert verify.verify(report) == 0  # a warning, not a failure: the hook still works
    text = report.out.getvalue()
    assert text.startswith("WARN  claude (global)"), text
    assert f"Claude Code {newer} is newer than the versions" in text
    assert "nothing is auto-allowed on their strength" in text


def test_a_release_without_its_table(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(fake_client(tmp_path, "2.1.250")))
    problem = claude.table_problem()
    assert "not one of the versions" in problem and "use one of those versions" in problem


def test_no_client_no_warning(tmp_path, monkeypatch):
    monkeypatch.setenv("PATH", str(tmp_path))
    assert claude.installed_client_version() is None and claude.table_problem() is None
