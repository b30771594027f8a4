"""The catalogue (tiers, first match, cached index, cheap lookup) and trust (ARCHITECTURE §6.4)."""
import json
import os
import subprocess
import sys
import time

import pytest

from cc_filter.choose import catalogue, trust

from filter_testkit import REPO, toml_filter

PY_FILTER = '''from cc_filter.kit.filter import Filter


class {cls}(Filter):
    name = "{name}"
    match_command = r"{match}"
    description = "{name} test filter"
'''


def write(directory, name, text):
    path = os.path.join(str(directory), name)
    with open(path, "w") as f:
        f.write(text)
    return path


@pytest.fixture
def project(tmp_path, monkeypatch):
    root = tmp_path / "proj"
    filters = root / ".ctxcrl" / "filters"
    filters.mkdir(parents=True)
    sub = root / "src" / "deep"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)
    return filters


# -- drop-in discovery -------------------------------------------------------------------------
def test_a_python_module_or_toml_file_is_enough(builtin_dir):
    write(builtin_dir, "demo_py.py", PY_FILTER.format(cls="DemoPy", name="demo-py",
                                                       match="^demo py(\\s|$)"))
    write(builtin_dir, "demo-toml.toml", toml_filter("demo-toml", "^demo toml(\\s|$)"))
    write(builtin_dir, "_helper.py", "raise RuntimeError('helpers are not filters')\n")
    e = catalogue.lookup("demo py -x")
    assert (e.name, e.kind, e.tier, e.match_command) == ("demo-py", "python", "built-in",
                                                         "^demo py(\\s|$)")
    assert catalogue.lookup("demo toml").kind == "toml"
    assert catalogue.lookup("demo pyx") is None
    assert catalogue.has_filter("demo toml x") and not catalogue.has_filter("demo")
    cls = catalogue.load(catalogue.lookup("demo py"))
    assert cls.name == "demo-py" and cls.description == "demo-py test filter"


def test_ecosystem_folders_hold_filters_and_their_helpers(builtin_dir, ctxcrl_home):
    """`filters/<ecosystem>/` is searched one level deep; a file added there (which changes only
    that folder's mtime) is seen by the next process on the hot path."""
    (builtin_dir / "demo").mkdir()
    write(builtin_dir / "demo", "demo_sub.py", PY_FILTER.format(cls="DemoSub", name="demo-sub",
                                                                match="^demo sub(\\s|$)"))
    write(builtin_dir / "demo", "_helper.py", "raise RuntimeError('helpers are not filters')\n")
    (builtin_dir / "demo" / "deeper").mkdir()  # one level only
    write(builtin_dir / "demo" / "deeper", "deep.toml", toml_filter("deep", "^deep(\\s|$)"))
    (builtin_dir / "_private").mkdir()
    write(builtin_dir / "_private", "hidden.toml", toml_filter("hidden", "^hidden(\\s|$)"))
    entry = catalogue.lookup("demo sub -x")
    assert entry.name == "demo-sub" and entry.source == str(builtin_dir / "demo" / "demo_sub.py")
    assert catalogue.load(entry).name == "demo-sub"
    assert catalogue.lookup("deep") is None and catalogue.lookup("hidden") is None
    time.sleep(0.01)
    write(builtin_dir / "demo", "demo-late.toml", toml_filter("demo-late", "^late(\\s|$)"))
    catalogue.reset()
    assert catalogue.lookup("late").name == "demo-late"


def test_builtin_filters_live_in_ecosystem_folders():
    loose = [e.source for e in catalogue.all_entries(REPO) if e.tier == "built-in"
             and os.path.dirname(e.source) == catalogue.BUILTIN_DIR]
    assert not loose, f"built-in filters outside an ecosystem folder: {loose}"
    modules = {e.module for e in catalogue.all_entries(REPO) if e.kind == "python"}
    assert "cc_filter.filters.git.git_status" in modules
    # each folder is a package: setuptools finds it, and package data `*.toml` ships its TOML
    folders = {os.path.dirname(e.source) for e in catalogue.all_entries(REPO)
               if e.tier == "built-in"}
    assert all(os.path.isfile(os.path.join(f, "__init__.py")) for f in folders), folders


