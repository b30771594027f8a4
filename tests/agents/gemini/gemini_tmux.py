"""The real Gemini CLI driven **interactively** in tmux, against the scripted model server.

Headless runs (`gemini -p`) never show a prompt: the Policy Engine's `ask_user` is a refusal
there. The default setup a user has is the interactive one, where `ask_user` is a
confirmation dialog ("Confirm Shell Command … Allow once / Allow for this session / No"). So
these runs start `gemini -m MODEL` in a tmux session as the agent user, type the prompt, and
watch the screen: every time the dialog shows, the command it names is recorded and the
dialog answered by keystroke: Enter ("Allow once", the first option), Down Enter ("Allow for
this session") or Escape ("No").

`InteractiveRun.run(commands)` returns `(server, prompts)`: the scripted server (its
`function_responses()` are what the model received) and the commands the client asked about,
in order, as the dialog showed them.

Needs `tmux` (Debian package `tmux`); without it the tests skip with the reason.
"""
from __future__ import annotations

import json
import os
import re
import shutil
import time

import pytest

import harness
from gemini_client import MODEL, GeminiRun, GeminiServer, gemini_exe

#: The dialog's header and its first option, as 0.61.0 draws them.
DIALOG = "Allow once"
_PROMPT_LINE = re.compile(r"^[\s│|]*(?:Allow execution of|Confirm Shell Command)", re.M)


def tmux() -> str:
    found = shutil.which("tmux")
    if found is None:
        pytest.skip("tmux is not installed (apt-get install tmux): the interactive Gemini CLI "
                    "cannot be driven")
    return found  # the session itself: harness.Tmux


class InteractiveRun(GeminiRun):
    """A GeminiRun whose session is interactive, in tmux."""

    def run(self, commands, flags=(), env=None, timeout: float = 180, approve=True):
        """`approve`: True (every prompt "once"), False (every prompt "no"), or one of
        "once" / "session" / "no" per prompt, in order."""
        settings_path = self.ws.home / ".gemini" / "settings.json"
        current = json.loads(settings_path.read_text() or "{}") if settings_path.exists() else {}
        for key, value in self.settings.items():
            current[key] = value if not isinstance(value, dict) else {**current.get(key, {}),
                                                                        **value}
        # No first-run dialogs in the way: a theme, no tips, no update check.
        current.setdefault("ui", {}).update({"theme": "Default", "hideTips": True,
                                             "hideBanner": True})
        current.setdefault("general", {}).update({"disableAutoUpdate": True,
                                                  "disableUpdateNag": True})
        self.ws.write(".gemini/settings.json", json.dumps(current, indent=2))
        name = f"ctxcrl-gemini-{os.getpid()}-{int(time.monotonic() * 1000) % 100000}"
        with GeminiServer(commands, lifetime=timeout + 30) as server:
            environment = self.ws.env({"GOOGLE_GEMINI_BASE_URL": server.url,
                                       "GEMINI_API_KEY": "scripted-key", "TERM": "xterm-256color",
                                       **(env or {})})
            environment.pop("NO_COLOR", None)
            session = harness.Tmux(self.ws, name)
            session.start([gemini_exe(), "-m", MODEL, *self.flags, *flags], environment)
            prompts: list = []
            try:
                prompts = self._drive(session, server, len(commands), timeout, approve)
            finally:
                session.stop()
        return server, prompts

    def _drive(self, session, server, count, timeout, approve) -> list:
        screen, keys = session.screen, session.keys

        end = time.monotonic() + timeout
        # wait for the input box, then type the prompt
        while time.monotonic() < end and "Type your message" not in screen():
            time.sleep(0.3)
        time.sleep(1.0)  # the input box takes keys a moment after it is drawn
        keys("-l", "run the scripted commands")
        sent = time.monotonic()
        while "run the scripted commands" not in screen() and time.monotonic() < sent + 10:
            time.sleep(0.2)
        time.sleep(0.5)
        keys("Enter")
        # a prompt still sitting in the input box was not taken: press Enter again
        retry = time.monotonic() + 5
        while time.monotonic() < retry and not server.requests:
            time.sleep(0.3)
        if not server.requests:
            keys("Enter")
        prompts: list = []
        answered = 0
        while time.monotonic() < end:
            text = screen()
            if DIALOG in text and answered == len(prompts):
                prompts.append(_dialog_command(text))
            if len(prompts) > answered:
                time.sleep(0.3)
                choice = approve[answered] if isinstance(approve, (list, tuple)) and \
                    answered < len(approve) else ("once" if approve else "no")
                if choice == "session":  # the second option
                    keys("Down")
                    time.sleep(0.3)
                keys("Escape" if choice == "no" else "Enter")
                answered += 1
                # the dialog disappears once answered
                wait_end = time.monotonic() + 10
                while DIALOG in screen() and time.monotonic() < wait_end:
                    time.sleep(0.2)
                time.sleep(1.0)  # the next dialog, if any, is drawn anew
                continue
            if server.calls >= count and len(server.function_responses()) >= count:
                break
            time.sleep(0.3)
        self.last_screen = screen()
        return prompts


def _dialog_command(text: str) -> str:
    """The command the dialog asks about (the boxed line(s) above "Allow execution")."""
    lines = [ln.strip(" │|╭╮╰╯─") for ln in text.splitlines()]
    try:
        ask = max(i for i, ln in enumerate(lines) if DIALOG in ln)
    except ValueError:
        return ""
    found = []
    for ln in reversed(lines[:ask]):
        if "Allow execution" in ln or not ln.strip():
            if found:
                break
            continue
        if ln.startswith(("?", "Confirm Shell Command", "Shell")) and found:
            break
        found.append(ln.strip())
        if len(found) > 6:
            break
    return " ".join(reversed(found)).strip()


__all__ = ["InteractiveRun", "tmux"]
