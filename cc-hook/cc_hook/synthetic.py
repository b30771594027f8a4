"""Synthetic hook events, shaped like the ones each agent sends (from the agents' hook
documentation), and `cc-hook test`: run one through the installed hook exactly as the agent
would (its registered command, via `sh -c`, in the project directory, event on stdin).
"""
import json
import os
import subprocess
import time

from ctxcrl.console import EXIT_USAGE
from ctxcrl import home

from . import hook_script
from .agents import HOOK_AGENTS, PLUGIN_AGENTS
from .install import Reporter
from .agents import event_for
from .manifest import Manifest, install_texts, installed


class HookRun:
    __slots__ = ("command", "answer", "stderr", "exit_code", "elapsed_ms")

    def __init__(self, command, answer, stderr, exit_code, elapsed_ms):
        self.command = command
        self.answer = answer
        self.stderr = stderr
        self.exit_code = exit_code
        self.elapsed_ms = elapsed_ms


def run_hook(hook_command: str, event: dict | str | bytes, cwd: str,
             env: dict | None = None, agent: str | None = None) -> HookRun:
    """Run a registered hook command like the agents do: `sh -c`, event on stdin. agent: one
    whose gate reads the running client's flags (its module's DEFAULT_START) gets a stand-in
    client process, started as its default setup starts it, when it is not already running
    under one."""
    body = event if isinstance(event, (str, bytes)) else json.dumps(event)
    if isinstance(body, str):
        body = body.encode("utf-8")
    argv = ["/bin/sh", "-c", hook_command]
    with _default_client(agent, argv) as argv:
        start = time.perf_counter()
        done = subprocess.run(argv, input=body, capture_output=True, cwd=cwd, env=env,
                              timeout=30)
    elapsed = (time.perf_counter() - start) * 1000
    return HookRun(hook_command, done.stdout.decode("utf-8", "replace"),
                   done.stderr.decode("utf-8", "replace"), done.returncode, elapsed)


class _default_client:
    """`argv` started from a process that looks like the agent's client in its default setup
    (a `/bin/sh` link named after it, with the default flags: the gate reads them from /proc),
    unless the client is already an ancestor of this process."""

    def __init__(self, agent, argv):
        self.agent, self.argv, self.tmp = agent, argv, None

    def __enter__(self):
        from .agents import trait

        start = trait(self.agent, "DEFAULT_START") if self.agent else None
        if not start:
            return self.argv
        from cc_gate import process

        if process.client_process((start[0],), os.getpid()) is not None:
            return self.argv
        import tempfile

        self.tmp = tempfile.mkdtemp(prefix="ctxcrl-client-")
        link = os.path.join(self.tmp, start[0])
        os.symlink("/bin/sh", link)
        # sh -c 'CODE' NAME ARGS…: NAME ($0) carries the client's flags, "$@" runs the hook
        return [link, "-c", '"$@"; exit $?', *start[1:], *self.argv]

    def __exit__(self, *exc):
        if self.tmp:
            import shutil

            shutil.rmtree(self.tmp, ignore_errors=True)
        return False


def installed_command(agent: str, cwd: str) -> tuple[str, str] | None:
    """(registered command, where) of the install the agent would use in `cwd`."""
    found = installed(agent, cwd)
    if found is None:
        return None
    return hook_script.hook_command(Manifest.load().script_of(agent)), found[1]


PIPELINE_MARK = "const PRE = "


def run_plugin_pipeline(plugin_text: str, command: str, cwd: str, agent: str | None = None):
    """What a plugin (OpenCode's, Kilo's, Cline's, pi's extension) does before a shell call:
    its pipeline on the event it builds (the agent module's `synthetic_event`, else OpenCode's
    `bash` event). (result record or None, HookRun-like info)."""
    line = next((l for l in (plugin_text or "").splitlines() if l.startswith(PIPELINE_MARK)),
                None)
    if line is None:
        return None, None
    try:
        pipeline = json.loads(line[len(PIPELINE_MARK):])
    except ValueError:
        return None, None
    try:
        event = event_for(agent, command, cwd) if agent else None
    except KeyError:
        event = None
    if event is None:
        event = {"hook": "tool.execute.before", "tool": "bash", "directory": cwd,
                 "args": {"command": command, "description": "cc-hook test"}}
    run = run_hook(pipeline, json.dumps(event) + "\n", cwd)
    result = next((json.loads(l) for l in run.answer.splitlines() if l.strip().startswith("{")),
                  None)
    return result, run


