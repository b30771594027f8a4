"""OpenCode's permission model: `permission.bash` from every config OpenCode 1.18 merges.

Sources, in OpenCode's merge order (a later source wins; objects merge key by key, and a key
keeps the place where it first appeared, as JavaScript objects do):

1. global `$XDG_CONFIG_HOME/opencode/` `config.json`, `opencode.json`, `opencode.jsonc`;
2. `$OPENCODE_CONFIG` (a file);
3. the project's `opencode.json` / `opencode.jsonc`, from the git work tree's root down to the
   cwd (skipped with `OPENCODE_DISABLE_PROJECT_CONFIG`);
4. `opencode.json(c)` in each `.opencode/` folder from the root down, and in
   `$OPENCODE_CONFIG_DIR`;
5. `$OPENCODE_CONFIG_CONTENT` (inline JSON);
6. the managed `/etc/opencode/opencode.json(c)`;
7. `$OPENCODE_PERMISSION` (JSON, merged into `permission`); the legacy `tools: {"bash": false}`
   counts as `"bash": "deny"` under whatever `permission` says;
8. the running agent's own `agent.<name>.permission` (`--agent` of the `opencode` process,
   default `build`), after the global ones.

Rules are `permission: {"bash": "deny"}` or `{"bash": {"<pattern>": "allow|ask|deny", …}}`
(a `"*"` key, or any key whose wildcard matches `bash`, counts too). OpenCode evaluates each
simple command on its own and the LAST matching rule wins (`*` is any text, `?` one character,
a trailing ` *` also matches nothing); without one, bash is allowed (OpenCode's default).

OpenCode filters after execution (ARCHITECTURE §5 rule 1): the plugin never changes the command, so
this model only ever answers **deny** (OpenCode's own deny on some spelling of a segment:
hardening, ARCHITECTURE §5 rule 4) or **ask** (no answer: OpenCode decides on the unchanged command).
Imports only `os`.
"""
from ctxcrl import lean_os as os

from .. import decision
from ..process import client_argv
from ..rules import ALLOW, ASK, DENY, Rule, RuleSet, add_config, display_path, read_settings

NAME = "opencode"
PROGRAMS = ("opencode",)
MANAGED_DIR = "/etc/opencode"
DEFAULT_AGENT = "build"
_ACTIONS = (ALLOW, ASK, DENY)


def wildcard_match(text: str, pattern: str) -> bool:
    """OpenCode's `Wildcard.match`: the whole text against `*` (any text, newlines too) and
    `?` (one character); a pattern ending in ` *` also matches without that tail."""
    text = text.replace("\\", "/")
    pattern = pattern.replace("\\", "/")
    if pattern.endswith(" *") and _glob(text, pattern[:-2]):
        return True
    return _glob(text, pattern)


def _glob(text: str, pattern: str) -> bool:
    t = p = 0
    star = -1
    mark = 0
    n, m = len(text), len(pattern)
    while t < n:
        if p < m and (pattern[p] == "?" or pattern[p] == text[t]) and pattern[p] != "*":
            t += 1
            p += 1
        elif p < m and pattern[p] == "*":
            star = p
            mark = t
            p += 1
        elif star != -1:
            p = star + 1
            mark += 1
            t = mark
        else:
            return False
    while p < m and pattern[p] == "*":
        p += 1
    return p == m


def merge_deep(base: dict, extra: dict) -> dict:
    """`extra` merged into `base` (in place): objects key by key, anything else replaced."""
    for key, value in extra.items():
        if isinstance(value, dict) and isinstance(base.get(key), dict):
            merge_deep(base[key], value)
        elif isinstance(value, dict):
            base[key] = merge_deep({}, value)
        else:
            base[key] = value
    return base


class BashRule:
    """One `permission` entry that applies to bash, in evaluation order."""

    __slots__ = ("action", "pattern", "text", "source")

    def __init__(self, action: str, pattern: str, text: str, source: str):
        self.action = action
        self.pattern = pattern
        self.text = text
        self.source = source


