"""Gemini CLI's permission model: its Policy Engine, reproduced for the shell tool (0.61.0).

Sources, as the client reads them:
- policy files (`gemini_policy`): admin tier `/etc/gemini-cli/policies/*.toml` (only when that
  directory is root's and not writable by others, as the client checks), else the paths of
  `--admin-policy` / `adminPolicyPaths`; user tier `~/.gemini/policies/*.toml`, or the paths
  of `--policy` / `policyPaths` instead. The workspace tier (`.gemini/policies/`) is switched
  off in 0.61.0 (the client never loads it), so it is not read either;
- the client's own default rules for `run_shell_command` (write.toml, plan.toml, yolo.toml);
- settings (`/etc/gemini-cli/settings.json` or `GEMINI_CLI_SYSTEM_SETTINGS_PATH`,
  `~/.gemini/settings.json`, the project's `.gemini/settings.json`): the deprecated
  `tools.exclude` (deny, priority 4.4), `tools.confirmationRequired` (ask_user, 4.35),
  `tools.allowed` / `--allowed-tools` (allow, 4.3, plus the client's deny of every other shell
  command at 4.29 when one of them names a command), `general.defaultApprovalMode`;
- the running client's flags (`cc_gate.process`): `--yolo`, `--approval-mode`, `-p`, `-i`,
  `--acp`, `--policy`, `--admin-policy`, `--allowed-tools`; and whether its stdin and stdout are
  a terminal (no terminal, or `-p`: a headless run, where ask_user means deny);
- contextcrawler's `[gate]`: its deny and ask rules (an allow there cannot make Gemini run
  anything: the client's engine decides on the command it finally runs).

`decide` answers "allow" only when the engine, as reproduced, runs the original command
without asking **and** the rewritten one (the record's `rewritten`: the gate runs after
cc-rewrite for Gemini) too, in a headless run; in an interactive session (`_interactive`), when
every approval mode decides the same about both, "allow" for a command that runs unasked and
"ask" with `prompts` for one the client asks about (its dialog then names the rewritten
command); "deny" when the engine refuses the original, a
peeled spelling meets a deny rule, or the model typed `cc-filter run X` for an X the engine
would not run by itself (the rule `cc-hook init` installs lets `cc-filter run …` through);
"ask" otherwise (no answer: the client's own flow on the original command).

Runs on every agent command: imports only `os` and the cheap gate modules; TOML is parsed
once per file change (`gemini_policy`'s cache).
"""
from ctxcrl import lean_os as os

from .. import decision, process
from ..rules import ALLOW, ASK, DENY, Rule, RuleSet, add_config, dig, \
    find_project_dir, home_dir, settings_of
from . import gemini_policy as policy

NAME = "gemini"
#: The tool names that mean "a shell command" in the agent's rules.
SHELL_TOOLS = ("run_shell_command", "ShellTool")
CLIENT_NAMES = ("gemini", "gemini.js")
SYSTEM_SETTINGS = "/etc/gemini-cli/settings.json"
SYSTEM_POLICIES = "/etc/gemini-cli/policies"
SEVERITY = {ALLOW: 0, ASK: 1, DENY: 2}
#: Priority (user tier) of the rule `cc-hook init` installs for rewritten commands.
FILTER_RULE_PRIORITY = 300
#: Interactive sessions: the allow for known-safe commands, and the ask for every other
#: rewritten command, above the "Allow for this session" rules (workspace tier + 0.95) and
#: every user rule (the gate rewrites only where its per-mode check finds no difference).
INTERACTIVE_SAFE_PRIORITY = 999
INTERACTIVE_ASK_PRIORITY = 998
FILTER_RULE_FILE = "ctxcrl.toml"

# Gemini CLI's own defaults for run_shell_command (bundle/policies/*.toml, 0.61.0).
_DEFAULTS = (
    ("ask", 10, None, True, "write.toml"),            # interactive: ask_user
    ("deny", 10, None, False, "write.toml"),          # headless: deny
    ("deny", 40, ("plan",), None, "plan.toml"),       # plan mode: deny everything
    ("allow", 998, ("yolo",), None, "yolo.toml"),     # yolo: allow everything
)
# Settings-derived priorities (the engine's constants).
_EXCLUDE, _CONFIRM, _ALLOWED, _NARROWING = 4.4, 4.35, 4.3, 4.29