def test(agent: str, command: str, cwd: str | None = None,
         report: Reporter | None = None, run: bool = False) -> int:
    """Send `command` through the installed hook as `agent` would, and say in words what the
    agent then does (from the hook's answer); run: also run what it would run and show the
    output the model gets."""
    from .agents import title
    from .outcome import filters_after, opencode_outcome, outcome_of

    report = report or Reporter()
    cwd = os.path.abspath(cwd or os.getcwd())
    if agent not in HOOK_AGENTS + PLUGIN_AGENTS:
        report.warn(f"cc-hook test: {agent!r} has no hook to test (one of: "
                    f"{', '.join(HOOK_AGENTS + PLUGIN_AGENTS)})")
        return EXIT_USAGE
    found = installed(agent, cwd)
    if found is None:
        report.warn(f"cc-hook test: no {agent} hook installed (run: cc-hook init --agent {agent})")
        return 1
    install, where = found
    texts = install_texts(install)
    after = filters_after(texts, agent)
    if agent in PLUGIN_AGENTS:
        plugin = next((f.get("path") for f in install.get("files", [])
                       if f.get("kind") == "plugin"), None)
        result, hook = run_plugin_pipeline(next((t for t in texts if t and PIPELINE_MARK in t),
                                                ""), command, cwd, agent)
        if hook is None and not after:
            report.warn(f"cc-hook test: the {agent} plugin {home.short_path(plugin or '')} has "
                        f"no pipeline to run (re-run: cc-hook init --agent {agent})")
            return 1
        if hook is None:  # a plugin that only filters after execution: nothing to ask first
            hook = HookRun("", "", "", 0, 0.0)
        outcome = opencode_outcome(result, command, after)
        label, event = f"plugin {home.short_path(plugin or '')}", None
    else:
        hook_command = hook_script.hook_command(Manifest.load().script_of(agent))
        event = event_for(agent, command, cwd)  # the shape init registers its hooks in
        hook = run_hook(hook_command, event, cwd, agent=agent)
        outcome = outcome_of(agent, hook.answer, command, after)
        label = home.short_path(hook_command)
    report.say(f"{title(agent)} {outcome.words()}")
    from .coverage import after_approval

    for line in after_approval(agent, command, cwd, outcome):
        report.say(line)
    report.say("")
    report.say(f"  hook     {label} ({where}), exit {hook.exit_code}, {hook.elapsed_ms:.0f} ms")
    report.say(f"  answer   {hook.answer.strip() or '(none)'}")
    for line in hook.stderr.splitlines():
        report.say(f"  stderr   {line}")
    if event is not None:
        report.say(f"  event    {json.dumps(event)}")
    if run:
        _run_as_the_agent(outcome, command, cwd, report)
    return 0 if hook.exit_code == 0 else 1


def _run_as_the_agent(outcome, command: str, cwd: str, report: Reporter) -> None:
    """Run what the agent would run, in its shell, and show what the model receives."""
    import shlex
    import shutil

    from .outcome import CLIENT_DECIDES, FILTERED_AFTER, REFUSED

    report.say("")
    if outcome.kind == REFUSED:
        report.say("Not run: the agent refuses it.")
        return
    runs = outcome.runs or command
    heading = "The model receives"
    if outcome.kind == CLIENT_DECIDES:
        heading += " (if the agent runs it: unfiltered)"
    elif outcome.kind == FILTERED_AFTER:
        # Same filter, same rules as the agent's after-execution filter.
        runs = f"{shlex.quote(hook_script.tool_path('cc-filter'))} run -- {command}" \
            if _has_tool("cc-filter") else command
    shell = shutil.which("bash") or "/bin/sh"
    started = time.perf_counter()
    try:
        # a trial run, not one of the agent's: cc-filter records nothing for tracking
        env = dict(os.environ, CTXCRL_NO_TRACKING="1")
        done = subprocess.run([shell, "-c", runs], cwd=cwd, stdin=subprocess.DEVNULL, env=env,
                              stdout=subprocess.PIPE, stderr=subprocess.STDOUT, timeout=600)
    except subprocess.TimeoutExpired:
        report.say(f"{heading}: nothing yet; the command ran for more than 10 minutes.")
        return
    elapsed = (time.perf_counter() - started) * 1000
    text = done.stdout.decode("utf-8", "replace")
    report.say(f"{heading}, exit {done.returncode}, {elapsed:.0f} ms, "
               f"{len(text)} characters:")
    for line in text.splitlines() or ["(no output)"]:
        report.say(f"  {line}")


def _has_tool(name: str) -> bool:
    try:
        hook_script.tool_path(name)
    except hook_script.ToolNotFound:
        return False
    return True