def bash_rules(permission, source: str) -> list:
    """The rules of one merged `permission` value that concern the bash tool."""
    if isinstance(permission, str):
        permission = {"*": permission}
    if not isinstance(permission, dict):
        return []
    found = []
    for name, value in permission.items():
        if not isinstance(name, str) or not wildcard_match("bash", name):
            continue
        if isinstance(value, str):
            if value in _ACTIONS:
                found.append(BashRule(value, "*", f'"{name}": "{value}"', source))
            continue
        if not isinstance(value, dict):
            continue
        for pattern, action in value.items():
            if isinstance(pattern, str) and action in _ACTIONS:
                found.append(BashRule(action, _expand_home(pattern),
                                      f'"{name}": {{"{pattern}": "{action}"}}', source))
    return found


def _expand_home(pattern: str) -> str:
    if pattern.startswith("~/"):
        return os.path.join(os.path.expanduser("~"), pattern[2:])
    return pattern


def evaluate(command: str, rules: list):
    """The rule OpenCode applies to one simple command (the last that matches), or None."""
    for rule in reversed(rules):
        if wildcard_match(command, rule.pattern):
            return rule
    return None


def _worktree(cwd: str) -> str:
    here = os.path.abspath(cwd)
    while True:
        if os.path.exists(os.path.join(here, ".git")):
            return here
        parent = os.path.dirname(here)
        if parent == here:
            return os.path.abspath(cwd)
        here = parent


def _root_down(cwd: str) -> list:
    """The folders from the work tree's root down to `cwd`."""
    top = _worktree(cwd)
    here = os.path.abspath(cwd)
    chain = [here]
    while here != top:
        parent = os.path.dirname(here)
        if parent == here:
            break
        here = parent
        chain.append(here)
    return chain[::-1]


class Layout:
    """Where a client of OpenCode's lineage keeps its configs (Kilo CLI reads the same format
    under its own names): every name `config_files` and `load_rules` look up."""

    def __init__(self, label, programs, global_dir, global_files, env, project_files,
                 project_dirs, dir_files, managed_dir, default_agent):
        self.label = label                  # the client's name in a reason
        self.programs = programs            # its process names (for `--agent`)
        self.global_dir = global_dir        # under $XDG_CONFIG_HOME
        self.global_files = global_files
        self.env = env                      # CONFIG, CONFIG_DIR, CONFIG_CONTENT, PERMISSION,
        self.project_files = project_files  # DISABLE_PROJECT_CONFIG → variable names
        self.project_dirs = project_dirs
        self.dir_files = dir_files          # the files read in each project dir
        self.managed_dir = managed_dir      # None: MANAGED_DIR (OpenCode's)
        self.default_agent = default_agent


OPENCODE = Layout("OpenCode", PROGRAMS, "opencode",
                  ("config.json", "opencode.json", "opencode.jsonc"),
                  {key: f"OPENCODE_{key}" for key in ("CONFIG", "CONFIG_DIR", "CONFIG_CONTENT",
                                                      "PERMISSION", "DISABLE_PROJECT_CONFIG")},
                  ("opencode.json", "opencode.jsonc"), (".opencode",),
                  ("opencode.json", "opencode.jsonc"), None, DEFAULT_AGENT)


def global_config_dir(layout: Layout = OPENCODE) -> str:
    config_home = os.environ.get("XDG_CONFIG_HOME") or os.path.join(os.path.expanduser("~"),
                                                                    ".config")
    return os.path.join(config_home, layout.global_dir)


