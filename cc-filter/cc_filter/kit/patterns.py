"""The regexes filters are chosen and driven by: cheap matching, bounded cost.

Three jobs:
- `literal_forms(pattern)` turns the common `match_command` shapes (`^git status(\\s|$)`,
  `^(cat|head|tail)(\\s|$)`, `^make$`) into plain strings, so the catalogue matches a command
  key with `str.startswith` and never imports `re` for them (cc-rewrite asks on every agent
  command). `required_prefixes(pattern)` gives, for any other pattern, the literal texts one of
  which a key must start with, so `re` is only imported when a key could match at all.
- `check_regex(pattern)` rejects patterns whose matching time could explode: a repeated
  group containing a quantifier (`(a+)+`, `(\\w*)*`, `(a?a)+`) or alternatives (`(a|aa)+`),
  found on the parsed pattern; `bounded()` caps the length of text a filter regex ever sees.
- `line_start_body(pattern)` / `line_local(pattern)` tell whether a pattern written for one
  line may run over many lines joined by newlines with the same matches (TOML filters then
  make one regex pass per block instead of one per line).

Imports nothing at module level: the literal analysis runs on the `cc-filter run` hot path
(only when the index is rebuilt), the regex checks only when a filter file is loaded.
"""

#: Longest text a filter regex is applied to; the rest of a longer line is kept unchanged.
REGEX_TEXT_LIMIT = 16384

# Characters that stand for themselves in a regex (outside a character class).
_PLAIN = frozenset("abcdefghijklmnopqrstuvwxyz" "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
                   "0123456789 _-/:=,@%'\"!<>~#&;")
# `\x` escapes that stand for the character x.
_ESCAPED = frozenset(".-/ _:=+*?()[]{}|^$\\#&~,@%'\"!<>;")
_MAX_FORMS = 64

WORD = "word"  # followed by whitespace or the end: (\s|$)
EXACT = "exact"  # followed by the end: $
PREFIX = "prefix"  # anything may follow


class _Unsupported(Exception):
    pass


def _parse_alternatives(pattern: str, i: int, closing: str | None):
    """Parse literal alternatives up to `closing` (or the end); returns (forms, index after)."""
    forms = [""]
    alternatives: list[str] = []
    n = len(pattern)
    while i < n:
        c = pattern[i]
        if closing is not None and c == closing:
            alternatives.extend(forms)
            return alternatives, i + 1
        if c == "|":
            alternatives.extend(forms)
            forms = [""]
            i += 1
            continue
        if c == "\\":
            if i + 1 >= n or pattern[i + 1] not in _ESCAPED:
                raise _Unsupported
            piece = [pattern[i + 1]]
            i += 2
        elif c == "(":
            if pattern.startswith("(?:", i):
                i += 3
            elif pattern.startswith("(?", i):
                raise _Unsupported
            else:
                i += 1
            piece, i = _parse_alternatives(pattern, i, ")")
        elif c in _PLAIN:
            piece = [c]
            i += 1
        else:
            raise _Unsupported
        if i < n and pattern[i] in "?*+{":
            raise _Unsupported
        forms = [f + p for f in forms for p in piece]
        if len(forms) > _MAX_FORMS:
            raise _Unsupported
    if closing is not None:
        raise _Unsupported
    alternatives.extend(forms)
    return alternatives, i


_TERMINATORS = (
    ("(\\s|$)", WORD), ("(?:\\s|$)", WORD), ("($|\\s)", WORD), ("(?:$|\\s)", WORD),
    ("(\\s.*)?$", WORD), ("(?:\\s.*)?$", WORD), ("( .*)?$", WORD), ("(?: .*)?$", WORD),
    ("\\b", None), ("$", EXACT),
)


def literal_forms(pattern: str) -> list[tuple[str, str]] | None:
    """`[(text, how)]` equivalent to `re.search(pattern, key)` for a key of space-joined words,
    or None when the pattern is not such a simple shape. `how` is WORD, EXACT or PREFIX."""
    if not pattern.startswith("^"):
        return None
    body = pattern[1:]
    how = PREFIX
    for suffix, kind in _TERMINATORS:
        if body.endswith(suffix) and not body.endswith("\\" + suffix):
            if kind is None:  # \b: a word boundary is only a literal test after a word char
                return None
            body = body[: -len(suffix)]
            how = kind
            break
    try:
        forms, _ = _parse_alternatives(body, 0, None)
    except _Unsupported:
        return None
    if not forms or any(f == "" for f in forms):
        return None
    return [(f, how) for f in forms]


