"""Which filters exist and which one a command gets (ARCHITECTURE §6.3, §6.4).

Three tiers, searched in order, the first match wins:
  project   `.ctxcrl/filters/*.toml`, found from cwd upward (used only when trusted, trust.py)
  user      `~/.config/ctxcrl/filters/*.toml` (ctxcrl.home.user_filters_dir()), used only
            from a home the user alone controls (`ctxcrl.home.trusted_home()`)
  built-in  `cc_filter/filters/<ecosystem>/` (`git/`, `python/`, `js/`, …; the top folder
            too): `<name_with_underscores>.py` (one Filter subclass) or `<name>.toml` —
            dropping a file there is all it takes, there is no central list.
Within a tier the most specific pattern is tried first (the longest literal text every match
starts with: `^git status` before `^git`), then by name.

Cheap by construction, because cc-rewrite asks on every agent command: the index of every tier
(name, pattern, kind, and for TOML the validated spec) is cached with `marshal` in the data
directory and rebuilt for one directory only when that directory's or one of its files'
mtime/size changed, so `tomllib` and the filter modules are only touched after an edit. The
built-in directory is part of the installed package, so a lookup checks only its folders' own
mtimes (a file added, removed or replaced); `refresh()` — run by the cold commands (`list`, `which`,
`show`, `test`) — also sees a built-in file edited in place. The entries are read once per
process (`reset()` forgets them, e.g. after writing filter files).
Patterns of the common shapes (`^git status(\\s|$)`, `^(cat|head)(\\s|$)`) are matched with
`str.startswith`; `re` is imported only when a key could match some other pattern.

Imports nothing heavy at module level (os, sys, marshal).
"""
import marshal
import sys

from ctxcrl import lean_os as os
from ctxcrl import home

TIERS = ("project", "user", "built-in")
_PACKAGE_DIR = os.path.join(os.path.dirname(os.path.dirname(os.path.abspath(__file__))), "filters")
BUILTIN_DIR = _PACKAGE_DIR  # tests point this at a folder of their own
_INDEX_VERSION = 4
_BUILTIN_PACKAGE = "cc_filter.filters"
FALLBACK = "generic"  # = cc_filter.choose.fallback.NAME (not imported: this module loads first)


class Entry:
    """One filter file as the index knows it."""

    __slots__ = ("name", "match_command", "kind", "tier", "source", "description", "forms",
                 "prefixes", "specificity", "module", "class_name", "spec", "sha256", "error",
                 "_regex")

    def __init__(self, name, match_command, kind, tier, source, description="", forms=None,
                 prefixes=None, specificity=0, module=None, class_name=None, spec=None,
                 sha256=None, error=None):
        self.name = name
        self.match_command = match_command
        self.kind = kind  # "python" | "toml"
        self.tier = tier  # "project" | "user" | "built-in"
        self.source = source
        self.description = description
        self.forms = forms
        self.prefixes = prefixes
        self.specificity = specificity
        self.module = module
        self.class_name = class_name
        self.spec = spec
        self.sha256 = sha256
        self.error = error
        self._regex = None

    def __repr__(self) -> str:
        return f"Entry({self.name!r}, {self.match_command!r}, {self.kind!r}, {self.tier!r})"

    def to_record(self) -> tuple:
        return (self.name, self.match_command, self.kind, self.source, self.description,
                self.forms, self.prefixes, self.specificity, self.module, self.class_name,
                self.spec, self.sha256, self.error)

    @classmethod
    def from_record(cls, record: tuple, tier: str) -> "Entry":
        (name, match, kind, source, description, forms, prefixes, specificity, module,
         class_name, spec, sha256, error) = record
        return cls(name, match, kind, tier, source, description, forms, prefixes, specificity,
                   module, class_name, spec, sha256, error)

    def matches(self, key: str) -> bool:
        if self.error is not None:
            return False
        if self.forms is not None:
            for text, how in self.forms:  # = patterns.literal_matches, inlined: no import
                if key.startswith(text):
                    rest = key[len(text):]
                    if how == "prefix" or not rest or (how == "word" and rest[0].isspace()):
                        return True
            return False
        if self.prefixes is not None and not any(key.startswith(p) for p in self.prefixes):
            return False
        if self._regex is None:
            import re

            self._regex = re.compile(self.match_command)
        return self._regex.search(key) is not None

    def why(self) -> str:
        how = "literal prefix" if self.forms is not None else "regex"
        return f"{self.tier} {self.kind} filter, pattern {self.match_command} ({how})"


