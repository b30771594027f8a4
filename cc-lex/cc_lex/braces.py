"""Brace expansion, as bash does it before any other expansion (`git pu{sh,}` → `git push pu`).

`expand(word)` takes the raw text of ONE shell word (quotes, backslashes and substitutions as
written) and returns the raw texts bash's brace expansion makes of it, in bash's order; a word
without a brace expression comes back alone. The results keep their quotes, so they are
unquoted (and lexed) like any word afterwards.

What bash expands, and so what this does:
- a comma list `pre{a,b}post`, nested (`{a,b{1,2}}`), several in a word (`{a,b}{1,2}`: a1 a2
  b1 b2), empty members (`pu{sh,}`: push pu);
- a sequence `{x..y}` or `{x..y..step}` of integers (zero-padded to the wider end when either
  end has a leading zero: `{01..10}`) or of single letters (`{a..e..2}`);
- nothing quoted or escaped (`'{a,b}'`, `\\{a,b}`, `{'a,b'}`), nothing inside `${…}`, `$(…)`
  or backticks, no `{}`, `{x}` or `{1..}` (they stay literal and the rest of the word is still
  expanded: `{1..}{c,d}` → `{1..}c {1..}d`), no unmatched brace.

Where bash does not expand (an assignment word before the command, `A={a,b} cmd`) is the
caller's business. More than `limit` words (`{1..100000}`, `{a,b}` twenty times) raise
TooLarge before they are made: the caller cannot check them and must never allow.
tests/cc_lex/test_braces.py checks this module against real bash.
"""

LIMIT = 256
_INTMAX = (1 << 63) - 1


class TooLarge(ValueError):
    """The expansion makes more words than the limit."""


def expand(word: str, limit: int = LIMIT) -> list:
    """The raw words bash's brace expansion makes of the raw word `word`."""
    if "{" not in word or "}" not in word:
        return [word]
    return _expand(word, limit)


def _expand(text: str, limit: int) -> list:
    i = 0
    while True:  # the first `{` that opens a brace expression
        i = _gobble(text, i, "{")
        if i < 0:
            return [text]
        close = _gobble(text, i + 1, "}")
        if close >= 0:
            break
        i += 1
    preamble, amble, post = text[:i], text[i + 1:close], text[close + 1:]
    if _has_comma(amble):
        middle = []
        for member in _members(amble):
            middle.extend(_expand(member, limit))
            _check(len(middle), limit)
    else:
        middle = _sequence(amble, limit)
        if middle is None:
            if not post:
                return [text]
            middle = [text[i:close + 1]]  # `{a..5}`: literal, the rest is still expanded
    if not post:
        return [preamble + m for m in middle]
    tail = _expand(post, limit)
    _check(len(middle) * len(tail), limit)
    return [preamble + m + t for m in middle for t in tail]


def _check(count: int, limit: int) -> None:
    if count > limit:
        raise TooLarge(f"brace expansion makes more than {limit} words")


def _gobble(text: str, i: int, satisfy: str) -> int:
    """The index of the next `satisfy` (`{`, `}` or `,`) at brace level 0 from i, outside
    quotes and substitutions, or -1. A `}` closes only after a `,` or a `..` at level 0 (so
    `{a}` is no expression and `{{a,b}}` is `{` + `{a,b}` + `}`); a `{` between blanks (or
    before `}`) opens nothing."""
    level = 0
    commas = 0 if satisfy == "}" else 1
    n = len(text)
    while i < n:
        c = text[i]
        nxt = text[i + 1] if i + 1 < n else ""
        if c == "\\":
            i += 2
            continue
        if c == "$" and nxt == "{":
            level += 1
            i += 2
            continue
        if c in "\"'`" or (c in "$<>" and nxt == "("):
            i = _skip(text, i)
            continue
        if c == satisfy and level == 0 and commas > 0:
            if c == "{" and (i == 0 or text[i - 1] in " \t\n") and nxt in ("", " ", "\t", "\n", "}"):
                i += 1
                continue
            return i
        if c == "{":
            level += 1
        elif c == "}":
            if level:
                level -= 1
        elif satisfy == "}" and level == 0 and (
                c == "," or (c == "." and nxt == "." and text[i + 2:i + 3] != "}")):
            commas += 1
        i += 1
    return -1