def literal_matches(forms: list[tuple[str, str]], key: str) -> bool:
    for text, how in forms:
        if key.startswith(text):
            rest = key[len(text):]
            if how == PREFIX or not rest:
                return True
            if how == WORD and rest[0].isspace():
                return True
    return False


def required_prefixes(pattern: str) -> list[str] | None:
    """Literal texts, one of which every key matching `pattern` starts with; None = unknown
    (the regex must be tried). Used to skip `re` for keys that cannot match.
    `^(uv run )?pytest` → ['uv run pytest', 'pytest'];
    `^(python[0-9.]* -m )?x` → ['python', 'x']."""
    try:
        prefixes = []
        for start, end in _split_bars(pattern, 0, len(pattern)):  # `^a$|^b c`: each branch
            if not pattern.startswith("^", start):
                return None
            prefixes += _prefixes(pattern, start + 1, end)
    except _Unsupported:
        return None
    if not prefixes or any(p == "" for p in prefixes):
        return None
    return sorted(set(prefixes), key=lambda p: (-len(p), p))


def _group_end(pattern: str, i: int, end: int) -> int:
    """Index of the `)` closing the group opened at pattern[i]."""
    depth, j = 0, i
    while j < end:
        c = pattern[j]
        if c == "\\":
            j += 2
            continue
        if c == "[":
            j = _class_end(pattern, j, end)
            continue
        if c == "(":
            depth += 1
        elif c == ")":
            depth -= 1
            if depth == 0:
                return j
        j += 1
    raise _Unsupported


def _class_end(pattern: str, i: int, end: int) -> int:
    j = i + 1
    if j < end and pattern[j] == "^":
        j += 1
    if j < end and pattern[j] == "]":
        j += 1
    while j < end:
        if pattern[j] == "\\":
            j += 2
            continue
        if pattern[j] == "]":
            return j + 1
        j += 1
    raise _Unsupported


def _split_bars(pattern: str, i: int, end: int) -> list[tuple[int, int]]:
    spans, start, j = [], i, i
    while j < end:
        c = pattern[j]
        if c == "\\":
            j += 2
        elif c == "[":
            j = _class_end(pattern, j, end)
        elif c == "(":
            j = _group_end(pattern, j, end) + 1
        elif c == "|":
            spans.append((start, j))
            start = j = j + 1
        else:
            j += 1
    spans.append((start, end))
    return spans


def _prefixes(pattern: str, i: int, end: int) -> list[str]:
    """Literal prefixes of every match of pattern[i:end] ("" = no information)."""
    if i >= end:
        return [""]
    c = pattern[i]
    full = True  # the atom is exactly one of `alts` (so the rest may be appended)
    if c == "\\":
        if i + 1 >= end or pattern[i + 1] not in _ESCAPED:
            return [""]
        alts, j = [pattern[i + 1]], i + 2
    elif c == "(":
        close = _group_end(pattern, i, end)
        start = i + 1
        if pattern.startswith("?:", start):
            start += 2
        elif pattern.startswith("?", start):
            return [""]
        alts = []
        for a, b in _split_bars(pattern, start, close):
            literal = _literal_text(pattern, a, b)
            if literal is not None:
                alts.append(literal)
            else:
                full = False
                alts.extend(_prefixes(pattern, a, b))
        j = close + 1
    elif c in _PLAIN:
        alts, j = [c], i + 1
    else:
        return [""]
    quantifier = pattern[j] if j < end else ""
    if quantifier in ("?", "*") or pattern.startswith("{0", j):
        after = j + 1 if quantifier in ("?", "*") else pattern.index("}", j) + 1
        if after < end and pattern[after] == "?":
            after += 1
        rest = _prefixes(pattern, after, end)
        taken = ([a + r for a in alts for r in rest] if full and quantifier == "?" else alts)
        return _capped(taken + rest)
    if quantifier in ("+", "{") or not full:
        return alts
    rest = _prefixes(pattern, j, end)
    return _capped([a + r for a in alts for r in rest])


def _literal_text(pattern: str, i: int, end: int) -> str | None:
    out = []
    j = i
    while j < end:
        c = pattern[j]
        if c == "\\" and j + 1 < end and pattern[j + 1] in _ESCAPED:
            piece, j = pattern[j + 1], j + 2
        elif c in _PLAIN:
            piece, j = c, j + 1
        else:
            return None
        if j < end and pattern[j] in "?*+{":
            return None
        out.append(piece)
    return "".join(out)


def _capped(prefixes: list[str]) -> list[str]:
    if len(prefixes) > _MAX_FORMS:
        raise _Unsupported
    return prefixes