# -- finding the tiers' directories ----------------------------------------------------------
def find_upward(relative: str, start: str | None = None) -> str | None:
    """The nearest directory `<dir>/<relative>` from `start` (default: cwd) upward, if any."""
    path = os.path.abspath(start or os.getcwd())
    while True:
        candidate = os.path.join(path, relative)
        if os.path.isdir(candidate):
            return candidate
        parent = os.path.dirname(path)
        if parent == path:
            return None
        path = parent


def project_dir(cwd: str | None = None) -> str | None:
    """The nearest `.ctxcrl/filters` directory from cwd upward, if any."""
    return find_upward(os.path.join(".ctxcrl", "filters"), cwd)


def tier_dirs(cwd: str | None = None) -> list[tuple[str, str]]:
    dirs = []
    project = project_dir(cwd)
    if project:
        dirs.append(("project", project))
    user = home.user_filters_dir()
    if os.path.isdir(user) and home.trusted_home(cwd):  # else: in the project, or not yours
        reason = home.distrust_reason(user, cwd)  # the filters folder itself, too
        if reason is None:
            dirs.append(("user", user))
        else:
            home.warn_untrusted_once(reason)
    dirs.append(("built-in", BUILTIN_DIR))
    return dirs


# -- the index -------------------------------------------------------------------------------
_cache: dict | None = None
_cache_path_loaded: str | None = None
_entries: dict = {}  # (cwd, user dir, built-in dir, index path) → entries, once per process
_warned: set = set()
_broken: list = []  # user/project entries a rebuild found broken, not reported yet


def _index_path() -> str:
    return os.path.join(home.data_dir(), "filters.index")


def _load_cache() -> dict:
    global _cache, _cache_path_loaded
    path = _index_path()
    if _cache is not None and _cache_path_loaded == path:
        return _cache
    if not home.trusted_home():  # an index planted in the project: never read
        _cache, _cache_path_loaded = {}, path
        return _cache
    try:
        with open(path, "rb") as f:
            # marshal.loads of the bytes: marshal.load(f) reads the file in small pieces,
            # ~10x the instructions for this index
            version, dirs = marshal.loads(f.read())
        if version != _INDEX_VERSION or not isinstance(dirs, dict):
            dirs = {}
    except (OSError, EOFError, ValueError, TypeError):
        dirs = {}
    _cache, _cache_path_loaded = dirs, path
    return dirs


def _save_cache(dirs: dict) -> None:
    path = _index_path()
    if not home.trusted_home():
        return
    try:
        home.ensure_private_dir(os.path.dirname(path))
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            marshal.dump((_INDEX_VERSION, dirs), f)
        os.replace(tmp, path)
    except (OSError, ValueError):
        pass  # an index we cannot write only costs time


def _stamp(directory: str, tier: str) -> tuple | None:
    """(((folder, mtime), ...), ((file, mtime, size), ...)) for the filter files of a tier's
    directory. The built-in directory also has one level of ecosystem folders (`git/`,
    `python/`, …): their files are named `<folder>/<file>`, and each folder's mtime is kept."""
    folders, files = [], []
    pending = [""]
    while pending:
        folder = pending.pop()
        path = os.path.join(directory, folder) if folder else directory
        try:
            folders.append((folder, os.stat(path).st_mtime_ns))
            with os.scandir(path) as it:
                for entry in it:
                    name = entry.name
                    if (tier == "built-in" and not folder and name[0] not in "_."
                            and entry.is_dir()):
                        pending.append(name)
                    elif name.endswith(".toml") or (tier == "built-in" and name.endswith(".py")
                                                    and not name.startswith("_")):
                        try:
                            st = entry.stat()
                        except OSError:
                            continue
                        files.append((f"{folder}/{name}" if folder else name, st.st_mtime_ns,
                                      st.st_size))
        except OSError:
            if not folder:
                return None
    folders.sort()
    files.sort()
    return (tuple(folders), tuple(files))


def _folders_unchanged(directory: str, folders: tuple) -> bool:
    """The built-in hot path: only the folders' own mtimes (a file added, removed or replaced
    changes its folder's; a new ecosystem folder changes the top folder's)."""
    for folder, mtime in folders:
        path = os.path.join(directory, folder) if folder else directory
        if os.stat(path).st_mtime_ns != mtime:
            return False
    return True


