"""Codex CLI's permission model (measured on codex-cli 0.171.0, see tests/agents/codex/).

Sources: `prefix_rule(…)` entries in `$CODEX_HOME/rules/*.rules` (default `~/.codex`) and in
`.codex/rules/*.rules` of every directory from the command's cwd up to the project root (the
nearest `.git`), the managed `[rules] prefix_rules` of `/etc/codex/requirements.toml`, plus
contextcrawler's `[gate]` config. Codex reads no Claude Code settings (`.claude/` is ignored by
the client), so neither does this model.

    prefix_rule(
        pattern = ["git", ["push", "fetch"]],   # words; a list is a set of alternatives
        decision = "forbidden",                 # allow | prompt | forbidden
        justification = "…",
    )

The files are Starlark; this reads only the literal `prefix_rule` calls (strings, lists,
`name = value` arguments, `#` comments) and ignores everything else. A pattern matches a
command that starts with its words (whole words), as `codex execpolicy check` does.

How Codex decides, and so what a rewrite may not change (Codex checks its rules on the command
it finally runs, the rewritten one):
- `forbidden` → Codex refuses it: deny, naming the rule (and its justification).
- `prompt` → Codex asks (and `codex exec`, whose approval policy is always "never", refuses):
  no answer, Codex decides on the original.
- `allow` → Codex runs it without asking **outside its sandbox**; `cc-filter run …` would no
  longer match the rule and would run inside the sandbox, so unless the sandbox is off
  (`danger-full-access`) this is no answer too.
- no rule → Codex runs it in its sandbox without asking when its approval policy is `never`
  (`codex exec` always; the hook reports `permission_mode: "bypassPermissions"`), `on-request`
  or `on-failure`; the rewritten command runs in the same sandbox, so this is allow. Under
  `untrusted`, Codex runs only its known-safe commands unasked, and `cc-filter run …` is never
  one of them: no answer.
A rule or config file that cannot be read or parsed is doubt: never allow. Imports only `os`
(and `tomllib` only when a TOML file has to be read).
"""
from ctxcrl import lean_os as os

from .. import decision
from ..rules import ALLOW, ASK, DENY, Rule, RuleSet, add_config, display_path, prefix_matcher, \
    read_cached

NAME = "codex"

DECISIONS = {"allow": ALLOW, "prompt": ASK, "forbidden": DENY}
_MAX_EXPANSIONS = 64


def codex_home() -> str:
    return os.environ.get("CODEX_HOME") or os.path.join(os.path.expanduser("~"), ".codex")


def rule_files() -> list:
    directory = os.path.join(codex_home(), "rules")
    try:
        names = sorted(n for n in os.listdir(directory) if n.endswith(".rules"))
    except OSError:
        return []
    return [os.path.join(directory, n) for n in names]


def parse_rules(text: str, source: str) -> list:
    """Every Rule of the `prefix_rule(…)` calls in `text`; raises ValueError on bad syntax."""
    tokens = _tokenize(text)
    rules = []
    i = 0
    while i < len(tokens):
        if tokens[i] == ("name", "prefix_rule") and i + 1 < len(tokens) and \
                tokens[i + 1] == ("op", "("):
            args, i = _call_args(tokens, i + 2)
            rules.extend(_rules_of(args, source))
        else:
            i += 1
    return rules


def _rules_of(args: dict, source: str) -> list:
    pattern = args.get("pattern")
    if not isinstance(pattern, list) or not pattern:
        return []
    decision = args.get("decision", "allow")  # Codex's default
    kind = DECISIONS.get(decision) if isinstance(decision, str) else None
    if kind is None:
        kind = ASK
    alternatives = [[w] if isinstance(w, str) else [x for x in w if isinstance(x, str)]
                    for w in pattern]
    if any(not alt for alt in alternatives):
        return []
    expansions = [[]]
    for alt in alternatives:
        expansions = [prefix + [word] for prefix in expansions for word in alt]
        if len(expansions) > _MAX_EXPANSIONS:
            expansions = expansions[:_MAX_EXPANSIONS]
    shown = "[" + ", ".join(_show(w) for w in pattern) + "]"
    text = f"prefix_rule(pattern={shown}, decision={decision!s})"
    if isinstance(args.get("justification"), str) and kind == DENY:
        text += f" ({args['justification']})"
    return [Rule(kind, text, " ".join(words), source, prefix_matcher(" ".join(words)))
            for words in expansions]