def _skip(text: str, i: int) -> int:
    """The index after the quoted string or `$(…)` / `<(…)` / `>(…)` starting at i."""
    n = len(text)
    c = text[i]
    if c == "'":
        j = text.find("'", i + 1)
        return n if j < 0 else j + 1
    if c == '"' or c == "`":
        j = i + 1
        while j < n:
            d = text[j]
            if d == "\\":
                j += 2
            elif d == c:
                return j + 1
            elif c == '"' and d == "$" and text.startswith("(", j + 1):
                j = _skip(text, j)
            else:
                j += 1
        return n
    depth = 0
    j = i + 1
    while j < n:
        d = text[j]
        if d == "\\":
            j += 2
            continue
        if d in "'\"`":
            j = _skip(text, j)
            continue
        if d == "(":
            depth += 1
        elif d == ")":
            depth -= 1
            if depth == 0:
                return j + 1
        j += 1
    return n


def _has_comma(amble: str) -> bool:
    """bash's own test: a comma not after a backslash (quotes are not looked at here)."""
    i, n = 0, len(amble)
    while i < n:
        if amble[i] == "\\":
            i += 2
        elif amble[i] == ",":
            return True
        else:
            i += 1
    return False


def _members(amble: str) -> list:
    """The amble split at its commas of brace level 0 (outside quotes and substitutions)."""
    members = []
    start = 0
    while True:
        comma = _gobble(amble, start, ",")
        if comma < 0:
            members.append(amble[start:])
            return members
        members.append(amble[start:comma])
        start = comma + 1


def _sequence(amble: str, limit: int):
    """The words of a sequence expression `x..y[..step]`, or None when it is not one."""
    k = amble.find("..")
    if k <= 0 or k + 2 >= len(amble):
        return None
    lhs, rhs = amble[:k], amble[k + 2:]
    first = _integer(lhs)
    kind = "int" if first is not None else ("char" if len(lhs) == 1 and _letter(lhs) else None)
    if rhs[0] in _DIGITS or (rhs[0] in "+-" and rhs[1:2] and rhs[1] in _DIGITS):
        m = 1
        while m < len(rhs) and rhs[m] in _DIGITS:
            m += 1
        end, rest = rhs[:m], rhs[m:]
        last = _integer(end)
        if last is None or (rest and rest[0] != "."):
            return None
        rhs_kind = "int"
    elif _letter(rhs[0]) and (len(rhs) == 1 or rhs[1] == "."):
        end, rest, rhs_kind = rhs[0], rhs[1:], "char"
    else:
        return None
    step = 1
    if rest:
        step = _integer(rest[2:]) if rest.startswith("..") and len(rest) > 2 else None
        if step is None:
            return None
    if kind != rhs_kind:
        return None
    step = abs(step) or 1
    if kind == "char":
        first, last = ord(lhs), ord(end)
    _check(abs(last - first) // step + 1, limit)
    values = range(first, last + 1, step) if last >= first else range(first, last - 1, -step)
    if kind == "char":
        return [_escaped(chr(v)) for v in values]
    width = 0
    for text in (lhs, end):
        digits = text[1:] if text[0] == "-" else text
        if len(digits) > 1 and digits[0] == "0":
            width = max(len(lhs), len(end))
    return [f"{v:0{width}d}" if width else str(v) for v in values]


_DIGITS = "0123456789"


def _integer(text: str):
    """bash's legal_number: an optional sign and decimal digits that fit in 64 bits."""
    digits = text[1:] if text[:1] in "+-" else text
    if not digits or any(c not in _DIGITS for c in digits):
        return None
    value = int(text)
    return value if -_INTMAX - 1 <= value <= _INTMAX else None


def _letter(c: str) -> bool:
    return ("a" <= c <= "z") or ("A" <= c <= "Z")


def _escaped(c: str) -> str:
    """A letter sequence may pass `[`, `` ` ``…: escaped, they stay literal; bash's quote
    removal turns its `\\` into an empty word."""
    if c == "\\":
        return "''"
    return c if c.isalnum() else "\\" + c