def _entries_for(tier: str, directory: str, dirs: dict, thorough: bool) -> tuple[list, bool]:
    """The entries of one directory, from the cache when its stamp still matches (for the
    built-in directory, unless `thorough`, when its folders' own mtimes still match)."""
    cached = dirs.get(directory)
    if tier == "built-in" and not thorough and cached is not None:
        try:
            unchanged = _folders_unchanged(directory, cached[0][0])
        except OSError:
            return [], False
        if unchanged:
            return [Entry.from_record(r, tier) for r in cached[1]], False
    stamp = _stamp(directory, tier)
    if stamp is None:
        return [], False
    if cached is not None and cached[0] == stamp:
        return [Entry.from_record(r, tier) for r in cached[1]], False
    records = _build(tier, directory, stamp[1])
    dirs[directory] = (stamp, [r.to_record() for r in records])
    return records, True


def _build(tier: str, directory: str, files: tuple) -> list:
    entries = []
    for name, _mtime, _size in files:
        path = os.path.join(directory, name)
        stem = os.path.basename(name)
        if name.endswith(".toml"):
            entries.append(_toml_entry(tier, path, stem[:-5]))
        else:
            entries.append(_python_entry(tier, path, stem[:-3]))
    if tier != "built-in":  # reported once, by the next lookup that may warn
        _broken.extend(e for e in entries if e.error is not None)
    entries.sort(key=lambda e: (-e.specificity, e.name))
    return entries


def _with_match(entry: Entry) -> Entry:
    from cc_filter.kit import patterns

    entry.forms = patterns.literal_forms(entry.match_command)
    entry.prefixes = patterns.required_prefixes(entry.match_command)
    entry.specificity = patterns.specificity(entry.match_command)
    return entry


def _toml_entry(tier: str, path: str, stem: str) -> Entry:
    from cc_filter.choose import trust
    from cc_filter.kit import toml_filter

    sha = None
    try:
        with open(path, "rb") as f:
            data = f.read()
        sha = trust.sha256_of(data)
        import tomllib

        try:
            parsed = tomllib.loads(data.decode("utf-8"))
        except (tomllib.TOMLDecodeError, UnicodeDecodeError) as exc:
            raise toml_filter.FilterFileError(f"{path}: invalid TOML: {exc}") from None
        spec = toml_filter.parse_filter_file(path, parsed, expected_name=stem)
    except (toml_filter.FilterFileError, OSError) as exc:
        return Entry(stem, "", "toml", tier, path, error=str(exc), sha256=sha)
    return _with_match(Entry(spec["name"], spec["match_command"], "toml", tier, path,
                             spec["description"], spec=spec, sha256=sha))


def _module_name(directory: str, stem: str) -> str:
    directory = os.path.abspath(directory)
    if directory == _PACKAGE_DIR:
        return f"{_BUILTIN_PACKAGE}.{stem}"
    if os.path.dirname(directory) == _PACKAGE_DIR:  # an ecosystem folder: a subpackage
        return f"{_BUILTIN_PACKAGE}.{os.path.basename(directory)}.{stem}"
    # Another folder standing in for the built-ins (tests): its files are loaded by path.
    tag = "".join(c if c.isalnum() else "_" for c in os.path.abspath(directory))
    return f"_ctxcrl_filters{tag}.{stem}"


def _python_entry(tier: str, path: str, stem: str) -> Entry:
    name = stem.replace("_", "-")
    module_name = _module_name(os.path.dirname(path), stem)
    try:
        cls = _find_filter_class(module_name, path)
        error = None
        if cls.name != name:
            error = f"{path}: filter name {cls.name!r} must match the file name ({name!r})"
        elif not isinstance(cls.match_command, str) or not cls.match_command.startswith("^"):
            error = f"{path}: match_command must be a regex anchored with ^"
        else:
            from cc_filter.kit import patterns

            patterns.check_regex(cls.match_command)
    except Exception as exc:  # a broken module must not break the catalogue
        return Entry(name, "", "python", tier, path, module=module_name,
                     error=f"{path}: cannot load: {type(exc).__name__}: {exc}")
    if error:
        return Entry(name, "", "python", tier, path, module=module_name, error=error)
    return _with_match(Entry(cls.name, cls.match_command, "python", tier, path,
                             cls.description or "", module=module_name,
                             class_name=cls.__name__))


