"""Claude Code's permission model: every source of its rules, its modes, its built-in
auto-allowed commands, and its decision on the ORIGINAL command (ARCHITECTURE §5, §8).

Sources, as the client reads them (measured on Claude Code 2.1.197):
- managed policy: `/etc/claude-code/managed-settings.json` then `managed-settings.d/*.json`
  (sorted; not dot files) — macOS: `/Library/Application Support/ClaudeCode/`; a policy with
  `allowManagedPermissionRulesOnly: true` makes every other allow rule void;
- user: `$CLAUDE_CONFIG_DIR/settings.json` (default `~/.claude/settings.json`). The client
  does **not** read `~/.claude/settings.local.json`; its deny and ask rules still count here
  (hardening: they can only add a deny or keep a command unfiltered), its allow rules do not;
- project: `<project>/.claude/settings.json` and `settings.local.json` (the nearest `.claude`
  from the cwd upwards, not `$HOME`). In a workspace the user has not trusted
  (`~/.claude.json` `projects[<dir>].hasTrustDialogAccepted`), the client drops the allow
  rules of `.claude/settings.json`, and those of `settings.local.json` when that file or
  `.claude` is a symlink, `.claude/.git` exists, or git tracks the file;
- the running `claude` process's flags (its argv, up the parent chain): `--allowedTools` /
  `--allowed-tools`, `--disallowedTools` / `--disallowed-tools` (comma- or space-separated),
  `--settings FILE|JSON` (repeatable), `--managed-settings JSON` (its allow rules only when
  no managed file exists: the client drops that tier then), `--permission-mode MODE`,
  `--dangerously-skip-permissions`, `--setting-sources user,project,local` (the sources left
  out give no allow rules);
- contextcrawler's `[gate]` config.
A source that exists but cannot be read or parsed, or a flag this cannot parse, is doubt:
never allow.

Decision (`decide`): deny and ask rules first, on every spelling (cc_gate.decision); then, by
mode (the event's `permission_mode`, else the `--permission-mode` flag): `bypassPermissions`
allows whatever no deny or ask rule matches; `default`, `acceptEdits`, `plan`, `dontAsk` and
`auto` allow a command only when every segment matches an allow rule or is one of the client's
built-in read-only commands (claude_builtin); any other mode is doubt. `CTXCRL_DISABLED=1 cmd`
is decided as `cmd` (an allow is answered without a rewrite: the prefix only turns filtering
off). Imports only `os` (the flags, trust and built-in tables load when needed).
"""
from ctxcrl import lean_os as os

from .. import decision
from ..rules import ALLOW, ASK, DENY, Rule, RuleSet, add_config, add_permissions, \
    add_settings_permissions, find_project_dir, home_dir, read_settings, settings_of

NAME = "claude"
#: The tool name that means "a shell command" in the agent's rules.
SHELL_TOOLS = ("Bash",)
TOOLS = SHELL_TOOLS
#: Enterprise policy directories (Linux, macOS): managed-settings.json, managed-settings.d/.
MANAGED_DIRS = ["/etc/claude-code", "/Library/Application Support/ClaudeCode"]
MANAGED_SETTINGS = [os.path.join(d, "managed-settings.json") for d in MANAGED_DIRS]
#: How the running client is known in /proc (the npm wrapper, the native binary).
CLIENT_NAMES = ("claude", "claude.exe", "cli.js")
MODES = ("default", "acceptEdits", "plan", "bypassPermissions", "dontAsk", "auto")
DISABLED_VAR = "CTXCRL_DISABLED"


def user_dir() -> str:
    return os.environ.get("CLAUDE_CONFIG_DIR") or os.path.join(home_dir(), ".claude")


def managed_files() -> list:
    """Each policy file, then the drop-ins of `managed-settings.d/` next to it (sorted)."""
    files = []
    for path in MANAGED_SETTINGS:
        files.append(path)
        drop_in = os.path.join(os.path.dirname(path), "managed-settings.d")
        try:
            names = sorted(n for n in os.listdir(drop_in)
                           if n.endswith(".json") and not n.startswith("."))
        except OSError:
            continue
        files.extend(os.path.join(drop_in, n) for n in names)
    return files


def project_claude_dir(cwd: str):
    project = find_project_dir(cwd, ".claude", home_dir())
    if project is None:
        return None, None
    project_dir = os.path.join(project, ".claude")
    if os.path.abspath(project_dir) == os.path.abspath(user_dir()):
        return None, None
    return project, project_dir


