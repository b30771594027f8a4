"""The structure of a command line: its simple commands, where they sit, what separates them.

Walks cc_lex tokens and finds every simple command, including the ones nested in `$(…)`,
backticks, `<(…)`, `( )`, `{ }`, `if/for/while/until/case/select` and function bodies, with the
innermost construct around each, the separator after it and its place in its pipeline. What a
command is made of (env, wrappers, core, redirects) is cc_peel.layers' business.

Imports nothing heavy: this runs on every agent command.
"""
from cc_lex.lexer import (GROUP, HEREDOC, OPERATOR, PIPE, REDIRECT, SUBSTITUTION, WORD, LexError,
                          Token)
from cc_lex.words import ShellWord, word_at

# what kind of item a simple command holds
ITEM_WORD, ITEM_REDIRECT = "word", "redirect"

_OPENS_CONTROL = {"if": "if", "while": "loop", "until": "loop", "for": "loop",
                  "select": "loop", "case": "case"}
_CLOSES_CONTROL = {"fi": "if", "done": "loop", "esac": "case"}
_SKIPPED_KEYWORDS = frozenset(("then", "else", "elif", "do", "!"))
_CASE_ENDS = frozenset((";;", ";&", ";;&"))

_CMD, _FOR_HEADER, _CASE_HEADER, _CASE_PATTERN, _TEST = range(5)

# Groups and substitutions open at once; deeper lines are refused like unterminated ones
# (the walk recurses once per level).
MAX_DEPTH = 200


class SimpleCommand:
    """One simple command: its items in order and where it sits.

    items: (ITEM_WORD, ShellWord, None) or (ITEM_REDIRECT, redirect Token, target ShellWord
    or None). `start`/`end` span them all; `separator` is the operator after it ("" if none).
    """

    __slots__ = ("items", "start", "end", "nested", "separator", "position", "substitution",
                 "arithmetic", "heredoc")

    def __init__(self, nested: str | None):
        self.items: list[tuple] = []
        self.start = self.end = -1
        self.nested = nested
        self.separator = ""
        self.position = "alone"
        self.substitution = False  # a $(…), `…`, <(…) or >(…) in any of its words
        self.arithmetic = False  # a $((…)) in any of its words
        self.heredoc = False

    def add(self, kind: str, first, second=None) -> None:
        if kind == ITEM_WORD:
            start, end = first.start, first.end
        else:
            start = first.start
            end = second.end if second is not None else first.end
        if self.start < 0:
            self.start = start
        self.end = end
        self.items.append((kind, first, second))


class Structure:
    """Every simple command of a line plus what makes the whole line special."""

    __slots__ = ("commands", "heredoc", "arithmetic", "block", "multiline")

    def __init__(self):
        self.commands: list[SimpleCommand] = []
        self.heredoc = False
        self.arithmetic = False
        self.block = False  # a group, control structure or function anywhere
        self.multiline = False  # a newline operator anywhere


def structure_of(tokens: list[Token], text: str) -> Structure:
    walker = _Walker(tokens, text)
    walker.level(0, len(tokens), None)
    walker.result.commands.sort(key=lambda command: (command.start, -command.end))
    return walker.result


