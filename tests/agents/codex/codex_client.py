"""The real Codex CLI driven headless (`codex exec`) against the scripted Responses server
(server.py): a workspace with its rules, config.toml and the hook installed or not, one run,
and what the model received (`CodexRun`: outcome, exit code, text). Shared by
test_codex_client.py, the TUI test and bench/bench_codex.py.
"""
from __future__ import annotations

import re

import harness
from harness import PROMPT, RAN, REFUSED
from server import ResponsesServer


class CodexRun:
    def __init__(self, ws, server, proc):
        self.ws, self.server, self.proc = ws, server, proc
        outputs = server.outputs()
        self.output = outputs[0] if outputs else None

    @property
    def outcome(self) -> str:
        out = self.output
        assert out is not None, f"the model got no tool output: {self.proc.stderr[-2000:]}"
        if "approval required by policy" in out:
            return PROMPT
        if out.startswith("exec_command failed") and "rejected" in out.lower():
            return REFUSED
        if out.startswith("Command blocked by PreToolUse hook"):
            return REFUSED
        assert "Process exited with code" in out, out
        return RAN

    @property
    def exit_code(self):
        m = re.search(r"Process exited with code (\d+)", self.output or "")
        return int(m.group(1)) if m else None

    @property
    def text(self) -> str:
        """What the command printed, as the model received it."""
        return (self.output or "").split("\nOutput:\n", 1)[-1]


def make_workspace(tmp_path, setup) -> harness.Workspace:
    tmp_path.mkdir(exist_ok=True)
    ws = harness.Workspace(tmp_path, harness.agent_user())
    ws.commit_history(12)
    for i in range(8):  # a dirty tree: git status has something to say
        (ws.project / f"draft_{i}.txt").write_text("draft\n")
    (ws.project / "README.md").write_text("# demo, edited\n")
    harness.chown_tree(ws.root, ws.user)
    if setup.get("user_rules"):
        ws.write(".codex/rules/user.rules", setup["user_rules"])
    if setup.get("project_rules"):
        ws.write("project/.codex/rules/project.rules", setup["project_rules"])
    if setup.get("long_failure"):  # a failure whose output is worth a tee file (> 500 bytes)
        (ws.project / "test_calc.py").write_text(
            "from calc import add\n\n\ndef test_add():\n"
            "    expected = {'sum': 5, 'items': list(range(60))}\n"
            "    assert {'sum': add(2, 3), 'items': list(range(60))} == expected\n")
        harness.chown_tree(ws.project, ws.user)
    if setup.get("claude"):
        ws.write(".claude/settings.json", setup["claude"])
        ws.write("project/.claude/settings.json", setup["claude"])
    return ws


def config_toml(url: str, ws, setup) -> str:
    text = (f'model = "gpt-5"\nmodel_provider = "scripted"\n\n'
            f'[model_providers.scripted]\nname = "scripted"\nbase_url = "{url}/v1"\n'
            f'wire_api = "responses"\nenv_key = "SCRIPTED_API_KEY"\n'
            f'request_max_retries = 0\nstream_max_retries = 0\n')
    if setup.get("trusted"):
        text += f'\n[projects."{ws.project}"]\ntrust_level = "trusted"\n'
    if setup.get("tmp_not_writable"):  # HOME is under /tmp here: keep it out of the sandbox
        text += '\n[sandbox_workspace_write]\nexclude_slash_tmp = true\n'
    return text


def codex_env(ws) -> dict:
    return {"CODEX_HOME": str(ws.home / ".codex"), "SCRIPTED_API_KEY": "dummy"}


def install_hook(ws) -> None:
    venv = harness.product_venv()
    done = harness.run_as_agent([str(venv / "cc-hook"), "init", "--agent", "codex"], ws,
                                env=codex_env(ws))
    assert done.returncode == 0, done.stdout + done.stderr
    verify = harness.run_as_agent([str(venv / "cc-hook"), "verify"], ws, env=codex_env(ws))
    assert verify.returncode == 0 and "PASS  codex" in verify.stdout, verify.stdout


def run_codex(codex, tmp_path, commands, setup, args, hooked: bool):
    ws = make_workspace(tmp_path, setup)
    with ResponsesServer(commands, lifetime=240) as server:
        ws.write(".codex/config.toml", config_toml(server.url, ws, setup))
        if hooked:
            install_hook(ws)
        proc = harness.run_as_agent(
            [str(codex), "exec", "--skip-git-repo-check", *args, "run the command"], ws,
            env=codex_env(ws), timeout=180)
    return CodexRun(ws, server, proc)


