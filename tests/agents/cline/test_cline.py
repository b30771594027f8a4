"""Cline CLI 3.0.65 (npm `cline`), the real client, offline against a scripted model (an
`openai-compatible` provider in its providers.json, a dummy key, no login): the same scenarios
with and without contextcrawler's plugin.

Cline filters after execution (ARCHITECTURE §5 rule 1, §8): the plugin's `beforeTool` never
changes the command and may only add a deny, and its `afterTool` replaces each command's
result with the compacted text, Cline's exit-code line kept. Cline has no command rules: by
default it runs every call unasked; `toolAutoApprove: false` in its global settings asks about
every call (a headless run refuses it), and plan mode (`--plan`) refuses what could change a
file. So the table is two sessions: act mode (the default) with a contextcrawler `[gate]` deny
on `git push` (only the hook refuses it: Cline itself has nothing to say), and plan mode with
approval off (Cline's own refusal, Cline's own ask). `CLINE_SESSION_BACKEND_MODE=local` keeps
Cline from leaving its hub daemon running after the test. The driver and the shared tests:
postexec.PostExecTable, one class per mode.
"""
import json

from harness import PROMPT, RAN, REFUSED
from postexec import FIRST_ROWS, BuildRows, HeadlessClient, PostExecTable, assert_compacted
from projects import BIG_PYTEST

GATE = '[gate]\ndeny = ["git push:*"]\n'
ENV = {"CLINE_SESSION_BACKEND_MODE": "local", "CLINE_NO_AUTO_UPDATE": "1"}


def providers(url: str) -> str:
    settings = {"provider": "openai-compatible", "apiKey": "dummy", "model": "scripted",
                "baseUrl": url + "/v1"}
    return json.dumps({"version": 1, "lastUsedProvider": "openai-compatible", "modes": {},
                       "providers": {"openai-compatible": {
                           "settings": settings, "updatedAt": "2026-01-01T00:00:00.000Z",
                           "tokenSource": "manual"}}}, indent=2)


def outcome(text: str) -> str:
    if "requires approval in a TTY session" in text:
        return PROMPT
    if "file modifications are blocked in plan mode" in text or "contextcrawler: " in text \
            and text.startswith('{"error"'):
        return REFUSED
    return RAN


def result_text(text: str) -> str:
    """What the model read of one call: the `result` of each command's entry."""
    try:
        entries = json.loads(text)
    except ValueError:
        return text
    if not isinstance(entries, list):
        return text
    return "".join(str(e.get("result", "")) for e in entries if isinstance(e, dict))


def cline(plan: bool) -> HeadlessClient:
    """`cline --json` in act mode, or in plan mode with approval off."""
    def configure(ws, server):
        ws.write(".config/ctxcrl/config.toml", GATE)
        if plan:
            ws.write(".cline/data/settings/global-settings.json",
                     json.dumps({"toolAutoApprove": False}))
        ws.write(".cline/data/settings/providers.json", providers(server.url))

    return HeadlessClient(
        "cline", argv=lambda server: ["--json", *(["--plan"] if plan else []),
                                      "Work through the task."],
        outcome=outcome, configure=configure, env=lambda server: dict(ENV), timeout=300)


class TestClineAct(BuildRows, PostExecTable):
    CLIENT = cline(plan=False)
    # (name, command, outcome without the hook, outcome with it)
    SCENARIOS = [
        *FIRST_ROWS,
        # Cline runs every command unasked; contextcrawler's own [gate] deny refuses the push
        ("gate-denied push",
         "git commit --allow-empty -qm gate-push && git push -q origin HEAD:main", RAN, REFUSED),
        ("absolute-path push",
         "git commit --allow-empty -qm abs-push && /usr/bin/git push -q origin HEAD:main",
         RAN, REFUSED),
    ]
    ADDED_DENIES = {"gate-denied push", "absolute-path push"}
    # Cline 3.0.65 stops a command after 30 s ("Command timed out after 30000ms"; its
    # bashTimeoutMs, no setting here): the 12,000-test run takes about that on a loaded machine
    BUILD_LEFT_OUT = (BIG_PYTEST,)

    def exit_code_shown(self, text: str, code: int) -> bool:
        return f"[Command exited with code {code}]" in result_text(text)

    def test_the_command_is_never_changed(self, runs):
        for text, (_, command, *_) in zip(runs[True]["results"][:3], self.SCENARIOS):
            assert [e["query"] for e in json.loads(text)] == [command]
            assert "cc-filter run" not in text

    def test_the_model_receives_compacted_output_with_the_exit_line(self, runs):
        raw = [result_text(t) for t in runs[False]["results"]]
        hooked = [result_text(t) for t in runs[True]["results"]]
        assert_compacted(raw, hooked)
        assert hooked[1].startswith("[Command exited with code 1]\n")  # the failure stays
        entry = json.loads(runs[True]["results"][1])[0]
        assert entry["success"] is False and entry["error"] == "Command exited with code 1"


class TestClinePlan(PostExecTable):
    CLIENT = cline(plan=True)
    SCENARIOS = [
        # Cline's plan-mode guard refuses a redirect into a file, with the hook as without
        ("plan-refused write", "echo draft > plan_note.txt", REFUSED, REFUSED),
        # approval off: Cline asks, and a headless run refuses; the guard lets `python3 -c` by
        ("asked write", "python3 -c \"open('asked.txt', 'w').write('x')\"", PROMPT, PROMPT),
    ]

    def test_the_refused_and_asked_commands_did_not_run(self, runs):
        for hooked in (False, True):
            project = runs[hooked]["ws"].project
            assert not (project / "plan_note.txt").exists()
            assert not (project / "asked.txt").exists()
