"""`cc-hook init` and `cc-hook uninstall`: plan every file change for each agent, refuse the
whole agent when one of its files cannot be changed safely, then write (or, with --dry-run,
print the diffs). Cold path.
"""
import os
import sys
import time

from cc_track import home
from cc_track.spool import project_of

from . import filter_path, hook_script
from .agents import ALL_AGENTS, HOOK_AGENTS, PLUGIN_AGENTS, RULES_AGENTS, load
from .artifacts import UNKNOWN, ConfigValue, JsonRegistration, OwnedFile, describe_change
from .manifest import Manifest
from .settings_file import MalformedSettings, read_text, write_atomic


class InstallContext:
    """What an agent's `artifacts()` needs to know about this install."""

    __slots__ = ("user_home", "tools", "hook_command", "filter_command", "script")

    def __init__(self, user_home: str, tools: dict, filter_command: str, agent: str):
        self.user_home = user_home
        self.tools = tools
        self.script = hook_script.script_path(agent)
        self.hook_command = hook_script.hook_command(self.script)
        self.filter_command = filter_command


class Reporter:
    def __init__(self, out=None, err=None):
        self.out = out or sys.stdout
        self.err = err or sys.stderr

    def say(self, text: str = "") -> None:
        self.out.write(text + "\n")

    def warn(self, text: str) -> None:
        self.err.write(text + "\n")


def user_home() -> str:
    return os.path.expanduser("~")


def project_root(cwd: str | None = None) -> str:
    """The git work tree around `cwd`, else `cwd` itself."""
    return project_of(os.path.abspath(cwd or os.getcwd()))


def scope_of(agent: str, scope: str) -> str:
    return "project" if agent in RULES_AGENTS else scope


def root_of(scope: str, cwd: str | None) -> str:
    return project_root(cwd) if scope == "project" else user_home()


_short = home.short_path


def _check_agents(agents, report: Reporter) -> list | None:
    unknown = [a for a in agents if a not in ALL_AGENTS]
    if unknown:
        report.warn(f"cc-hook: unknown agent(s): {', '.join(unknown)} "
                    f"(one of: {', '.join(ALL_AGENTS)})")
        return None
    return list(dict.fromkeys(agents))


def _plan(artifacts, change) -> list:
    """[(artifact, current, new)] for every artifact; raises MalformedSettings."""
    planned = []
    for artifact in artifacts:
        current = read_text(artifact.path)
        planned.append((artifact, current, change(artifact, current)))
    return planned


def _apply(planned, manifest: Manifest, dry_run: bool, report: Reporter, restoring: bool = False):
    for artifact, current, new in planned:
        label = f"{artifact.description}"
        if new == current:
            report.say(f"  unchanged  {_short(artifact.path)}  ({label})")
            continue
        if dry_run:
            verb = "would delete" if new is None else "would write"
            report.say(f"  {verb}  {_short(artifact.path)}  ({label})")
            report.say(_indent(describe_change(_short(artifact.path), current, new)))
            continue
        if not restoring:
            if artifact.path not in manifest.originals:
                manifest.originals[artifact.path] = current
            _note_created_dirs(artifact.path, manifest)
        # Deleting a file contextcrawler created leaves no backup of it behind.
        created_by_us = new is None and manifest.originals.get(artifact.path, "") is None
        write_atomic(artifact.path, new, backup=artifact.backup and not created_by_us,
                     mode=artifact.mode)
        if new is None:
            verb = "removed"
        elif current is None:
            verb = "created"
        else:
            verb = "restored" if restoring and new == manifest.originals.get(artifact.path) \
                else "updated"
        backup = f"; backup {_short(artifact.path)}.bak" if current is not None and \
            artifact.backup and not created_by_us else ""
        report.say(f"  {verb:9}  {_short(artifact.path)}  ({label}{backup})")


def _note_created_dirs(path: str, manifest: Manifest) -> None:
    """Remember the folders this write is about to create, so uninstall can remove them."""
    directory = os.path.dirname(path)
    while directory and not os.path.exists(directory):
        if directory not in manifest.created_dirs:
            manifest.created_dirs.append(directory)
        parent = os.path.dirname(directory)
        if parent == directory:
            break
        directory = parent


def _remove_created_dirs(manifest: Manifest, report: Reporter, dry_run: bool) -> None:
    """Folders init created that are empty now, deepest first."""
    for directory in sorted(manifest.created_dirs, key=lambda d: d.count(os.sep), reverse=True):
        try:
            empty = not os.listdir(directory)
        except OSError:
            manifest.created_dirs.remove(directory)  # already gone
            continue
        if not empty:
            continue
        if not dry_run:
            try:
                os.rmdir(directory)
            except OSError:
                continue
            manifest.created_dirs.remove(directory)
        report.say(f"  {'would delete' if dry_run else 'removed':9}  {_short(directory)}/")


