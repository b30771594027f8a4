"""Shell words from tokens: glues the tokens of one word back together and unquotes them.

A word that contains a substitution is lexed as several touching tokens (see cc_lex.lexer);
here they become one `ShellWord` again, its value made of the unquoted pieces with each
substitution kept verbatim (`a"$(b c)"d` → `a$(b c)d`).
"""
from .lexer import COMMENT, HEREDOC, OPERATOR, SUBSTITUTION, WORD, Token, tokenize


class ShellWord:
    """One shell word: `text[start:end]`, its unquoted `value`, tokens[first:last + 1]."""

    __slots__ = ("start", "end", "value", "first", "last", "substitution")

    def __init__(self, start: int, end: int, value: str, first: int, last: int,
                 substitution: bool):
        self.start = start
        self.end = end
        self.value = value
        self.first = first
        self.last = last
        self.substitution = substitution  # holds $(…), `…`, <(…), >(…) or $((…))

    def __repr__(self) -> str:
        return f"ShellWord({self.value!r}, {self.start}, {self.end})"


def word_at(tokens: list[Token], k: int, text: str) -> ShellWord:
    """The shell word starting at tokens[k] (a word token or a substitution opener)."""
    first = k
    parts = []
    substitution = False
    n = len(tokens)
    while True:
        tok = tokens[k]
        if tok.kind == SUBSTITUTION and tok.pair > k:
            close = tokens[tok.pair]
            parts.append(text[tok.start:close.end])
            substitution = True
            k = tok.pair
        elif tok.kind == WORD:
            parts.append(tok.value)
        else:
            break
        end = tokens[k].end
        k += 1
        if k >= n or tokens[k].start != end or tokens[k].kind not in (WORD, SUBSTITUTION) \
                or (tokens[k].kind == SUBSTITUTION and tokens[k].pair < k):
            break
    last = k - 1
    return ShellWord(tokens[first].start, tokens[last].end, "".join(parts), first, last,
                     substitution)


def words(tokens: list[Token], text: str) -> list[ShellWord]:
    """The top-level shell words of a token list (operators, comments, heredocs skipped)."""
    out = []
    k, n = 0, len(tokens)
    while k < n:
        tok = tokens[k]
        if tok.kind == WORD or (tok.kind == SUBSTITUTION and tok.pair > k):
            if tok.kind == SUBSTITUTION and k and tokens[k - 1].kind == HEREDOC \
                    and tokens[k - 1].end == tok.start:
                k = tok.pair + 1  # a substitution inside a heredoc body
                continue
            word = word_at(tokens, k, text)
            out.append(word)
            k = word.last + 1
        else:
            k += 1
    return out


def split_words(text: str) -> list[str]:
    """The unquoted shell words of `text`, like `shlex.split(text)` (posix).

    Operators, pipes, redirects and group characters are words of their own (as with shlex's
    punctuation_chars), newlines, comments and heredoc bodies are not. Raises LexError.
    """
    return words_of_tokens(tokenize(text), text)


def words_of_tokens(tokens: list[Token], text: str) -> list[str]:
    """split_words for tokens already lexed from `text`."""
    out = []
    k, n = 0, len(tokens)
    while k < n:
        tok = tokens[k]
        kind = tok.kind
        if kind == WORD or (kind == SUBSTITUTION and tok.pair > k):
            if kind == SUBSTITUTION and k and tokens[k - 1].kind == HEREDOC \
                    and tokens[k - 1].end == tok.start:
                k = tok.pair + 1
                continue
            word = word_at(tokens, k, text)
            out.append(word.value)
            k = word.last + 1
            continue
        if kind != COMMENT and kind != HEREDOC and not (kind == OPERATOR
                                                         and tok.text[-1] == "\n"):
            out.append(tok.text)
        k += 1
    return out
