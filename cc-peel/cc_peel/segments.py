"""What cc-peel produces: `Segment` (one simple command) and `Peeled` (a whole line).

Plain classes with __slots__, written as JSON by cc_peel.record's codec: this runs on every
agent command (dataclasses, typing and json would cost more than the peeling itself).
"""
from .record import dumps

FIELDS = ("text", "start", "end", "separator", "env", "env_vars", "wrappers", "core_start",
          "core_end", "core", "argv", "key", "redirects", "file_redirect", "position", "opaque",
          "nested")


class Segment:
    """One simple command of a line, peeled.

    text/start/end: the exact slice of the input, without the separator.
    separator: the operator or pipe after it (&& || ; | |& & newline …), "" if none.
    env: leading assignments verbatim with their trailing blanks ('FOO=1 BAR="a b" ',
      'env A=1 '); env_vars: their (NAME, unquoted value) pairs.
    wrappers: transparent wrappers verbatim ('timeout -s KILL 5 ').
    core_start/core_end, core: the command itself (runner included: 'uv run pytest -q'),
      without the trailing redirects; a rewrite inserts 'cc-filter run ' at core_start.
    argv: the unquoted words of the core (redirections left out).
    key: the normalised command a filter is chosen by (cc_peel.keys.key_of).
    redirects: trailing redirections as written ['2>&1'], ['>', 'out.txt'].
    file_redirect: an output redirection to a file anywhere in it (/dev/null included).
    position: 'alone', 'producer', 'middle' or 'final' in its pipeline.
    opaque: why it must never be rewritten (cc_peel.layers lists the reasons), or None.
    nested: the innermost construct around it ('substitution', 'group', 'control') or None.
    """

    __slots__ = FIELDS

    def __init__(self, **values):
        for name in FIELDS:
            setattr(self, name, values[name])

    def to_dict(self) -> dict:
        return {name: getattr(self, name) for name in FIELDS}

    def to_json(self) -> str:
        return dumps(self.to_dict(), ensure_ascii=False)

    def __repr__(self) -> str:
        return f"Segment({self.text!r}, key={self.key!r}, opaque={self.opaque!r})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Segment):
            return NotImplemented
        return self.to_dict() == other.to_dict()

    __hash__ = None


class Peeled:
    """A peeled command line: its segments in order and why the whole line is opaque, if so.

    whole_opaque: 'heredoc', 'arithmetic' ($((…)) or ((…))), 'block' (a group, control
    structure or function in a multi-line command), or None.
    tokens: the cc_lex tokens of the line (so callers need not lex it again).
    """

    __slots__ = ("text", "segments", "whole_opaque", "tokens")

    def __init__(self, text: str, segments: list[Segment], whole_opaque: str | None,
                 tokens: list | None = None):
        self.text = text
        self.segments = segments
        self.whole_opaque = whole_opaque
        self.tokens = tokens

    def __repr__(self) -> str:
        return f"Peeled({self.segments!r}, whole_opaque={self.whole_opaque!r})"

