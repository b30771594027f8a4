"""`cc-hook init`: plan every file change for each agent, refuse the whole agent when one of
its files cannot be changed safely, then write (or, with --dry-run, print the diffs); and
the pieces uninstall.py shares (what an install owns, applying planned changes, backups,
the folders init created). Cold path.
"""
import os
import sys
import time

from ctxcrl.console import EXIT_USAGE
from ctxcrl import home
from ctxcrl.spool import project_of

from . import filter_path, hook_script
from .agents import ALL_AGENTS, HOOK_AGENTS, PLUGIN_AGENTS, RULES_AGENTS, load
from .artifacts import UNKNOWN, ConfigValue, JsonRegistration, OwnedFile, describe_change
from .manifest import Manifest
from .settings_file import MalformedSettings, read_text, real_target, write_atomic


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
        self.out = self._write(self.out, text)

    def warn(self, text: str) -> None:
        self.err = self._write(self.err, text)

    @staticmethod
    def _write(stream, text: str):
        """A reader that left (`cc-hook init | head`) must not stop the work half way, with
        files written and hooks.json not: the rest of the report goes nowhere."""
        try:
            stream.write(text + "\n")
            return stream
        except BrokenPipeError:
            return open(os.devnull, "w")


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
    """[(artifact, current, new)] for every artifact; raises MalformedSettings. Artifacts that
    share a file (Codex's two hook registrations in one hooks.json) change it in turn: each
    starts from the text the one before it planned."""
    planned = []
    latest: dict = {}
    for artifact in artifacts:
        current = latest[artifact.path] if artifact.path in latest else read_text(artifact.path)
        new = change(artifact, current)
        latest[artifact.path] = new
        planned.append((artifact, current, new))
    return planned


def backup_path(path: str) -> str:
    """Where `write_atomic` keeps the previous bytes of `path`."""
    return real_target(path) + ".bak"


def _apply(planned, manifest: Manifest, dry_run: bool, report: Reporter,
           restoring: bool = False, header: str | None = None) -> int:
    """Write each planned change; returns how many files changed (or would). Installing
    reports unchanged files too (a second init shows that it changed nothing); uninstalling
    reports only what it changes, under `header`, printed before the first change."""
    changed = 0
    written: set = set()
    for artifact, current, new in planned:
        label = f"{artifact.description}"
        if new == current:
            if not restoring:
                report.say(f"  unchanged  {_short(artifact.path)}  ({label})")
            continue
        if header and not changed:
            report.say(header)
        changed += 1
        if dry_run:
            verb = "would delete" if new is None else ("would restore" if restoring
                                                       else "would write")
            report.say(f"  {verb}  {_short(artifact.path)}  ({label})")
            report.say(_indent(describe_change(_short(artifact.path), current, new)).rstrip("\n"))
            continue
        # one backup per file: the bytes before this run (not those of an earlier step of it)
        backup = artifact.backup and current is not None and not restoring and \
            artifact.path not in written
        written.add(artifact.path)
        if not restoring:
            if artifact.path not in manifest.originals:
                manifest.originals[artifact.path] = current
            if backup:
                _note_backup(artifact.path, manifest)
            _note_created_dirs(artifact.path, manifest)
        # Uninstall writes no backup: a `.bak` of the installed file would keep our hook.
        write_atomic(artifact.path, new, backup=backup, mode=artifact.mode)
        if new is None:
            verb = "removed"
        elif current is None:
            verb = "created"
        else:
            verb = "restored" if restoring and new == manifest.originals.get(artifact.path) \
                else "updated"
        note = f"; backup {_short(backup_path(artifact.path))}" if backup else ""
        report.say(f"  {verb:9}  {_short(artifact.path)}  ({label}{note})")
    return changed


def _note_backup(path: str, manifest: Manifest) -> None:
    """Remember what `<file>.bak` held before init first wrote it, so uninstall can put it
    back (or delete it: it would still hold a copy of the file from before uninstall)."""
    bak = backup_path(path)
    if bak in manifest.originals:
        return
    try:
        manifest.originals[bak] = read_text(bak)
    except MalformedSettings:
        pass  # not text: uninstall then deletes it only if it holds our entry


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