def specificity(pattern: str) -> int:
    """Length of the shortest literal text every match starts with (longer = more specific)."""
    prefixes = required_prefixes(pattern)
    return min(len(p) for p in prefixes) if prefixes else 0


class UnsafeRegex(ValueError):
    pass


#: How many ways a repeated group may match (iterations × choices per iteration) before its
#: backtracking counts as explosive: `(a|aa){1,6}` (64) passes, `(a|aa){1,8}` (256) does not —
#: each extra way is another pass over up to REGEX_TEXT_LIMIT characters.
MAX_WAYS = 100
_UNBOUNDED = 100  # an upper bound above this is as good as none
_INF = float("inf")


def check_regex(pattern: str) -> None:
    """Raise UnsafeRegex (or re.error) for a pattern that does not compile or whose matching
    time can grow exponentially with the text (catastrophic backtracking). Found on the parsed
    pattern (`re._parser`), not by matching its text: a group that repeats (`*`, `+`, `{n,}`,
    or `{n,m}` allowing more than MAX_WAYS ways) while one iteration can itself match in more
    than one way —
    - a quantifier inside: `(a+)+`, `(\\w*)*`, `(\\d+\\.)+`, `(a?a)+`, `(a{1,3})+`, `(a+){2}`;
    - alternatives inside: `(a|aa)+`, `(ab|cd)*`, `(x(y|z))+`, `(a|aa){1,9}`.
    Alternatives of single characters (`(a|b)*`, `(\\w|a)*`) are a character class to `re` and
    are fine; so are groups that do not repeat (`(\\s|$)`, `(-[0-9.]+)?`), possessive repeats
    and atomic groups (`(?:a|aa)++`: never backtracked into), and `(\\d{1,3}\\.){3}`.
    Cold path only: imports `re` (when a filter file is validated, never on a lookup)."""
    import re

    sre_parse = _sre()
    re.compile(pattern)
    try:
        _ways(sre_parse.parse(pattern), sre_parse)
    except _Explosive as exc:
        raise UnsafeRegex(f"regex {pattern!r} can take exponential time ({exc}); rewrite it "
                          "without nesting (a character class, or a possessive `++` / atomic "
                          "`(?>…)` group)") from None


class _Explosive(Exception):
    pass


def _ways(items, sre) -> tuple[float, str | None]:
    """(How many ways the parsed (sub)pattern can match one text — a count of choices, inf for
    a quantifier without an upper bound —, what the choices come from: "alternatives", "a
    quantifier inside" or None). Raises _Explosive for a repeated group with choices inside."""
    total, why = 1.0, None
    for op, av in items:
        name = str(op)
        ways, source = 1.0, None
        if name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            lo, hi, sub = av
            inner, inner_why = _ways(sub, sre)
            unbounded = hi == sre.MAXREPEAT or hi > _UNBOUNDED
            if name == "POSSESSIVE_REPEAT":
                pass  # matched once, never backtracked into: one way
            elif inner > 1 and hi > 1 and (unbounded or inner > MAX_WAYS
                                           or inner ** hi > MAX_WAYS):
                raise _Explosive(f"a repeated group with {inner_why}")
            elif inner > 1:  # at most once (`?`), or few enough
                ways, source = sum(inner ** k for k in range(lo, hi + 1)), inner_why
            elif lo != hi:
                ways, source = (_INF if unbounded else hi - lo + 1), "a quantifier inside"
        elif name == "BRANCH":
            ways = 0.0
            for branch in av[1]:
                ways += _ways(branch, sre)[0]
            source = "alternatives"
        elif name == "GROUPREF_EXISTS":  # (?(1)yes|no): alternatives too
            ways = _ways(av[1], sre)[0] + (_ways(av[2], sre)[0] if av[2] is not None else 1)
            source = "alternatives"
        elif name == "SUBPATTERN":
            ways, source = _ways(av[-1], sre)
        elif name == "ATOMIC_GROUP":  # matched once, never backtracked into
            _ways(av, sre)
        elif name in ("ASSERT", "ASSERT_NOT"):  # lookarounds are atomic too
            _ways(av[1], sre)
        if ways > 1:
            total *= ways
            why = why or source
    return total, why


def bounded(text: str) -> str:
    """The part of `text` a regex may see."""
    return text if len(text) <= REGEX_TEXT_LIMIT else text[:REGEX_TEXT_LIMIT]