def _show(word) -> str:
    if isinstance(word, str):
        return f'"{word}"'
    return "[" + ", ".join(f'"{w}"' for w in word if isinstance(w, str)) + "]"


def _call_args(tokens, i):
    """Parse `name = value, …)` from tokens[i:]; returns (dict, index after the `)`)."""
    args = {}
    while i < len(tokens):
        if tokens[i] == ("op", ")"):
            return args, i + 1
        if tokens[i] == ("op", ","):
            i += 1
            continue
        if tokens[i][0] == "name" and i + 1 < len(tokens) and tokens[i + 1] == ("op", "="):
            name = tokens[i][1]
            value, i = _value(tokens, i + 2)
            args[name] = value
        else:
            _, i = _value(tokens, i)  # a positional argument: not part of this format
    raise ValueError("unclosed prefix_rule(")


def _value(tokens, i):
    if i >= len(tokens):
        raise ValueError("missing value")
    kind, text = tokens[i]
    if kind == "str":
        return text, i + 1
    if (kind, text) == ("op", "["):
        items = []
        i += 1
        while i < len(tokens) and tokens[i] != ("op", "]"):
            if tokens[i] == ("op", ","):
                i += 1
                continue
            item, i = _value(tokens, i)
            items.append(item)
        if i >= len(tokens):
            raise ValueError("unclosed [")
        return items, i + 1
    if (kind, text) in (("op", "("), ("op", "{")):
        closer = ")" if text == "(" else "}"
        depth = 0
        while i < len(tokens):
            if tokens[i] == ("op", text):
                depth += 1
            elif tokens[i] == ("op", closer):
                depth -= 1
                if depth == 0:
                    return None, i + 1
            i += 1
        raise ValueError(f"unclosed {text}")
    if kind == "name" and i + 1 < len(tokens) and tokens[i + 1] == ("op", "("):
        return _value(tokens, i + 1)  # a call: skipped whole
    return None, i + 1


def _tokenize(text: str) -> list:
    tokens = []
    i, n = 0, len(text)
    while i < n:
        c = text[i]
        if c in " \t\r\n\\":
            i += 1
        elif c == "#":
            j = text.find("\n", i)
            i = n if j == -1 else j
        elif c in "\"'":
            quote = text[i:i + 3] if text.startswith(c * 3, i) else c
            j = i + len(quote)
            out = []
            while True:
                if j >= n:
                    raise ValueError("unterminated string")
                if text.startswith(quote, j):
                    break
                if text[j] == "\\" and j + 1 < n:
                    nxt = text[j + 1]
                    out.append({"n": "\n", "t": "\t"}.get(nxt, nxt))
                    j += 2
                else:
                    out.append(text[j])
                    j += 1
            tokens.append(("str", "".join(out)))
            i = j + len(quote)
        elif c.isalnum() or c == "_":
            j = i
            while j < n and (text[j].isalnum() or text[j] in "_."):
                j += 1
            tokens.append(("name", text[i:j]))
            i = j
        else:
            tokens.append(("op", c))
            i += 1
    return tokens


#: Enterprise requirements Codex reads before the user's config (Linux; macOS MDM is not read).
MANAGED_REQUIREMENTS = "/etc/codex/requirements.toml"
SYSTEM_CONFIG = "/etc/codex/config.toml"
#: Approval policies under which Codex runs a command without a matching rule, unasked.
UNASKED_POLICIES = ("never", "on-request", "on-failure")
FULL_ACCESS = "danger-full-access"
CLIENT_NAMES = ("codex", "codex.js")


