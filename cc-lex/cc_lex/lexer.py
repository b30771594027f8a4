"""The shell lexer: typed tokens with exact code-point offsets.

Owns `tokenize`, `Token` and `LexError`. Quoting follows the POSIX rules that `shlex`
implements (single quotes, double quotes, backslash, `#` comments only at the start of a word),
extended with what bash does and agents send: `$'…'`, `$"…"`, `${…}`, `$(…)`, backticks,
`$((…))`, `<(…)`/`>(…)`, operators, redirects with their fd prefix, heredocs, line
continuations and CRLF.

This runs on every agent command, so it imports nothing (no `re`, no `shlex`): a hand-written
state machine over the string.

A shell word that contains a substitution is split around it: `a$(b)c` lexes to word `a`,
substitution `$(`, word `b`, substitution `)`, word `c`. Tokens that touch (no gap between
them) belong to the same shell word; `cc_lex.words` puts them back together. The same holds
inside double quotes: `"x $(y) z"` gives word `"x `, `$(`, `y`, `)`, word ` z"`, so every
command the shell would run is visible as tokens, quoted or not.
"""

WORD = "word"
OPERATOR = "operator"
PIPE = "pipe"
REDIRECT = "redirect"
SUBSTITUTION = "substitution"
GROUP = "group"
COMMENT = "comment"
HEREDOC = "heredoc"

# Characters that end an unquoted word. '\r' is a blank as in shlex (a lone one; '\r\n' is a
# newline operator).
_BREAK = frozenset(" \t\r\n|&;()<>")
_BLANK = frozenset(" \t\r")
# Characters that need attention inside a word; everything else is copied in runs.
_WORD_SPECIAL = frozenset(" \t\r\n|&;()<>'\"\\$`")
_DQ_SPECIAL = frozenset('"\\$`')
_BRACE_SPECIAL = frozenset("'\"\\$`{}")
_ARITH_SPECIAL = frozenset(" \t\r\n()'\"\\$`")
_HEREDOC_SPECIAL = frozenset("\\$`")
_DIGITS = frozenset("0123456789")
# Reserved words after which the shell expects a command again.
_LEADS_COMMAND = frozenset(("then", "do", "else", "elif", "if", "while", "until", "!", "time"))

_MODE_WORD, _MODE_ARITH, _MODE_HEREDOC = 0, 1, 2
# Substitutions open at once. Real commands nest a few levels; the bound keeps adversarial
# input (`$((` × 1000) fast and clear of Python's recursion limit.
MAX_DEPTH = 64


_CASE_ENDS = frozenset((";;", ";&", ";;&"))


class LexError(ValueError):
    """An unterminated quote, substitution or expansion; `offset` is where it starts."""

    def __init__(self, message: str, offset: int):
        super().__init__(f"{message} at offset {offset}")
        self.message = message
        self.offset = offset


class Token:
    """One token: `text == input[start:end]` (code points).

    `value` is the unquoted text of a word token (quotes and escapes removed, `$'…'` decoded;
    `$x`, `${x}` and substitutions stay as written), and `text` for every other kind.
    `pair` is the index of the matching opener/closer for substitution and group tokens
    (`$(`↔`)`, `(`↔`)`, `{`↔`}`, `((`↔`))`, `` ` ``↔`` ` ``), -1 otherwise or when unmatched.
    """

    __slots__ = ("kind", "text", "start", "end", "value", "pair")

    def __init__(self, kind: str, text: str, start: int, end: int, value: str | None = None,
                 pair: int = -1):
        self.kind = kind
        self.text = text
        self.start = start
        self.end = end
        self.value = text if value is None else value
        self.pair = pair

    def __repr__(self) -> str:
        return f"Token({self.kind!r}, {self.text!r}, {self.start}, {self.end})"

    def __eq__(self, other) -> bool:
        if not isinstance(other, Token):
            return NotImplemented
        return (self.kind, self.text, self.start, self.end, self.value) == (
            other.kind, other.text, other.start, other.end, other.value)

    __hash__ = None

    def as_tuple(self) -> tuple:
        return (self.kind, self.text, self.start, self.end)


class _TooDeep(LexError):
    """More than MAX_DEPTH substitutions open at once: never retried."""