def settings_files(cwd: str) -> list:
    """Every Claude-format settings file, at every level (what Codex and Copilot read too)."""
    files = managed_files()
    base = user_dir()
    files += [os.path.join(base, "settings.json"), os.path.join(base, "settings.local.json")]
    _, project_dir = project_claude_dir(cwd)
    if project_dir is not None:
        files += [os.path.join(project_dir, "settings.json"),
                  os.path.join(project_dir, "settings.local.json")]
    return files


def add_claude_settings(rules: RuleSet, cwd: str, tools=TOOLS) -> None:
    """Every rule of every Claude-format settings file (for the agents that share them)."""
    add_settings_permissions(rules, settings_files(cwd), tools)


# ---------------------------------------------------------------------------------------------
# load_rules


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    flags = _client_flags(rules)
    sources = flags.get("setting_sources")
    managed_only = False
    managed_found = False
    for settings, source in settings_of(rules, managed_files(), False):
        managed_found = True
        add_permissions(rules, settings.get("permissions"), TOOLS, source)
        if settings.get("allowManagedPermissionRulesOnly") is True:
            managed_only = True
    for text, source in flags.get("managed_json", ()):
        _add_flag_settings(rules, text, source, allow_ok=not managed_found)
    base = user_dir()
    _add_file(rules, os.path.join(base, "settings.json"),
              allow_ok=not managed_only and _source_on(sources, "user"))
    seen = len(rules.warnings)
    _add_file(rules, os.path.join(base, "settings.local.json"), allow_ok=False)
    not_the_clients = set(rules.warnings[seen:])  # the client never reads that file
    project, project_dir = project_claude_dir(cwd)
    if project_dir is not None:
        trusted = None if managed_only else _trusted(project)
        shared = os.path.join(project_dir, "settings.json")
        local = os.path.join(project_dir, "settings.local.json")
        _add_file(rules, shared, allow_ok=not managed_only and _source_on(sources, "project")
                  and bool(trusted))
        _add_file(rules, local, allow_ok=not managed_only and _source_on(sources, "local")
                  and (bool(trusted) or not _local_file_suspect(project, project_dir, local)))
    for text, source in flags.get("settings", ()):
        _add_flag_settings(rules, text, source, allow_ok=not managed_only)
    if not managed_only:
        rules.add(ALLOW, flags.get("allowed", ()), TOOLS, "--allowedTools")
    rules.add(DENY, flags.get("disallowed", ()), TOOLS, "--disallowedTools")
    if flags.get("mode"):
        rules.extra["mode"] = flags["mode"]
    rules.extra["client_flags"] = flags
    rules.extra["cwd"] = cwd
    add_rewritten_form_aliases(rules)
    for warning in rules.warnings:  # a file the client reads that this could not understand
        if warning not in not_the_clients:
            rules.doubt_about(warning + ": never auto-allowed")
            break
    add_config(rules)
    return rules


def _source_on(sources, name: str) -> bool:
    return sources is None or name in sources


def _add_file(rules: RuleSet, path: str, allow_ok: bool) -> None:
    """One settings file: deny and ask rules always, allow rules when the client uses them."""
    for settings, source in settings_of(rules, [path], False):
        permissions = settings.get("permissions")
        if not allow_ok and isinstance(permissions, dict) and "allow" in permissions:
            permissions = {k: v for k, v in permissions.items() if k != "allow"}
        add_permissions(rules, permissions, TOOLS, source)


def _add_flag_settings(rules: RuleSet, text: str, source: str, allow_ok: bool) -> None:
    """`--settings FILE|JSON` / `--managed-settings JSON`: a JSON object or a file's path."""
    from cc_peel.record import loads

    stripped = text.strip()
    if stripped.startswith("{"):
        try:
            settings = loads(stripped)
        except ValueError:
            rules.doubt_about(f"cannot parse the client's {source}: never auto-allowed")
            return
    else:
        settings = read_settings(stripped, False, rules.warnings)
        if settings is None:
            rules.doubt_about(f"cannot read the client's {source} {stripped}: "
                              "never auto-allowed")
            return
        rules.files.append(f"{source} {stripped}")
    if not isinstance(settings, dict):
        rules.doubt_about(f"the client's {source} is not a JSON object: never auto-allowed")
        return
    permissions = settings.get("permissions")
    if not allow_ok and isinstance(permissions, dict):
        permissions = {k: v for k, v in permissions.items() if k != "allow"}
    add_permissions(rules, permissions, TOOLS, source)