class GeminiState:
    """What the engine needs besides the rules: the approval mode and whether the run is
    headless (non-interactive)."""

    __slots__ = ("mode", "headless", "policies", "filter_rule", "known")

    def __init__(self, mode, headless, policies: list, known: bool = True):
        #: None when unknown (the client's process was not found): every rule then applies,
        #: so only denies come out of it
        self.mode = mode
        self.headless = headless
        self.known = known
        self.policies = sorted(policies, key=lambda r: -r.priority)  # stable, like the client
        self.filter_rule = any(FILTER_RULE_FILE in r.source for r in policies)

    def in_mode(self, mode: str) -> "GeminiState":
        """The same session in another approval mode."""
        other = GeminiState.__new__(GeminiState)
        for name in GeminiState.__slots__:
            setattr(other, name, getattr(self, name))
        other.mode = mode
        return other


# ---------------------------------------------------------------------------------------------
# loading


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    flags = _client_flags(rules)
    settings = _settings(rules, cwd)
    policies = [policy.PolicyRule(d, policy.TIER_DEFAULT + p / 1000, modes, interactive,
                                  source=f"Gemini CLI's {name}")
                for d, p, modes, interactive, name in _DEFAULTS]
    _settings_rules(rules, settings, flags, policies)
    _policy_files(rules, settings, flags, policies)
    mode = _approval_mode(rules, settings, flags)
    known = bool(flags)
    rules.extra[NAME] = GeminiState(mode if known else None,
                                    flags.get("headless") if known else None, policies, known)
    add_config(rules)  # its allow rules are listed, never used: only Gemini's engine allows
    return rules


def _client_flags(rules: RuleSet) -> dict:
    found = process.client_process(CLIENT_NAMES)
    if found is None:
        rules.doubt_about("the Gemini CLI process was not found (its flags decide the approval "
                          "mode): never auto-allowed")
        return {}
    pid, argv = found
    flags: dict = {"policy": [], "admin_policy": [], "allowed_tools": []}
    words = argv[1:]
    options = {"--approval-mode": "approval_mode", "--policy": "policy",
               "--admin-policy": "admin_policy", "--allowed-tools": "allowed_tools"}
    i = 0
    while i < len(words):
        word = words[i]
        name, eq, value = word.partition("=")
        if word == "--":
            break
        if word in ("-y", "--yolo") or name == "--yolo":
            following = words[i + 1] if i + 1 < len(words) else ""
            if not eq and following in ("true", "false"):  # yargs reads `--yolo false`
                value, i = following, i + 1
            flags["yolo"] = value != "false"
        elif word in ("-p", "--prompt") or name == "--prompt":
            flags["prompt"] = True
            i += 0 if eq else 1
        elif word in ("-i", "--prompt-interactive", "--acp", "--experimental-acp") \
                or name == "--prompt-interactive":
            flags["interactive"] = True
        elif name in options:
            if not eq:
                i += 1
                value = words[i] if i < len(words) else ""
            key = options[name]
            if key == "approval_mode":
                flags[key] = value
            else:
                flags[key] += [v.strip() for v in value.split(",") if v.strip()]
        i += 1
    if flags.get("interactive"):
        flags["headless"] = False
    elif flags.get("prompt"):
        flags["headless"] = True
    else:
        ttys = [process.is_terminal(pid, fd) for fd in (0, 1)]
        if None in ttys:
            rules.doubt_about("cannot tell whether the Gemini CLI runs headless: never "
                              "auto-allowed")
        flags["headless"] = not all(ttys)
    return flags


def gemini_home() -> str:
    """Where Gemini CLI keeps `.gemini/` (`GEMINI_CLI_HOME` replaces the home folder)."""
    return os.environ.get("GEMINI_CLI_HOME") or home_dir()


