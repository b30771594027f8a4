"""cc_lex: a shell lexer giving typed tokens with exact offsets (DESIGN §4).

Public API: `tokenize(text) -> list[Token]`, `Token`, `LexError`, `split_words(text)`,
`words(tokens, text)`. Imports nothing heavy: it runs on every agent command.
"""
from .lexer import (COMMENT, GROUP, HEREDOC, OPERATOR, PIPE, REDIRECT, SUBSTITUTION, WORD,
                    LexError, Token, tokenize)
from .words import ShellWord, split_words, words

__all__ = ["tokenize", "Token", "LexError", "split_words", "words", "ShellWord", "WORD",
           "OPERATOR", "PIPE", "REDIRECT", "SUBSTITUTION", "GROUP", "COMMENT", "HEREDOC"]