def _trusted(project: str) -> bool:
    """Whether the user accepted Claude Code's trust dialog for `project` (~/.claude.json)."""
    config_dir = os.environ.get("CLAUDE_CONFIG_DIR")
    candidates = []
    if config_dir:
        candidates += [os.path.join(config_dir, ".config.json"),
                       os.path.join(config_dir, ".claude.json")]
    else:
        candidates.append(os.path.join(home_dir(), ".claude.json"))
    for path in candidates:
        config = read_settings(path, False, [])
        if config is None:
            continue
        projects = config.get("projects")
        if not isinstance(projects, dict):
            return False
        entry = projects.get(os.path.normpath(os.path.abspath(project)))
        return isinstance(entry, dict) and entry.get("hasTrustDialogAccepted") is True
    return False


def _local_file_suspect(project: str, project_dir: str, local: str) -> bool:
    """The client's reasons to drop settings.local.json's allow rules in an untrusted
    workspace: a symlinked file or `.claude`, a `.claude/.git`, or git tracking the file."""
    if not os.path.exists(local):
        return False
    if os.path.islink(project_dir) or os.path.islink(local) or \
            os.path.lexists(os.path.join(project_dir, ".git")):
        return True
    import subprocess

    try:
        proc = subprocess.run(["git", "-c", "core.hooksPath=/dev/null", "-C", project,
                               "ls-files", "--error-unmatch", "--", ".claude/settings.local.json"],
                              stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, timeout=2)
    except (OSError, subprocess.SubprocessError):
        return True
    return proc.returncode != 1


# ---------------------------------------------------------------------------------------------
# the running client's flags

_VALUE_FLAGS = {"--allowedTools": "allowed", "--allowed-tools": "allowed",
                "--disallowedTools": "disallowed", "--disallowed-tools": "disallowed",
                "--settings": "settings", "--managed-settings": "managed_json",
                "--permission-mode": "mode", "--setting-sources": "setting_sources"}
_VARIADIC = frozenset(("allowed", "disallowed"))


def _client_flags(rules: RuleSet) -> dict:
    """The permission flags of the running `claude` process; {} when there is none."""
    from ..process import client_argv

    argv = client_argv(CLIENT_NAMES)
    if argv is None:
        return {}
    try:
        return parse_client_argv(argv)
    except ValueError as exc:
        rules.doubt_about(f"cannot parse the running claude's flags ({exc}): never auto-allowed")
        return {}


def parse_client_argv(argv: list) -> dict:
    """Claude Code's permission flags in `argv` (the client's own argv, program first).
    Raises ValueError on anything it cannot read for sure."""
    found: dict = {}
    i = 1
    while i < len(argv):
        arg = argv[i]
        if arg == "--":
            break
        name, eq, inline = arg.partition("=")
        key = _VALUE_FLAGS.get(name) if name.startswith("--") else None
        if arg == "--dangerously-skip-permissions":
            found["mode"] = "bypassPermissions"
        elif key is not None:
            values = [inline] if eq else []
            i += 1
            if not eq:
                if key in _VARIADIC:
                    while i < len(argv) and not argv[i].startswith("-"):
                        values.append(argv[i])
                        i += 1
                elif i < len(argv):
                    values.append(argv[i])
                    i += 1
            if not values:
                raise ValueError(f"{name} without a value")
            _store_flag(found, key, name, values)
            continue
        i += 1
    return found


def _store_flag(found: dict, key: str, name: str, values: list) -> None:
    if key in _VARIADIC:
        for value in values:
            found.setdefault(key, []).extend(split_tool_list(value))
    elif key == "mode":
        if values[0] not in MODES:
            raise ValueError(f"unknown {name} {values[0]!r}")
        found["mode"] = values[0]
    elif key == "setting_sources":
        found["setting_sources"] = {s.strip() for s in values[0].split(",") if s.strip()}
    else:
        found.setdefault(key, []).append((values[0], name))


def split_tool_list(text: str) -> list:
    """`"Bash(git add:*),Edit Read"` → ["Bash(git add:*)", "Edit", "Read"]: commas and blanks
    separate entries, except inside parentheses. Unbalanced parentheses: ValueError."""
    entries, depth, current = [], 0, []
    for c in text:
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth < 0:
                raise ValueError(f"unbalanced parentheses in {text!r}")
        if depth == 0 and (c == "," or c.isspace()):
            if current:
                entries.append("".join(current))
            current = []
            continue
        current.append(c)
    if depth != 0:
        raise ValueError(f"unbalanced parentheses in {text!r}")
    if current:
        entries.append("".join(current))
    return entries


