"""cc_lex: a shell lexer giving typed tokens with exact offsets (ARCHITECTURE §4).

Public API: `tokenize(text) -> list[Token]`, `Token`, `LexError`, `split_words(text)`; and
`cc_lex.words.words(tokens, text)` (the module `cc_lex.words` keeps its name). Also `ctxcrl.console`: how every tool's process ends and its command
line convention (the floor all seven tools stand on).

The names are loaded on first use (PEP 562), so `import ctxcrl.console` (what every tool's
command line needs, `cc-filter run` and the hook's decode stage included) does not load the
lexer. Imports nothing heavy: it runs on every agent command.
"""

__all__ = ["tokenize", "Token", "LexError", "split_words", "ShellWord", "WORD",
           "OPERATOR", "PIPE", "REDIRECT", "SUBSTITUTION", "GROUP", "COMMENT", "HEREDOC"]

_WORDS = ("ShellWord", "split_words")


def __getattr__(name: str):
    if name not in __all__:
        raise AttributeError(f"module 'cc_lex' has no attribute {name!r}")
    home = "words" if name in _WORDS else "lexer"
    value = getattr(__import__(f"cc_lex.{home}", fromlist=[name]), name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
