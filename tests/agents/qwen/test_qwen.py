"""Qwen Code 0.24.4, the real client, offline (`qwen -p --auth-type openai` against a scripted
OpenAI-compatible model on 127.0.0.1): the same scenarios with and without contextcrawler's
hook.

What the client allows a hook (measured on 0.24.4, ARCHITECTURE §8): PreToolUse fires after
its own approval, for a call that will run, and may refuse it; it ignores a changed tool input.
PostToolUse may only append text to the output. So the hook only adds denies (a spelling of a
denied command that Qwen's prefix match misses), and every output reaches the model as it does
without the hook, unfiltered.

Headless in its default approval mode, Qwen Code does not offer its shell tool to the model at
all (permissions.allow included), so the table runs in yolo mode, where `permissions.deny`
still applies and `permissions.ask` does not.
"""
import json

from harness import PROMPT, RAN, REFUSED, run_as_agent
from postexec import (DENIED_PUSH, FIRST_ROWS, SUBJECTS, UNTRACKED, HeadlessClient,
                      PostExecTable)

SETTINGS = {
    # background memory extraction would run a second conversation on the scripted model
    "memory": {"enableManagedAutoMemory": False, "enableManagedAutoDream": False},
    "permissions": {"allow": ["Bash(git status)", "Bash(git log)"],
                    "ask": ["Bash(rm *)"],
                    "deny": ["Bash(git push)"]},
}
FLAGS = ["--approval-mode", "yolo"]


def outcome(text: str) -> str:
    if "requires permission" in text or "cannot prompt for confirmation" in text:
        return PROMPT
    if "was denied by permission rules" in text or text.startswith("contextcrawler:"):
        return REFUSED
    return RAN if text.startswith("Command: ") else f"unknown: {text[:200]}"


QWEN = HeadlessClient(
    "qwen", argv=lambda server: ["-p", "Work through the task.", "--auth-type", "openai",
                                 *FLAGS],
    outcome=outcome, timeout=300,
    configure=lambda ws, server: ws.write(".qwen/settings.json", json.dumps(SETTINGS, indent=2)),
    env=lambda server: {"OPENAI_BASE_URL": server.url + "/v1", "OPENAI_API_KEY": "scripted-key",
                        "OPENAI_MODEL": "scripted", "QWEN_CODE_SUPPRESS_YOLO_WARNING": "1"})


def _stable(text: str) -> str:
    """The text without what differs from run to run (pytest's timing, process ids)."""
    import re

    text = re.sub(r" in \d+\.\d+s\b", " in Ns", text)
    return "\n".join(line for line in text.splitlines()
                     if not line.startswith(("Process Group PGID", "Background PIDs")))


class TestQwen(PostExecTable):
    CLIENT = QWEN
    # (name, command, outcome without the hook, outcome with it)
    SCENARIOS = [
        *FIRST_ROWS,
        DENIED_PUSH,
        # slips past Qwen's prefix rule `Bash(git push)` without the hook (nothing new to push)
        ("git -C push", "git -C . push -q origin HEAD:main", RAN, REFUSED),
        # yolo runs what `permissions.ask` names (measured): the hook leaves that to the client
        ("asked rm", "rm -f scratch.txt", RAN, RAN),
    ]
    ADDED_DENIES = {"git -C push"}

    def test_the_model_receives_the_same_output_with_the_hook(self, runs):
        """Qwen Code 0.24.4 cannot be given compacted output (see the module's docstring):
        the hook must at least leave every output whole, failures included."""
        raw, hooked = runs[False]["results"], runs[True]["results"]
        status, tests, log = hooked[0], hooked[1], hooked[2]
        assert "calc.py" in status and UNTRACKED in status and "Exit Code: 0" in status
        assert "test_add" in tests and "1 failed" in tests and "Exit Code: 1" in tests
        for subject in SUBJECTS:
            assert subject in log
        for before, after in zip(raw[:2], hooked[:2]):
            assert _stable(before) == _stable(after)
        # the whole history, as git itself prints it in that workspace (compared with git,
        # not with the run without the hook: under load Qwen Code 0.24.4 has shown a `git log`
        # there as "Output: (empty)" with exit code 0, its own capture racing the command)
        truth = run_as_agent(["git", "log"], runs[True]["ws"]).stdout.rstrip("\n")
        assert truth and truth in log, (truth, log)

    def test_the_hook_time_per_shell_call_is_recorded(self, runs):
        """Seconds from the model's tool call to the next request, per call (the report
        quotes the mean difference): every call got an answer in both runs."""
        for hooked in (False, True):
            assert len(runs[hooked]["intervals"]) == len(self.SCENARIOS)
            assert all(0 < s < 120 for s in runs[hooked]["intervals"])
        print("qwen shell-call seconds without / with the hook:",
              [round(s, 2) for s in runs[False]["intervals"]],
              [round(s, 2) for s in runs[True]["intervals"]])
