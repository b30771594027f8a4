"""The choice of filter: the catalogue (name → match → kind, cheap to load), which tiers are
trusted, the match keys of a command line, what a package.json script really runs, and the
fallback when no filter matches."""
