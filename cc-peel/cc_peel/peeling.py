"""`peel`: a command line → its peeled segments (cc_peel.structure, then cc_peel.layers)."""
from cc_lex.lexer import tokenize
from cc_lex.words import split_words

from .layers import peel_command
from .segments import Peeled
from .structure import structure_of


def peel(text: str, transparent_prefixes=()) -> Peeled:
    """Peel every simple command of `text`; raises cc_lex.LexError for unterminated quotes.

    transparent_prefixes: extra wrappers (config `[hooks] transparent_prefixes`), each a
    string of one or more words ('mise exec --') that stays outside a rewrite.
    """
    tokens = tokenize(text)
    structure = structure_of(tokens, text)
    prefixes = _split_prefixes(tuple(transparent_prefixes))
    segments = [peel_command(command, text, prefixes) for command in structure.commands]
    if structure.heredoc:
        whole = "heredoc"
    elif structure.arithmetic:
        whole = "arithmetic"
    elif structure.block and structure.multiline:
        whole = "block"
    else:
        whole = None
    return Peeled(text, segments, whole, tokens)


_split: dict = {}


def _split_prefixes(prefixes: tuple) -> list:
    """The words of each configured prefix, split once per process (peel runs per command)."""
    found = _split.get(prefixes)
    if found is None:
        found = _split[prefixes] = [split_words(p) for p in prefixes if p.strip()]
    return found


def configured_prefixes() -> tuple:
    """The config's `[hooks] transparent_prefixes` (a list of strings, or one string) for
    `peel`; a missing or broken config means none. cc-peel, cc-gate and cc-rewrite all peel
    with these, so a wrapper named there is seen through the same way by each."""
    try:
        from ctxcrl import config

        hooks = config.section("hooks")
    except Exception:  # noqa: BLE001 - configuration is optional here
        return ()
    prefixes = hooks.get("transparent_prefixes") if isinstance(hooks, dict) else None
    if isinstance(prefixes, str):
        prefixes = [prefixes]
    if not isinstance(prefixes, (list, tuple)):
        return ()
    return tuple(p for p in prefixes if isinstance(p, str) and p.strip())
