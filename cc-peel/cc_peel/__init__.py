"""cc_peel: split a command line into simple commands and peel each down to its core.

Public API: `peel(text, transparent_prefixes=()) -> Peeled`, `Segment`, `Peeled`,
`key_of(argv) -> str`, `normalise`. Also `cc_peel.record`: the command record the hook stages
pass along (cc-gate, cc-rewrite and cc-hook share it).

The names are loaded on first use (PEP 562), so `import cc_peel.keys` (what `cc-filter run`
needs) or `cc_peel.record` (what cc-hook needs) does not load the lexer and the peeler.
Imports nothing heavy: it runs on every agent command.
"""

__all__ = ["peel", "Peeled", "Segment", "key_of", "normalise"]

_HOMES = {"peel": "peeling", "Peeled": "segments", "Segment": "segments", "key_of": "keys",
          "normalise": "keys"}


def __getattr__(name: str):
    home = _HOMES.get(name)
    if home is None:
        raise AttributeError(f"module 'cc_peel' has no attribute {name!r}")
    module = __import__(f"cc_peel.{home}", fromlist=[name])
    value = getattr(module, name)
    globals()[name] = value
    return value


def __dir__():
    return sorted(set(globals()) | set(__all__))
