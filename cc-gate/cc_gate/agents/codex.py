"""Codex CLI's permission model. Its own command rules: `prefix_rule(…)` entries in
`$CODEX_HOME/rules/*.rules`, read on top of the Claude-format settings files (Codex speaks
Claude's hook format and users often keep their rules in `.claude/`), plus contextcrawler's
`[gate]` config.

    prefix_rule(
        pattern = ["git", ["push", "fetch"]],   # words; a list is a set of alternatives
        decision = "forbidden",                 # allow | prompt | forbidden
        justification = "…",
    )

The files are Starlark; this reads only the literal `prefix_rule` calls (strings, lists,
`name = value` arguments, `#` comments) and ignores everything else. allow → allow,
prompt → ask, forbidden → deny; a rule without a decision is read as "prompt" (asking is the
safe reading of a rule we cannot place). A pattern matches a command that starts with its
words (whole words). Imports only `os`.
"""
import os

from .. import decision
from ..rules import ALLOW, ASK, DENY, Rule, RuleSet, add_config, display_path, prefix_matcher, \
    read_cached
from .claude import add_claude_settings

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
    decision = args.get("decision", "prompt")
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


def load_rules(cwd: str) -> RuleSet:
    rules = RuleSet()
    add_claude_settings(rules, cwd)
    for path in rule_files():
        found = read_cached(path, rules.warnings, _load_rule_file)
        if found is not None:
            rules.files.append(display_path(path))
            for rule in found:
                rules.bucket(rule.kind).append(rule)
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


def decide(command: str, rules: RuleSet, record=None, prefixes=()):
    return decision.decide(command, rules, prefixes)