# ---------------------------------------------------------------------------------------------
# decide


def mode_of(rules: RuleSet, record) -> str:
    """The event's permission_mode (cc-hook decode keeps it under "event"), else the
    client's --permission-mode flag, else "default"."""
    mode = None
    if isinstance(record, dict):
        meta = record.get("event")
        mode = meta.get("permission_mode") if isinstance(meta, dict) else None
        if not isinstance(mode, str) or not mode:
            mode = record.get("permission_mode")
    if not isinstance(mode, str) or not mode:
        mode = rules.extra.get("mode") or "default"
    return mode


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    mode = mode_of(rules, record)
    rest = _without_disabled_prefix(command)
    if rest is not None:
        verdict = decide(rest, rules, record, prefixes)
        if verdict.decision == ALLOW:
            return decision.GateDecision(
                ALLOW, f"without the {DISABLED_VAR}=1 prefix, {verdict.reason}", verdict.rule)
        return verdict
    if mode not in MODES:
        verdict = decision.decide(command, rules, prefixes)
        if verdict.decision == DENY:
            return verdict
        return decision.GateDecision(ASK, f"unknown permission mode {mode!r}: never "
                                          "auto-allowed")
    bypass = "bypassPermissions: no deny or ask rule matches" \
        if mode == "bypassPermissions" else None
    verdict = decision.decide(command, rules, prefixes, auto_allowed=_auto_allowed_for(rules),
                              bypass=bypass, nested_asks=True)
    return for_the_answer(command, rules, mode, verdict, prefixes)


def _without_disabled_prefix(command: str):
    """`cmd` of `CTXCRL_DISABLED=1 cmd` (the value as written: 1, "1", '1'); else None."""
    text = command.lstrip()
    head = DISABLED_VAR + "="
    if not text.startswith(head):
        return None
    rest = text[len(head):]
    for value in ("1 ", '"1" ', "'1' ", "1\t"):
        if rest.startswith(value):
            remainder = rest[len(value):].lstrip()
            return remainder or None
    return None


def _auto_allowed_for(rules: RuleSet):
    version = client_version(rules)
    return lambda seg, text: _auto_allowed(seg, text, version)


def _auto_allowed(seg, text: str, version=None) -> bool:
    """The client's built-in read-only check on one simple command (claude_builtin), with
    the tables of the running client's version (none when it has no table: never)."""
    from . import claude_builtin

    if seg.file_redirect and not _only_harmless_redirects(seg.redirects):
        return False
    if seg.separator == "&":
        return False  # the client asks: `&` defers execution past its checks
    if seg.argv and seg.argv[0] in ("cd", "pushd", "popd"):
        return False  # the client asks for cd in compounds with git; never needed here
    return claude_builtin.segment_is_read_only(list(seg.argv or ()), text, seg.env_vars,
                                               seg.wrappers, _has_unquoted_glob(text), version)


def _only_harmless_redirects(redirects) -> bool:
    words = list(redirects or ())
    for i, word in enumerate(words):
        if word.startswith((">", "1>", "2>", "&>")) and not word.endswith(("&1", "&2")):
            target = word.split(">", 1)[1].lstrip(">").lstrip("&")
            if not target and i + 1 < len(words):
                target = words[i + 1]
            if target and target != "/dev/null" and not target.isdigit():
                return False
    return True


def _has_unquoted_glob(text: str) -> bool:
    quote = None
    for c in text:
        if quote:
            if c == quote:
                quote = None
        elif c in "'\"":
            quote = c
        elif c in "*?[":
            return True
    return False


# ---------------------------------------------------------------------------------------------
# the answer the client gets: when it surely prompts, and plan mode

#: Modes in which the client prompts for a command that is not read-only and no rule allows,
#: and in which a hook's `ask` + `updatedInput` prompts for the rewritten command: approving it
#: runs the filtered command (measured on 2.1.197 and 2.1.332, with a recording approver).
#: Not dontAsk (it refuses instead), auto (its classifier decides), bypassPermissions (it
#: runs them).
PROMPT_MODES = ("default", "acceptEdits", "plan")