def _settings(rules: RuleSet, cwd: str) -> list:
    """The settings objects, highest precedence first (system, project, user)."""
    home = gemini_home()
    user_dir = os.path.join(home, ".gemini")
    files = [os.environ.get("GEMINI_CLI_SYSTEM_SETTINGS_PATH") or SYSTEM_SETTINGS]
    project = find_project_dir(cwd, ".gemini", home)
    if project is not None and os.path.join(project, ".gemini") != user_dir:
        files.append(os.path.join(project, ".gemini", "settings.json"))
    files.append(os.path.join(user_dir, "settings.json"))
    before = len(rules.warnings)
    found = list(settings_of(rules, files, True))
    if len(rules.warnings) > before:
        rules.doubt_about("a Gemini settings file could not be read: never auto-allowed")
    return found


def _first(settings: list, *keys):
    for values, _source in settings:
        value = dig(values, *keys)
        if value is not None:
            return value
    return None


def _settings_rules(rules: RuleSet, settings: list, flags: dict, policies: list) -> None:
    tools = SHELL_TOOLS
    for values, source in settings:
        excluded = _list(dig(values, "tools", "exclude")) + _list(values.get("excludeTools"))
        for entry in excluded:
            _whole_tool_rule(rules, policies, DENY, _EXCLUDE, entry, tools,
                             f"tools.exclude in {source}")
        for entry in _list(dig(values, "tools", "confirmationRequired")):
            _whole_tool_rule(rules, policies, ASK, _CONFIRM, entry, tools,
                             f"tools.confirmationRequired in {source}")
        if dig(values, "tools", "core") is not None:
            rules.doubt_about(f"tools.core in {source} is not reproduced: never auto-allowed")
    allowed = flags.get("allowed_tools") or _list(_first(settings, "tools", "allowed"))
    narrowed = False
    for entry in allowed:
        name, paren, body = entry.strip().partition("(")
        if name.strip() not in tools:
            continue
        if not paren:
            policies.append(policy.PolicyRule(ALLOW, _ALLOWED, source=f"{entry} in tools.allowed"))
            continue
        body = body[:-1] if body.endswith(")") else body
        policies.append(policy.PolicyRule(ALLOW, _ALLOWED, kind="prefix", text=body,
                                          source=f"{entry.strip()} in tools.allowed"))
        narrowed = True
    if narrowed:  # the client then denies every other shell command
        policies.append(policy.PolicyRule(DENY, _NARROWING,
                                          source="tools.allowed (every other shell command)"))


def _list(value) -> list:
    return [v for v in value if isinstance(v, str)] if isinstance(value, list) else []


def _whole_tool_rule(rules, policies, kind, priority, entry, tools, source) -> None:
    """`tools.exclude` / `tools.confirmationRequired`: the client matches each entry as a
    tool name, so `run_shell_command` applies to every shell command and
    `run_shell_command(git push)` to none (0.61.0). The gate keeps the latter as a rule of its
    own (a deny it adds, an ask that only withholds the rewrite): what the user meant."""
    name, paren, _body = entry.strip().partition("(")
    if name.strip() not in tools:
        return
    if not paren:
        policies.append(policy.PolicyRule(kind, priority, source=source))
        return
    rules.add(kind, [entry], tools, source)


def _policy_files(rules: RuleSet, settings: list, flags: dict, policies: list) -> None:
    cache = policy.PolicyCache()
    paths = []
    system_files = _secure_files(SYSTEM_POLICIES)
    if system_files:
        paths += [(f, policy.TIER_ADMIN) for f in system_files]
    else:
        admin = flags.get("admin_policy") or _list(_first(settings, "adminPolicyPaths"))
        paths += [(p, policy.TIER_ADMIN) for p in admin]
    user = flags.get("policy") or _list(_first(settings, "policyPaths"))
    paths += [(os.path.expanduser(p), policy.TIER_USER) for p in user] or \
        [(os.path.join(gemini_home(), ".gemini", "policies"), policy.TIER_USER)]
    for path, tier in paths:
        try:
            files = policy.policy_files(os.path.abspath(path))
        except policy.PolicyError as exc:
            _skip(rules, path, str(exc))
            continue
        for file in files:
            try:
                policies.extend(cache.rules_of(file, tier))
                rules.files.append(file)
            except (policy.PolicyError, ValueError) as exc:
                _skip(rules, file, str(exc))
    cache.save()


