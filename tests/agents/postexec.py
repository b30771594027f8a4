"""What the real-client tests of the agents that filter after execution share (OpenCode, Kilo
CLI, Copilot CLI; Qwen Code's driver too): the same story holds for each (ARCHITECTURE §5
rule 1): the command is never changed, the outcome of every scenario is the same with and
without the hook except that the hook may add a deny, no denied push lands, and the model
receives compacted output for `git status`, a failing pytest and `git log`
(`assert_compacted`).

The driver: a `HeadlessClient` says what differs between the clients (its command line, its
environment, where its rules live, how a tool result reads as an outcome); `session(client,
hooked, scenarios)` runs the whole scenario table in one headless session against the scripted
model (one tool call per scenario) and `outcome_table(run, scenarios, client)` reads each
scenario's outcome off the tool results the model received. `PostExecTable` is the test class
each agent's test file subclasses: it runs both sessions once per class and holds the tests
that read the same for every client (the table, the pushes, the build rows); the subclass sets
`CLIENT`, `SCENARIOS`, `ADDED_DENIES` and adds only what differs; `BuildRows` mixed in adds
the build rows. `PluginTable` adds what the
two OpenCode-lineage clients share (their scenarios, `plugin_client`).

Build rows (`build_rows()`): the failing `npm install`, `make test`, the 12,000-test pytest
run and, when the agent user can run cargo (`harness.rust_bin()`), a failing `cargo test`, from
projects.py; a table that mixes in `BuildRows` runs them after the first three scenarios and
checks that each reached the model compacted with its failure (and, where the client shows
one, its exit code) visible.

`prepare_project(ws)` gives the workspace's project something to show: twelve commits (for
`git log`), a modified and an untracked file (for `git status`), and the harness's failing
test (`add` subtracts). `product_with_pytest()` is the product venv plus pytest, so the agent
user can run `python3 -m pytest` from its PATH.

The older entry points (`plugin_session`, `plugin_table`, `plugin_outcome`, `outcomes_match`,
`assert_compacted`) stay as they were, for tests written against them.
"""
from __future__ import annotations

import json
import re
import shutil
import subprocess
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable

import pytest

from harness import (PROMPT, RAN, REFUSED, Workspace, agent_user, chown_tree, install_client,
                     product_venv, run_as_agent)

SUBJECTS = [f"Add step {n} of the calculator" for n in range(1, 13)]
UNTRACKED = "notes_draft.txt"


def fresh_root(name: str) -> Path:
    """A folder the agent user can reach (pytest's own tmp folders sit under a 0700 one)."""
    return Path(tempfile.mkdtemp(prefix=f"ctxcrl-{name}-", dir="/tmp"))


def product_with_pytest():
    bin_dir = product_venv()
    if not (bin_dir / "pytest").exists():
        done = subprocess.run([str(bin_dir / "python"), "-m", "pip", "install", "-q", "pytest"],
                              capture_output=True, text=True)
        if done.returncode != 0:
            pytest.skip("cannot install pytest into the product venv from the package "
                        f"registry: {done.stderr.strip()[-300:]}")
    return bin_dir


def prepare_project(ws) -> None:
    def git(*args):
        done = run_as_agent(["git", *args], ws, timeout=60)
        assert done.returncode == 0, done.stderr

    for n, subject in enumerate(SUBJECTS, 1):
        with (ws.project / "steps.txt").open("a") as f:
            f.write(f"step {n}\n")
        chown_tree(ws.project, ws.user)
        git("add", "steps.txt")
        git("commit", "-q", "-m", subject, "-m", f"Longer description of step {n}, wrapped\n"
            "over two lines.")
    git("push", "-q", "origin", "HEAD:main")
    (ws.project / "calc.py").write_text("def add(a, b):\n    # TODO: fix\n    return a - b\n")
    (ws.project / UNTRACKED).write_text("draft\n")
    chown_tree(ws.root, ws.user)


