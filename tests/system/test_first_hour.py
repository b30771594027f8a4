"""The done check of a new user's first hour, through the installed command-line tools: a
fresh home folder (with settings of its own) and a project go through init for every agent,
real use through the hook, a report, and uninstall --purge, and end byte for byte as they
began, with nothing of contextcrawler left."""
import json
import os
import subprocess
import sys

BIN = os.path.dirname(sys.executable)
AGENTS = ("claude", "cursor", "copilot", "gemini", "codex", "opencode")


def snapshot(*roots):
    files = {}
    for root in roots:
        for directory, dirs, names in os.walk(root):
            if ".git" in dirs:
                dirs.remove(".git")
            for name in dirs + names:
                path = os.path.join(directory, name)
                if os.path.isdir(path) and not os.path.islink(path):
                    files[path] = "dir"
                else:
                    with open(path, "rb") as f:
                        files[path] = f.read()
    return files


def test_a_fresh_home_ends_as_it_began(tmp_path):
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".claude").mkdir(parents=True)
    (home / ".claude" / "settings.json").write_text(
        '{\n    "permissions": {"allow": ["Bash(git status)"]},\n    "model": "opus"\n}\n')
    (home / ".profile").write_text('PATH="$HOME/bin:$PATH"\n')
    (home / "bin").mkdir()
    env = {"HOME": str(home), "PATH": f"{BIN}:/usr/bin:/bin", "LANG": "C.UTF-8",
           "SHELL": "/bin/bash", "GIT_CONFIG_NOSYSTEM": "1"}

    def run(*argv, cwd=project, stdin=None):
        done = subprocess.run(argv, cwd=cwd, env=env, input=stdin, capture_output=True,
                              text=True, timeout=120)
        assert "Traceback" not in done.stderr, done.stderr
        return done

    subprocess.run(["git", "init", "-q", str(project)], check=True)
    (project / "CLAUDE.md").write_text("# Project rules\n")
    (project / "AGENTS.md").write_text("Keep changes small.")
    # the user trusts the project in Codex (Codex reads a project's .codex/ only then)
    (home / ".codex").mkdir()
    (home / ".codex" / "config.toml").write_text(
        f'model = "gpt-5"\n\n[projects."{project}"]\ntrust_level = "trusted"\n')
    before = snapshot(home, project)

    assert run(os.path.join(BIN, "cc-hook"), "init", "--link",
               *[f"--agent={a}" for a in AGENTS]).returncode == 0
    assert run(os.path.join(BIN, "cc-hook"), "init", "--project",
               *[f"--agent={a}" for a in AGENTS + ("cline", "windsurf")]).returncode == 0
    assert os.path.islink(home / "bin" / "cc-filter")
    verify = run(os.path.join(BIN, "cc-hook"), "verify")
    assert verify.returncode == 0 and "FAIL" not in verify.stdout, verify.stdout

    # use: Claude Code's hook rewrites `git status`, the agent's shell runs the rewrite
    event = {"session_id": "s", "cwd": str(project), "hook_event_name": "PreToolUse",
             "permission_mode": "default", "tool_name": "Bash",
             "tool_input": {"command": "git status"}}
    script = home / ".local" / "share" / "ctxcrl" / "hooks" / "ctxcrl-hook-claude.sh"
    answer = json.loads(run("/bin/sh", "-c", str(script), stdin=json.dumps(event)).stdout)
    rewritten = answer["hookSpecificOutput"]["updatedInput"]["command"]
    assert rewritten == "cc-filter run git status"  # the bare name: the link made it work
    used = run("bash", "-lc", rewritten)
    assert used.returncode == 0 and "On branch" in used.stdout
    assert run(os.path.join(BIN, "cc-hook"), "test", "codex", "git status", "--run"
               ).returncode == 0
    report = run(os.path.join(BIN, "cc-track"), "report", "--weekly", "--graph")
    assert report.returncode == 0 and "Tokens saved per week" in report.stdout
    page = tmp_path / "report.html"
    assert run(os.path.join(BIN, "cc-track"), "report", "--weekly", f"--html={page}"
               ).returncode == 0
    assert "Tokens per week" in page.read_text()

    done = run(os.path.join(BIN, "cc-hook"), "uninstall", "--purge")
    assert done.returncode == 0, done.stdout + done.stderr
    assert snapshot(home, project) == before
    again = run(os.path.join(BIN, "cc-hook"), "uninstall")
    assert again.stdout == "nothing of contextcrawler to remove here\n"


def test_init_into_a_closed_pipe_still_finishes_and_records_it(tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    env = {"HOME": str(home), "PATH": f"{BIN}:/usr/bin:/bin", "LANG": "C.UTF-8"}
    done = subprocess.run(["bash", "-c", "cc-hook init --agent claude --agent codex | head -1"],
                          env=env, capture_output=True, text=True, timeout=120, cwd=home)
    assert done.returncode == 0 and "Broken pipe" not in done.stderr, done.stderr
    manifest = json.loads((home / ".local/share/ctxcrl/hooks.json").read_text())
    assert [i["agent"] for i in manifest["installs"]] == ["claude", "codex"]
    subprocess.run([os.path.join(BIN, "cc-hook"), "uninstall"], env=env, capture_output=True,
                   timeout=120, cwd=home, check=True)
    assert os.listdir(home) == []