def _import(module_name: str, path: str):
    module = sys.modules.get(module_name)
    if module is not None:
        return module
    if module_name.startswith(_BUILTIN_PACKAGE + "."):
        __import__(module_name)
        return sys.modules[module_name]
    import importlib.util

    spec = importlib.util.spec_from_file_location(module_name, path)
    module = importlib.util.module_from_spec(spec)
    sys.modules[module_name] = module
    try:
        spec.loader.exec_module(module)
    except BaseException:
        del sys.modules[module_name]
        raise
    return module


def _find_filter_class(module_name: str, path: str) -> type:
    from cc_filter.kit.filter import Filter

    module = _import(module_name, path)
    found = [obj for obj in vars(module).values()
             if isinstance(obj, type) and issubclass(obj, Filter) and obj is not Filter
             and obj.__module__ == module_name and obj.__dict__.get("name")]
    if len(found) != 1:
        raise ImportError(f"{path} must define exactly one Filter subclass with a name "
                          f"(found {len(found)})")
    return found[0]


def all_entries(cwd: str | None = None) -> list[Entry]:
    """Every filter file of every tier, in lookup order (broken ones included, with .error).
    Read once per process and directory (see `reset`, `refresh`)."""
    key = _entries_key(cwd)
    found = _entries.get(key)
    if found is None:
        found = _entries[key] = _read_entries(cwd, thorough=False)
    return list(found)


def refresh(cwd: str | None = None) -> None:
    """Re-check every filter file of every tier, the built-in ones included, and rebuild the
    index for what changed (cold commands run this first)."""
    _entries[_entries_key(cwd)] = _read_entries(cwd, thorough=True)


def _entries_key(cwd: str | None) -> tuple:
    return (os.path.abspath(cwd or os.getcwd()), home.user_filters_dir(), BUILTIN_DIR,
            _index_path())


def _read_entries(cwd: str | None, thorough: bool) -> list[Entry]:
    dirs = _load_cache()
    result, dirty = [], False
    for tier, directory in tier_dirs(cwd):
        entries, changed = _entries_for(tier, directory, dirs, thorough)
        result.extend(entries)
        dirty = dirty or changed
    if dirty:
        _save_cache(dirs)
    return result


# -- trust -----------------------------------------------------------------------------------
def trust_status(entry: Entry) -> str:
    """'trusted' for user and built-in filters; for a project filter its pin status."""
    if entry.tier != "project":
        return "trusted"
    from cc_filter.choose import trust

    if entry.sha256 is None:
        return trust.UNTRUSTED
    return trust.status(entry.source, entry.sha256)


def _warn_skipped(entry: Entry, status: str, warn) -> None:
    if not warn or entry.source in _warned:
        return
    _warned.add(entry.source)
    shown = home.short_path(entry.source)
    if status == "changed":
        message = (f"ctxcrl: skipping project filter {shown}: changed since it was trusted "
                   f"(review it, then: cc-filter trust {shown})")
    else:
        message = (f"ctxcrl: skipping untrusted project filter {shown} "
                   f"(review it, then: cc-filter trust {shown})")
    try:
        (warn if callable(warn) else _stderr)(message)
    except Exception:
        pass


def _report_broken(warn) -> None:
    """One warning per user/project filter file found unusable (a bad key, an unsafe regex)
    when the index was rebuilt: the file is skipped, the message names it and the rule."""
    while _broken:
        entry = _broken.pop(0)
        if entry.source in _warned:
            continue
        _warned.add(entry.source)
        error = entry.error
        if error.startswith(entry.source + ":"):
            error = home.short_path(entry.source) + error[len(entry.source):]
        try:
            (warn if callable(warn) else _stderr)(f"ctxcrl: skipping filter {error}")
        except Exception:
            pass


def _stderr(message: str) -> None:
    sys.stderr.write(message + "\n")
    sys.stderr.flush()


# -- the API -----------------------------------------------------------------------------------
def lookup(key: str, cwd: str | None = None, *, warn=True, fallback=True) -> Entry | None:
    """The filter a command with this peeled key gets: the first usable match in tier order,
    else (`fallback`) the generic fallback filter when cc_filter.choose.fallback allows it for this
    key. An untrusted or changed project filter that matches is skipped with one warning line
    on stderr (`warn=False` silences it; a callable receives the line instead); so is, once, a
    user or project filter file found broken when the index was rebuilt."""
    found = _first_usable(lambda entry: not is_fallback(entry) and entry.matches(key), cwd,
                          warn)
    if found is None and key.startswith(_SCRIPT_RUNS):
        entry, resolution = script_filter(key, cwd, warn=warn, fallback=fallback)
        if resolution is not None or key.startswith(_RUNS):  # else `yarn why x`: not a script
            return entry
    if found is None and fallback:
        found = fallback_for(key, cwd)[0]
    return found


