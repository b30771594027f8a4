"""`cc-hook uninstall`: take back everything `init` installed — every agent, scope and project
hooks.json records (and our entries wherever init would have put them), the backups init
made, the hook scripts, `filter_bin`, the cc-filter link, caches and hooks.json itself once
nothing is installed; with --purge the tracking data too. Reports only what it changes.
Cold path.
"""
import os

from ctxcrl.console import EXIT_USAGE
from ctxcrl import home

from . import filter_path, hook_script
from .agents import ALL_AGENTS, HOOK_AGENTS
from .artifacts import UNKNOWN, ConfigValue, RecordedFile
from .install import InstallContext, Reporter, _apply, _check_agents, _plan, \
    _remove_created_dirs, _short, _take_back_backups, artifacts_for, backup_path, \
    project_root, root_of, scope_of, user_home
from .manifest import Manifest
from .manifest import path as manifest_path
from .settings_file import MalformedSettings, write_atomic


def _targets(manifest: Manifest, agents, scope: str | None, cwd: str | None) -> list:
    """The installs to take back, as (agent, scope, root): every recorded one that matches
    `agents` (all when empty) and `scope` (None: every scope, every project), then the places
    init would write to, for agents with no record there (hooks.json lost or never written)."""
    here = project_root(cwd)
    targets = []
    for install in manifest.installs:
        agent, where, root = install.get("agent"), install.get("scope"), install.get("root")
        if agent not in ALL_AGENTS or where not in ("global", "project") or \
                not isinstance(root, str) or (agents and agent not in agents):
            continue
        if scope == "global" and where != "global" or \
                scope == "project" and (where != "project" or root != here):
            continue
        targets.append((agent, where, root))
    scopes = [scope] if scope else ["global", "project"]
    for agent in agents or ALL_AGENTS:
        for where in dict.fromkeys(scope_of(agent, s) for s in scopes):
            target = (agent, where, root_of(where, cwd))
            if target not in targets:
                targets.append(target)
    return targets


def uninstall(agents, scope: str | None = None, dry_run: bool = False, cwd: str | None = None,
              report: Reporter | None = None, purge: bool = False) -> int:
    """Take back what init installed: by default every agent, every scope and project that
    hooks.json records (and our entries wherever init would have put them), their backups,
    the hook scripts, `filter_bin`, the cc-filter link and hooks.json itself once nothing is
    installed. Reports only what it changes. purge: also delete the tracking data."""
    report = report or Reporter()
    manifest = Manifest.load()
    if agents:
        agents = _check_agents(agents, report)
        if agents is None:
            return EXIT_USAGE
    targets = _targets(manifest, agents or [], scope, cwd)
    leaving = set(targets)
    kept_paths = {f.get("path") for i in manifest.installs
                  if (i.get("agent"), i.get("scope"), i.get("root")) not in leaving
                  for f in i.get("files", [])}
    failures = changed = 0
    seen_paths: set = set()
    for agent, agent_scope, root in targets:
        ctx = InstallContext(user_home(), {}, "cc-filter", agent)
        artifacts = artifacts_for(agent, agent_scope, root, ctx)
        listed = {a.path for a in artifacts}
        recorded = manifest.find(agent, agent_scope, root) or {}
        artifacts += [RecordedFile(f["path"], f.get("sha256"))
                      for f in recorded.get("files", [])
                      if isinstance(f.get("path"), str) and f["path"] not in listed
                      and f.get("kind") not in ("script", "hash")]
        # A file shared by installs is taken back once, by the last install that uses it;
        # but a trust entry (Codex's config.toml) is one block per install, removed alone.
        artifacts = [a for a in artifacts if getattr(a, "kind", None) == "trust"
                     or (a.path not in kept_paths and a.path not in seen_paths)]
        seen_paths.update(a.path for a in artifacts if getattr(a, "kind", None) != "trust")
        header = f"{agent} ({agent_scope}{'' if agent_scope == 'global' else ': ' + root}):"

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
            done = _apply(planned, manifest, dry_run, report, restoring=True, header=header)
            done += _take_back_backups(artifacts, manifest, dry_run, report,
                                       header if not done else None)
        except OSError as exc:
            report.warn(f"cc-hook: {agent}: cannot write {exc.filename or ''}: "
                        f"{exc.strerror or exc}")
            failures += 1
            continue
        changed += done
        manifest.drop_install(agent, agent_scope, root)  # in memory; saved unless dry_run
    changed += _remove_unused(manifest, report, dry_run)
    if purge:
        changed += _purge_data(report, dry_run)
    if not dry_run:
        changed += _save_or_delete(manifest, report)
    if not changed:
        report.say("nothing of contextcrawler to remove here")
    elif not purge and not dry_run and not manifest.installs:
        kept = [n for n in _data_left() if n not in ("hooks", "hooks.json")]
        if kept:
            report.say(f"kept your tracking data in {_short(home.data_dir())}/ "
                       f"({', '.join(kept)}); `cc-hook uninstall --purge` deletes it")
    return 1 if failures else 0


