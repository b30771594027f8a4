"""`cc-hook verify` and `cc-hook status`: check what hooks.json says is installed against the
files on disk. Cold path.

verify, per install: FAIL when the hook script (or OpenCode plugin) is missing or its SHA-256
differs from the recorded one (tampered: the script refuses to rewrite), or the recorded hash
next to it disagrees; WARN when the registration is gone from the agent's settings, a tool the
script runs is missing, the hook is older than these tools, or the awareness note was edited;
and what the client will really run (client_check.py): FAIL when its settings switch the hook
off (`disableAllHooks`, `hooksConfig.enabled: false`, `CTXCRL_DISABLED` in an `env` block) or a
project's `env` sets contextcrawler's variables, WARN for another hook on the same tool or such
an `env` in the user's own settings; PASS otherwise.
"""
import os

from ctxcrl import home

from . import hook_script
from .agents import HOOK_AGENTS, PLUGIN_AGENTS, load, trait
from .install import InstallContext, Reporter, artifacts_for, user_home
from .manifest import Manifest
from .settings_file import MalformedSettings, read_text

PASS, WARN, FAIL = "PASS", "WARN", "FAIL"


class Finding:
    __slots__ = ("install", "status", "problems", "notes")

    def __init__(self, install: dict):
        self.install = install
        self.status = PASS
        self.problems: list[str] = []
        self.notes: list[str] = []

    def fail(self, text: str) -> None:
        self.status = FAIL
        self.problems.append(text)

    def warn(self, text: str) -> None:
        if self.status == PASS:
            self.status = WARN
        self.problems.append(text)


_short = home.short_path


def check_script(agent: str, manifest: Manifest, finding: Finding) -> None:
    recorded = manifest.scripts.get(agent) or {}
    script = manifest.script_of(agent)
    text = read_text(script)
    if text is None:
        finding.fail(f"hook script {_short(script)} is missing")
        return
    actual = hook_script.sha256_text(text)
    expected = recorded.get("sha256")
    sidecar = (read_text(hook_script.hash_path(script)) or "").strip()
    if expected and actual != expected:
        finding.fail(f"hook script {_short(script)} was changed after install (SHA-256 "
                     f"{actual[:12]}…, recorded {expected[:12]}…); it refuses to rewrite")
    elif sidecar != actual:
        finding.fail(f"recorded hash {_short(hook_script.hash_path(script))} does not match "
                     f"{_short(script)}; the script refuses to rewrite")
    for tool in hook_script.tools_in(text):
        if not os.access(tool, os.X_OK):
            finding.warn(f"{tool} is missing or not executable: the hook answers nothing")
    filter_bin = hook_script.filter_bin_in(text)
    if filter_bin and not os.access(filter_bin, os.X_OK):
        finding.warn(f"{filter_bin} (the cc-filter rewrites call) is missing or not executable:"
                     " commands are left unchanged")
    _check_version(hook_script.version_of(text), finding, script)


def _check_version(version, finding: Finding, path: str) -> None:
    if version is None:
        finding.warn(f"{_short(path)} has no ctxcrl-hook-version line")
    elif version < hook_script.PINNED_ENV_VERSION:
        finding.fail(f"{_short(path)} is hook version {version}: it lets the agent's "
                     "environment (a project's settings) choose CTXCRL_HOME and "
                     "CTXCRL_FILTER_BIN; run cc-hook init --agent "
                     f"{finding.install.get('agent')} again")
    elif version < hook_script.HOOK_VERSION:
        finding.warn(f"{_short(path)} is hook version {version}, older than these tools' "
                     f"{hook_script.HOOK_VERSION}: run cc-hook init --agent "
                     f"{finding.install.get('agent')} again")


def check_client_tables(agent: str, finding: Finding) -> None:
    """A client whose known-safe commands the gate's tables do not hold (newer): its module's
    `table_problem()` (Claude Code's read-only check)."""
    table_problem = trait(agent, "table_problem")
    if table_problem is None:
        return
    problem = table_problem()
    if problem:
        finding.warn(problem)


def check_link(manifest: Manifest, finding: Finding) -> None:
    """The cc-filter link init made: the rewrites write the bare `cc-filter` because of it."""
    link = manifest.link
    if not link:
        return
    try:
        intact = os.readlink(link["path"]) == link["target"] and os.access(link["path"], os.X_OK)
    except OSError:
        intact = False
    if not intact:
        finding.warn(f"the link {_short(link['path'])} → {_short(link['target'])} is gone or "
                     "changed: the agent's shell may not find cc-filter, and commands are left "
                     "unchanged (run: cc-hook init --link)")