class _ArithFallback(Exception):
    """`$((` / `((` turned out not to be arithmetic: re-lex as `$(` + `(`."""


def tokenize(text: str) -> list[Token]:
    """Lex `text` into tokens; raises LexError for unterminated quotes and substitutions."""
    lexer = _Lexer(text)
    try:
        lexer.commands(None, 0, "")
    except RecursionError:
        raise LexError("substitutions nested too deeply", 0) from None
    return lexer.tokens


class _Lexer:
    __slots__ = ("s", "n", "i", "tokens", "heredocs", "paren", "not_arith", "arith_budget",
                 "depth")

    def __init__(self, text: str):
        self.s = text
        self.n = len(text)
        self.i = 0
        self.tokens: list[Token] = []
        # pending heredocs: (delimiter, strip_tabs, quoted), read after the next newline
        self.heredocs: list[tuple[str, bool, bool]] = []
        self.paren = 0  # parenthesis depth inside arithmetic
        # offsets where `$((` / `((` proved not to be arithmetic: without this memo, nested
        # failed attempts would re-lex the rest of the line exponentially often
        self.not_arith: set[int] = set()
        # characters failed arithmetic attempts may re-read in all; past it `$((` and `((`
        # are not tried as arithmetic any more (`((((…` would otherwise be quadratic)
        self.arith_budget = 4 * self.n + 4096
        self.depth = 0  # substitutions currently open

    def emit(self, kind: str, start: int, end: int, value: str | None = None) -> int:
        self.tokens.append(Token(kind, self.s[start:end], start, end, value))
        return len(self.tokens) - 1

    # -- command level -------------------------------------------------------------------

    def commands(self, closer: str | None, opener_at: int, opener: str) -> None:
        """Lex commands until `closer` (None: end of input, ')' or '`') and emit the closer.

        `opener` / `opener_at` name the construct in the error when the closer is missing.
        """
        if closer is not None:
            self.enter(opener_at)
        try:
            self.command_list(closer, opener_at, opener)
        finally:
            if closer is not None:
                self.depth -= 1

    def enter(self, opener_at: int) -> None:
        """Count one more open substitution; past MAX_DEPTH the line is refused."""
        self.depth += 1
        if self.depth > MAX_DEPTH:
            raise _TooDeep("substitutions nested too deeply", opener_at)

    def command_list(self, closer: str | None, opener_at: int, opener: str) -> None:
        s, n, tokens = self.s, self.n, self.tokens
        groups: list[int] = []  # indices of open '(' / '{' tokens in this context
        group_cases: list[int] = []  # `cases` when each of them opened
        cases = 0  # open `case … esac` (their ')' close patterns, not the substitution)
        cmd_pos = True  # the next word is in command position
        after_redirect = False  # the next word is a redirect target
        want_delim = 0  # 1: next word is a heredoc delimiter, 2: same with <<-
        function_name = False  # the next word is the name after `function`
        prev_word = ""
        while True:
            i = self.i
            while i < n and s[i] in _BLANK:
                if s[i] == "\r" and i + 1 < n and s[i + 1] == "\n":
                    break
                i += 1
            if i >= n:
                self.i = n
                if closer is not None:
                    raise LexError(f"unterminated {opener}", opener_at)
                return
            c = s[i]
            if c == "\\":
                if s.startswith("\n", i + 1):
                    self.i = i + 2
                    continue
                if s.startswith("\r\n", i + 1):
                    self.i = i + 3
                    continue
            if c == "\n" or c == "\r":
                end = i + 1 if c == "\n" else i + 2
                self.emit(OPERATOR, i, end)
                self.i = end
                cmd_pos, after_redirect, prev_word, want_delim = True, False, "", 0
                if self.heredocs:
                    self.read_heredocs()
                continue
            if c == "#":
                end = s.find("\n", i)
                if end < 0:
                    end = n
                elif end > i and s[end - 1] == "\r":
                    end -= 1
                self.emit(COMMENT, i, end)
                self.i = end
                continue
            if c == ";":
                if s.startswith(";;&", i):
                    end = i + 3
                elif s.startswith(";;", i) or s.startswith(";&", i):
                    end = i + 2
                else:
                    end = i + 1
                self.emit(OPERATOR, i, end)
                self.i = end
                cmd_pos, after_redirect, prev_word = True, False, ""
                continue
            if c == "&":
                if s.startswith("&&", i):
                    self.emit(OPERATOR, i, i + 2)
                    self.i = i + 2
                    cmd_pos, after_redirect, prev_word = True, False, ""
                elif s.startswith("&>", i):
                    end = i + 3 if s.startswith("&>>", i) else i + 2
                    self.emit(REDIRECT, i, end)
                    self.i = end
                    after_redirect = True
                else:
                    self.emit(OPERATOR, i, i + 1)
                    self.i = i + 1
                    cmd_pos, after_redirect, prev_word = True, False, ""
                continue
            if c == "|":
                if s.startswith("||", i):
                    self.emit(OPERATOR, i, i + 2)
                    self.i = i + 2
                else:
                    end = i + 2 if s.startswith("|&", i) else i + 1
                    self.emit(PIPE, i, end)
                    self.i = end
                cmd_pos, after_redirect, prev_word = True, False, ""
                continue
            if c == "(":
                if s.startswith("((", i) and (cmd_pos is True or prev_word == "for"):
                    if self.try_arith(i, GROUP):
                        cmd_pos, prev_word = False, ""
                        continue
                # `case x in (a) …` / `;; (b) …`: the optional '(' before a case pattern
                pattern = bool(cases) and (prev_word == "in" or (
                    tokens and tokens[-1].kind == OPERATOR and tokens[-1].text in _CASE_ENDS))
                groups.append(self.emit(GROUP, i, i + 1))
                group_cases.append(-1 - cases if pattern else cases)
                self.i = j = i + 1
                while j < n and s[j] in " \t":
                    j += 1
                # `name ( )` defines a function, whose body follows in command position
                cmd_pos = "parens" if cmd_pos is not True and s.startswith(")", j) else True
                after_redirect, prev_word = False, ""
                continue
            if c == ")":
                if groups and tokens[groups[-1]].text == "(" and \
                        group_cases[-1] in (cases, -1 - cases):
                    # (a case opened inside the group and still open: its pattern's ')')
                    index = self.emit(GROUP, i, i + 1)
                    opened = groups.pop()
                    pattern = group_cases.pop() < 0
                    tokens[opened].pair, tokens[index].pair = index, opened
                    self.i = i + 1
                    # after a subshell only redirects and operators may follow; after a
                    # case pattern, its commands
                    cmd_pos = pattern or cmd_pos == "parens"
                    after_redirect, prev_word = False, ""
                    continue
                if closer == ")" and not cases:
                    self.emit(SUBSTITUTION, i, i + 1)
                    self.i = i + 1
                    return
                self.emit(GROUP, i, i + 1)  # a case pattern's ')' or a stray one
                self.i = i + 1
                cmd_pos, after_redirect, prev_word = True, False, ""
                continue
            if c == "`" and closer == "`":
                self.emit(SUBSTITUTION, i, i + 1)
                self.i = i + 1
                return
            if (c == "<" or c == ">") and not s.startswith("(", i + 1):
                self.redirect(i)
                after_redirect = True
                if s.startswith("<<", i) and not s.startswith("<<<", i):
                    want_delim = 2 if s.startswith("<<-", i) else 1
                continue
            # a word (possibly split around substitutions)
            self.i = i
            first = len(tokens)
            self.word(closer == "`", _MODE_WORD, n)
            if len(tokens) == first:
                continue  # nothing but line continuations
            raw = s[i:self.i]
            if want_delim:
                single = len(tokens) == first + 1
                delim = tokens[first].value if single else _run_value(tokens, first, s)
                quoted = "'" in raw or '"' in raw or "\\" in raw
                self.heredocs.append((delim, want_delim == 2, quoted))
                want_delim = 0
                after_redirect = False
                continue
            if after_redirect:
                after_redirect = False
                continue
            if cmd_pos and (raw == "{" or raw == "}"):
                tok = tokens[first]
                tok.kind = GROUP
                if raw == "{":
                    groups.append(first)
                    group_cases.append(cases)
                    cmd_pos = True
                else:
                    if groups and tokens[groups[-1]].text == "{":
                        opened = groups.pop()
                        group_cases.pop()
                        tokens[opened].pair, tok.pair = first, opened
                    cmd_pos = False
                prev_word = ""
                continue
            if function_name:
                function_name = False
                cmd_pos, prev_word = "name", raw  # a body or `()` follows
                continue
            if cmd_pos:
                if raw == "case":
                    cases += 1
                elif raw == "esac" and cases:
                    cases -= 1
                elif raw == "function":
                    function_name = True
            elif raw == "esac" and cases and prev_word == "in":
                cases -= 1
            cmd_pos = bool(cmd_pos) and raw in _LEADS_COMMAND
            prev_word = raw

    def redirect(self, i: int) -> None:
        """Lex the redirect operator at `i`, gluing an fd prefix (2>) and a dup target (>&2)."""
        s, n, tokens = self.s, self.n, self.tokens
        start = i
        if tokens:
            last = tokens[-1]
            if (last.kind == WORD and last.end == i and last.text.isdigit() and last.text.isascii()
                    and (len(tokens) < 2 or tokens[-2].end != last.start
                         or tokens[-2].kind not in (WORD, SUBSTITUTION))):
                tokens.pop()
                start = last.start
        if s.startswith("<<<", i):
            end = i + 3
        elif s.startswith("<<-", i):
            end = i + 3
        elif s.startswith(">>", i) or s.startswith("<<", i) or s.startswith(">|", i) \
                or s.startswith("<>", i):
            end = i + 2
        elif s.startswith(">&", i) or s.startswith("<&", i):
            end = i + 2
            j = end
            while j < n and s[j] in _DIGITS:
                j += 1
            if j < n and s[j] == "-":
                j += 1
            if j > end and (j >= n or s[j] in _BREAK):
                end = j
        else:
            end = i + 1
        self.emit(REDIRECT, start, end)
        self.i = end

    def read_heredocs(self) -> None:
        """Read the bodies of the pending heredocs, which start right after a newline."""
        s, n = self.s, self.n
        pending, self.heredocs = self.heredocs, []
        for delim, strip_tabs, quoted in pending:
            start = pos = self.i
            if start >= n:
                return
            body_end = end = n  # an unterminated heredoc runs to the end, as in bash
            while pos < n:
                nl = s.find("\n", pos)
                line_end = n if nl < 0 else nl
                line = s[pos:line_end]
                if line.endswith("\r"):
                    line = line[:-1]
                if strip_tabs:
                    line = line.lstrip("\t")
                if line == delim:
                    body_end, end = pos, line_end if nl < 0 else nl + 1
                    break
                if nl < 0:
                    break
                pos = nl + 1
            if not quoted and ("$" in s[start:body_end] or "`" in s[start:body_end]):
                # an unquoted body expands $(…) and backticks: lex them as substitutions
                self.i = start
                self.word(False, _MODE_HEREDOC, body_end)
                if self.i > body_end:
                    raise LexError("unterminated substitution in heredoc", start)
                start = self.i
            if end > start:
                self.emit(HEREDOC, start, end)
            self.i = end

    # -- words ---------------------------------------------------------------------------

    def word(self, in_backticks: bool, mode: int, limit: int) -> None:
        """Lex one shell word from self.i, split around substitutions.

        _MODE_ARITH: inside `$((…))` (operators are word characters, parentheses nest).
        _MODE_HEREDOC: an unquoted heredoc body up to `limit`, where only `$(…)`, `${…}` and
        backticks count; its pieces are heredoc tokens and the last piece is left for the
        caller (self.i points at its start).
        """
        s, tokens = self.s, self.tokens
        n = limit
        i = piece = self.i
        parts: list[str] = []
        dq = -1  # offset of the open double quote, -1 outside
        brace = 0  # depth of `${…}`; its text is kept verbatim in the value
        # where the verbatim `${…}` text starts, where it opened, a double quote inside it
        bstart = brace_at = bdq = -1
        heredoc = mode == _MODE_HEREDOC
        arith = mode == _MODE_ARITH
        piece_kind = HEREDOC if heredoc else WORD
        special = _HEREDOC_SPECIAL if heredoc else _ARITH_SPECIAL if arith else _WORD_SPECIAL
        while i < n:
            c = s[i]
            if brace:
                if c not in _BRACE_SPECIAL:
                    i += 1
                    continue
                if c == "}" and bdq < 0:
                    brace -= 1
                    i += 1
                    if not brace:
                        parts.append(s[bstart:i])
                    continue
                if c == "{":
                    i += 1
                    continue
                if c == "\\":
                    i += 2
                    continue
                if c == "'":
                    if dq < 0 and bdq < 0 and not heredoc:
                        j = s.find("'", i + 1, n)
                        if j < 0:
                            raise LexError("unterminated single quote", i)
                        i = j + 1
                    else:
                        i += 1
                    continue
                if c == '"':
                    bdq = i if bdq < 0 else -1
                    i += 1
                    continue
                # '$' or '`': the expansion handling below
            elif dq >= 0:
                if c == '"':
                    dq = -1
                    i += 1
                    continue
                if c == "\\":
                    d = s[i + 1:i + 2]
                    if d == "\n":
                        i += 2
                    elif d and d in '$`"\\':
                        parts.append(d)
                        i += 2
                    else:
                        parts.append("\\")
                        i += 1
                    continue
                if c != "$" and c != "`":
                    j = i + 1
                    while j < n and s[j] not in _DQ_SPECIAL:
                        j += 1
                    parts.append(s[i:j])
                    i = j
                    continue
            elif c not in special:
                j = i + 1
                while j < n and s[j] not in special:
                    j += 1
                parts.append(s[i:j])
                i = j
                continue
            elif heredoc:
                if c == "\\":
                    i += 2
                    continue
            elif (c == "<" or c == ">") and s.startswith("(", i + 1) and not arith:
                if i > piece:
                    self.emit(WORD, piece, i, "".join(parts))
                    parts = []
                opened = self.emit(SUBSTITUTION, i, i + 2)
                self.i = i + 2
                self.commands(")", i, c + "(")
                _pair(tokens, opened)
                i = piece = self.i
                continue
            elif c in _BREAK:
                if not arith:
                    break
                if c == "(":
                    self.paren += 1
                elif c == ")":
                    if not self.paren:
                        break
                    self.paren -= 1
                else:
                    break  # blanks end an arithmetic word too
                parts.append(c)
                i += 1
                continue
            elif c == "'":
                j = s.find("'", i + 1, n)
                if j < 0:
                    raise LexError("unterminated single quote", i)
                parts.append(s[i + 1:j])
                i = j + 1
                continue
            elif c == '"':
                dq = i
                i += 1
                continue
            elif c == "\\":
                d = s[i + 1:i + 2]
                if d == "\n":
                    i += 2
                elif d == "\r" and s.startswith("\n", i + 2):
                    i += 3
                elif d:
                    parts.append(d)
                    i += 2
                else:
                    parts.append("\\")  # a trailing backslash stays literal, as in bash -c
                    i += 1
                continue
            # c is '$' or '`', outside single quotes
            if c == "`":
                if in_backticks and dq < 0 and not brace:
                    break  # the closing backtick of the substitution we are in
            else:
                d = s[i + 1:i + 2]
                if d != "(":
                    if d == "{":
                        if not brace:
                            bstart = brace_at = i
                        brace += 1
                        i += 2
                    elif brace:
                        i += 1  # kept verbatim with the whole ${…}
                    elif heredoc or dq >= 0:
                        parts.append("$")
                        i += 1
                    elif d == "'":
                        j = i + 2
                        while j < n and s[j] != "'":
                            j += 2 if s[j] == "\\" else 1
                        if j >= n:
                            raise LexError("unterminated $' quote", i)
                        parts.append(_ansi_c(s[i + 2:j]))
                        i = j + 1
                    elif d == '"':
                        dq = i + 1
                        i += 2
                    else:
                        parts.append("$")
                        i += 1
                    continue
            # a command substitution: `…`, $(…) or $((…))
            if brace:
                parts.append(s[bstart:i])
            if i > piece or heredoc:  # a heredoc body always starts with a heredoc token
                self.emit(piece_kind, piece, i, None if heredoc else "".join(parts))
            parts = []
            if c == "`":
                opened = self.emit(SUBSTITUTION, i, i + 1)
                self.i = i + 1
                self.commands("`", i, "backtick")
                _pair(tokens, opened)
            elif not (s.startswith("((", i + 1) and self.try_arith(i, SUBSTITUTION)):
                opened = self.emit(SUBSTITUTION, i, i + 2)
                self.i = i + 2
                self.commands(")", i, "$(")
                _pair(tokens, opened)
            i = piece = bstart = self.i
        if brace and not heredoc:
            raise LexError("unterminated ${", brace_at)
        if dq >= 0:
            raise LexError("unterminated double quote", dq)
        if heredoc:
            self.i = piece
            return
        if i > piece:
            self.emit(WORD, piece, i, "".join(parts))
        self.i = i

    def try_arith(self, i: int, kind: str) -> bool:
        """Lex `$((…))` (kind substitution) or `((…))` (kind group) starting at `i`.

        Returns False, with nothing consumed, when the text is not arithmetic after all
        (`$((a) | b)` is a command substitution holding a subshell).
        """
        if i in self.not_arith or self.arith_budget <= 0:
            return False
        tokens = self.tokens
        mark, heredocs, paren = len(tokens), list(self.heredocs), self.paren
        opener_len = 3 if kind == SUBSTITUTION else 2
        opened = self.emit(kind, i, i + opener_len)
        self.i = i + opener_len
        depth = self.depth
        try:
            self.enter(i)
            self.arith(i, kind)
        except _TooDeep:
            raise
        except (_ArithFallback, LexError) as failure:
            self.arith_budget -= (self.i if isinstance(failure, _ArithFallback) else self.n) - i
            del tokens[mark:]
            self.heredocs, self.paren, self.i = heredocs, paren, i
            self.not_arith.add(i)
            return False
        finally:
            self.depth = depth
        _pair(tokens, opened)
        self.paren = paren
        return True

    def arith(self, opener_at: int, kind: str) -> None:
        s, n = self.s, self.n
        self.paren = 0
        while True:
            i = self.i
            while i < n and (s[i] in " \t\r\n" or s.startswith("\\\n", i)):
                i += 2 if s[i] == "\\" else 1
            if i >= n:
                raise LexError("unterminated $((", opener_at)
            if s[i] == ")":
                if s.startswith("))", i):
                    self.emit(kind, i, i + 2)
                    self.i = i + 2
                    return
                raise _ArithFallback
            self.i = i
            self.word(False, _MODE_ARITH, n)


