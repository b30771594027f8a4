"""js filters (one file per filter; `_`-files are their shared helpers)."""
