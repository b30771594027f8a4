"""The cold subcommands: list, which, show, test, trust, untrust, raw.

Each returns the exit code and prints to stdout (errors to stderr). These are not on the hot
path, so they import freely (tabulate, tomllib, shlex).
"""
import os
import sys

from cc_filter.choose import catalogue, keys
from ctxcrl.console import EXIT_USAGE
from ctxcrl import home


def _print(text: str = "") -> None:
    sys.stdout.write(text + "\n")


def _err(text: str) -> None:
    sys.stderr.write(text + "\n")


def list_filters(show_all: bool = False, cwd: str | None = None, verbose: bool = False,
                 width: int | None = None) -> int:
    """One row per filter: name, the commands it matches (in words), kind; tier and status
    when a user or project filter is there (or with --all); --verbose adds the regex and the
    description. Rows fit the terminal (100 columns when not one) unless verbose."""
    from tabulate import tabulate

    from cc_filter.choose.match_words import match_words

    entries = catalogue.all_entries(cwd)
    seen: set = set()
    rows = []
    for entry in entries:  # in lookup order: an earlier usable file of the same name wins
        if entry.error is not None:
            status = "broken"
        else:
            status = catalogue.trust_status(entry)
            if status == "trusted":
                status = "shadowed" if entry.name in seen else "active"
                seen.add(entry.name)
        if not show_all and status in ("shadowed", "broken"):
            continue
        words = (match_words(entry.match_command) or entry.description.split(": ", 1)[0]) \
            if entry.error is None else entry.error
        rows.append({"filter": entry.name, "matches": words, "kind": entry.kind,
                     "tier": entry.tier, "status": status, "match_command": entry.match_command,
                     "description": entry.description})
    rows.sort(key=lambda r: (catalogue.TIERS.index(r["tier"]), r["filter"]))
    columns = ["filter", "matches", "kind"]
    if show_all or any(r["tier"] != "built-in" or r["status"] != "active" for r in rows):
        columns += ["tier", "status"]
    if verbose:
        columns += ["match_command", "description"]
    else:
        _fit(rows, columns, "matches", width or _width())
    _print(tabulate([[r[c] for c in columns] for r in rows], headers=columns,
                    tablefmt="simple"))
    broken = sum(1 for e in entries if e.error is not None)
    if broken and not show_all:
        _print(f"\n{broken} broken filter file(s) hidden; see: cc-filter list --all")
    return 0


def _width() -> int:
    import shutil

    if sys.stdout.isatty():
        return max(60, shutil.get_terminal_size((100, 24)).columns)
    return 100


def _fit(rows: list, columns: list, column: str, width: int) -> None:
    """Cut `column` so every row fits in `width` characters (tabulate's two-space gaps)."""
    others = sum(max([len(c)] + [len(str(r[c])) for r in rows]) + 2
                 for c in columns if c != column)
    room = max(20, width - others)
    for row in rows:
        if len(row[column]) > room and row.get("status") != "broken":  # errors stay whole
            row[column] = row[column][:room - 1].rstrip(" ,") + "…"


def _command_key(words: list[str]) -> tuple[list[str], str]:
    if len(words) == 1 and " " in words[0]:
        import shlex

        try:
            words = shlex.split(words[0])
        except ValueError:
            words = words[0].split()
    return words, keys.key_of(words)


def which(words: list[str], cwd: str | None = None) -> int:
    argv, key = _command_key(words)
    found = catalogue.explain(key, cwd)
    _print(f"command: {keys.quote_join(argv)}")
    _print(f"key:     {key}")
    chosen = next((e for e, status in found if status == "chosen"), None)
    if chosen is None:
        chosen = _which_script(key, cwd)
        if chosen is not None:
            return 0
    if chosen is None:
        from cc_filter.choose import fallback

        generic, why_not = catalogue.fallback_for(key, cwd)
        if generic is not None:
            _print(f"filter:  {generic.name} (fallback: no filter matches the key)")
            _print(f"why:     {fallback.describe()}")
            _print("         turn it off with `fallback_filter = false` under [hooks] in "
                   "config.toml")
            _print(f"source:  {generic.source}")
            chosen = generic
        else:
            _print("filter:  none — `cc-filter run` passes this command through unfiltered")
            _print(f"why:     no filter matches the key, and the generic fallback is not "
                   f"used: {why_not}")
    else:
        _print(f"filter:  {chosen.name}")
        _print(f"why:     {chosen.why()} matches the key")
        _print(f"source:  {chosen.source}")
    for entry, status in found:
        if status != "chosen":
            _print(f"also:    {entry.name} ({entry.tier}, {entry.match_command}): {status}")
    return 0 if chosen is not None else 1