def _indent(text: str) -> str:
    return "".join(f"    {line}\n" for line in text.splitlines())


def _manual_instructions(agent: str, artifacts, exc: MalformedSettings) -> str:
    lines = [f"cc-hook: {agent}: {_short(exc.path)} {exc.problem}.",
             "  Left untouched; nothing was installed for this agent. Fix or move the file and",
             f"  run `cc-hook init --agent {agent}` again, or add contextcrawler yourself:"]
    for artifact in artifacts:
        if artifact.path != exc.path:
            continue
        if isinstance(artifact, JsonRegistration):
            lines.append(f"  in {_short(artifact.path)}, append to \"{'.'.join(artifact.keys)}\":")
            lines.extend("    " + line for line in artifact.snippet().splitlines())
        elif artifact.kind == "trust":
            lines.append(f"  at the end of {_short(artifact.path)}:")
            lines.extend("    " + line for line in artifact.snippet().splitlines())
        elif isinstance(artifact, ConfigValue):
            lines.append(f"  in {_short(artifact.path)}, under [{artifact.SECTION}]: "
                         f"{artifact.line.strip()}")
    return "\n".join(lines)


def _script_artifacts(agent: str, tools: dict, filter_command: str) -> tuple[list, str]:
    module = load(agent)
    script = hook_script.script_path(agent)
    filter_bin = filter_command if filter_command != "cc-filter" else None
    text = hook_script.render(agent, module.NO_ANSWER, tools, script, filter_bin=filter_bin)
    digest = hook_script.sha256_text(text)
    return [OwnedFile(script, text, f"hook script, version {hook_script.HOOK_VERSION}",
                      mode=0o755, kind="script"),
            OwnedFile(hook_script.hash_path(script), digest + "\n", "recorded SHA-256",
                      kind="hash")], digest


# -- init ----------------------------------------------------------------------------------

def init(agents, scope: str = "global", dry_run: bool = False, cwd: str | None = None,
         report: Reporter | None = None) -> int:
    report = report or Reporter()
    agents = _check_agents(agents or ["claude"], report)
    if agents is None:
        return 2
    try:
        tools = {name: hook_script.tool_path(name) for name in hook_script.TOOLS}
    except hook_script.ToolNotFound as exc:
        report.warn(f"cc-hook: cannot install: {exc}")
        return 1
    manifest = Manifest.load()
    failures = 0
    if not dry_run:
        home.ensure_private_dir(home.data_dir())

    filter_command, config_failed = _setup_filter(tools["cc-filter"], manifest, dry_run, report)
    if config_failed and set(agents) & set(HOOK_AGENTS + PLUGIN_AGENTS):
        report.warn("cc-hook: not installing hooks: their rewrites would call a cc-filter the "
                    "agent's shell cannot find.")
        return 1

    for agent in agents:
        agent_scope = scope_of(agent, scope)
        root = root_of(agent_scope, cwd)
        ctx = InstallContext(user_home(), tools, filter_command, agent)
        artifacts, digest = ([], None)
        if agent in HOOK_AGENTS:
            artifacts, digest = _script_artifacts(agent, tools, filter_command)
        artifacts += load(agent).artifacts(agent_scope, root, ctx)
        report.say(f"{agent} ({agent_scope}{'' if agent_scope == 'global' else ': ' + root}):")
        try:
            planned = _plan(artifacts, lambda a, current: a.add(current))
        except MalformedSettings as exc:
            report.warn(_manual_instructions(agent, artifacts, exc))
            failures += 1
            continue
        try:
            _apply(planned, manifest, dry_run, report)
        except OSError as exc:
            report.warn(f"cc-hook: {agent}: cannot write {exc.filename or ''}: "
                        f"{exc.strerror or exc}")
            failures += 1
            continue
        if dry_run:
            continue
        if digest:
            manifest.scripts[agent] = {"path": ctx.script, "sha256": digest,
                                       "hook_version": hook_script.HOOK_VERSION, "tools": tools}
        old = manifest.find(agent, agent_scope, root)
        files = [{"path": a.path, "kind": a.kind,
                  "sha256": hook_script.sha256_text(new) if new is not None else None}
                 for a, _, new in planned]
        manifest.record_install({
            "agent": agent, "scope": agent_scope, "root": root,
            "installed_at": old.get("installed_at") if old and old.get("files") == files
            else time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "hook_version": hook_script.HOOK_VERSION, "files": files})
    if not dry_run:
        manifest.save()
        if any(a in HOOK_AGENTS for a in agents) and not failures:
            report.say(f"Check it: cc-hook test {next(a for a in agents if a in HOOK_AGENTS)} "
                       "'git status'")
    return 1 if failures else 0