def _skip(rules: RuleSet, path: str, problem: str) -> None:
    from ctxcrl.home import short_path

    rules.warnings.append(f"skipping Gemini policy {short_path(path)}: {problem}")
    rules.doubt_about(f"Gemini policy {short_path(path)} could not be reproduced: never "
                      "auto-allowed")


def _secure_files(directory: str) -> list:
    """The system policy files, when the client would load them: the directory is root's and
    not writable by group or others."""
    try:
        st = os.stat(directory)
    except OSError:
        return []
    if st.st_uid != 0 or st.st_mode & 0o022:
        return []
    try:
        return policy.policy_files(directory)
    except policy.PolicyError:
        return []


def _approval_mode(rules: RuleSet, settings: list, flags: dict) -> str:
    raw = flags.get("approval_mode") or ("yolo" if flags.get("yolo") else None)
    if raw is None:
        configured = _first(settings, "general", "defaultApprovalMode")
        raw = configured if configured != "yolo" else None
    mode = {None: "default", "default": "default", "auto_edit": "autoEdit", "yolo": "yolo",
            "plan": "plan"}.get(raw)
    if mode is None:
        rules.doubt_about(f"unknown Gemini approval mode {raw!r}: never auto-allowed")
        return "default"
    if mode == "plan" and _first(settings, "general", "plan", "enabled") is False:
        return "default"
    return mode


# ---------------------------------------------------------------------------------------------
# deciding


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    state = rules.extra.get(NAME)
    if not isinstance(state, GeminiState):  # rules built elsewhere: the generic gate
        return decision.decide(command, rules, prefixes)
    cwd = record.get("cwd") if isinstance(record, dict) else None
    # interactive: the client's known-safe list is reproduced (it needs the working folder)
    engine = _Engine(state, prefixes, None if state.headless is not False else
                     (cwd if isinstance(cwd, str) else os.getcwd()))
    tool_input = record.get("input") if isinstance(record, dict) else None
    args = dict(tool_input) if isinstance(tool_input, dict) else {}
    args["command"] = command

    typed = _typed_filter_runs(command, prefixes)
    for text in (command, typed) if typed != command else (command,):
        denied = _hardening_deny(text, rules, engine)               # any spelling, any rule
        if denied is not None:
            return denied
    if not state.known:
        if typed != command:  # the installed rule would let it through unchecked
            return decision.GateDecision(DENY, f"`cc-filter run` typed by the model cannot be "
                                               f"checked: {rules.doubt}")
        return decision.GateDecision(ASK, rules.doubt or "Gemini's mode is unknown")
    verdict, why = engine.check(command, args)
    if verdict == DENY:
        return decision.GateDecision(DENY, f"Gemini's policy: {why}")
    if typed != command:
        # The installed rule lets `cc-filter run …` through; X itself must be allowed (where
        # the gate cannot tell, the client might still run it: deny).
        inner, inner_why = engine.check(typed, {**args, "command": typed})
        if inner != ALLOW or rules.doubt is not None:
            return decision.GateDecision(
                DENY, f"`cc-filter run` may only run what Gemini would run by itself; "
                      f"{typed.strip()!r}: {rules.doubt or inner_why}")
    asked = _gate_ask(command, rules, prefixes)
    if asked is not None:
        return asked
    if rules.doubt is not None:
        return decision.GateDecision(ASK, rules.doubt)
    if not state.headless:
        return _interactive(command, state, record, args, prefixes)
    if verdict == ASK:
        return decision.GateDecision(ASK, f"Gemini's policy: {why}")
    if "dir_path" in args:
        return decision.GateDecision(ASK, "dir_path given: never auto-allowed")
    rewritten = record.get("rewritten") if isinstance(record, dict) else None
    if isinstance(rewritten, str) and rewritten.strip() and rewritten != command:
        after, after_why = engine.check(rewritten, {**args, "command": rewritten})
        if after != ALLOW:
            return decision.GateDecision(
                ASK, f"Gemini's policy would not run the rewritten command ({after_why}): "
                     "left as it is")
    return decision.GateDecision(ALLOW, f"Gemini's policy: {why}")


