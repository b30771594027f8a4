"""The built-in filters. Adding a file here is all it takes to add a filter — no central list:

- `<name_with_underscores>.py`: a module defining exactly one `cc_filter.kit.filter.Filter` subclass
  whose `name` is the file name with `_` → `-` (`git_status.py` → `git-status`);
- `<name>.toml`: a declarative filter (DSL in ARCHITECTURE §6.3, cc_filter/kit/toml_filter.py) whose
  `[filter] name` equals the file name.
Files starting with `_` are shared helper modules, not filters.

The catalogue (cc_filter/choose/catalogue.py) indexes this folder (and the user and project tiers)
into a marshal cache invalidated by file mtimes, so filter modules are imported only when the
folder changed or when their filter actually runs. Keep this file free of imports.
"""