def outcomes_match(without: dict, with_hook: dict, added_denies: set) -> list:
    """The scenarios whose outcome differs other than by a deny the hook added."""
    bad = []
    for name, outcome in without.items():
        hooked = with_hook.get(name)
        if hooked == outcome:
            continue
        if name in added_denies and hooked == "refused":
            continue
        bad.append((name, outcome, hooked))
    return bad


# -- the driver ------------------------------------------------------------------------------
@dataclass(frozen=True)
class HeadlessClient:
    """One post-execution client's headless run: what differs between the clients.

    `argv(server)`: the arguments after the executable; `env(server)`: its environment on top
    of the workspace's; `configure(ws, server)`: the user's own settings, written before
    `cc-hook init` (which merges into them); `outcome(text)`: ran / prompt / refused from the
    tool result the model received; `rejected(command)`: the client's own stderr line when it
    ends a headless run on the last scenario's prompt before the model is asked again (or
    None); `tool_args`: what the scripted model adds to each shell call's arguments;
    `init_args`: what `cc-hook init --agent <agent>` is given besides (`--project`)."""
    agent: str
    argv: Callable
    outcome: Callable
    env: Callable = lambda server: {}
    configure: Callable | None = None
    rejected: Callable | None = None
    timeout: float = 360
    tool_args: dict = field(default_factory=dict)
    init_args: tuple = ()


def session(client: HeadlessClient, hooked: bool, scenarios: list, build: bool = False) -> dict:
    """One headless session of `client` through every scenario (one tool call each) against
    the scripted model, the hook installed by `cc-hook init --agent <agent>` when `hooked`;
    with `build`, the workspace holds the build projects too. Returns the workspace, the
    remote's head before, the completed process, the tool results in call order, the seconds
    the run took and, per call, the seconds from the model's tool call to its next request."""
    from openai_chat import OpenAIChatServer

    exe = install_client(client.agent)
    bin_dir = product_with_pytest()
    ws = Workspace(fresh_root(f"{client.agent}-hook" if hooked else f"{client.agent}-raw"),
                   agent_user())
    prepare_project(ws)
    if build:
        from projects import add_build_projects

        add_build_projects(ws)
    initial = ws.remote_head()
    with OpenAIChatServer([command for _, command, *_ in scenarios], tool_args=client.tool_args,
                          lifetime=client.timeout + 40) as server:
        if client.configure is not None:
            client.configure(ws, server)
        if hooked:
            init = run_as_agent([str(bin_dir / "cc-hook"), "init", "--agent", client.agent,
                                 *client.init_args], ws, timeout=120)
            assert init.returncode == 0, init.stdout + init.stderr
        started = time.monotonic()
        done = run_as_agent([str(exe), *client.argv(server)], ws, env=client.env(server),
                            timeout=client.timeout)
        elapsed = time.monotonic() - started
        results = server.tool_results()
        intervals = [b - a for a, b in zip(server.call_times, server.next_times)]
    return {"ws": ws, "initial": initial, "done": done, "results": results,
            "elapsed": elapsed, "intervals": intervals, "server": server}


def outcome_table(run: dict, scenarios: list, client: HeadlessClient) -> dict:
    """Each scenario's outcome, from the tool results the model received (and, for a last
    scenario the client rejected on its own, from its stderr)."""
    results = list(run["results"])
    outcomes = {name: client.outcome(text) for (name, *_), text in zip(scenarios, results)}
    if client.rejected is not None and len(results) == len(scenarios) - 1:
        name, command, *_ = scenarios[-1]
        if client.rejected(command) in run["done"].stderr:
            outcomes[name] = PROMPT
    assert len(outcomes) == len(scenarios), (
        f"{len(results)} tool results for {len(scenarios)} scenarios; "
        f"stdout: {run['done'].stdout[-1500:]} stderr: {run['done'].stderr[-1500:]}")
    return outcomes


def build_rows() -> list:
    """The build scenarios (name, command, without the hook, with it): every one runs."""
    from projects import build_commands

    return [(f"build: {command}", command, RAN, RAN) for command in build_commands()]


def _markers(command: str) -> list:
    """The commit subjects a scenario's command makes (`git commit … -qm <subject>`)."""
    return re.findall(r"-qm\s+(\S+)", command)