def _interactive(command, state, record, args, prefixes):
    """An interactive session: its approval mode can change at any time (Shift+Tab, Ctrl+Y,
    the model's enter_plan_mode), and the hook is not told. So a command is rewritten only
    when, in every mode, the engine decides the same about the rewritten command as about the
    original: a command Gemini runs unasked (its known-safe list, or a rule) still runs
    unasked, one it asks about still asks, now about the rewritten command, whose approved run
    is filtered; a refusal stays a refusal. The installed policy file's interactive rules make
    that hold for the default setup (`filter_rule_text`). Anything the gate cannot tell for
    sure leaves the command alone."""
    record = record if isinstance(record, dict) else {}
    cwd = record.get("cwd") if isinstance(record.get("cwd"), str) else os.getcwd()
    engine = _Engine(state, prefixes, cwd)
    verdict, why = engine.check(command, args)
    if engine.unsure:
        return decision.GateDecision(ASK, why)
    rewritten = record.get("rewritten")
    if not isinstance(rewritten, str) or not rewritten.strip() or rewritten == command:
        return decision.GateDecision(verdict, f"Gemini's policy: {why}")
    if "dir_path" in args:
        return decision.GateDecision(ASK, "dir_path given: never rewritten")
    if not state.filter_rule:
        return decision.GateDecision(ASK, "no policy rule for rewritten commands "
                                          f"({FILTER_RULE_FILE}): left as it is")
    for mode in policy.MODES:
        engine = _Engine(state.in_mode(mode), prefixes, cwd)
        before = engine.check(command, args)
        after = engine.check(rewritten, {**args, "command": rewritten})
        if engine.unsure:
            return decision.GateDecision(ASK, f"the client's own shell heuristics decide "
                                              f"({mode} mode): left as it is")
        if before[0] != after[0]:
            return decision.GateDecision(
                ASK, f"in {mode} mode Gemini's policy would {_word(after[0])} the rewritten "
                     f"command but {_word(before[0])} the original: left as it is")
    if verdict == ALLOW:
        return decision.GateDecision(ALLOW, f"Gemini's policy: {why}")
    return decision.GateDecision(ASK, f"Gemini asks about the rewritten command as about the "
                                      f"original ({why}): its approved run is filtered",
                                 prompts=True)


def _word(verdict: str) -> str:
    return {ALLOW: "run", ASK: "ask about", DENY: "refuse"}[verdict]


def _hardening_deny(command: str, rules: RuleSet, engine: "_Engine"):
    """ARCHITECTURE §5 rule 4: every peeled spelling of every segment against the deny rules — a
    Gemini rule with a pattern that is the highest-priority match for that spelling, or a
    `[gate]` deny."""
    found: list = []

    def gemini_deny(text: str) -> bool:
        top = engine.top({"command": text})
        if top is not None and top.decision == DENY and not top.patternless:
            found.append(top)
            return True
        return False

    probe = RuleSet()
    probe.deny = [Rule(DENY, "Gemini policy", "*", "Gemini", gemini_deny)] + list(rules.deny)
    probe.allow = [Rule(ALLOW, "*", "*", "probe")]
    verdict = decision.decide(command, probe, engine.prefixes)
    if verdict.decision != DENY:
        return None
    if found and verdict.rule is probe.deny[0]:
        return decision.GateDecision(DENY, f"Gemini's policy: {found[-1].describe()}")
    return decision.GateDecision(DENY, verdict.reason)


def _gate_ask(command: str, rules: RuleSet, prefixes):
    if not rules.ask:
        return None
    probe = RuleSet()
    probe.ask = list(rules.ask)
    probe.allow = [Rule(ALLOW, "*", "*", "probe")]
    verdict = decision.decide(command, probe, prefixes)
    return verdict if verdict.decision == ASK and verdict.rule in rules.ask else None