def _remove_created_dirs(manifest: Manifest, report: Reporter, dry_run: bool) -> int:
    """Folders init created that are empty now, deepest first."""
    removed = 0
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
        removed += 1
    return removed


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
    pipelines = getattr(module, "PIPELINES", (hook_script.REWRITE,))
    text = hook_script.render(agent, module.NO_ANSWER, tools, script, filter_bin=filter_bin,
                              pipelines=pipelines,
                              gate_after_rewrite=getattr(module, "GATE_AFTER_REWRITE", False),
                              fail_closed=getattr(module, "FAIL_CLOSED", False))
    digest = hook_script.sha256_text(text)
    return [OwnedFile(script, text, f"hook script, version {hook_script.HOOK_VERSION}",
                      mode=0o755, kind="script"),
            OwnedFile(hook_script.hash_path(script), digest + "\n", "recorded SHA-256",
                      kind="hash")], digest


def artifacts_for(agent: str, scope: str, root: str, ctx) -> list:
    """Everything an install of `agent` owns in its settings and instruction files: what the
    agent's module lists, plus the awareness note where that agent reads one."""
    from . import awareness

    return list(load(agent).artifacts(scope, root, ctx)) + \
        awareness.artifacts(agent, scope, root, ctx.user_home)


# -- init ----------------------------------------------------------------------------------

def init(agents, scope: str = "global", dry_run: bool = False, cwd: str | None = None,
         report: Reporter | None = None, link: bool | None = None,
         coverage: bool = False) -> int:
    """link: make the cc-filter symlink `filter_path.link_plan` proposes (True), never (False),
    or ask when stdin and stdout are a terminal (None). coverage: then say, per agent, which
    typical commands reach the model compacted (coverage.py; the CLI does)."""
    report = report or Reporter()
    agents = _check_agents(agents or ["claude"], report)
    if agents is None:
        return EXIT_USAGE
    try:
        tools = {name: hook_script.tool_path(name) for name in hook_script.TOOLS}
    except hook_script.ToolNotFound as exc:
        report.warn(f"cc-hook: cannot install: {exc}")
        return 1
    manifest = Manifest.load()
    failures = 0
    untrusted = home.untrusted_home(cwd)
    if untrusted:  # the hook pins this home: say now that it will trust nothing
        report.warn(f"cc-hook: warning: {untrusted}: contextcrawler will use no config.toml, "
                    "user filters or trusted project filters from it (point CTXCRL_HOME or "
                    "XDG_*_HOME at a folder of yours outside the project)")
    if not dry_run:
        _note_created_dirs(os.path.join(home.data_dir(), "hooks.json"), manifest)
        home.ensure_private_dir(home.data_dir())

    filter_command, config_failed = _setup_filter(tools["cc-filter"], manifest, dry_run, report,
                                                  link, agents)
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
        artifacts += artifacts_for(agent, agent_scope, root, ctx)
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
        final = {a.path: new for a, _, new in planned}  # a shared file: its last text
        files = [{"path": a.path, "kind": a.kind,
                  "sha256": hook_script.sha256_text(final[a.path])
                  if final[a.path] is not None else None}
                 for a, _, _new in planned]
        # what an earlier install wrote where this one no longer writes (the agent's module
        # changed, as Cline's rules block became a plugin): kept on record, so that
        # uninstall still gives those files back (artifacts.RecordedFile)
        paths = {f["path"] for f in files}
        files += [f for f in (old or {}).get("files", [])
                  if isinstance(f, dict) and isinstance(f.get("path"), str)
                  and f["path"] not in paths and f.get("kind") not in ("script", "hash")]
        manifest.record_install({
            "agent": agent, "scope": agent_scope, "root": root,
            "installed_at": old.get("installed_at") if old and old.get("files") == files
            else time.strftime("%Y-%m-%dT%H:%M:%S%z"),
            "hook_version": hook_script.HOOK_VERSION, "files": files})
    if not dry_run:
        manifest.save()
        if coverage:
            from .coverage import for_installs

            for_installs([i for i in manifest.installs if i.get("agent") in agents],
                         report.say, cwd)
        if any(a in HOOK_AGENTS for a in agents) and not failures:
            report.say(f"Check it: cc-hook test {next(a for a in agents if a in HOOK_AGENTS)} "
                       "'git status'")
    return 1 if failures else 0


def _setup_filter(ours: str, manifest: Manifest, dry_run: bool, report: Reporter,
                  link: bool | None = None, agents=()):
    """(command the rewrites and rules use, config edit failed?). The bare `cc-filter` when
    the agent's shell finds ours (after making the link the user agreed to); else our
    absolute path, recorded as `[hooks] filter_bin`, with a warning that says what to do."""
    check = filter_path.check(ours)
    if not check.visible:
        plan = filter_path.link_plan(check, user_home())
        if plan and _want_link(plan, link, report) and _make_link(plan, manifest, dry_run,
                                                                   report):
            if dry_run:
                return "cc-filter", False
            check = filter_path.check(ours)
        if not check.visible:
            _explain_full_path(check, plan, report, agents)
            return _record_filter_bin(ours, manifest, dry_run, report)
    if manifest.filter_bin and manifest.filter_bin.get("value") == ours and not dry_run:
        _forget_filter_bin(manifest, report)  # an earlier init's: the bare name works now
    return "cc-filter", False


