"""Path shapes shared by the filters that list files (not a filter itself).

- `relative(path)`: a path under the working directory without that prefix (`./x` → `x`).
- `paths_by_directory(paths)`: a file list grouped by directory, each directory once, and a
  shared extension written once as a glob (`src/components/*.jsx: Button Card`).
- `common_parent(directories)`: the directory several paths share (`/srv/app/src/`).

Imports nothing heavy (no `re`): these run on the `cc-filter run` path.
"""
from ctxcrl import lean_os as os

_cwd_prefix: str | None = None


def relative(path: str) -> str:
    """`path` relative to the working directory when it lies under it; `./x` → `x`."""
    global _cwd_prefix
    if _cwd_prefix is None:
        try:
            _cwd_prefix = os.getcwd().rstrip("/") + "/"
        except OSError:
            _cwd_prefix = "\0"
    if path.startswith(_cwd_prefix) and len(path) > len(_cwd_prefix):
        return path[len(_cwd_prefix):]
    while path.startswith("./") and len(path) > 2:
        path = path[2:]
    return path


def pretend_working_directory(path: str | None) -> str | None:
    """Make `relative` work as if the command had run in `path` (the fixture harness: a case
    captured in its scratch folder); returns the previous setting, for restoring it."""
    global _cwd_prefix
    previous = _cwd_prefix[:-1] if _cwd_prefix and _cwd_prefix != "\0" else None
    _cwd_prefix = path.rstrip("/") + "/" if path else None
    return previous


def paths_by_directory(paths: list[str]) -> list[str]:
    """One line per directory, directories and names sorted (tools that work in parallel
    list files in a different order on every run): `  src/pages/: home.js orders.js`.
    Absolute directories (outside the working directory) that share a parent are shown under
    one `in /that/parent/:` line."""
    groups: dict[str, list[str]] = {}
    for path in paths:
        path = relative(path)
        head, sep, tail = path.rpartition("/")
        groups.setdefault(head + sep if sep else "./", []).append(tail)
    groups = {directory: sorted(groups[directory]) for directory in sorted(groups)}
    out = []
    parent = common_parent(list(groups)) if all(d.startswith("/") for d in groups) else ""
    if parent:
        out.append(f"in {parent}")
    for directory, names in groups.items():
        shown = directory[len(parent):] or "./"
        extension = _shared_extension(names)
        if extension:
            stems = " ".join(name[:-len(extension)] for name in names)
            out.append(f"  {shown}*{extension}: {stems}")
        else:
            out.append(f"  {shown}: {' '.join(names)}")
    return out


def _shared_extension(names: list[str]) -> str:
    """`.jsx` when every one of several names ends with it (after a non-empty stem)."""
    if len(names) < 2:
        return ""
    stem, dot, extension = names[0].rpartition(".")
    if not dot or not stem or not extension or " " in extension:
        return ""
    suffix = "." + extension
    if all(len(n) > len(suffix) and n.endswith(suffix) and " " not in n for n in names):
        return suffix
    return ""


def common_parent(directories: list[str]) -> str:
    """The longest `a/b/` several directories (all absolute, or all relative) start with;
    '' when there is none worth naming."""
    if len(directories) < 2 or len({d.startswith("/") for d in directories}) != 1:
        return ""
    first = directories[0]
    end = len(first)
    for other in directories[1:]:
        end = min(end, len(other))
        for i in range(end):
            if first[i] != other[i]:
                end = i
                break
    parent = first[:end]
    parent = parent[:parent.rfind("/") + 1]
    return parent if len(parent) >= 6 and parent != "/" else ""