def _typed_filter_runs(command: str, prefixes) -> str:
    """`command` with every `cc-filter run [--filter=N] [--]` the model typed taken out (the
    command Gemini would have judged without contextcrawler)."""
    from cc_lex.lexer import LexError
    from cc_peel.peeling import peel

    try:
        peeled = peel(command, prefixes) if prefixes else peel(command)
    except LexError:
        return command
    cuts = []
    for seg in peeled.segments:
        argv = list(seg.argv or ())
        if len(argv) < 2 or os.path.basename(argv[0]) != "cc-filter" or argv[1] != "run":
            continue
        words = [t for t in peeled.tokens
                 if t.kind == "word" and seg.core_start <= t.start < seg.core_end]
        skip = 2
        while skip < len(words) and words[skip].text.startswith("-"):
            skip += 1
            if words[skip - 1].text == "--":
                break
        end = words[skip].start if skip < len(words) else seg.core_end
        cuts.append((seg.core_start, end))
    for start, end in reversed(cuts):
        command = command[:start] + command[end:]
    return command


class _Engine:
    """`PolicyEngine.check` for run_shell_command, conservatively: where the client's own
    heuristics could go either way (known-safe and dangerous commands, a parse the gate and
    tree-sitter may disagree on), the answer is ask."""

    def __init__(self, state: GeminiState, prefixes=(), cwd=None):
        self.state = state
        self.prefixes = prefixes
        self.cwd = cwd
        #: set when the client's shell heuristics could go either way for a check
        self.unsure = False

    def top(self, args: dict):
        """The deciding rule for a call (the strictest of equal-priority matches)."""
        text = policy.stable_args(args)
        best = []
        for rule in self.state.policies:
            if best and rule.priority < best[0].priority:
                break
            if rule.applies(self.state.mode, self.state.headless) and \
                    rule.matches(text, args.get("command")):
                best.append(rule)
        if not best:
            return None
        return max(best, key=lambda r: SEVERITY[r.decision])

    def check(self, command: str, args: dict, heuristics: bool = True, depth: int = 0):
        """(allow | ask | deny, why)."""
        rule = self.top(args)
        if rule is None:
            if self.state.mode == "yolo":
                return ALLOW, "yolo mode"
            verdict = DENY if self.state.headless else ASK
            why = "no rule matches (" + ("headless: denied" if self.state.headless
                                         else "asks") + ")"
        else:
            verdict, why = rule.decision, rule.describe()
        if verdict == DENY:
            return DENY, why
        if heuristics and (rule is None or rule.patternless) and self.state.mode != "yolo":
            outcomes = {self._shell_check(command, v, w, rule, depth)
                        for v, w in self._heuristics(command, rule, verdict, why)}
            if len({v for v, _w in outcomes}) == 1:
                return min(outcomes)
            self.unsure = True
            return ASK, f"{why}; the client's own shell heuristics decide"
        return self._shell_check(command, verdict, why, rule, depth)

    def _heuristics(self, command, rule, verdict, why):
        """What the engine's shell heuristics (`applyShellHeuristics`, for a rule without a
        pattern) may make of `verdict`: the set of (verdict, why) they can produce. A
        dangerous command asks; a known-safe one turns ask into allow."""
        if rule is None or self.cwd is None:  # the client applies none; the gate is careful
            return {(verdict, why), (ASK, why)}
        from . import gemini_safe

        words = gemini_safe.words_of(command)
        if words is None:
            first = gemini_safe.first_word(command)
            possible = {(verdict, why)}
            if first is None or os.path.basename(first) in gemini_safe.DANGEROUS_FIRST:
                possible.add((ASK, f"{why}; maybe dangerous"))
        elif gemini_safe.dangerous(words):
            return {(ASK, f"{why}; a dangerous command asks")}
        else:
            possible = {(verdict, why)}
        if verdict == ASK:
            safe = gemini_safe.known_safe(command, self.cwd)
            if safe is True:
                return {(ALLOW, "known safe to Gemini CLI (its built-in list)")}
            if safe is None:
                possible.add((ALLOW, "maybe known safe to Gemini CLI"))
        return possible

    def _shell_check(self, command, verdict, why, rule, depth):
        from cc_lex.lexer import LexError
        from cc_peel.peeling import peel

        try:
            peeled = peel(command, self.prefixes) if self.prefixes else peel(command)
        except LexError:
            return ASK, "the command does not parse"
        analysis = decision._Analysis()
        decision._analyse(command, 0, analysis, self.prefixes, top=True)
        if verdict == ALLOW and analysis.hazard is not None:
            return ASK, analysis.hazard
        allow_redirection = rule is not None and rule.allow_redirection
        if verdict == ALLOW and self._downgrades(peeled.tokens, allow_redirection):
            return ASK, f"{why}; a redirection asks"
        segments = [command[s.start:s.end].strip() for s in peeled.segments]
        segments = [s for s in segments if s]
        if len(segments) == 1 and segments[0] == command.strip():
            return verdict, why
        for text in segments:
            if depth > 3:
                return ASK, "nested too deeply"
            sub, sub_why = self.check(text, {"command": text}, heuristics=False,
                                      depth=depth + 1)
            if sub == DENY:
                return DENY, f"{sub_why} (for {text!r})"
            if sub == ASK and verdict != ASK:
                verdict, why = ASK, f"{sub_why} (for {text!r})"
        return verdict, why

    def _downgrades(self, tokens, allow_redirection: bool) -> bool:
        if allow_redirection or self.state.mode in ("autoEdit", "yolo"):
            return False
        return any(t.kind == "redirect" for t in tokens)