def _want_link(plan, link: bool | None, report: Reporter) -> bool:
    if link is not None:
        return link
    if not (sys.stdin.isatty() and sys.stdout.isatty()):
        return False
    report.say(f"cc-filter: the agent's shell does not find cc-filter. Link it into "
               f"{_short(plan.folder)}, which is on that shell's PATH?")
    report.say(f"  {plan.command()}")
    try:
        answer = input("Link it? [Y/n] ").strip().lower()
    except EOFError:
        return False
    return answer in ("", "y", "yes")


def _make_link(plan, manifest: Manifest, dry_run: bool, report: Reporter) -> bool:
    report.say("cc-filter link:")
    if dry_run:
        report.say(f"  would link  {_short(plan.path)}  (→ {_short(plan.target)})")
        return True
    try:
        if plan.create_dir:
            _note_created_dirs(plan.path, manifest)
        plan.create()
    except OSError as exc:
        report.warn(f"cc-hook: cannot link {plan.path}: {exc.strerror or exc}")
        return False
    manifest.link = {"path": plan.path, "target": plan.target}
    report.say(f"  {'linked':9}  {_short(plan.path)}  (→ {_short(plan.target)})")
    return True


def _explain_full_path(check, plan, report: Reporter, agents) -> None:
    shell = os.path.basename(check.shell)
    seen = f"finds another cc-filter, {check.seen}" if check.seen else \
        "does not find cc-filter"
    again = "cc-hook init" + "".join(f" --agent {a}" for a in agents)
    lines = [f"cc-filter: the agent's shell (a clean `{shell} -lc`) {seen}, so rewritten "
             f"commands will call {check.ours} by its full path (the model sees that path)."]
    if plan:
        lines += ["  To use the bare name `cc-filter`, link it into a folder on that shell's "
                  "PATH and run init again:",
                  f"    {plan.command()} && {again}",
                  f"  (`{again} --link` does both.)"]
    else:
        lines += ["  To use the bare name `cc-filter`, put its folder on that shell's PATH "
                  "(e.g. in ~/.profile):",
                  f"    export PATH={shlex_quote(os.path.dirname(check.ours))}:$PATH",
                  f"  then open a new login shell and run `{again}` again."]
    lines.append("  Until then nothing else is needed: the full path works.")
    report.say("\n".join(lines))


def shlex_quote(text: str) -> str:
    import shlex

    return shlex.quote(text)


def _record_filter_bin(ours: str, manifest: Manifest, dry_run: bool, report: Reporter):
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


def _forget_filter_bin(manifest: Manifest, report: Reporter) -> None:
    recorded = manifest.filter_bin
    artifact = ConfigValue(recorded["config"], "filter_bin", recorded["value"],
                           "[hooks] filter_bin: no longer needed")
    try:
        planned = _plan([artifact], lambda a, current: a.remove(
            current, manifest.originals.get(recorded["config"], UNKNOWN)))
        done = _apply(planned, manifest, False, report, restoring=True, header="config:")
        _take_back_backups([artifact], manifest, False, report, None if done else "config:")
    except (MalformedSettings, OSError):
        return
    manifest.filter_bin = None


def _take_back_backups(artifacts, manifest: Manifest, dry_run: bool, report: Reporter,
                       header: str | None) -> int:
    """The `.bak` copies init made: back to what they held before install (deleted when there
    was none); without that record, deleted when they hold our entry."""
    changed = 0
    for artifact in artifacts:
        if not artifact.backup:
            continue
        bak = backup_path(artifact.path)
        if not os.path.isdir(os.path.dirname(bak)):
            continue  # the folder (a project) is gone: nothing to put back there
        try:
            current = read_text(bak)
        except MalformedSettings:
            continue
        if current is None and bak not in manifest.originals:
            continue
        if bak in manifest.originals:
            new = manifest.originals[bak]
        else:
            try:
                ours = artifact.registered(current)
            except MalformedSettings:
                ours = False
            new = None if ours else current
        if new == current:
            continue
        if header and not changed:
            report.say(header)
        changed += 1
        verb = ("would delete" if dry_run else "removed") if new is None else \
            ("would restore" if dry_run else "restored")
        if not dry_run:
            write_atomic(bak, new, backup=False)
        report.say(f"  {verb:9}  {_short(bak)}  (backup made by cc-hook init)")
    return changed
