"""Mistral Vibe 3.0.2 (`mistral-vibe`, PyPI), the real client, offline (`vibe -p` against a
scripted OpenAI-compatible model: a `[[providers]]` entry with `api_base` on 127.0.0.1 and no
API key, no login): the same scenarios with and without contextcrawler's hook.

Vibe filters after execution (ARCHITECTURE §5 rule 1, §8): its `post_tool` hook fires for every
command that ran, failures included, and its answer `{"decision": "deny", "reason": T}` makes T
what the model receives. So the command is never changed, the `pre_tool` hook may only add a
deny, and the model receives the compacted output. Rules are Vibe's own `[tools.bash]`
allowlist and denylist in ~/.vibe/config.toml; headless, in its default agent
(`accept-edits`), a command outside the allowlist is refused for want of approval ("Tool
execution denied by approval callback": the prompt outcome). The driver and the shared tests:
postexec.PostExecTable.
"""
from harness import PROMPT, RAN, REFUSED, client_env
from postexec import DENIED_PUSH, FIRST_ROWS, HeadlessClient, PostExecTable, assert_compacted

BASH_RULES = '''[tools.bash]
allowlist = ["git", "python3 -m pytest", "ls"]
denylist = ["git push"]
'''


def config_toml(url: str) -> str:
    return f'''active_model = "scripted"
enable_telemetry = false
enable_update_checks = false

[[providers]]
name = "scripted"
api_base = "{url}/v1"
api_key_env_var = ""
backend = "generic"

[[models]]
name = "scripted"
provider = "scripted"
alias = "scripted"

{BASH_RULES}'''


def outcome(text: str) -> str:
    if "denied by approval callback" in text:
        return PROMPT
    if "matches denylist pattern" in text or "contextcrawler:" in text:
        return REFUSED
    return RAN if text.startswith('{"command":') else f"unknown: {text[:200]}"


VIBE = HeadlessClient(
    "vibe", argv=lambda server: ["-p", "Work through the task."], outcome=outcome,
    configure=lambda ws, server: ws.write(".vibe/config.toml", config_toml(server.url)),
    env=lambda server: client_env("vibe"), tool_args={"description": None})


class TestVibe(PostExecTable):
    CLIENT = VIBE
    # (name, command, outcome without the hook, outcome with it)
    SCENARIOS = [
        *FIRST_ROWS,
        DENIED_PUSH,
        # Vibe's denylist is a prefix of each simple command as written: `git -C . push` is
        # not `git push …`, and the allowlist's `git` lets it run. The hook's hardening
        # refuses it (ARCHITECTURE §5 rule 4).
        ("git -C push",
         "git commit --allow-empty -qm c-push && git -C . push -q origin HEAD:main",
         RAN, REFUSED),
        ("asked rm", "rm -f README.md", PROMPT, PROMPT),
    ]
    ADDED_DENIES = {"git -C push"}

    def test_the_asked_command_did_not_run(self, runs):
        for hooked in (False, True):
            assert (runs[hooked]["ws"].project / "README.md").exists()

    def test_the_hook_deny_reaches_the_model_with_its_rule(self, runs):
        text = runs[True]["results"][4]
        assert "contextcrawler: deny rule git push" in text

    def test_the_exit_code_stays_visible(self, runs):
        failing = runs[True]["results"][1]
        assert '"returncode":1' in failing

    def test_the_model_receives_compacted_output(self, runs):
        assert_compacted(runs[False]["results"], runs[True]["results"])

    def test_vibe_reads_the_awareness_note_from_its_agents_md(self, runs):
        def system(run):
            requests = run["server"].chat_requests()
            first = requests[0]["messages"] if requests else []
            return "".join(str(m.get("content")) for m in first if m.get("role") == "system")

        # init wrote ~/.vibe/AGENTS.md; Vibe puts it into the model's system prompt
        assert "[full output:" in system(runs[True])
        assert "[full output:" not in system(runs[False])
