"""ctxcrl.lean_os: the hook's `os` without importing `os`. Its path functions must give
`os.path`'s answers (the gate decides on them), its environment `os.environ`'s, and a stage
started as the hook starts it must not load `os` through it."""
import os
import posixpath
import subprocess
import sys

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from ctxcrl import lean_os
from ctxcrl.lean_os import LeanPath, _normpath_py

#: Paths made of the pieces POSIX path rules turn on: slashes, dots, tildes, names.
piece = st.sampled_from(["/", "//", ".", "..", "a", "b.c", ".x", "..y", "~", "~root", "d.",
                         " ", "é", "e.tar.gz"])
paths = st.lists(piece, max_size=8).map("".join)


@given(paths, st.lists(paths, max_size=3))
def test_string_functions_match_os_path(p, more):
    assert LeanPath.isabs(p) == posixpath.isabs(p)
    assert LeanPath.join(p, *more) == posixpath.join(p, *more)
    assert LeanPath.split(p) == posixpath.split(p)
    assert LeanPath.dirname(p) == posixpath.dirname(p)
    assert LeanPath.basename(p) == posixpath.basename(p)
    assert LeanPath.splitext(p) == posixpath.splitext(p)
    assert LeanPath.normpath(p) == posixpath.normpath(p)
    assert (_normpath_py(p) or ".") == posixpath.normpath(p)
    assert LeanPath.abspath(p) == posixpath.abspath(p)


@given(paths)
def test_expanduser_matches_os_path(p):
    assert LeanPath.expanduser(p) == posixpath.expanduser(p)


def test_expanduser_without_home_and_for_users(monkeypatch):
    monkeypatch.delenv("HOME", raising=False)
    for p in ("~", "~/x", "~root/y", "~no-such-user-here/z", "x~"):
        assert LeanPath.expanduser(p) == posixpath.expanduser(p)


def test_wrong_types_are_type_errors_as_in_os_path():
    for call in (lambda: LeanPath.join(None), lambda: LeanPath.join("a", 3),
                 lambda: LeanPath.dirname(None), lambda: LeanPath.abspath(b"x"),
                 lambda: LeanPath.exists(None), lambda: LeanPath.realpath(1.5)):
        with pytest.raises(TypeError):
            call()


@pytest.fixture
def tree(tmp_path, monkeypatch):
    """Files, folders and symlinks of every kind: to a file, a folder, nowhere, a loop, up
    and across, relative and absolute."""
    (tmp_path / "d" / "e").mkdir(parents=True)
    (tmp_path / "f").write_text("x")
    links = {"to_f": "f", "to_d": "d", "dangling": "nowhere", "loop1": "loop2",
             "loop2": "loop1", "self": "self", "up": "..", "d/back": "../to_d",
             "abs_d": str(tmp_path / "d"), "chain": "to_d/e", "d/e/dots": "../../d/./e/..",
             "deeper": "deeper/x", "into_loop": "loop1/d"}
    for name, target in links.items():
        (tmp_path / name).symlink_to(target)
    monkeypatch.chdir(tmp_path)
    return tmp_path


names = st.sampled_from(["d", "e", "f", "to_f", "to_d", "dangling", "loop1", "self", "up",
                         "back", "abs_d", "chain", "dots", "deeper", "into_loop", ".", "..", "",
                         "missing"])


@settings(max_examples=300, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(names, max_size=6), st.booleans())
def test_realpath_and_stat_tests_match_os_path_on_a_symlink_tree(tree, parts, absolute):
    p = "/".join(parts)
    if absolute:
        p = str(tree) + "/" + p
    assert LeanPath.realpath(p) == os.path.realpath(p)
    for name in ("exists", "lexists", "isfile", "isdir", "islink"):
        assert getattr(LeanPath, name)(p) == getattr(os.path, name)(p), name


def test_stat_tests_on_odd_paths(tree):
    for p in ("f/child", "", "\0", "to_f/", "d/", "/dev/null"):
        for name in ("exists", "lexists", "isfile", "isdir", "islink"):
            assert getattr(LeanPath, name)(p) == getattr(os.path, name)(p), (name, p)


def test_with_os_loaded_it_is_os():
    """In a process that has `os` (the tests, a console script with site), `environ` and
    `path` are os's own: what monkeypatch or os.environ sets is seen."""
    assert lean_os.path is os.path and lean_os.environ is os.environ
    assert lean_os.getcwd is os.getcwd and lean_os.makedirs is os.makedirs


