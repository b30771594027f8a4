"""A filter's `match_command` regex said in words, for `cc-filter list`: `^git (status|diff)(\\s|$)`
→ `git status, git diff`. Only the plain forms the built-ins use (literals, groups of
alternatives, `?` after a character or group); anything else (classes, repeats, lookarounds)
gives None and the caller shows the description's lead instead. Cold path.
"""

WORD_END = ("(\\s|$)", "(?:\\s|$)")
LIMIT = 12
"""More spellings than this are not a readable list any more."""


class _Unreadable(Exception):
    pass


def match_words(pattern: str) -> str | None:
    """The command lines `pattern` matches, as a comma-separated list, or None."""
    text = pattern[1:] if pattern.startswith("^") else pattern
    for end in WORD_END:
        if text.endswith(end):
            text = text[:-len(end)]
            break
    else:
        if not text.endswith("$"):
            return None
        text = text[:-1]
    try:
        spellings, rest = _alternatives(text, 0)
    except _Unreadable:
        return None
    if rest != len(text) or not spellings or len(spellings) > LIMIT:
        return None
    return ", ".join(s.strip() for s in dict.fromkeys(spellings) if s.strip())


def _alternatives(text: str, i: int) -> tuple[list[str], int]:
    """Alternatives `a|b|c` from i up to a `)` or the end: (spellings, index)."""
    found: list[str] = []
    while True:
        branch, i = _sequence(text, i)
        found += branch
        if len(found) > LIMIT:
            raise _Unreadable
        if i < len(text) and text[i] == "|":
            i += 1
            continue
        return found, i


def _sequence(text: str, i: int) -> tuple[list[str], int]:
    spellings = [""]
    while i < len(text) and text[i] not in "|)":
        char = text[i]
        if char == "(":
            i += 1
            if text.startswith("?:", i):
                i += 2
            elif text.startswith("?", i):
                raise _Unreadable  # lookaround, named group…
            inner, i = _alternatives(text, i)
            if i >= len(text) or text[i] != ")":
                raise _Unreadable
            i += 1
            piece = inner
        elif char == "\\":
            if i + 1 >= len(text) or text[i + 1].isalnum():
                raise _Unreadable  # \s \d \w …
            piece, i = [text[i + 1]], i + 2
        elif char in ".[]{}*+^$":
            raise _Unreadable
        else:
            piece, i = [char], i + 1
        if i < len(text) and text[i] == "?":
            piece, i = [""] + piece, i + 1
        elif i < len(text) and text[i] in "*+{":
            raise _Unreadable
        spellings = [a + b for a in spellings for b in piece]
        if len(spellings) > LIMIT:
            raise _Unreadable
    return spellings, i