def config_files(cwd: str, layout: Layout = OPENCODE) -> list:
    """Every config file the client reads for `cwd`, in merge order (absent ones included)."""
    env = os.environ
    names = layout.env
    global_dir = global_config_dir(layout)
    files = [os.path.join(global_dir, name) for name in layout.global_files]
    if env.get(names["CONFIG"]):
        files.append(env[names["CONFIG"]])
    chain = _root_down(cwd)
    if not env.get(names["DISABLE_PROJECT_CONFIG"]):
        for folder in chain:
            files += [os.path.join(folder, name) for name in layout.project_files]
    dirs = [os.path.join(folder, sub) for folder in chain for sub in layout.project_dirs]
    if env.get(names["CONFIG_DIR"]):
        dirs.append(env[names["CONFIG_DIR"]])
    for folder in dirs:
        files += [os.path.join(folder, name) for name in layout.dir_files]
    return files


def running_agent(argv, default: str = DEFAULT_AGENT) -> str:
    """`--agent NAME` of the running client process (default: build)."""
    for i, word in enumerate(argv or ()):
        if word == "--agent" and i + 1 < len(argv):
            return argv[i + 1]
        if word.startswith("--agent="):
            return word[len("--agent="):]
    return default


def load_rules(cwd: str, layout: Layout = OPENCODE) -> RuleSet:
    rules = RuleSet()
    merged: dict = {}
    sources = []
    for path in config_files(cwd, layout):
        settings = read_settings(path, True, rules.warnings)
        if settings is not None:
            sources.append(display_path(path))
            merge_deep(merged, settings)
    inline = os.environ.get(layout.env["CONFIG_CONTENT"])
    if inline:
        _merge_json(merged, inline, layout.env["CONFIG_CONTENT"], rules, sources)
    for name in layout.dir_files:
        path = os.path.join(layout.managed_dir or MANAGED_DIR, name)
        settings = read_settings(path, True, rules.warnings)
        if settings is not None:
            sources.append(display_path(path))
            merge_deep(merged, settings)
    permission = merged.get("permission")
    if isinstance(permission, str):
        permission = {"*": permission}
    permission = dict(permission) if isinstance(permission, dict) else {}
    env_permission = os.environ.get(layout.env["PERMISSION"])
    if env_permission:
        extra: dict = {}
        _merge_json(extra, env_permission, layout.env["PERMISSION"], rules, sources)
        merge_deep(permission, extra)
    tools = merged.get("tools")
    if isinstance(tools, dict) and tools.get("bash") is False:
        permission = merge_deep({"bash": DENY}, permission)
    if rules.warnings:
        rules.doubt_about(f"an {layout.label} config file could not be read: never auto-allowed")
    source = ", ".join(sources) or f"{layout.label}'s defaults"
    bash = bash_rules(permission, source)
    agents = merged.get("agent")
    agent_name = running_agent(client_argv(layout.programs), layout.default_agent)
    agent = agents.get(agent_name) if isinstance(agents, dict) else None
    if isinstance(agent, dict):
        bash += bash_rules(agent.get("permission"), f"agent {agent_name} of {source}")
    rules.files.extend(sources)
    rules.extra["opencode_bash"] = bash
    for rule in bash:
        if rule.action == DENY:
            rules.deny.append(Rule(DENY, rule.text, rule.pattern, rule.source,
                                   _last_match_is(rule, bash)))
    add_config(rules)
    return rules


def _merge_json(target: dict, text: str, name: str, rules: RuleSet, sources: list) -> None:
    from cc_peel import record

    try:
        value = record.loads(text)
    except ValueError as exc:
        rules.warnings.append(f"skipping ${name}: malformed JSON ({exc})")
        return
    if not isinstance(value, dict):
        rules.warnings.append(f"skipping ${name}: not a JSON object")
        return
    sources.append(f"${name}")
    merge_deep(target, value)


def _last_match_is(rule: BashRule, ordered: list):
    """A deny rule's matcher: true when OpenCode would apply exactly this rule to a spelling."""
    return lambda text: evaluate(text, ordered) is rule


def decide(command: str, rules: RuleSet, record=None, prefixes=(), label: str = "OpenCode"):
    return decision.deny_only(command, rules, prefixes, lambda verdict: (
        f"{verdict.reason if verdict.decision == ASK else label + ' decides'} ({label} filters "
        "after execution: the command is not changed)"))