def _pair(tokens: list[Token], opened: int) -> None:
    closing = len(tokens) - 1
    tokens[opened].pair = closing
    tokens[closing].pair = opened


def _run_value(tokens: list[Token], first: int, s: str) -> str:
    """The unquoted value of the shell word made of tokens[first:] (substitutions verbatim)."""
    out = []
    k = first
    while k < len(tokens):
        tok = tokens[k]
        if tok.kind == SUBSTITUTION and tok.pair > k:
            out.append(s[tok.start:tokens[tok.pair].end])
            k = tok.pair + 1
        else:
            out.append(tok.value)
            k += 1
    return "".join(out)


_SIMPLE_ESCAPES = {"a": "\a", "b": "\b", "e": "\x1b", "E": "\x1b", "f": "\f", "n": "\n",
                   "r": "\r", "t": "\t", "v": "\v", "\\": "\\", "'": "'", '"': '"', "?": "?"}
_HEX = frozenset("0123456789abcdefABCDEF")


def _ansi_c(body: str) -> str:
    """Decode the escapes of a bash `$'…'` string."""
    if "\\" not in body:
        return body
    out = []
    i, n = 0, len(body)
    while i < n:
        c = body[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = body[i + 1]
        if d in _SIMPLE_ESCAPES:
            out.append(_SIMPLE_ESCAPES[d])
            i += 2
        elif d in "01234567":
            j = i + 1
            while j < n and j < i + 4 and body[j] in "01234567":
                j += 1
            out.append(chr(int(body[i + 1:j], 8) & 0xFF))
            i = j
        elif d in "xuU":
            width = {"x": 2, "u": 4, "U": 8}[d]
            j = i + 2
            while j < n and j < i + 2 + width and body[j] in _HEX:
                j += 1
            if j == i + 2:
                out.append(body[i:i + 2])
            else:
                code = int(body[i + 2:j], 16)
                out.append(chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF
                           else "\ufffd")
            i = j
        elif d == "c" and i + 2 < n:
            out.append(chr(ord(body[i + 2]) & 0x1F))
            i += 3
        else:
            out.append(body[i:i + 2])
            i += 2
    return "".join(out)