# package_scripts.RUN_PREFIXES, and SHORTHAND_PREFIXES (`yarn lint`, `pnpm test`)
_RUNS = ("npm run", "pnpm run ", "yarn run ", "bun run ")
_SCRIPT_RUNS = _RUNS + ("pnpm ", "yarn ")


def script_filter(key: str, cwd: str | None = None, *, warn=True, fallback=True):
    """(entry, resolution) for `npm|pnpm|yarn|bun run <script>` (and `yarn|pnpm <script>`): the filter of the tool the
    script runs (cc_filter/choose/package_scripts.py), else the generic fallback when the script is
    not a server or watcher and its commands may have it, else (None, resolution)."""
    from cc_filter.choose import package_scripts

    resolution = package_scripts.resolve(key, cwd)
    if resolution is None:
        return None, None
    entry = package_scripts.filter_for(
        resolution, lambda k: lookup(k, cwd, warn=warn, fallback=False))
    if entry is None and fallback and resolution.keys and not resolution.streaming:
        for script_key in resolution.keys:
            entry, _why = fallback_for(script_key, cwd)
            if entry is None:
                break
    return entry, resolution


def is_fallback(entry: Entry) -> bool:
    """The built-in generic filter: never matched by its pattern, only given as the fallback."""
    return entry.name == FALLBACK and entry.tier == "built-in"


def fallback_for(key: str, cwd: str | None = None) -> tuple[Entry | None, str | None]:
    """(the generic fallback entry, None) when a key no filter matches gets it, else
    (None, why not)."""
    generic = next((e for e in all_entries(cwd) if is_fallback(e) and e.error is None), None)
    if generic is None:
        return None, "no generic filter in the built-in folder"
    from cc_filter.choose import fallback

    why = fallback.refusal(key)
    if why is not None:
        return None, why
    if not fallback.enabled():  # last: the only step that reads a file (the config)
        return None, "turned off ([hooks] fallback_filter = false)"
    return generic, None


def has_filter(key: str, cwd: str | None = None) -> bool:
    return lookup(key, cwd, warn=False) is not None


def by_name(name: str, cwd: str | None = None, *, warn=True) -> Entry | None:
    """The usable filter called `name` (project tier first, trust applied)."""
    return _first_usable(lambda entry: entry.name == name and entry.error is None, cwd, warn)


def _first_usable(wanted, cwd: str | None, warn) -> Entry | None:
    """The first entry in tier order that `wanted` accepts and trust allows."""
    entries = all_entries(cwd)
    if _broken and warn:
        _report_broken(warn)
    for entry in entries:
        if wanted(entry):
            if entry.tier == "project":
                status = trust_status(entry)
                if status != "trusted":
                    _warn_skipped(entry, status, warn)
                    continue
            return entry
    return None


def explain(key: str, cwd: str | None = None) -> list[tuple[Entry, str]]:
    """Every filter whose pattern matches `key`, in lookup order, with what happened to it:
    'chosen', 'shadowed', 'skipped: untrusted', 'skipped: changed'."""
    result, chosen = [], False
    for entry in all_entries(cwd):
        if is_fallback(entry) or not entry.matches(key):
            continue
        status = trust_status(entry)
        if status != "trusted":
            result.append((entry, f"skipped: {status}"))
        elif chosen:
            result.append((entry, "shadowed"))
        else:
            result.append((entry, "chosen"))
            chosen = True
    return result


def load(entry: Entry) -> type:
    """The Filter subclass of an entry."""
    if entry.error is not None:
        raise ValueError(entry.error)
    if entry.kind == "toml":
        from cc_filter.kit import toml_filter

        return toml_filter.make_class(entry.spec, entry.source)
    return getattr(_import(entry.module, entry.source), entry.class_name)


def reset() -> None:
    """Forget the in-process cache (tests; after writing filter files)."""
    global _cache, _cache_path_loaded
    _cache = None
    _cache_path_loaded = None
    _entries.clear()
    _warned.clear()
    _broken.clear()
    home._untrusted_cache.clear()