def _which_script(key: str, cwd: str | None):
    """`which` for a package script run: what the script runs and the filter that gives."""
    from cc_filter.choose import package_scripts

    if not package_scripts.is_script_run(key):
        return None
    entry, resolution = catalogue.script_filter(key, cwd)
    if resolution is None:
        return None
    _print(f"script:  {resolution.name} = {resolution.text} (package.json)")
    if entry is None:
        return None
    how = ("the generic fallback" if catalogue.is_fallback(entry)
           else f"the filter of {', '.join(resolution.keys)}")
    _print(f"filter:  {entry.name} ({how})")
    if catalogue.is_fallback(entry):
        from cc_filter.choose import fallback

        _print(f"why:     {fallback.describe()}")
    else:
        _print(f"why:     {entry.why()} matches the script's command")
    _print(f"source:  {entry.source}")
    return entry


def show(name: str, cwd: str | None = None) -> int:
    entries = [e for e in catalogue.all_entries(cwd) if e.name == name]
    if not entries:
        _err(f"cc-filter: no filter named {name!r} (see: cc-filter list)")
        return EXIT_USAGE
    entry = entries[0]
    _print(f"name:          {entry.name}")
    _print(f"tier:          {entry.tier}")
    _print(f"kind:          {entry.kind}")
    _print(f"match_command: {entry.match_command}")
    _print(f"description:   {entry.description}")
    _print(f"source:        {entry.source}")
    status = f"broken: {entry.error}" if entry.error else catalogue.trust_status(entry)
    _print(f"status:        {status}")
    for other in entries[1:]:
        _print(f"shadows:       {other.source} ({other.tier})")
    _print("")
    try:
        with open(entry.source, encoding="utf-8", errors="replace") as f:
            sys.stdout.write(f.read())
    except OSError as exc:
        _err(f"cc-filter: cannot read {entry.source}: {exc.strerror}")
        return 1
    return 0


def test(name: str | None, *, require_all: bool = False, fixtures: str | None = None,
         cwd: str | None = None) -> int:
    import tempfile

    from cc_filter import cases

    fixtures_dir = fixtures or cases.find_fixtures_dir(cwd)
    if fixtures and not os.path.isdir(fixtures):
        _err(f"cc-filter: no fixture folder {fixtures}")
        return EXIT_USAGE
    if fixtures_dir is None and require_all:
        _err("cc-filter: --require-all needs the fixture cases of a contextcrawler checkout "
             "(tests/fixtures: real captured output, not shipped with the package). Run it in "
             "a clone of the repository, or pass --fixtures=DIR.")
        return EXIT_USAGE
    entries = catalogue.all_entries(cwd)
    names = sorted({e.name for e in entries})
    if name is not None and name not in names:
        _err(f"cc-filter: no filter named {name!r} (see: cc-filter list)")
        return EXIT_USAGE
    by_filter: dict = {}
    for case in cases.discover(fixtures_dir, name):
        by_filter.setdefault(case.filter_name, []).append(case)
    failures = 0
    total = 0
    with tempfile.TemporaryDirectory(prefix="ctxcrl-test-") as tmp:
        for filter_name in ([name] if name else names):
            entry = catalogue.by_name(filter_name, cwd, warn=False)
            broken = [e for e in entries if e.name == filter_name and e.error]
            problems: list[str] = [e.error for e in broken]
            inline = cases.inline_cases(entry) if entry else []
            fixture_cases = by_filter.pop(filter_name, [])
            for case in inline:
                problems += cases.run_inline_case(entry, case)
            for case in fixture_cases:
                problems += cases.run_fixture_case(case, tee_dir=os.path.join(tmp, "tee"),
                                                   cwd=cwd).failures
            count = len(inline) + len(fixture_cases)
            total += count
            if count == 0 and require_all and not broken:
                problems.append(f"{filter_name}: no test case (inline [[test]] or fixture)")
            mark = "FAIL" if problems else "ok  "
            _print(f"{mark} {filter_name}: {len(fixture_cases)} fixture case(s), "
                   f"{len(inline)} inline case(s)")
            for problem in problems:
                _print("     " + problem.replace("\n", "\n     "))
            failures += bool(problems)
        for orphan, orphan_cases in sorted(by_filter.items()):
            _print(f"FAIL {orphan}: {len(orphan_cases)} fixture case(s) for a filter that "
                   "does not exist")
            failures += 1
    _print(f"\n{total} case(s); {failures} filter(s) failing")
    if fixtures_dir is None:
        _print("(inline cases only: the fixture cases live in a contextcrawler checkout's "
               "tests/fixtures; pass --fixtures=DIR to run them)")
    return 1 if failures else 0


def _project_files(cwd: str | None) -> list[str]:
    directory = catalogue.project_dir(cwd)
    if not directory:
        return []
    return sorted(os.path.join(directory, n) for n in os.listdir(directory) if n.endswith(".toml"))


