"""The generic fallback filter, for commands with no filter of their own (cc_filter/choose/fallback.py)."""