def test_broken_files_are_listed_not_fatal(builtin_dir):
    write(builtin_dir, "bad_py.py", "import nonexistent_module_xyz\n")
    write(builtin_dir, "two.py", PY_FILTER.format(cls="A", name="two", match="^a") +
          PY_FILTER.format(cls="B", name="two", match="^b").split("\n", 2)[2])
    write(builtin_dir, "wrong_name.py", PY_FILTER.format(cls="W", name="other", match="^w"))
    write(builtin_dir, "bad.toml", "schema_version = 1\n[filter]\nname = 'bad'\nmatch_command = '^bad'\nfoo = 1\n")
    write(builtin_dir, "good.toml", toml_filter("good", "^good"))
    entries = {e.name: e for e in catalogue.all_entries()}
    assert "nonexistent_module_xyz" in entries["bad-py"].error
    assert "exactly one Filter subclass" in entries["two"].error
    assert "must match the file name" in entries["wrong-name"].error
    assert "unknown key filter.foo" in entries["bad"].error
    assert entries["good"].error is None
    assert catalogue.lookup("bad") is None and catalogue.lookup("good").name == "good"


# -- order -------------------------------------------------------------------------------------
def test_tiers_first_match_wins(builtin_dir, user_filters, project, monkeypatch):
    write(builtin_dir, "b.toml", toml_filter("b", "^tool(\\s|$)"))
    assert catalogue.lookup("tool x").tier == "built-in"
    user_filters.write("u", toml_filter("u", "^tool(\\s|$)"))
    catalogue.reset()  # the entries are read once per process
    assert catalogue.lookup("tool x").name == "u"
    trust.trust(write(project, "p.toml", toml_filter("p", "^tool(\\s|$)")))
    catalogue.reset()
    assert catalogue.lookup("tool x").name == "p"
    assert [(e.name, s) for e, s in catalogue.explain("tool x")] == \
        [("p", "chosen"), ("u", "shadowed"), ("b", "shadowed")]


def test_most_specific_pattern_first_within_a_tier(builtin_dir):
    write(builtin_dir, "aa-generic.toml", toml_filter("aa-generic", "^git(\\s|$)"))
    write(builtin_dir, "zz-status.toml", toml_filter("zz-status", "^git status(\\s|$)"))
    assert catalogue.lookup("git status -s").name == "zz-status"
    assert catalogue.lookup("git log").name == "aa-generic"


# -- the cache -----------------------------------------------------------------------------------
def test_index_is_cached_and_invalidated_by_mtimes(builtin_dir, user_filters, ctxcrl_home):
    path = write(builtin_dir, "one.toml", toml_filter("one", "^one(\\s|$)"))
    assert catalogue.lookup("one").name == "one"
    index = os.path.join(str(ctxcrl_home), "filters.index")
    assert os.path.exists(index)
    stamp = os.stat(index).st_mtime_ns
    catalogue.reset()
    assert catalogue.lookup("one").name == "one"
    assert os.stat(index).st_mtime_ns == stamp  # served from the cache, not rebuilt
    # a user filter edited in place (same directory mtime) is seen
    mine = user_filters.write("mine", toml_filter("mine", "^mine(\\s|$)"))
    catalogue.reset()
    assert catalogue.lookup("mine").name == "mine"
    time.sleep(0.01)
    with open(mine, "w") as f:
        f.write(toml_filter("mine", "^my(\\s|$)"))
    catalogue.reset()
    assert catalogue.lookup("mine") is None and catalogue.lookup("my").name == "mine"
    # a built-in filter edited in place: the hot path checks only the directory's mtime (an
    # installed package does not change); refresh(), which the cold commands run, sees it
    with open(path, "w") as f:
        f.write(toml_filter("one", "^uno(\\s|$)"))
    catalogue.reset()
    assert catalogue.lookup("one").name == "one"
    catalogue.refresh()
    assert catalogue.lookup("one") is None and catalogue.lookup("uno").name == "one"
    catalogue.reset()
    assert catalogue.lookup("uno").name == "one"  # the index was rebuilt by refresh()
    # adding a file changes the directory's mtime: seen by the next process
    write(builtin_dir, "two.toml", toml_filter("two", "^two"))
    assert catalogue.lookup("two") is None  # this process already read the catalogue
    catalogue.reset()
    assert catalogue.lookup("two").name == "two"


