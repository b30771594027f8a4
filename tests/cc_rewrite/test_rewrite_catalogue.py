"""cc-rewrite on cc-filter's real catalogue: the one source of truth for what has a filter."""
import json
import os
import subprocess
import sys

import pytest
from cc_rewrite.refusals import RewriteSettings
from cc_rewrite.rewrite import Catalogue, rewrite

R = "cc-filter run "


def real(command: str, cwd=None) -> str:
    return rewrite(command, Catalogue(cwd), RewriteSettings()).text


@pytest.fixture(autouse=True)
def fresh_catalogue():
    import cc_filter.choose.catalogue

    cc_filter.choose.catalogue.reset()
    yield
    cc_filter.choose.catalogue.reset()


def needs(*keys):
    from cc_filter.choose.catalogue import has_filter

    missing = [k for k in keys if not has_filter(k)]
    if missing:
        pytest.skip(f"cc-filter's catalogue has no filter yet for {missing}")


# (command, keys that must have a built-in filter, expected)
BUILT_IN = [
    ("git status", ["git status"], R + "git status"),
    ("git -C sub --no-pager diff --stat", ["git diff --stat"], R + "git -C sub --no-pager diff --stat"),
    ("git log --oneline -5 | head -3", ["git log --oneline -5"], R + "--then=head:3 git log --oneline -5 | head -3"),
    ("git add . && git commit -m 'x' && git push", ["git add .", "git commit -m x", "git push"],
     R + "git add . && " + R + "git commit -m 'x' && " + R + "git push"),
    ("ls -la | wc -l", ["ls -la"], "ls -la | wc -l"),
    ("ps aux | grep python", ["grep python"], "ps aux | " + R + "grep python"),
    ("rg TODO src/", ["rg TODO src/"], R + "rg TODO src/"),
    ("cat README.md", ["cat README.md"], R + "cat README.md"),
    ("tail -f app.log", ["tail -f app.log"], "tail -f app.log"),
    ("uv run pytest -q 2>&1 | tail -20", ["pytest -q"], R + "--then=tail:20 uv run pytest -q 2>&1 | tail -20"),
    ("git add . && cargo test 2>&1 | tail -20", ["git add .", "cargo test"],
     R + "git add . && " + R + "--then=tail:20 cargo test 2>&1 | tail -20"),
    ("echo hi && frobnicate --all", [], "echo hi && frobnicate --all"),
]


@pytest.mark.parametrize("command, keys, expected", BUILT_IN)
def test_built_in_filters(command, keys, expected):
    needs(*keys)
    assert real(command) == expected


def write_user_filter(ctxcrl_home, name="frobnicate", pattern="^frobnicate(\\\\s|$)"):
    filters = ctxcrl_home / "filters"
    filters.mkdir(exist_ok=True)
    (filters / f"{name}.toml").write_text(
        f'schema_version = 1\n[filter]\nname = "{name}"\ndescription = "test"\n'
        f'match_command = "{pattern}"\n')


def test_adding_a_filter_makes_its_command_rewritable(ctxcrl_home):
    assert real("frobnicate --all") == "frobnicate --all"
    import cc_filter.choose.catalogue

    write_user_filter(ctxcrl_home)
    cc_filter.choose.catalogue.reset()
    assert real("echo hi && frobnicate --all") == "echo hi && " + R + "frobnicate --all"
    assert real("FOO=1 timeout 9 /opt/bin/frobnicate -x 2>&1 | tail -3") == \
        "FOO=1 timeout 9 " + R + "--then=tail:3 /opt/bin/frobnicate -x 2>&1 | tail -3"


def test_explain_names_the_real_filter(ctxcrl_home):
    write_user_filter(ctxcrl_home, "frob-x", "^frob x(\\\\s|$)")
    result = rewrite("frob x 1 && frob y", Catalogue(None), RewriteSettings())
    assert result.explain() == [R + "frob x 1 && frob y", "frob x 1\trewritten (filter frob-x)",
                                "frob y\traw: no filter for 'frob y'"]


def test_issue_done_check_through_the_console_scripts(tmp_path, ctxcrl_home):
    """`echo '{"command": "git add . && cargo test 2>&1 | tail -20", "cwd": …}' | cc-gate |
    cc-rewrite` gives the right record."""
    home = tmp_path / "home"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude/settings.json").write_text(json.dumps({"permissions": {
        "allow": ["Bash(git add:*)", "Bash(cargo test:*)", "Bash(tail:*)"]}}))
    write_user_filter(ctxcrl_home, "cargo-test-stand-in", "^cargo test(\\\\s|$)")
    project = tmp_path / "app"
    project.mkdir()
    bindir = os.path.dirname(sys.executable)
    env = dict(os.environ, HOME=str(home), CTXCRL_HOME=str(ctxcrl_home),
               PATH=bindir + os.pathsep + os.environ.get("PATH", ""))  # cc-filter can be found
    command = "git add . && cargo test 2>&1 | tail -20"
    record = json.dumps({"command": command, "cwd": str(project)})
    proc = subprocess.run(f"{bindir}/cc-gate | {bindir}/cc-rewrite", shell=True, env=env,
                          input=record + "\n", capture_output=True, text=True, timeout=60)
    assert proc.returncode == 0 and proc.stderr == ""
    assert json.loads(proc.stdout) == {
        "command": command, "cwd": str(project), "decision": "allow",
        "reason": "allow rules Bash(git add:*) in ~/.claude/settings.json; "
                  "Bash(cargo test:*) in ~/.claude/settings.json; "
                  "Bash(tail:*) in ~/.claude/settings.json",
        "rewritten": R + "git add . && " + R + "--then=tail:20 cargo test 2>&1 | tail -20",
    }
    assert list(json.loads(proc.stdout)) == ["command", "cwd", "decision", "reason", "rewritten"]