def remote_subjects(ws) -> str:
    return subprocess.run(["git", "--git-dir", str(ws.remote), "log", "--format=%s", "main"],
                          capture_output=True, text=True).stdout


#: The rows every table starts with (what `assert_compacted` reads), and the denied push
#: (the deny rule names `git push`; the commit before it must not be made either).
FIRST_ROWS = [
    ("status", "git status", RAN, RAN),
    ("failing pytest", "python3 -m pytest -q test_calc.py", RAN, RAN),
    ("log", "git log", RAN, RAN),
]
DENIED_PUSH = ("denied push",
               "git commit --allow-empty -qm denied-push && git push -q origin HEAD:main",
               REFUSED, REFUSED)


class PostExecTable:
    """The tests of one post-execution client's table, run with and without the hook. A
    subclass (`Test<Agent>` in the agent's test file) sets:

    - `CLIENT`: the `HeadlessClient`;
    - `SCENARIOS`: (name, command, outcome without the hook, outcome with it); the first
      three are `git status`, a failing pytest and `git log`;
    - `ADDED_DENIES`: the scenarios the hook may refuse where the client runs or asks;
    and mixes in `BuildRows` to run the build rows too.
    """
    CLIENT: HeadlessClient
    SCENARIOS: list = []
    ADDED_DENIES: set = set()
    BUILD = False

    #: build commands this client cannot run as they stand (a command time limit)
    BUILD_LEFT_OUT: tuple = ()

    @classmethod
    def scenarios(cls) -> list:
        if not cls.BUILD:
            return list(cls.SCENARIOS)
        rows = [row for row in build_rows() if row[1] not in cls.BUILD_LEFT_OUT]
        return cls.SCENARIOS[:3] + rows + cls.SCENARIOS[3:]

    @pytest.fixture(scope="class")
    @classmethod
    def runs(cls):
        scenarios = cls.scenarios()
        done = {hooked: session(cls.CLIENT, hooked, scenarios, build=cls.BUILD)
                for hooked in (False, True)}
        yield done
        for run in done.values():
            shutil.rmtree(run["ws"].root, ignore_errors=True)

    def table(self, run) -> dict:
        return outcome_table(run, self.scenarios(), self.CLIENT)

    def results(self, run) -> dict:
        """name → the tool result the model received."""
        return {name: text for (name, *_), text in zip(self.scenarios(), run["results"])}

    def test_outcomes_match_the_table_with_and_without_the_hook(self, runs):
        scenarios = self.scenarios()
        without, with_hook = self.table(runs[False]), self.table(runs[True])
        assert without == {name: raw for name, _, raw, _ in scenarios}, runs[False]["results"]
        assert with_hook == {name: hooked for name, _, _, hooked in scenarios}, \
            runs[True]["results"]
        assert outcomes_match(without, with_hook, self.ADDED_DENIES) == []

    def test_no_denied_push_lands(self, runs):
        """A scenario's commit (`-qm <subject>`) was made only when the scenario ran, and is on
        the remote exactly when it ran and pushes; with no push run, the remote never moved."""
        for hooked, run in runs.items():
            ws = run["ws"]
            landed = remote_subjects(ws)
            made = subprocess.run(["git", "-c", "safe.directory=*", "log", "--format=%s"],
                                  cwd=ws.project, capture_output=True, text=True).stdout
            pushed = False
            for name, command, raw, with_hook in self.scenarios():
                ran = (with_hook if hooked else raw) == RAN
                pushed |= ran and "push" in command
                for subject in _markers(command):
                    assert (subject in made) == ran, (hooked, name, made)
                    assert (subject in landed) == (ran and "push" in command), \
                        (hooked, name, landed)
            if not pushed:
                assert ws.remote_head() == run["initial"], hooked

    def exit_code_shown(self, text: str, code: int) -> bool:
        """Whether the tool result tells the model the exit code (a client that never tells
        it, OpenCode's lineage, overrides this with True)."""
        return False

    def client_compacted(self, text: str) -> bool:
        """Whether the client shortened this output itself, without the hook (Copilot does
        for some)."""
        return False

    def comparable(self, text: str) -> str:
        """The text without what differs between the two workspaces (their paths)."""
        return text