class _Walker:
    __slots__ = ("tokens", "text", "result", "depth")

    def __init__(self, tokens: list[Token], text: str):
        self.tokens = tokens
        self.text = text
        self.result = Structure()
        self.depth = 0

    def level(self, k: int, stop: int, nested: str | None) -> None:
        """Walk tokens[k:stop], a command list whose innermost construct is `nested`."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            at = self.tokens[k - 1].start if k else 0
            raise LexError("groups and substitutions nested too deeply", at)
        try:
            self.command_list(k, stop, nested)
        finally:
            self.depth -= 1

    def command_list(self, k: int, stop: int, nested: str | None) -> None:
        tokens, result = self.tokens, self.result
        cur: SimpleCommand | None = None
        pipeline: list = []  # SimpleCommand, or None for a compound command
        saved: list[list] = []  # pipelines of the enclosing control structures
        ctl: list[str] = []  # open control structures: "if", "loop", "case"
        mode = _CMD
        body_label = None  # "control" when the next group is a function body
        after_compound = False

        def finish(separator: str) -> None:
            nonlocal cur
            if cur is not None:
                cur.separator = separator
                pipeline.append(cur)
                result.commands.append(cur)
                cur = None

        def end_pipeline() -> None:
            last = len(pipeline) - 1
            for index, element in enumerate(pipeline):
                if element is not None:
                    element.position = ("alone" if last == 0 else "producer" if index == 0
                                        else "final" if index == last else "middle")
            pipeline.clear()

        def label() -> str | None:
            return "control" if ctl else nested

        while k < stop:
            tok = tokens[k]
            kind = tok.kind
            if kind == OPERATOR or kind == PIPE:
                if mode == _TEST and cur is not None:
                    cur.add(ITEM_WORD, _as_word(tok, k))
                    k += 1
                    continue
                if tok.text[-1] == "\n":
                    result.multiline = True
                finish(tok.text)
                if kind == OPERATOR:
                    end_pipeline()
                after_compound = False
                if mode == _FOR_HEADER or mode == _CASE_HEADER:
                    mode = _CMD if mode == _FOR_HEADER else mode
                elif ctl and ctl[-1] == "case" and tok.text in _CASE_ENDS:
                    mode = _CASE_PATTERN
                k += 1
                continue
            if kind == HEREDOC:
                k += 1
                if k < stop and tokens[k].kind == SUBSTITUTION and tokens[k].pair > k \
                        and tokens[k].start == tok.end:
                    k = self.substitution(k, None)  # runs when the heredoc is expanded
                continue
            if kind == REDIRECT:
                target = None
                j = k + 1
                if _needs_target(tok.text) and j < stop and (
                        tokens[j].kind == WORD
                        or (tokens[j].kind == SUBSTITUTION and tokens[j].pair > j)):
                    target = word_at(tokens, j, self.text)
                heredoc = tok.text.lstrip("0123456789") in ("<<", "<<-")
                if heredoc:
                    result.heredoc = True
                if mode == _TEST and cur is not None:
                    cur.add(ITEM_WORD, _as_word(tok, k))
                    k += 1
                    continue
                if after_compound or mode != _CMD:
                    k = self.scan_word(target, None) if target is not None else k + 1
                    continue
                if cur is None:
                    cur = SimpleCommand(label())
                if heredoc:
                    cur.heredoc = True
                k = self.scan_word(target, cur) if target is not None else k + 1
                cur.add(ITEM_REDIRECT, tok, target)
                continue
            if kind == GROUP:
                if mode == _TEST and cur is not None:
                    cur.add(ITEM_WORD, _as_word(tok, k))
                    k += 1
                    continue
                if tok.pair > k:
                    if mode == _CASE_PATTERN and tok.text == "(":
                        k = self.patterns(k + 1, tok.pair)
                        mode = _CMD
                        continue
                    finish("")
                    result.block = True
                    if tok.text == "((":
                        result.arithmetic = True
                        self.arithmetic(k + 1, tok.pair)
                    else:
                        self.level(k + 1, tok.pair, body_label or "group")
                    body_label = None
                    pipeline.append(None)
                    after_compound = mode == _CMD
                    k = tok.pair + 1
                    continue
                if mode == _CASE_PATTERN and tok.text == ")":
                    mode = _CMD
                k += 1  # a closer (its opener was handled) or a stray token
                continue
            if kind == SUBSTITUTION and tok.pair < k:
                k += 1  # a closer whose opener is outside this range: cannot happen
                continue
            if kind != WORD and kind != SUBSTITUTION:
                k += 1  # a comment
                continue
            # a word (possibly made of several tokens)
            word = word_at(tokens, k, self.text)
            raw = tok.text if word.first == word.last else None
            if mode == _TEST:
                k = self.scan_word(word, cur)
                cur.add(ITEM_WORD, word)
                if raw == "]]":
                    mode = _CMD
                continue
            if mode == _FOR_HEADER:
                if raw == "do":
                    mode = _CMD
                    k += 1
                    continue
                k = self.scan_word(word, None)
                continue
            if mode == _CASE_HEADER:
                if raw == "in":
                    mode = _CASE_PATTERN
                    k += 1
                    continue
                k = self.scan_word(word, None)
                continue
            if mode == _CASE_PATTERN:
                if raw == "esac" and ctl and ctl[-1] == "case":
                    ctl.pop()
                    end_pipeline()
                    pipeline[:] = saved.pop()
                    pipeline.append(None)
                    after_compound = True
                    mode = _CMD
                    k += 1
                    continue
                k = self.patterns(k, stop)
                mode = _CMD
                continue
            if cur is None and not after_compound and raw is not None:
                if raw in _OPENS_CONTROL:
                    result.block = True
                    ctl.append(_OPENS_CONTROL[raw])
                    saved.append(pipeline[:])
                    pipeline.clear()
                    mode = (_FOR_HEADER if raw in ("for", "select")
                            else _CASE_HEADER if raw == "case" else _CMD)
                    if mode == _FOR_HEADER and k + 1 < stop and tokens[k + 1].kind == WORD:
                        k += 1  # the loop variable may read like anything
                    k += 1
                    continue
                if raw in _CLOSES_CONTROL and ctl and ctl[-1] == _CLOSES_CONTROL[raw]:
                    ctl.pop()
                    end_pipeline()
                    pipeline[:] = saved.pop()
                    pipeline.append(None)
                    after_compound = True
                    k += 1
                    continue
                if raw in _SKIPPED_KEYWORDS:
                    k += 1
                    continue
                if raw == "function" and k + 1 < stop and tokens[k + 1].kind == WORD:
                    result.block = True
                    k += 2
                    if k + 1 < stop and tokens[k].text == "(" and tokens[k].pair == k + 1:
                        k += 2
                    body_label = "control"
                    continue
                if k + 2 < stop and tokens[k + 1].kind == GROUP and tokens[k + 1].text == "(" \
                        and tokens[k + 1].pair == k + 2:
                    result.block = True  # name() { …; }
                    body_label = "control"
                    k += 3
                    continue
                if raw == "[[":
                    mode = _TEST
            if after_compound:
                k = self.scan_word(word, None)
                continue
            if cur is None:
                cur = SimpleCommand(label())
            k = self.scan_word(word, cur)
            cur.add(ITEM_WORD, word)
        finish("")
        end_pipeline()

    def scan_word(self, word: ShellWord, owner: SimpleCommand | None) -> int:
        """Walk the substitutions inside `word`; returns the token index after it."""
        if word.substitution:
            tokens = self.tokens
            k = word.first
            while k <= word.last:
                tok = tokens[k]
                if tok.kind == SUBSTITUTION and tok.pair > k:
                    if tok.text == "$((":
                        if owner is not None:
                            owner.arithmetic = True
                        self.result.arithmetic = True
                        self.arithmetic(k + 1, tok.pair)
                    else:
                        if owner is not None:
                            owner.substitution = True
                        self.level(k + 1, tok.pair, "substitution")
                    k = tok.pair
                k += 1
        return word.last + 1

    def substitution(self, k: int, owner: SimpleCommand | None) -> int:
        tok = self.tokens[k]
        if tok.text == "$((":
            self.result.arithmetic = True
            self.arithmetic(k + 1, tok.pair)
        else:
            self.level(k + 1, tok.pair, "substitution")
        return tok.pair + 1

    def arithmetic(self, k: int, stop: int) -> None:
        """Inside $((…)) / ((…)) only command substitutions hold commands."""
        tokens = self.tokens
        while k < stop:
            tok = tokens[k]
            if tok.kind == SUBSTITUTION and tok.pair > k:
                k = self.substitution(k, None)
            else:
                k += 1

    def patterns(self, k: int, stop: int) -> int:
        """Skip case patterns up to their closing ')' (walking substitutions in them)."""
        tokens = self.tokens
        while k < stop:
            tok = tokens[k]
            if tok.kind == GROUP and tok.text == ")":
                return k + 1
            if tok.kind == SUBSTITUTION and tok.pair > k:
                k = self.substitution(k, None)
            else:
                k += 1
        return k


def _needs_target(redirect: str) -> bool:
    """False for fd duplications and closings with their target glued on (2>&1, >&-)."""
    if "&" in redirect and not redirect.startswith("&"):
        return redirect.endswith("&")
    return True


def _as_word(tok: Token, k: int) -> ShellWord:
    return ShellWord(tok.start, tok.end, tok.text, k, k, False)
