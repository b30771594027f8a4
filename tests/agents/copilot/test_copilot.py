"""Copilot CLI 1.0.102, the real client, offline (`COPILOT_OFFLINE=true`, BYOK against a
scripted OpenAI-compatible model): the same scenarios with and without contextcrawler's hooks.

Copilot filters after execution (ARCHITECTURE §5 rule 1): the `preToolUse` hook never changes the
command and may only add a deny; the `postToolUse` hook replaces what the model receives
(`modifiedResult`, the exit-code trailer kept). Rules are Copilot's own flags
(`--allow-tool`, `--deny-tool`), read by the hook from the running copilot process. The build
rows run too: a failing `npm install`, `make test`, the 12,000-test pytest run and (where the
agent user can run cargo) `cargo test` reach the model compacted, the failure and the exit
code in Copilot's trailer kept (`make test`'s compile lines Copilot folds itself, with or
without the hook). The shared tests: postexec.PostExecTable.
"""
import re

from harness import PROMPT, RAN, REFUSED
from postexec import (DENIED_PUSH, FIRST_ROWS, SUBJECTS, UNTRACKED, BuildRows, HeadlessClient,
                      PostExecTable)

FLAGS = ["--allow-tool", "shell(git:*)", "--allow-tool", "shell(python3:*)",
         "--allow-tool", "shell(npm:*)", "--allow-tool", "shell(make:*)",
         "--allow-tool", "shell(cargo:*)", "--deny-tool", "shell(git push)"]
TRAILER = "<shellId: "
#: Copilot 1.0.102 shortens some outputs itself (a `make` build's compile lines), the original
#: kept in a file: the hook then has nothing left to cut and leaves it.
OWN_COMPACTION = "Shell output was automatically compacted."


def outcome(text: str) -> str:
    if text.startswith("Permission denied because no interactive user response"):
        return PROMPT
    if text.startswith("Permission to run this tool was denied due to the following rules") \
            or text.startswith("Denied by preToolUse hook"):
        return REFUSED
    return RAN


COPILOT = HeadlessClient(
    "copilot", argv=lambda server: ["-p", "Work through the task.", "--no-auto-update",
                                    "--no-custom-instructions", *FLAGS],
    outcome=outcome, timeout=420,
    # Copilot answers "still running" after 30 s by default: the 12,000-test run takes longer
    # on a loaded machine, and a model waits for a test run
    tool_args={"initial_wait": 300},
    env=lambda server: {"COPILOT_OFFLINE": "true", "COPILOT_MODEL": "scripted",
                        "COPILOT_PROVIDER_BASE_URL": server.url + "/v1"})


class TestCopilot(BuildRows, PostExecTable):
    CLIENT = COPILOT
    # (name, command, outcome without the hooks, outcome with them)
    SCENARIOS = [
        *FIRST_ROWS,
        DENIED_PUSH,
        ("absolute-path push", "/usr/bin/git push -q origin HEAD:main", PROMPT, REFUSED),
        ("not allowed rm", "rm -f README.md", PROMPT, PROMPT),
    ]
    ADDED_DENIES = {"absolute-path push"}

    def exit_code_shown(self, text: str, code: int) -> bool:
        return text.rstrip().endswith(f"completed with exit code {code}>")

    def client_compacted(self, text: str) -> bool:
        return text.startswith(OWN_COMPACTION)

    def comparable(self, text: str) -> str:
        return re.sub(r"Original at \S+;", "Original at FILE;", text)

    def test_the_refused_rm_did_not_run(self, runs):
        for hooked in (False, True):
            assert (runs[hooked]["ws"].project / "README.md").exists()

    def test_the_model_receives_compacted_output_with_the_trailer(self, runs):
        raw, hooked = runs[False]["results"], runs[True]["results"]
        for text in raw[:3] + hooked[:3]:
            assert text.rstrip().endswith(">") and TRAILER in text.splitlines()[-1]
        status, pytest_out, log = hooked[0], hooked[1], hooked[2]
        assert status.endswith("completed with exit code 0>")
        assert "M calc.py" in status and UNTRACKED in status and "(use \"git" not in status
        assert len(status) < 0.6 * len(raw[0]), (status, raw[0])
        assert pytest_out.endswith("completed with exit code 1>")  # the failure's code, kept
        assert "test_calc.py::test_add" in pytest_out and "1 failed" in pytest_out
        assert len(pytest_out) < len(raw[1]), (pytest_out, raw[1])
        for subject in SUBJECTS:
            assert subject in log
        assert len(log) < 0.6 * len(raw[2]), (log, raw[2])
