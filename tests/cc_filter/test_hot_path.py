"""Budgets that are about imports (ARCHITECTURE §9): `cc-filter run` / `cc-filter <name>` must not
pull in heavy modules on their paths (re, json, subprocess, signal, docopt, tomllib, sqlite3,
hashlib, tempfile, pathlib, shlex, typing, dataclasses, enum, tabulate, importlib.metadata)."""
import json
import os
import subprocess
import sys

from filter_testkit import REPO, toml_filter

FORBIDDEN = ("re", "json", "subprocess", "signal", "docopt", "tomllib", "sqlite3", "hashlib",
             "tempfile", "pathlib", "shlex", "typing", "dataclasses", "enum", "tabulate",
             "importlib.metadata", "inspect", "cc_lex.lexer", "cc_peel.peeling")

PROBE = """
import json as _j, sys
before = set(sys.modules)
from cc_filter import cli
code = cli.main(ARGV)
heavy = [m for m in FORBIDDEN if m in sys.modules and m not in before]
sys.stderr.write("\\nPROBE " + _j.dumps({"code": code, "heavy": heavy}) + "\\n")
"""


def probe(argv, stdin=b"", cwd=REPO):
    # `json` is imported by the probe itself before the measured part, so it is recorded in
    # `before`; check it separately with a clean interpreter below.
    code = PROBE.replace("ARGV", repr(argv)).replace("FORBIDDEN", repr(FORBIDDEN))
    result = None
    for _ in range(2):  # the first run may (re)build the filter index
        result = subprocess.run([sys.executable, "-c", code], input=stdin, capture_output=True,
                                cwd=cwd, timeout=60)
    line = [x for x in result.stderr.decode().splitlines() if x.startswith("PROBE ")][-1]
    return json.loads(line[6:])


def test_run_true_imports_nothing_heavy():
    assert probe(["run", "true"]) == {"code": 0, "heavy": []}


def test_run_true_no_json_at_all():
    code = ("import sys; from cc_filter import cli; cli.main(['run', 'true']); "
            "print(sorted(m for m in ('json', 're', 'docopt') if m in sys.modules))")
    for _ in range(2):
        result = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                                cwd=REPO, timeout=60)
    assert result.stdout.strip() == "[]", result.stderr


def test_toml_filter_runs_without_tomllib(ctxcrl_home):
    os.makedirs(os.path.join(str(ctxcrl_home), "filters"), exist_ok=True)
    with open(os.path.join(str(ctxcrl_home), "filters", "demo-hot.toml"), "w") as f:
        f.write(toml_filter("demo-hot", "^demo-hot", head_lines=2))
    got = probe(["demo-hot"], stdin=b"a\nb\nc\n")
    assert got["code"] == 0
    # a TOML filter with regexes needs `re`, nothing else; this one has none
    assert [m for m in got["heavy"] if m != "re"] == []
    assert "tomllib" not in got["heavy"]


def test_filtered_run_imports_nothing_heavy(ctxcrl_home):
    # the filtered path: spawn on a pipe, the guard, the TOML filter, tracking
    os.makedirs(os.path.join(str(ctxcrl_home), "filters"), exist_ok=True)
    with open(os.path.join(str(ctxcrl_home), "filters", "printf.toml"), "w") as f:
        f.write(toml_filter("printf", "^printf(\\s|$)", head_lines=2))
    argv = ["run", "printf", "line %s of a rather long output\\n"] + [str(i) for i in range(10)]
    assert probe(argv) == {"code": 0, "heavy": []}
    shown = subprocess.run([sys.executable, "-m", "cc_filter"] + argv, capture_output=True,
                           text=True, cwd=REPO, timeout=60).stdout
    assert shown.startswith("line 0 of a rather long output\nline 1 of a rather long output\n"
                            "... (8 lines omitted)\n")  # the filter did run