def for_the_answer(command: str, rules: RuleSet, mode: str, verdict, prefixes=()):
    """The verdict, adjusted to what the client does with the hook's answer:
    - plan mode: the client asks about a rewritten command even with the hook's allow (it
      checks the command it finally runs against plan mode's read-only list: 2.1.332), so an
      allow becomes an ask without the mark: no answer, the client runs the original;
    - an ask that the client surely shows on the original command (not a mere "not sure") is
      marked `prompts`: the hook may then ask for the rewritten command itself, so that the
      approved run is filtered (cc-gate marks the record `"prompts": true`)."""
    if verdict.decision == ALLOW and mode == "plan":
        return decision.GateDecision(ASK, "plan mode: the client would ask about the "
                                          f"rewritten command, so it is left alone ({verdict.reason})",
                                     verdict.rule)
    if verdict.decision == ASK and client_prompts(command, rules, mode, prefixes):
        return decision.GateDecision(ASK, verdict.reason, verdict.rule, prompts=True)
    return verdict


def client_prompts(command: str, rules: RuleSet, mode: str, prefixes=()) -> bool:
    """Whether the client surely asks the user about `command` (the gate said ask): in one of
    PROMPT_MODES, with every source understood, no other hook, plugin or sandbox that could
    answer for the user, and a top-level segment that no allow rule matches (as written or
    its peeled core) and that the client's read-only check surely refuses
    (claude_builtin.surely_asks: `pytest`, `npm install`, `git push`; never a command its
    tables know). Not on the strength of an ask rule alone: the gate also holds ask rules
    the client does not read (`~/.claude/settings.local.json`, `[gate]`). In doubt: False (no
    answer; the client asks on the original)."""
    if mode not in PROMPT_MODES or rules.doubt is not None:
        return False
    from cc_lex.lexer import LexError
    from cc_peel.peeling import peel

    from . import claude_builtin

    try:
        segments = (peel(command, prefixes) if prefixes else peel(command)).segments
    except LexError:
        return False
    version = client_version(rules)
    sure = False
    for seg in segments:
        if seg.nested is not None or not seg.argv:
            continue
        text = seg.text
        argv = list(seg.argv)
        if not claude_builtin.surely_asks(argv, text, mode, version, (seg.core,)):
            continue
        wrappers = (seg.wrappers or "").split()
        if wrappers and not claude_builtin.surely_asks(wrappers, seg.wrappers, mode, version):
            continue
        if _some_allow_rule_matches(seg, rules):
            continue
        sure = True
        break
    return sure and not other_deciders(rules)


def _some_allow_rule_matches(seg, rules: RuleSet) -> bool:
    """Whether an allow rule matches the segment as written or its peeled core (env prefixes
    and wrappers such as `timeout`, `nice`, `sudo` cut off: more than the client cuts for its
    allow rules), so the client may allow it."""
    texts = [t for t in (seg.text, seg.core) if t]
    return any(rule.matches(t) for rule in rules.allow for t in texts)


def other_deciders(rules: RuleSet):
    """Something besides the user that may answer a prompt or allow a command: another
    PreToolUse or a PermissionRequest hook, an enabled plugin (its hooks), the sandbox
    (`autoAllowBashIfSandboxed`), in any settings file the client reads or `--settings`.
    The reason, or None. Read only when the client would prompt (cold path)."""
    cached = rules.extra.get("other_deciders", False)
    if cached is not False:
        return cached
    found = None
    sources = [(read_settings(path, False, []), path) for path in
               settings_files(rules.extra.get("cwd") or os.getcwd())]
    from cc_peel.record import loads

    for text, source in (rules.extra.get("client_flags") or {}).get("settings", ()):
        stripped = text.strip()
        try:
            value = loads(stripped) if stripped.startswith("{") else \
                read_settings(stripped, False, [])
        except ValueError:
            value = None
        sources.append((value, source))
    for settings, source in sources:
        if not isinstance(settings, dict):
            continue
        found = _deciders_in(settings, source)
        if found:
            break
    rules.extra["other_deciders"] = found
    return found


def _matcher_may_match(matcher) -> bool:
    """Whether a hook group's matcher may select the Bash tool (no matcher, `*`, `Bash`,
    `Bash|Write`, a regex that matches it, or one this cannot read)."""
    if matcher is None or matcher in ("", "*"):
        return True
    if not isinstance(matcher, str):
        return True
    if "Bash" in matcher.split("|"):
        return True
    import re

    try:
        return re.fullmatch(matcher, "Bash") is not None or re.search(matcher, "Bash") is not None
    except re.error:
        return True