class BuildRows:
    """Mixed into a table (`class TestX(BuildRows, PostExecTable)`): the build rows run after
    the first three scenarios, and each reaches the model compacted, its failure kept and its
    exit code shown (`exit_code_shown`), as it reached it without the hook."""
    BUILD = True

    def test_build_failures_reach_the_model_compacted(self, runs):
        from projects import BUILD_FACTS, build_commands

        raw, hooked = self.results(runs[False]), self.results(runs[True])
        problems = []
        for command in build_commands():
            if command in self.BUILD_LEFT_OUT:
                continue
            name = f"build: {command}"
            facts, code = BUILD_FACTS[command]
            for label, text in (("without", raw[name]), ("with", hooked[name])):
                missing = [fact for fact in facts if fact not in text]
                if missing or not self.exit_code_shown(text, code):
                    problems.append(f"{command!r} {label} the hook: missing {missing} or exit "
                                    f"code {code}: {text[-600:]!r}")
            if self.client_compacted(raw[name]):
                # the client compacted it itself: the hook must not make it longer
                if len(self.comparable(hooked[name])) > len(self.comparable(raw[name])):
                    problems.append(f"{command!r}: longer with the hook than the client's own "
                                    f"compaction: {hooked[name][:400]!r}")
            elif len(hooked[name]) >= len(raw[name]):
                problems.append(f"{command!r}: not compacted ({len(hooked[name])} chars with "
                                f"the hook, {len(raw[name])} without): {hooked[name][:400]!r}")
            print(f"{self.CLIENT.agent} {command}: {len(raw[name])} -> {len(hooked[name])} "
                  "chars")
        assert not problems, "\n".join(problems)
        if "cargo test" not in " ".join(build_commands()):
            pytest.skip("no Rust toolchain the agent user can run: the cargo test row did "
                        "not run")


# -- the OpenCode lineage (OpenCode, Kilo CLI) -----------------------------------------------
def plugin_outcome(text: str) -> str:
    """One scenario's outcome from the tool result an OpenCode-lineage client (OpenCode, Kilo
    CLI) gave the model."""
    if text.startswith("The user rejected permission"):
        return PROMPT
    if text.startswith("The user has specified a rule which prevents") or \
            "contextcrawler: deny rule" in text:
        return REFUSED
    return RAN


def plugin_client(agent: str, config_file: str, project_file: str, config: dict,
                  project_config: dict, env: dict, timeout: float = 360) -> HeadlessClient:
    """An OpenCode-lineage client's headless `<client> run`: `config` (its provider entry is
    added here) in HOME's `config_file`, `project_config` in the project's `project_file`."""
    def configure(ws, server):
        provider = {"scripted": {"npm": "@ai-sdk/openai-compatible", "name": "Scripted",
                                 "options": {"baseURL": server.url + "/v1", "apiKey": "none"},
                                 "models": {"scripted": {"name": "Scripted"}}}}
        ws.write(config_file, json.dumps({**config, "provider": provider,
                                          "model": "scripted/scripted"}, indent=2))
        ws.write(f"project/{project_file}", json.dumps(project_config))

    return HeadlessClient(
        agent, argv=lambda server: ["run", "--model", "scripted/scripted",
                                    "Work through the task."],
        outcome=plugin_outcome, env=lambda server: dict(env), configure=configure,
        rejected=lambda command: f"permission requested: bash ({command}); auto-rejecting",
        timeout=timeout)


def plugin_session(agent: str, hooked: bool, scenarios: list, config_file: str,
                   project_file: str, config: dict, project_config: dict, env: dict) -> dict:
    """One headless `<client> run` of an OpenCode-lineage client through every scenario (see
    `plugin_client`), the plugin installed by `cc-hook init --agent <agent>` when `hooked`."""
    return session(plugin_client(agent, config_file, project_file, config, project_config, env),
                   hooked, scenarios)