def test_in_a_bare_interpreter_os_is_never_loaded(tmp_path):
    """Started like a hook stage (`python -I -S`): no `os`; the environment decoded as
    os.environ decodes it (undecodable bytes kept by surrogateescape); the lean path
    functions; `os` loaded only when a name lean_os lacks is used."""
    ctxcrl_dir = os.path.dirname(os.path.dirname(lean_os.__file__))
    code = ("import sys\n"
            f"sys.path.append({ctxcrl_dir!r})\n"
            "from ctxcrl import lean_os\n"
            "before = 'os' in sys.modules\n"
            "env = sorted(lean_os.environ.items())\n"
            "lean = lean_os.path is lean_os.LeanPath\n"
            "real = lean_os.path.realpath('.')\n"
            "lean_os.makedirs  # not in posix: from os\n"
            "import os\n"
            "print(repr((before, lean, env == sorted(os.environ.items()),\n"
            "            real == os.path.realpath('.'), 'os' in sys.modules)))\n")
    env = {"PATH": os.environ["PATH"], "ODD": "caf\udce9", "LANG": "C.UTF-8"}
    env = {k: v.encode("utf-8", "surrogateescape") for k, v in env.items()}
    done = subprocess.run([sys.executable, "-I", "-S", "-c", code], env=env, cwd=tmp_path,
                          capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == repr((False, True, True, True, True)), done.stderr


def _lean_modules():
    """Every source file that imports lean_os as `os`, with the `os.…` names it uses."""
    import ast

    root = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    found = {}
    for folder, _, files in os.walk(root):
        if any(part in folder for part in ("/.venv", "/tests", "/.git", "/node_modules")):
            continue
        for name in files:
            if not name.endswith(".py"):
                continue
            file = os.path.join(folder, name)
            with open(file, encoding="utf-8") as f:
                text = f.read()
            if "lean_os as os" not in text:
                continue
            names = set()
            for node in ast.walk(ast.parse(text)):
                if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name) \
                        and node.value.id == "os":
                    names.add(node.attr)
                elif (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                      and isinstance(node.value.value, ast.Name)
                      and node.value.value.id == "os" and node.value.attr == "path"):
                    names.add("path." + node.attr)
            found[os.path.relpath(file, root)] = names
    return found


def test_every_name_the_modules_use_is_there():
    """A name lean_os lacks would fail only in the hook (where `os` is not loaded), never in
    these tests: every `os.x` and `os.path.x` the modules that use it write must exist in
    lean mode (`os.path.x` in LeanPath; `os.x` in lean_os or, from `os`, on first use)."""
    modules = _lean_modules()
    assert len(modules) > 20 and "ctxcrl/ctxcrl/home.py" in modules
    missing = {}
    for file, names in modules.items():
        lacks = [n for n in sorted(names)
                 if (n.startswith("path.") and not hasattr(LeanPath, n[5:]))
                 or (not n.startswith("path.") and n not in vars(lean_os)
                     and not hasattr(os, n))]
        if lacks:
            missing[file] = lacks
    assert missing == {}


def test_makedirs_makes_every_missing_parent_like_os(tmp_path):
    for target in ("a/b/c", "a/b/c/", "x/./y", "a/b"):
        lean_os.lean_makedirs(str(tmp_path / "lean" / target), exist_ok=True)
        os.makedirs(str(tmp_path / "os" / target), exist_ok=True)
    listing = {w: sorted(os.path.relpath(os.path.join(d, n), tmp_path / w)
                         for d, dirs, _ in os.walk(tmp_path / w) for n in dirs)
               for w in ("lean", "os")}
    assert listing["lean"] == listing["os"] and "a/b/c" in listing["lean"]
    with pytest.raises(FileExistsError):
        lean_os.lean_makedirs(str(tmp_path / "lean" / "a/b"))
    (tmp_path / "file").write_text("")
    with pytest.raises(FileExistsError):
        lean_os.lean_makedirs(str(tmp_path / "file"), exist_ok=True)


def test_all_names_every_posix_call_it_hands_out():
    import posix

    handed = {n for n, v in vars(lean_os).items() if not n.startswith("_")
              and getattr(posix, n, None) is v}
    assert handed <= set(lean_os.__all__) and all(hasattr(lean_os, n) for n in lean_os.__all__)