def is_catch_all(pattern: str) -> bool:
    """A pattern that matches (nearly) every line: risky in strip rules and match_output."""
    core = pattern.strip()
    for anchor in ("^", "$"):
        core = core.replace(anchor, "")
    return core in ("", ".*", ".+", ".", "(.*)", "(.+)", "[\\s\\S]*", "[\\s\\S]+", "\\S*",
                    "\\s*", ".*?")


def line_start_body(pattern: str) -> str | None:
    """`pattern` without its leading `^`, when it can run over many lines at once: every match
    starts at a line start (the `^` applies to the whole pattern) and it is line_local. Then,
    compiled with re.M, `\\n(?:body)` finds in "\\n" + lines joined by newlines exactly the
    matches `pattern` finds in each line, in one pass that jumps from newline to newline.
    None otherwise (the caller matches line by line). Cold path: imports `re`."""
    parsed = _parsed(pattern) if pattern.startswith("^") else None
    if parsed is None:
        return None
    items, dotall, sre = parsed
    if not items or str(items[0][0]) != "AT" or str(items[0][1]) != "AT_BEGINNING":
        return None
    return pattern[1:] if _line_local(items[1:], dotall, sre) else None


def line_local(pattern: str) -> bool:
    """Can `pattern`, compiled with re.M, search lines joined by newlines and find a match
    exactly when it would find one in some line on its own? True when no part of it can
    match, or look across, a newline: no `\\s`, `\\W`, `[^x]`, `(?s).`, `\\A` or `\\Z` (a
    lookaround that sees a newline then sees what it would see at the line's edge)."""
    parsed = _parsed(pattern)
    return parsed is not None and _line_local(*parsed)


def _parsed(pattern: str):
    """(parsed items, DOTALL set globally, the parser module), or None if it does not parse."""
    sre_parse = _sre()
    try:
        parsed = sre_parse.parse(pattern)
    except Exception:
        return None
    return list(parsed), bool(parsed.state.flags & sre_parse.SRE_FLAG_DOTALL), sre_parse


def _sre():
    """Python's regex parser (`re._parser` since 3.11)."""
    try:
        import re._parser as sre_parse
    except ImportError:  # pragma: no cover
        import sre_parse  # type: ignore
    return sre_parse


_NEWLINE = 10
_LINE_ANCHORS = frozenset(("AT_BEGINNING", "AT_BEGINNING_LINE", "AT_END", "AT_END_LINE",
                           "AT_BOUNDARY", "AT_NON_BOUNDARY"))
_NEWLINE_CATEGORIES = frozenset(("CATEGORY_SPACE", "CATEGORY_NOT_DIGIT", "CATEGORY_NOT_WORD",
                                 "CATEGORY_LINEBREAK"))


def _line_local(items, dotall: bool, sre) -> bool:
    """Can no part of the parsed (sub)pattern match a newline or anchor to the whole text?"""
    for op, av in items:
        name = str(op)
        if name == "LITERAL":
            ok = av != _NEWLINE
        elif name == "NOT_LITERAL":
            ok = av == _NEWLINE
        elif name == "ANY":
            ok = not dotall
        elif name == "IN":
            negated = bool(av) and str(av[0][0]) == "NEGATE"
            ok = _set_has_newline(av) == negated
        elif name == "AT":
            ok = str(av) in _LINE_ANCHORS
        elif name == "GROUPREF":
            ok = True  # repeats a group, which cannot hold a newline either
        elif name == "SUBPATTERN":
            _group, add, _remove, sub = av
            ok = _line_local(sub, dotall or bool(add & sre.SRE_FLAG_DOTALL), sre)
        elif name == "BRANCH":
            ok = all(_line_local(branch, dotall, sre) for branch in av[1])
        elif name in ("MAX_REPEAT", "MIN_REPEAT", "POSSESSIVE_REPEAT"):
            ok = _line_local(av[2], dotall, sre)
        elif name == "ATOMIC_GROUP":
            ok = _line_local(av, dotall, sre)
        elif name in ("ASSERT", "ASSERT_NOT"):
            ok = _line_local(av[1], dotall, sre)
        elif name == "GROUPREF_EXISTS":
            ok = _line_local(av[1], dotall, sre) and (av[2] is None
                                                      or _line_local(av[2], dotall, sre))
        else:
            ok = False
        if not ok:
            return False
    return True


def _set_has_newline(items) -> bool:
    for op, av in items:
        name = str(op)
        if (name == "LITERAL" and av == _NEWLINE
                or name == "RANGE" and av[0] <= _NEWLINE <= av[1]
                or name == "CATEGORY" and str(av) in _NEWLINE_CATEGORIES):
            return True
    return False