def trust(path: str | None, cwd: str | None = None, yes: bool = False) -> int:
    """Show each file (content, SHA-256, risky rules), ask (or --yes), record the SHA-256 that
    was shown: the bytes read once are the bytes hashed, so a file swapped after the question
    is not the one trusted."""
    from cc_filter.kit import toml_filter
    from cc_filter.choose import trust as trust_mod

    reason = home.untrusted_home(cwd)
    if reason:
        _err(f"cc-filter: not recording trust: {reason}; trust lives in a folder you alone "
             "control (unset CTXCRL_HOME / XDG_DATA_HOME, or point it outside the project)")
        return 1
    paths = [path] if path else _project_files(cwd)
    if not paths:
        _err("cc-filter: no project filter files (.ctxcrl/filters/*.toml) found from here")
        return 1
    if not yes and not _can_ask():
        _err("cc-filter: trust asks before it records anything, and there is no terminal to "
             "ask on: review the file(s), then run cc-filter trust --yes")
        return 1
    code = 0
    for p in paths:
        if not os.path.isfile(p):
            _err(f"cc-filter: no such file: {p}")
            code = 1
            continue
        with open(p, "rb") as f:
            data = f.read()
        digest = trust_mod.sha256_of(data)
        _print(f"=== {os.path.abspath(p)}")
        sys.stdout.write(data.decode("utf-8", "replace"))
        if not data.endswith(b"\n"):
            _print()
        _print(f"--- sha256 {digest}")
        try:
            import tomllib

            stem = os.path.basename(p)[:-5] if p.endswith(".toml") else None
            spec = toml_filter.parse_filter_file(p, tomllib.loads(data.decode("utf-8")), stem)
        except Exception as exc:
            _err(f"cc-filter: not trusting {p}: {exc}")
            code = 1
            continue
        risks = trust_mod.risky_rules(spec)
        _print("--- risky rules (they change or hide what the agent sees):")
        for risk in risks or ["none"]:
            _print(f"  {risk}")
        shown = home.short_path(os.path.abspath(p))
        if not yes and not _confirm(f"trust {shown} (sha256 {digest[:16]}…)? [y/N] "):
            _print(f"not trusted: {shown}")
            code = 1
            continue
        files = trust_mod.load()
        files[os.path.abspath(p)] = digest
        try:
            trust_mod.save(files)
        except OSError as exc:
            _err(f"cc-filter: {exc}")
            return 1
        _print(f"trusted {shown} (sha256 {digest[:16]}…)")
    return code


def _can_ask() -> bool:
    try:
        return os.isatty(0)
    except OSError:
        return False


def _confirm(question: str) -> bool:
    sys.stdout.write(question)
    sys.stdout.flush()
    try:
        answer = sys.stdin.readline()
    except (OSError, ValueError, KeyboardInterrupt):
        return False
    return answer.strip().lower() in ("y", "yes")


def untrust(path: str) -> int:
    from cc_filter.choose import trust as trust_mod

    if trust_mod.untrust(path):
        _print(f"untrusted {os.path.abspath(path)}")
        return 0
    _err(f"cc-filter: {os.path.abspath(path)} was not trusted")
    return 1


def raw(name: str | None = None) -> int:
    """Print a kept raw output: the last filtered run's (`tee/last.raw`), or the tee file
    `name` (a path, or a file name in the tee directory, as a `[full output: …]` hint gives it)."""
    from cc_filter.run import tee

    policy = tee.TeePolicy.from_config()
    if name is None:
        path = tee.last_path(policy)
    else:
        path = os.path.expanduser(name)
        if not os.path.isfile(path):
            path = os.path.join(os.path.dirname(tee.last_path(policy)), os.path.basename(name))
    try:
        f = open(path, "rb")
    except FileNotFoundError:
        if name is None:
            _err("cc-filter: no raw output kept yet: no filtered run has dropped anything"
                 + ("" if policy.enabled and policy.mode != "never" else
                    " ([tee] is turned off in config.toml)"))
        else:
            gone = (tee.expired(os.path.dirname(path), os.path.basename(path))
                    or tee.expired(policy.dir(), os.path.basename(path)))
            if gone is not None:
                import time

                when = time.strftime("%Y-%m-%d %H:%M:%S %Z", time.localtime(gone[0]))
                _err(f"cc-filter: {name} expired on {when} ({gone[1]}); tee files are kept "
                     "by [tee] max_age_days and max_total_size in config.toml")
            else:
                _err(f"cc-filter: no kept output {name!r} "
                     f"(tee files: {home.short_path(policy.dir())})")
        return 1
    except OSError as exc:
        _err(f"cc-filter: cannot read {home.short_path(path)}: {exc.strerror}")
        return 1
    with f:
        out = sys.stdout.buffer
        try:
            while chunk := f.read(1 << 16):
                out.write(chunk)
            out.flush()
        except BrokenPipeError:
            return 141
    return 0