def interactive_safe_prefixes() -> list:
    """The commands an interactive Gemini CLI runs unasked by its own known-safe list, as the
    prefixes of the installed allow rule (each command still has to be known safe in full:
    the gate rewrites only then)."""
    from . import gemini_safe

    return [f"git {sub}" for sub in gemini_safe.GIT_READ_ONLY] + \
        sorted(gemini_safe.SAFE | {"find", "sed"})


def filter_rule_text(filter_commands) -> str:
    """The policy file `cc-hook init` installs (`~/.gemini/policies/ctxcrl.toml`).

    - Headless runs (`-p`), default and autoEdit modes: Gemini runs a rewritten
      `cc-filter run X`; the hook rewrites a command only when Gemini would run X itself.
    - Interactive sessions, default and autoEdit modes: `cc-filter run X` for an X from the
      client's known-safe list runs unasked (the hook rewrites only a command that is known
      safe in full); every other `cc-filter run …` asks, at a priority above the rules
      Gemini saves for "Allow for this session" (which name the command's first word,
      `cc-filter`), so such an approval never lets a later rewritten command through
      unasked. Yolo needs nothing; plan mode stays plan mode.

    The hook denies a `cc-filter run X` typed by the model unless X itself would run."""
    runs = [f"{c} run" for c in filter_commands]
    prefixes = ", ".join(policy.json_string(p) for p in runs)
    safe = ", ".join(policy.json_string(f"{p} {s}") for p in runs
                     for s in interactive_safe_prefixes())
    return (
        "# contextcrawler (cc-hook init --agent gemini): lets Gemini CLI run the commands\n"
        "# the contextcrawler hook rewrote into `cc-filter run X` exactly as it would run X.\n"
        "# The hook rewrites a command only when your rules and modes decide the same about\n"
        "# both spellings, and denies a `cc-filter run X` typed by the model unless X itself\n"
        "# would run. `cc-hook uninstall` removes this file.\n"
        "\n"
        "# headless runs (gemini -p): a rewritten command runs\n"
        "[[rule]]\n"
        'toolName = "run_shell_command"\n'
        f"commandPrefix = [{prefixes}]\n"
        'decision = "allow"\n'
        f"priority = {FILTER_RULE_PRIORITY}\n"
        'modes = ["default", "autoEdit"]\n'
        "interactive = false\n"
        "\n"
        "# interactive sessions: what Gemini CLI runs unasked (its known-safe commands) ...\n"
        "[[rule]]\n"
        'toolName = "run_shell_command"\n'
        f"commandPrefix = [{safe}]\n"
        'decision = "allow"\n'
        f"priority = {INTERACTIVE_SAFE_PRIORITY}\n"
        'modes = ["default", "autoEdit"]\n'
        "interactive = true\n"
        "\n"
        "# ... and everything else asks, as Gemini CLI asks about the command itself\n"
        "[[rule]]\n"
        'toolName = "run_shell_command"\n'
        f"commandPrefix = [{prefixes}]\n"
        'decision = "ask_user"\n'
        f"priority = {INTERACTIVE_ASK_PRIORITY}\n"
        'modes = ["default", "autoEdit"]\n'
        "interactive = true\n")