def _remove_unused(manifest: Manifest, report: Reporter, dry_run: bool) -> int:
    """Scripts no install uses any more, the config entry and the cc-filter link when nothing
    is installed, and the originals of files no install touches."""
    changed = 0
    used_agents = {i.get("agent") for i in manifest.installs}
    header_done = False
    for agent in HOOK_AGENTS:
        if agent in used_agents:
            continue
        script = hook_script.script_path(agent)
        for path in (script, hook_script.hash_path(script)):
            if os.path.exists(path):
                if not header_done:
                    report.say("hook scripts:")
                    header_done = True
                if not dry_run:
                    write_atomic(path, None, backup=False)
                report.say(f"  {'would delete' if dry_run else 'removed':9}  {_short(path)}")
                changed += 1
        if not dry_run:
            manifest.scripts.pop(agent, None)
    if manifest.installs:
        return changed
    changed += filter_path.remove_link(manifest, report, dry_run)
    recorded = manifest.filter_bin
    if recorded:
        config = recorded["config"]
        artifact = ConfigValue(config, "filter_bin", recorded["value"], "[hooks] filter_bin")
        try:
            planned = _plan([artifact], lambda a, current: a.remove(
                current, manifest.originals.get(config, UNKNOWN)))
        except MalformedSettings:
            planned = []
        done = _apply(planned, manifest, dry_run, report, restoring=True, header="config:")
        changed += done + _take_back_backups([artifact], manifest, dry_run, report,
                                             None if done else "config:")
        if not dry_run:
            manifest.filter_bin = None
    if dry_run:
        return changed
    for path in list(manifest.originals):
        if not manifest.uses_path(path) and not path.endswith(".bak") and not (
                manifest.filter_bin and path == manifest.filter_bin.get("config")):
            del manifest.originals[path]
            manifest.originals.pop(backup_path(path), None)
    return changed


def _save_or_delete(manifest: Manifest, report: Reporter) -> int:
    """hooks.json, or, when nothing is installed any more, no hooks.json at all, and the
    folders init created that are empty now."""
    if manifest.installs or manifest.scripts or manifest.filter_bin or manifest.link:
        removed = _remove_created_dirs(manifest, report, False)
        manifest.save()
        return removed
    path = manifest_path()
    said: list = []

    def header():
        if not said:
            report.say("what init made for itself:")
            said.append(True)

    if os.path.exists(path):
        header()
        write_atomic(path, None, backup=False)
        report.say(f"  {'removed':9}  {_short(path)}  (record of what init installed)")
    for cache in _data_left():  # rebuilt on the next run: nothing of the user's
        if cache.endswith(CACHE_SUFFIXES):
            try:
                os.unlink(os.path.join(home.data_dir(), cache))
            except OSError:
                pass
    scripts = hook_script.hooks_dir()
    if scripts not in manifest.created_dirs and os.path.isdir(scripts) and \
            not os.listdir(scripts):
        manifest.created_dirs.append(scripts)  # ours whoever made it: only scripts live there
    removable = [d for d in manifest.created_dirs if os.path.isdir(d) and not os.listdir(d)]
    if removable:
        header()
    return len(said) + _remove_created_dirs(manifest, report, False)


CACHE_SUFFIXES = (".index", ".cache")
"""Files in the data dir that are only caches: cc-filter's `filters.index` of the filter
tiers, ctxcrl.config's `config.cache` of the parsed config.toml."""


def _data_left() -> list[str]:
    try:
        return sorted(os.listdir(home.data_dir()))
    except OSError:
        return []


def _purge_data(report: Reporter, dry_run: bool) -> int:
    """Delete contextcrawler's data (tracking.db, spool, tee files, trusted.json, caches);
    the data folder itself goes with the folders init created, once empty. With CTXCRL_HOME
    the folder also holds the config: config.toml and filters/ stay."""
    import shutil

    data = home.data_dir()
    keep = {"hooks.json", "hooks"}  # the installs' own: taken back above, or still in use
    if home.config_dir() == data:
        keep |= {"config.toml", "filters"}
    names = [n for n in _data_left() if n not in keep]
    if names:
        report.say("tracking data:")
    for name in names:
        path = os.path.join(data, name)
        if not dry_run:
            if os.path.isdir(path) and not os.path.islink(path):
                shutil.rmtree(path, ignore_errors=True)
            else:
                try:
                    os.unlink(path)
                except OSError:
                    pass
        report.say(f"  {'would delete' if dry_run else 'removed':9}  {_short(path)}")
    return len(names)
