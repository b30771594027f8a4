"""The real Gemini CLI, driven headless (`gemini -p`) against a scripted model server.

- `GeminiServer`: the Gemini API as the CLI calls it with an API key and
  `GOOGLE_GEMINI_BASE_URL` (measured on 0.61.0): `POST /v1beta/models/<m>:streamGenerateContent
  ?alt=sse` for the conversation (answered: first a `functionCall` of `run_shell_command` per
  scripted command, then short text), `POST …:generateContent` for the CLI's side questions
  (routing, next speaker; answered with a small JSON text). Every request is logged with its
  arrival time; `function_responses()` are what the model received back for each call.
- `GeminiRun`: one workspace set up the way the CLI needs it to run hooks (API-key auth,
  trusted folder), policy files at user / admin / workspace level, settings keys, and
  contextcrawler's hook installed or not.
- `outcome_of(response)`: ran / refused, read off the functionResponse.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import harness

MODEL = "gemini-2.5-flash"


class GeminiServer(harness.ScriptedServer):
    """Answers each conversation turn from `commands`: the n-th turn that follows a user
    message or a functionResponse gets the n-th command as a functionCall, then text."""

    def __init__(self, commands, lifetime: float = 240):
        super().__init__(lifetime=lifetime)
        self.commands = list(commands)
        self.calls = 0
        self.times: list = []  # arrival time of each streamGenerateContent request

    def respond(self, handler, body):
        path = handler.path
        if ":streamGenerateContent" in path:
            self.times.append(time.monotonic())
            if self.calls < len(self.commands):
                command = self.commands[self.calls]
                self.calls += 1
                part = {"functionCall": {"name": "run_shell_command",
                                         "args": {"command": command,
                                                  "description": "scripted"}}}
            else:
                part = {"text": "done."}
            chunk = {"candidates": [{"content": {"role": "model", "parts": [part]},
                                     "finishReason": "STOP", "index": 0}],
                     "usageMetadata": {"promptTokenCount": 10, "candidatesTokenCount": 5,
                                       "totalTokenCount": 15},
                     "modelVersion": MODEL}
            return 200, {"Content-Type": "text/event-stream"}, [f"data: {json.dumps(chunk)}\r\n\r\n"]
        if ":generateContent" in path:
            text = json.dumps({"reasoning": "scripted", "next_speaker": "user",
                               "model_choice": "flash", "complexity_score": 1})
            answer = {"candidates": [{"content": {"role": "model", "parts": [{"text": text}]},
                                      "finishReason": "STOP", "index": 0}],
                      "usageMetadata": {"promptTokenCount": 1, "candidatesTokenCount": 1,
                                        "totalTokenCount": 2}}
            return 200, {"Content-Type": "application/json"}, json.dumps(answer)
        if ":countTokens" in path:
            return 200, {"Content-Type": "application/json"}, json.dumps({"totalTokens": 10})
        return 404, {"Content-Type": "application/json"}, json.dumps(
            {"error": {"code": 404, "message": f"not scripted: {path}", "status": "NOT_FOUND"}})

    def function_responses(self) -> list:
        """Each functionResponse the model received, in order (the `response` objects)."""
        out = []
        for method, path, headers, body in self.requests:
            if ":streamGenerateContent" not in path or not isinstance(body, dict):
                continue
            contents = body.get("contents") or []
            if not contents:
                continue
            for part in contents[-1].get("parts", []):
                if "functionResponse" in part:
                    out.append(part["functionResponse"].get("response") or {})
        return out

    def call_intervals(self) -> list:
        """Seconds between each scripted functionCall and the request carrying its result."""
        return [b - a for a, b in zip(self.times, self.times[1:])][:self.calls]


RAN = harness.RAN
REFUSED = harness.REFUSED


def outcome_of(response: dict) -> str:
    """`ran` when the command ran (its output came back), else `refused` (denied by the policy,
    blocked by the hook, or the shell tool withheld from the model)."""
    if "output" in response and "error" not in response:
        return RAN
    return REFUSED


def response_text(response: dict) -> str:
    return str(response.get("output", response.get("error", "")))


def gemini_exe() -> Path:
    return harness.install_client("gemini")


_PYTEST_BIN: Path | None = None


def pytest_venv() -> Path:
    """A venv with pytest the agent user can run (the failing-test scenario), once per session."""
    global _PYTEST_BIN
    if _PYTEST_BIN is None:
        base = Path(tempfile.mkdtemp(prefix="ctxcrl-pytest-"))
        os.chmod(base, 0o755)
        subprocess.run([harness.agent_python(), "-m", "venv", str(base)], check=True)
        proc = subprocess.run([str(base / "bin" / "python"), "-m", "pip", "install", "-q",
                               "pytest"], capture_output=True, text=True)
        if proc.returncode != 0:
            import pytest
            pytest.skip("cannot install pytest for the agent user: " + proc.stderr[-300:])
        harness._writable_tree(base)
        os.chmod(base, 0o755)
        _PYTEST_BIN = base / "bin"
    return _PYTEST_BIN


class GeminiRun:
    """One fresh workspace for one headless Gemini CLI session."""

    def __init__(self, root: Path, hook: bool = False):
        root.mkdir(parents=True, exist_ok=True)
        self.ws = harness.Workspace(root, harness.agent_user())
        self.hook = hook
        self.settings: dict = {"security": {"auth": {"selectedType": "gemini-api-key"}}}
        self.admin_dir = root / "admin-policies"
        self.flags: list = []
        # The folder the session runs in is trusted (hooks load only in trusted folders).
        self.ws.write(".gemini/trustedFolders.json",
                      json.dumps({str(self.ws.project): "TRUST_FOLDER"}))

    def user_policy(self, text: str, name: str = "user.toml") -> None:
        self.ws.write(f".gemini/policies/{name}", text)

    def workspace_policy(self, text: str) -> None:
        path = self.ws.project / ".gemini" / "policies" / "ws.toml"
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        harness.chown_tree(self.ws.project / ".gemini", self.ws.user)

    def admin_policy(self, text: str) -> None:
        """An admin-tier policy, given with `--admin-policy` (the system directory
        /etc/gemini-cli/policies is the same tier; the tests leave the machine's alone)."""
        self.admin_dir.mkdir(exist_ok=True)
        (self.admin_dir / "admin.toml").write_text(text)
        os.chmod(self.admin_dir, 0o755)
        self.flags += ["--admin-policy", str(self.admin_dir)]

    def install_hook(self, bin_dir: Path) -> subprocess.CompletedProcess:
        proc = harness.run_as_agent([str(bin_dir / "cc-hook"), "init", "--agent", "gemini"],
                                    self.ws, timeout=60)
        assert proc.returncode == 0, proc.stdout + proc.stderr
        return proc

    def run(self, commands, flags=(), env=None, timeout: float = 150):
        """Run `gemini -p` with the scripted `commands`; returns (server, completed process)."""
        settings_path = self.ws.home / ".gemini" / "settings.json"
        if settings_path.exists():  # the hook's registration, maybe: merge ours in
            current = json.loads(settings_path.read_text() or "{}")
        else:
            current = {}
        for key, value in self.settings.items():
            current[key] = value if not isinstance(value, dict) else {**current.get(key, {}),
                                                                        **value}
        self.ws.write(".gemini/settings.json", json.dumps(current, indent=2))
        with GeminiServer(commands, lifetime=timeout + 30) as server:
            proc = harness.run_as_agent(
                [str(gemini_exe()), "-m", MODEL, "-p", "run the scripted commands",
                 *self.flags, *flags], self.ws,
                env={"GOOGLE_GEMINI_BASE_URL": server.url, "GEMINI_API_KEY": "scripted-key",
                     **(env or {})}, timeout=timeout)
        return server, proc
