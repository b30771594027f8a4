"""The command key a filter is chosen by, and how a command is labelled in the spool.

The key is `cc_peel.key_of(argv)` (re-exported here) — the same normalisation cc-rewrite
matched on (program basename, git global options dropped, runners unwrapped: `uv run pytest -q`
→ `pytest -q`). `cc_peel/keys.py` imports nothing, so this stays cheap.

Imports nothing heavy: runs on every `cc-filter run`.
"""
from cc_peel.keys import key_of, normalise  # noqa: F401  (key_of re-exported)

_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789@%+=:,./-_")


def quote_join(argv: list[str]) -> str:
    """The command as a shell would read it back (shlex.join without importing shlex)."""
    out = []
    for word in argv:
        if word and all(c in _SAFE for c in word):
            out.append(word)
        else:
            out.append("'" + word.replace("'", "'\"'\"'") + "'")
    return " ".join(out)


def quoted_key(argv: list[str]) -> str:
    """The key as the spool records it for reports: its words quoted the way a shell would
    read them back (`go test -run 'TestA|TestB' .`); `key_of` joins them bare for matching."""
    return quote_join(normalise(argv))


def command_label(key: str) -> str:
    """The command without its arguments, for `[tracking] store_arguments = false`: the
    program only (`git log -n 5 x.py` → `git`). Which filter ran is still recorded in the
    spool's `filter` field, so reports keep `git-log` apart from `git-status`."""
    words = key.split(None, 1)
    return words[0] if words else ""