def project_rule_files(cwd: str) -> list:
    """`.codex/rules/*.rules` from the project root down to `cwd` (not `$CODEX_HOME` again)."""
    here = os.path.abspath(cwd or os.getcwd())
    user = os.path.abspath(codex_home())
    chain = []
    while True:
        chain.append(here)
        if os.path.exists(os.path.join(here, ".git")):
            break
        parent = os.path.dirname(here)
        if parent == here:
            chain = chain[:1]  # no project root: only the cwd's own .codex
            break
        here = parent
    files = []
    for directory in reversed(chain):
        rules_dir = os.path.join(directory, ".codex", "rules")
        if os.path.abspath(os.path.join(directory, ".codex")) == user:
            continue
        try:
            names = sorted(n for n in os.listdir(rules_dir) if n.endswith(".rules"))
        except OSError:
            continue
        files.extend(os.path.join(rules_dir, n) for n in names)
    return files


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    _add_requirements(rules, MANAGED_REQUIREMENTS)
    for path in rule_files() + project_rule_files(cwd):
        found = read_cached(path, rules.warnings, _load_rule_file)
        if found is None:
            if os.path.exists(path):
                rules.doubt_about(f"cannot read Codex rules in {display_path(path)}")
            continue
        rules.files.append(display_path(path))
        for rule in found:
            rules.bucket(rule.kind).append(rule)
    rules.extra["codex_allow"] = list(rules.allow)  # before [gate]'s: only Codex's lift a sandbox
    add_config(rules)
    return rules


def _load_rule_file(path: str):
    try:
        with open(path, "rb") as f:
            text = f.read().decode("utf-8")
        return parse_rules(text, display_path(path)), None
    except OSError as exc:
        return None, f"cannot read it ({exc.strerror or exc})"
    except (UnicodeDecodeError, ValueError, RecursionError) as exc:
        return None, f"cannot parse it ({exc})"


def _add_requirements(rules: RuleSet, path: str) -> None:
    """`[rules] prefix_rules = [{pattern = [{token = …} | {any_of = […]}], decision, …}]`."""
    if not os.path.exists(path):
        return
    found = read_cached(path, rules.warnings, _load_requirements)
    if found is None:
        rules.doubt_about(f"cannot read Codex requirements {display_path(path)}")
        return
    rules.files.append(display_path(path))
    for rule in found:
        rules.bucket(rule.kind).append(rule)


def _load_requirements(path: str):
    data, problem = _read_toml(path)
    if data is None:
        return None, problem
    section = data.get("rules")
    entries = section.get("prefix_rules", []) if isinstance(section, dict) else []
    if not isinstance(entries, list):
        return None, "cannot parse it ([rules] prefix_rules is not a list)"
    found = []
    for entry in entries:
        if not isinstance(entry, dict) or not isinstance(entry.get("pattern"), list):
            return None, "cannot parse it (a prefix rule without a pattern list)"
        words = []
        for token in entry["pattern"]:
            if isinstance(token, dict) and isinstance(token.get("token"), str):
                words.append(token["token"])
            elif isinstance(token, dict) and isinstance(token.get("any_of"), list):
                words.append([w for w in token["any_of"] if isinstance(w, str)])
            else:
                return None, "cannot parse it (a pattern token without token or any_of)"
        found.extend(_rules_of(dict(entry, pattern=words), display_path(path)))
    return found, None


def _read_toml(path: str):
    import tomllib

    try:
        with open(path, "rb") as f:
            return tomllib.load(f), None
    except OSError as exc:
        return None, f"cannot read it ({exc.strerror or exc})"
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
        return None, f"cannot parse it ({exc})"


# -- the client's modes: from the running `codex` process's flags, then its config files

def client_settings(argv) -> dict:
    """`approval_policy` / `sandbox_mode` / `profile` given as flags to the codex process."""
    found: dict = {}
    if not argv:
        return found
    args = list(argv[1:])
    if args and os.path.basename(args[0]) in CLIENT_NAMES:  # node …/codex.js …
        args = args[1:]
    if args[:1] in (["exec"], ["e"]):
        found["approval_policy"] = "never"  # codex exec never asks
    i = 0
    while i < len(args):
        arg = args[i]
        name, eq, value = arg.partition("=")
        takes = name in ("-s", "--sandbox", "-a", "--ask-for-approval", "-c", "--config", "-p",
                         "--profile")
        if takes and not eq:
            value = args[i + 1] if i + 1 < len(args) else ""
            i += 1
        if name in ("-s", "--sandbox"):
            found["sandbox_mode"] = value
        elif name in ("-a", "--ask-for-approval"):
            found.setdefault("approval_policy", value)
        elif name in ("-p", "--profile"):
            found["profile"] = value
        elif name in ("-c", "--config"):
            key, _, raw = value.partition("=")
            key = key.strip()
            if key in ("sandbox_mode", "approval_policy"):
                found[key if key == "sandbox_mode" else "approval_policy"] = \
                    raw.strip().strip("'\"")
        elif name in ("--dangerously-bypass-approvals-and-sandbox", "--yolo"):
            found["sandbox_mode"] = FULL_ACCESS
            found["approval_policy"] = "never"
        elif name == "--full-auto":
            found.setdefault("sandbox_mode", "workspace-write")
            found.setdefault("approval_policy", "on-request")
        elif arg == "--":
            break
        i += 1
    return found