def test_lookups_read_the_catalogue_once_per_process(builtin_dir, monkeypatch):
    write(builtin_dir, "one.toml", toml_filter("one", "^one(\\s|$)"))
    assert catalogue.lookup("one").name == "one"
    stats = []
    real_stat, real_scandir = os.stat, os.scandir
    monkeypatch.setattr(os, "stat", lambda *a, **k: stats.append(a) or real_stat(*a, **k))
    monkeypatch.setattr(os, "scandir", lambda *a, **k: stats.append(a) or real_scandir(*a, **k))
    assert catalogue.lookup("one x").name == "one" and catalogue.lookup("two") is None
    assert catalogue.has_filter("one") and catalogue.by_name("one").name == "one"
    assert stats == []


def test_cold_commands_see_a_builtin_filter_edited_in_place(builtin_dir, capsys):
    from cc_filter import cli

    path = write(builtin_dir, "one.toml", toml_filter("one", "^one(\\s|$)"))
    assert catalogue.lookup("one").name == "one"
    with open(path, "w") as f:
        f.write(toml_filter("one", "^uno(\\s|$)"))
    catalogue.reset()
    assert cli.main(["which", "uno"]) == 0
    assert "one" in capsys.readouterr().out


def test_corrupt_index_is_rebuilt(builtin_dir, ctxcrl_home):
    write(builtin_dir, "one.toml", toml_filter("one", "^one"))
    with open(os.path.join(str(ctxcrl_home), "filters.index"), "wb") as f:
        f.write(b"\x00garbage")
    assert catalogue.lookup("one").name == "one"


def _probe(code, env):
    return subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                          env=env, cwd=REPO, timeout=60)


def test_literal_lookup_imports_no_re_and_no_toml(ctxcrl_home, user_filters):
    """With a warm index, a lookup of a literal-pattern command imports neither re nor tomllib,
    nor any filter module."""
    user_filters.write("demo-lit", toml_filter("demo-lit", "^(demo-lit|demo-alias)(\\s|$)"))
    env = dict(os.environ)
    code = ("import sys; from cc_filter.choose import catalogue; "
            "a = catalogue.lookup('demo-alias x'); b = catalogue.has_filter('git status'); "
            "c = catalogue.has_filter('zzz-not-a-command'); "
            "heavy = [m for m in ('re', 'tomllib', 'json', 'hashlib') if m in sys.modules]; "
            "filters = [m for m in sys.modules if m.startswith('cc_filter.filters.')]; "
            "print(a.name, heavy, filters)")
    _probe(code, env)  # builds the index
    result = _probe(code, env)
    assert result.stdout.strip() == "demo-lit [] []", result.stderr


UNFILTERED_KEYS = ["python manage.py runserver", "python3 script.py", "node app.js", "echo hi",
                   "cd src", "mkdir -p build", "bash build.sh", "rm -rf build", "cp a b",
                   "mv a b", "touch x", "chmod +x run.sh", "which git", "export A=1",
                   "sleep 1", "true", "printf x", "open .", "code ."]


def test_the_builtin_catalogue_needs_no_re_for_common_unfiltered_commands():
    """The keys an agent runs most that have no filter are answered from literal prefixes
    alone: `import re` costs ~10 ms, on every agent command."""
    code = ("import sys; from cc_filter.choose import catalogue; "
            f"found = [k for k in {UNFILTERED_KEYS!r} if catalogue.has_filter(k)]; "
            "print(found, 're' in sys.modules)")
    _probe(code, dict(os.environ))  # builds the index
    result = _probe(code, dict(os.environ))
    assert result.stdout.strip() == "[] False", result.stderr


# -- trust ---------------------------------------------------------------------------------------
def test_untrusted_project_filter_is_skipped_with_one_warning(project, builtin_dir, capsys):
    write(builtin_dir, "b.toml", toml_filter("b", "^tool(\\s|$)"))
    path = write(project, "p.toml", toml_filter("p", "^tool(\\s|$)"))
    assert catalogue.lookup("tool").name == "b"
    assert catalogue.lookup("tool").name == "b"
    err = capsys.readouterr().err
    assert err.count("\n") == 1
    assert "skipping untrusted project filter" in err and "cc-filter trust" in err
    assert catalogue.has_filter("tool") and catalogue.by_name("p") is None
    assert capsys.readouterr().err == ""
    trust.trust(path)
    catalogue.reset()
    assert catalogue.lookup("tool").name == "p"