def _setup_filter(ours: str, manifest: Manifest, dry_run: bool, report: Reporter):
    """(command the rewrites and rules use, config edit failed?)."""
    check = filter_path.check(ours)
    if check.visible:
        return "cc-filter", False
    shell = os.path.basename(check.shell)
    seen = f"finds {check.seen}" if check.seen else "does not find it"
    report.say(f"cc-filter: a clean login shell (`{shell} -lc`) {seen}, so the agent's shell may "
               f"not run this install's {ours}.")
    artifact = ConfigValue(home.config_path(), "filter_bin", ours,
                           "[hooks] filter_bin: cc-rewrite writes this path")
    try:
        planned = _plan([artifact], lambda a, current: a.add(current))
    except MalformedSettings as exc:
        report.warn(_manual_instructions("cc-filter", [artifact], exc))
        return ours, True
    report.say("config:")
    try:
        _apply(planned, manifest, dry_run, report)
    except OSError as exc:
        report.warn(f"cc-hook: cannot write {artifact.path}: {exc.strerror or exc}")
        return ours, True
    if not dry_run:
        manifest.filter_bin = {"config": artifact.path, "value": ours}
    return ours, False


# -- uninstall -----------------------------------------------------------------------------

def uninstall(agents, scope: str = "global", dry_run: bool = False, cwd: str | None = None,
              report: Reporter | None = None) -> int:
    report = report or Reporter()
    manifest = Manifest.load()
    if agents:
        agents = _check_agents(agents, report)
        if agents is None:
            return 2
    else:
        root = root_of(scope, cwd)
        agents = list(dict.fromkeys(i.get("agent") for i in manifest.installs
                                    if i.get("scope") == scope and i.get("root") == root))
        if not agents:  # nothing recorded: look for our entries everywhere in this scope
            agents = list(HOOK_AGENTS + PLUGIN_AGENTS) if scope == "global" else list(ALL_AGENTS)
    failures = 0
    for agent in agents:
        agent_scope = scope_of(agent, scope)
        root = root_of(agent_scope, cwd)
        ctx = InstallContext(user_home(), {}, "cc-filter", agent)
        artifacts = load(agent).artifacts(agent_scope, root, ctx)
        report.say(f"{agent} ({agent_scope}{'' if agent_scope == 'global' else ': ' + root}):")

        def take_back(artifact, current):
            original = manifest.originals.get(artifact.path, UNKNOWN)
            return artifact.remove(current, original)

        try:
            planned = _plan(list(reversed(artifacts)), take_back)
        except MalformedSettings as exc:
            report.warn(f"cc-hook: {agent}: {_short(exc.path)} {exc.problem}; left untouched. "
                        "Remove contextcrawler's entry (the command running "
                        f"{_short(ctx.script)}) by hand.")
            failures += 1
            continue
        try:
            _apply(planned, manifest, dry_run, report, restoring=True)
        except OSError as exc:
            report.warn(f"cc-hook: {agent}: cannot write {exc.filename or ''}: "
                        f"{exc.strerror or exc}")
            failures += 1
            continue
        manifest.drop_install(agent, agent_scope, root)
    _remove_unused(manifest, report, dry_run)
    if not dry_run:
        manifest.save()
    return 1 if failures else 0


def _remove_unused(manifest: Manifest, report: Reporter, dry_run: bool) -> None:
    """Scripts no install uses any more, the config entry when nothing is installed, and the
    originals of files no install touches."""
    used_agents = {i.get("agent") for i in manifest.installs}
    for agent in HOOK_AGENTS:
        if agent in used_agents:
            continue
        script = hook_script.script_path(agent)
        for path in (script, hook_script.hash_path(script)):
            if os.path.exists(path):
                if not dry_run:
                    write_atomic(path, None, backup=False)
                report.say(f"  {'would delete' if dry_run else 'removed':9}  {_short(path)}")
        manifest.scripts.pop(agent, None)
    if dry_run:
        return
    recorded = manifest.filter_bin
    if not manifest.installs and recorded:
        config = recorded["config"]
        artifact = ConfigValue(config, "filter_bin", recorded["value"], "[hooks] filter_bin")
        try:
            planned = _plan([artifact], lambda a, current: a.remove(
                current, manifest.originals.get(config, UNKNOWN)))
        except MalformedSettings:
            planned = []
        if planned and planned[0][1] != planned[0][2]:
            report.say("config:")
            _apply(planned, manifest, False, report, restoring=True)
        manifest.filter_bin = None
    for path in list(manifest.originals):
        if not manifest.uses_path(path) and not (
                manifest.filter_bin and path == manifest.filter_bin.get("config")):
            del manifest.originals[path]
    _remove_created_dirs(manifest, report, dry_run)