def client_modes(rules: RuleSet) -> dict:
    """The approval policy and sandbox mode of the running client (None: not known), read once
    per RuleSet, and only when a decision needs them (they cost a /proc walk and TOML)."""
    modes = rules.extra.get("codex_modes")
    if modes is not None:
        return modes
    from ..process import client_argv

    argv = client_argv(CLIENT_NAMES)
    modes = client_settings(argv)
    if argv is None:  # not run by a codex process we can see: its modes are not known
        modes.update(approval_policy=None, sandbox_mode=None)
    if "profile" in modes:
        modes.setdefault("sandbox_mode", None)
        modes.setdefault("approval_policy", None)  # a profile may set either: not known
    for path in (os.path.join(codex_home(), "config.toml"), SYSTEM_CONFIG):
        if "sandbox_mode" in modes and "approval_policy" in modes:
            break
        if not os.path.exists(path):
            continue
        data, _problem = _read_toml(path)
        if data is None:
            modes.setdefault("sandbox_mode", None)
            modes.setdefault("approval_policy", None)
            break
        for key in ("sandbox_mode", "approval_policy"):
            if isinstance(data.get(key), str):
                modes.setdefault(key, data[key])
    modes.setdefault("approval_policy", "on-request")  # Codex's interactive default
    modes.setdefault("sandbox_mode", None)  # read-only or workspace-write: a sandbox
    rules.extra["codex_modes"] = modes
    return modes


class _SandboxedDefault(Rule):
    """Codex's own default as a last allow rule: no rule → it runs in its sandbox, unasked."""

    __slots__ = ()

    def describe(self) -> str:
        return "no Codex rule matches: Codex runs it in its sandbox without asking"


SANDBOXED_DEFAULT = _SandboxedDefault(ALLOW, "(Codex's default)", "*", "Codex's defaults")


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    own_allow = rules.extra.get("codex_allow", ())
    verdict = decision.decide(command, _as_codex_sees_it(rules, ()), prefixes)
    if verdict.decision != ALLOW:
        return verdict
    if _event_mode(record) != "bypassPermissions":
        policy = client_modes(rules).get("approval_policy")
        if policy not in UNASKED_POLICIES:
            return decision.GateDecision(
                ASK, f"Codex approval policy {policy or 'unknown'}: Codex asks before a "
                     "command it does not know as safe, which a rewritten one never is")
    if own_allow:
        strict = decision.decide(command, _as_codex_sees_it(rules, own_allow), prefixes)
        if strict.decision != ALLOW and client_modes(rules).get("sandbox_mode") != FULL_ACCESS:
            return decision.GateDecision(
                ASK, f"{strict.reason}: Codex runs it outside its sandbox, and the rewritten "
                     "command would not match the rule", strict.rule)
    return verdict


def _event_mode(record) -> str | None:
    meta = record.get("event") if isinstance(record, dict) else None
    mode = meta.get("permission_mode") if isinstance(meta, dict) else None
    return mode if isinstance(mode, str) else None


def _as_codex_sees_it(rules: RuleSet, as_ask) -> RuleSet:
    """`rules` with Codex's default (anything else runs, sandboxed) as the last allow rule, and
    the allow rules in `as_ask` moved to the ask rules."""
    seen = RuleSet()
    seen.deny = rules.deny
    seen.doubt = rules.doubt
    seen.ask = rules.ask + list(as_ask)
    seen.allow = [r for r in rules.allow if r not in as_ask] + [SANDBOXED_DEFAULT]
    return seen