def test_editing_a_trusted_file_revokes_it(project, builtin_dir, capsys):
    path = write(project, "p.toml", toml_filter("p", "^tool(\\s|$)"))
    trust.trust(path)
    assert catalogue.lookup("tool").name == "p"
    time.sleep(0.01)
    write(project, "p.toml", toml_filter("p", "^tool(\\s|$)", strip_lines_matching=[".*"]))
    catalogue.reset()
    assert catalogue.lookup("tool") is None
    assert "changed since it was trusted" in capsys.readouterr().err
    assert trust.untrust(path) is True and trust.untrust(path) is False


def test_trusted_json_format_and_permissions(project, ctxcrl_home):
    path = write(project, "p.toml", toml_filter("p", "^tool"))
    digest = trust.trust(path)
    stored = os.path.join(str(ctxcrl_home), "trusted.json")
    with open(stored) as f:
        assert json.load(f) == {"version": 1, "files": {os.path.abspath(path): digest}}
    assert os.stat(stored).st_mode & 0o777 == 0o600
    import hashlib

    with open(path, "rb") as f:
        assert digest == hashlib.sha256(f.read()).hexdigest()


@pytest.mark.parametrize("ci,tty", [("1", False), ("", False), ("1", True)])
def test_no_environment_variable_trusts_a_project_filter(project, monkeypatch, ci, tty):
    """CTXCRL_TRUST_PROJECT_FILTERS (once honoured in CI) is gone: only `cc-filter trust`."""
    write(project, "p.toml", toml_filter("p", "^tool"))
    monkeypatch.setenv("CTXCRL_TRUST_PROJECT_FILTERS", "1")
    monkeypatch.setenv("CI", ci)
    monkeypatch.setattr(os, "isatty", lambda fd: tty)
    entry = catalogue.lookup("tool", warn=False)
    assert entry is None or entry.tier == "built-in"


def test_risky_rules_are_named():
    from cc_filter.kit.toml_filter import parse_filter_file

    spec = parse_filter_file("p.toml", {"schema_version": 1, "filter": {
        "name": "p", "match_command": "^.*", "strip_lines_matching": [".*"],
        "replace": [{"pattern": "error", "replacement": "fine"}],
        "match_output": [{"pattern": "x", "message": "all good"}]}})
    risks = trust.risky_rules(spec)
    assert any(r.startswith("replace: 'error' -> 'fine'") for r in risks)
    assert any(r.startswith("match_output: 'x' -> 'all good'") for r in risks)
    assert any("matches every command" in r for r in risks)
    assert any("strip_lines_matching: '.*' matches every line" in r for r in risks)


@pytest.mark.parametrize("pattern", [r"^git status(\s|$)", r"^(cat|head|tail)(\s|$)", r"^make$",
                                     r"^ls", r"^(uv run )?pytest(\s|$)", r"^cargo (build|check)\b"])
@pytest.mark.parametrize("key", ["git status", "git status -s", "git statusx", "cat", "cat x",
                                 "catx", "make", "make all", "ls", "lsof", "pytest -q",
                                 "uv run pytest", "uv run pytestx", "cargo build", "cargo builds",
                                 "cargo check --all", ""])
def test_entry_matching_equals_re_search(pattern, key):
    import re

    entry = catalogue._with_match(catalogue.Entry("x", pattern, "toml", "user", "x"))
    assert entry.matches(key) == bool(re.search(pattern, key))


def test_builtin_patterns_are_cheap_to_match():
    """Every built-in filter's match_command has a literal start, so the catalogue never
    imports `re` for a key that cannot match it (cc-rewrite asks on every agent command)."""
    costly = [f"{e.name}: {e.match_command}" for e in catalogue.all_entries(REPO)
              if e.error is None and e.tier == "built-in" and e.forms is None and not e.prefixes
              and not catalogue.is_fallback(e)]
    assert not costly, "give these patterns a literal start (`^word ...`): " + "; ".join(costly)


def test_every_builtin_filter_file_loads():
    broken = [e.error for e in catalogue.all_entries(REPO) if e.tier == "built-in" and e.error]
    assert not broken, "\n".join(broken)
    names = [e.name for e in catalogue.all_entries(REPO) if e.tier == "built-in"]
    assert len(names) == len(set(names)), "two built-in files define the same filter name"