def _deciders_in(settings: dict, source: str):
    hooks = settings.get("hooks")
    if isinstance(hooks, dict):
        for event in ("PreToolUse", "PermissionRequest"):
            groups = hooks.get(event) or ()
            for group in groups if isinstance(groups, (list, tuple)) else [None]:
                if isinstance(group, dict) and not _matcher_may_match(group.get("matcher")):
                    continue  # a hook for other tools (`Write`)
                commands = [h.get("command") if isinstance(h, dict) else None
                            for h in (group.get("hooks") or ())] if isinstance(group, dict) \
                    else [None]
                if any(not isinstance(c, str) or "ctxcrl-hook-" not in c for c in commands):
                    return f"another {event} hook in {source}"
    plugins = settings.get("enabledPlugins")
    if isinstance(plugins, dict) and any(v is True for v in plugins.values()):
        return f"enabled plugins in {source} (their hooks)"
    sandbox = settings.get("sandbox")
    if isinstance(sandbox, dict) and sandbox.get("enabled") is True:
        return f"the sandbox in {source} (autoAllowBashIfSandboxed)"
    return None


# ---------------------------------------------------------------------------------------------
# the running client's version, and commands allowed by a rule saved for the rewritten form


def prepare(rules: RuleSet) -> None:
    """Before the gate stage reads its input (while the hook's decode still works): the
    running client's version and its read-only tables, which deciding on any command without
    an allow rule reads."""
    from . import claude_builtin

    version = client_version(rules)
    if claude_builtin.table_is_current(version):
        claude_builtin.tables(version)


def client_version(rules: RuleSet):
    """The version of the running `claude` (its package.json, a native install's file
    name, else the AI_AGENT variable it sets: `claude-code_2-1-332_…`); None when unknown.
    Cached in the rules."""
    if "client_version" not in rules.extra:
        rules.extra["client_version"] = running_client_version()
    return rules.extra["client_version"]


_LOOK = object()


def running_client_version(found=_LOOK):
    """`found`: the (pid, argv) of the `claude` ancestor, None for none, or looked up."""
    if found is _LOOK:
        from ..process import client_process

        found = client_process(CLIENT_NAMES)
    if found is not None:
        pid, argv = found
        paths = []
        try:
            paths.append(os.path.realpath(f"/proc/{pid}/exe"))
        except OSError:
            pass
        paths += [os.path.realpath(a) for a in argv[1:2] if a.startswith("/")]
        for path in paths:
            version = _version_near(path)
            if version:
                return version
    agent = os.environ.get("AI_AGENT", "")
    if agent.startswith("claude-code_"):
        version = agent.split("_")[1].replace("-", ".")
        if _looks_like_version(version):
            return version
    return None


def _version_near(path: str):
    base = os.path.basename(path)
    if _looks_like_version(base):
        return base  # ~/.local/share/claude/versions/2.1.332
    folder = os.path.dirname(path)
    for candidate in (folder, os.path.dirname(folder)):
        meta = read_settings(os.path.join(candidate, "package.json"), False, [])
        if isinstance(meta, dict) and str(meta.get("name", "")).startswith(
                "@anthropic-ai/claude-code") and isinstance(meta.get("version"), str):
            return meta["version"]
    return None


def _looks_like_version(text: str) -> bool:
    parts = text.split(".")
    return len(parts) == 3 and all(p.isdigit() for p in parts)


def add_rewritten_form_aliases(rules: RuleSet) -> None:
    """An allow rule that names the rewritten form (`Bash(cc-filter run pytest:*)`, what the
    prompt saves when the user approves a rewritten command for good) also allows the
    original (`pytest`): the hook rewrites it to that form, which the rule allows. Not a
    rule that names cc-filter alone (`cc-filter run:*`): that would allow everything."""
    for rule in list(rules.allow):
        original = rewritten_form_original(rule.pattern)
        if original:
            rules.allow.append(Rule(ALLOW, rule.text, original,
                                    f"{rule.source} (saved for the rewritten command)"))


def rewritten_form_original(pattern: str):
    """`pytest:*` of `cc-filter run pytest:*` (or `/abs/cc-filter run …`); else None."""
    head, _, rest = pattern.strip().partition(" ")
    if head.rsplit("/", 1)[-1] != "cc-filter" or not rest.startswith("run "):
        return None
    original = rest[4:].lstrip()
    core = original[:-2] if original.endswith(":*") else original
    core = core[:-2] if core.endswith(" *") else core
    if not core.strip() or core.strip() in ("*", ":*") or core.lstrip().startswith(("*", "-")):
        return None
    return original
