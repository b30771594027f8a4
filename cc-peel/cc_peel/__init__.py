"""cc_peel: split a command line into simple commands and peel each down to its core.

Public API: `peel(text, transparent_prefixes=()) -> Peeled`, `Segment`, `Peeled`,
`key_of(argv) -> str`. Imports nothing heavy: it runs on every agent command.
"""
from .keys import key_of, normalise
from .peeling import peel
from .records import Peeled, Segment

__all__ = ["peel", "Peeled", "Segment", "key_of", "normalise"]