def check_install(install: dict, manifest: Manifest) -> Finding:
    finding = Finding(install)
    if install.get("agent") in HOOK_AGENTS + PLUGIN_AGENTS:
        check_link(manifest, finding)
    agent = install.get("agent")
    try:
        load(agent)
    except KeyError:
        finding.warn(f"unknown agent {agent!r} in hooks.json")
        return finding
    if agent in HOOK_AGENTS:
        check_script(agent, manifest, finding)
    check_client_tables(agent, finding)
    recorded = {f.get("path"): f for f in install.get("files", [])}
    ctx = InstallContext(user_home(), {}, "cc-filter", agent)
    for artifact in artifacts_for(agent, install.get("scope"), install.get("root"), ctx):
        try:
            current = read_text(artifact.path)
        except MalformedSettings as exc:
            finding.warn(f"{_short(exc.path)} {exc.problem}")
            continue
        finding.notes.append(f"{artifact.description}: {_short(artifact.path)}")
        expected = (recorded.get(artifact.path) or {}).get("sha256")
        if artifact.kind == "plugin":
            if current is None:
                finding.fail(f"plugin {_short(artifact.path)} is missing")
            elif expected and hook_script.sha256_text(current) != expected:
                finding.fail(f"plugin {_short(artifact.path)} was changed after install")
            else:
                _check_version(hook_script.version_of(current), finding, artifact.path)
        elif artifact.kind == "file":
            if current is None:
                finding.warn(f"{_short(artifact.path)} is missing")
            elif expected and hook_script.sha256_text(current) != expected:
                finding.warn(f"{_short(artifact.path)} was edited after install")
        elif artifact.kind == "trust":  # the agent would skip an untrusted hook (Codex)
            problem = artifact.problem(current)
            if problem:
                finding.fail(problem)
        elif not artifact.registered(current):
            finding.warn(f"not registered in {_short(artifact.path)} ({artifact.description})")
    from .client_check import check as check_client

    check_client(install, finding, user_home())  # what the client will really run
    return finding


def verify(report: Reporter | None = None, coverage: bool = False) -> int:
    """coverage: also say, per agent, which typical commands reach the model compacted here
    (coverage.py; the CLI does)."""
    report = report or Reporter()
    manifest = Manifest.load()
    if not manifest.installs:
        report.say("nothing installed (run: cc-hook init --agent NAME)")
        return 0
    worst = PASS
    for install in manifest.installs:
        finding = check_install(install, manifest)
        report.say(f"{finding.status}  {_label(install)}")
        for problem in finding.problems:
            report.say(f"      {problem}")
        if finding.status == FAIL or (finding.status == WARN and worst == PASS):
            worst = finding.status
    if coverage:
        from .coverage import for_installs

        for_installs(manifest.installs, report.say)
    return 1 if worst == FAIL else 0


def _label(install: dict) -> str:
    scope = install.get("scope")
    where = "" if scope == "global" else f": {_short(install.get('root') or '')}"
    return f"{install.get('agent')} ({scope}{where})"


def status(report: Reporter | None = None) -> int:
    report = report or Reporter()
    manifest = Manifest.load()
    report.say(f"hooks.json: {_short(os.path.join(home.data_dir(), 'hooks.json'))}")
    if not manifest.installs:
        report.say("nothing installed (run: cc-hook init --agent NAME)")
    for install in manifest.installs:
        agent = install.get("agent")
        finding = check_install(install, manifest)
        report.say(f"{_label(install)}  [{finding.status}]")
        if agent in HOOK_AGENTS:
            script = manifest.script_of(agent)
            version = hook_script.version_of(read_text(script))
            report.say(f"  hook script: {_short(script)} (version {version})")
        for note in finding.notes:
            report.say(f"  {note}")
        report.say(f"  installed: {install.get('installed_at', '?')}")
        for problem in finding.problems:
            report.say(f"  {'warning' if finding.status != FAIL else 'FAIL'}: {problem}")
    if manifest.filter_bin:
        report.say(f"cc-filter for rewrites: {manifest.filter_bin['value']} "
                   f"([hooks] filter_bin in {_short(manifest.filter_bin['config'])}, "
                   "and exported by the hook scripts)")
    elif manifest.link:
        report.say(f"cc-filter for rewrites: `cc-filter`, found in the agent's shell through "
                   f"the link {_short(manifest.link['path'])} → "
                   f"{_short(manifest.link['target'])}")
    else:
        report.say("cc-filter for rewrites: `cc-filter` from the agent's PATH")
    installed = {i.get("agent") for i in manifest.installs}
    hints = [a for a in HOOK_AGENTS + PLUGIN_AGENTS if a not in installed and
             os.path.isdir(os.path.join(user_home(), load(a).CONFIG_DIR))]
    if hints:
        report.say(f"agents found but not hooked: {', '.join(hints)} "
                   f"(cc-hook init --agent {hints[0]})")
    return 0