def plugin_table(run: dict, scenarios: list) -> dict:
    """Each scenario's outcome, from the tool results the model received (a prompt the
    client auto-rejects may end the headless run before the model is asked again: the last
    scenario's outcome then comes from the client's own report on stderr)."""
    client = plugin_client("opencode", "", "", {}, {}, {})
    return outcome_table(run, scenarios, client)


def assert_compacted(raw: list, hooked: list) -> None:
    """The first three results are `git status`, the failing pytest and `git log`: what the
    model received with the hook is the compacted form of what it received without."""
    status, pytest_out, log = hooked[0], hooked[1], hooked[2]
    # git status: every file, by state, without git's advice
    assert "M calc.py" in status and UNTRACKED in status and "(use \"git" not in status
    assert len(status) < 0.6 * len(raw[0]), (status, raw[0])
    # the failing test: its name, the assertion, the summary count
    assert "test_calc.py::test_add" in pytest_out and "1 failed" in pytest_out
    assert "assert" in pytest_out
    assert len(pytest_out) < len(raw[1]), (pytest_out, raw[1])
    # git log: every subject, much shorter
    for subject in SUBJECTS:
        assert subject in log
    assert len(log) < 0.6 * len(raw[2]), (log, raw[2])


#: The OpenCode-lineage table: both clients read `permission.bash` patterns the same way.
#: (name, command, outcome without the hook, outcome with it)
PLUGIN_RULES = {"bash": {"*": "allow", "git push *": "deny", "rm *": "ask"}}
PLUGIN_PROJECT_RULES = {"permission": {"bash": {"git tag *": "deny"}}}
PLUGIN_SCENARIOS = [
    *FIRST_ROWS,
    DENIED_PUSH,
    # the client's pattern does not see through the absolute path: the push runs without the
    # hook; the hook's hardening adds the deny (ARCHITECTURE §5 rule 4)
    ("absolute-path push",
     "git commit --allow-empty -qm abs-push && /usr/bin/git push -q origin HEAD:main",
     RAN, REFUSED),
    # a deny in the project's own config file (merged over the user's)
    ("project-denied tag", "git tag v1.0", REFUSED, REFUSED),
    # last: the client ends a headless run when it auto-rejects a prompt
    ("asked rm", "rm -f README.md", PROMPT, PROMPT),
]


class PluginTable(PostExecTable):
    """An OpenCode-lineage client's table: `PLUGIN_SCENARIOS` under `PLUGIN_RULES` (user) and
    `PLUGIN_PROJECT_RULES` (project); the subclass sets `CLIENT = plugin_client(…)`."""
    SCENARIOS = PLUGIN_SCENARIOS
    ADDED_DENIES = {"absolute-path push"}

    def exit_code_shown(self, text: str, code: int) -> bool:
        return True  # the lineage gives the model no exit code, with or without the hook

    def test_the_asked_and_denied_commands_did_not_run(self, runs):
        for hooked in (False, True):
            ws = runs[hooked]["ws"]
            assert (ws.project / "README.md").exists()
            assert not (ws.project / ".git" / "refs" / "tags" / "v1.0").exists()

    def test_the_command_is_never_changed(self, runs):
        """What the client ran is what the model asked for (no `cc-filter run` anywhere)."""
        for text in runs[True]["results"]:
            assert "cc-filter run" not in text

    def test_the_model_receives_compacted_output(self, runs):
        assert_compacted(runs[False]["results"], runs[True]["results"])


__all__ = ["DENIED_PUSH", "FIRST_ROWS", "RAN", "SUBJECTS", "UNTRACKED", "HeadlessClient", "PLUGIN_PROJECT_RULES",
           "BuildRows", "PLUGIN_RULES", "PLUGIN_SCENARIOS", "PluginTable", "PostExecTable",
           "assert_compacted", "build_rows", "fresh_root", "outcome_table", "outcomes_match",
           "plugin_client", "plugin_outcome", "plugin_session", "plugin_table",
           "prepare_project", "product_with_pytest", "remote_subjects", "session"]
