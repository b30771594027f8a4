"""The command key a filter is chosen by, and how a command is labelled in the spool.

The key comes from `cc_peel.key_of(argv)` — the same normalisation cc-rewrite matched on
(program basename, git global options dropped, runners unwrapped: `uv run pytest -q` →
`pytest -q`). When cc_peel is not importable, a minimal local normalisation stands in.

Imports nothing heavy: runs on every `cc-filter run`.
"""
import os

_peel_key_of = None
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")


def key_of(argv: list[str]) -> str:
    global _peel_key_of
    if _peel_key_of is None:
        _peel_key_of = _load_peel_key_of()
    try:
        return _peel_key_of(list(argv))
    except Exception:
        return _fallback_key_of(argv)


def _load_peel_key_of():
    """`cc_peel.key_of` from `cc_peel/keys.py`, which imports nothing (cc_peel's package
    loads its other modules, the peeler and the lexer, only when they are used)."""
    try:
        from cc_peel.keys import key_of as peel_key_of
    except ImportError:
        return _fallback_key_of
    return peel_key_of


_GIT_VALUE_OPTIONS = ("-C", "-c", "--git-dir", "--work-tree", "--namespace", "--exec-path")


def _fallback_key_of(argv: list[str]) -> str:
    if not argv:
        return ""
    words = [os.path.basename(argv[0])] + list(argv[1:])
    if words[0] == "git":
        rest, i = [], 1
        while i < len(words):
            w = words[i]
            if w in _GIT_VALUE_OPTIONS:
                i += 2
                continue
            if w.startswith("--") and "=" in w and w.split("=", 1)[0] in _GIT_VALUE_OPTIONS:
                i += 1
                continue
            if w in ("--no-pager", "--paginate", "-p", "--bare", "--no-replace-objects"):
                i += 1
                continue
            rest = words[i:]
            break
        words = ["git"] + rest
    return " ".join(words)


def quote_join(argv: list[str]) -> str:
    """The command as a shell would read it back (shlex.join without importing shlex)."""
    out = []
    for word in argv:
        if word and all(c in _SAFE for c in word):
            out.append(word)
        else:
            out.append("'" + word.replace("'", "'\"'\"'") + "'")
    return " ".join(out)


def command_label(key: str) -> str:
    """The command without its arguments, for `[tracking] store_arguments = false`: the
    program only (`git log -n 5 x.py` → `git`). Which filter ran is still recorded in the
    spool's `filter` field, so reports keep `git-log` apart from `git-status`."""
    words = key.split(None, 1)
    return words[0] if words else ""
