"""cc-peel's segments against what real bash runs (a bash oracle).

Generated command lines nest simple commands in lists, pipelines, subshells, brace groups,
`case` (inside subshells too: `(case a in a) git push;; esac)` once lost its command), `if`,
`for`, `while … break` and `$(…)`. Every simple command is `cN idK [args]`, where each `cN` is a
bash function that logs its first argument, and `idK` is unique in the line; every construct is
built so that each command in it runs exactly once. So the ids bash logs must be exactly the
ids of the segments cc-peel reports: a command cc-peel misses is a command the gate never sees.
"""
import itertools
import os
import shutil
import subprocess
import tempfile

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from cc_peel.peeling import peel
from shell_strategies import render, trees as shell_trees

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed")
NAMES = ("c1", "c2", "c3")
PRELUDE = "".join(f'{n}() {{ printf "%s\\n" "$1" >> "$LOG"; }}\n' for n in NAMES)


def line_of(tree) -> str:
    """A generated tree as a command line: each leaf `cN idK [args]`, ids numbered in
    writing order."""
    ids = itertools.count(1)

    def command(leaf):
        _, name, args = leaf
        text = f"{name} id{next(ids)}"
        for arg in args:
            text += " " + (f"$( {render(arg, command)} )" if isinstance(arg, tuple) else arg)
        return text
    return render(tree, command)


_word = st.sampled_from(["x", "'a b'", '"q"', "--flag", "-n", "2>&1", "a=b"])
_cmd = st.builds(lambda name, args: ("cmd", name, args), st.sampled_from(NAMES),
                 st.lists(_word, max_size=2))
trees = shell_trees(_cmd, lambda inner: st.builds(lambda name, sub: ("cmd", name, [sub]),
                                                  st.sampled_from(NAMES), inner))


def bash_ran(line: str) -> list:
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "log")
        open(log, "w").close()
        proc = subprocess.run([BASH, "--norc", "--noprofile", "-c", PRELUDE + line],
                              env={"LOG": log, "PATH": "/usr/bin:/bin"}, cwd=tmp,
                              capture_output=True, text=True, timeout=20)
        assert proc.returncode == 0, (line, proc.stderr)
        with open(log) as f:
            return sorted(f.read().split())


def peel_reports(line: str) -> list:
    found = []
    for seg in peel(line).segments:
        argv = seg.argv or []
        if len(argv) >= 2 and argv[0] in NAMES and argv[1].startswith("id"):
            found.append(argv[1])
    return sorted(found)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(trees)
def test_every_command_bash_runs_is_a_segment(tree):
    line = line_of(tree)
    assert peel_reports(line) == bash_ran(line), line


@pytest.mark.parametrize("line", [
    "(case a in a) c1 id1;; esac)",
    "(case a in a) c1 id1;; esac; c2 id2)",
    "( (case a in a) c1 id1;; esac) | c2 id2)",
    "c1 id1 $( (case a in a) c2 id2;; esac) )",
    "{ (case a in (a) c1 id1;; esac); }",
])
def test_case_inside_a_subshell_keeps_its_commands(line):
    assert peel_reports(line) == bash_ran(line)
