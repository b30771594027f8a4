"""The generic fallback (issue 15): which commands get it, the config switch, what it keeps of a
long output, `cc-filter which`, and cc-rewrite's side (only executables on the PATH)."""
import os

import pytest

from cc_filter import cli

from cc_filter.choose import catalogue, fallback
from cc_filter.filters._long_output import Collapser, LongOutput, is_error_line
from cc_filter.filters.generic._diff_cut import FILE_KEEP, DiffCut, looks_like_diff
from cc_filter.filters.generic.generic import THRESHOLD, Generic
from cc_rewrite.rewrite import Catalogue, rewrite
from cc_rewrite.refusals import RewriteSettings

from filter_testkit import REPO


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(REPO)


@pytest.mark.parametrize("key, gets_it", [
    ("gradle-unknown-tool build", True),
    ("./configure --prefix=/usr", True),
    ("apt-cache show git", True),
    ("docker logs web", True),
    ("cd /tmp", False), ("export A=1", False), ("source .venv/bin/activate", False),
    ("vim notes.md", False), ("less log.txt", False), ("top -b", False),
    ("python3 server.py", False), ("node index.js", False), ("bash script.sh", False),
    ("tail -f app.log", False), ("journalctl -fu nginx", False), ("docker logs -f web", False),
    ("kubectl logs --follow pod", False), ("webpack --watch", False), ("tsc-like --watchAll", False),
    ("npm run dev", False), ("rails s", False), ("flask run", False), ("cargo run", False),
    ("echo hi", False), ("mkdir -p x", False), ("sleep 10", False),
    ("git rebase -i main", False), ("git add -p", False), ("git rebase main", True),
    ("pre-commit run", True), ("tox run", True),
])
def test_which_commands_get_the_fallback(key, gets_it):
    assert (fallback.refusal(key) is None) == gets_it
    entry = catalogue.lookup(key, REPO)
    assert (entry is not None and entry.name == "generic") == gets_it


@pytest.mark.parametrize("key, name", [
    ("golangci-lint run", "golangci-lint"), ("cargo nextest run", "cargo-nextest"),
])
def test_a_run_that_is_a_check_is_not_refused_and_has_its_own_filter(key, name):
    assert fallback.refusal(key) is None  # `run` of these is a check, not a program
    assert catalogue.lookup(key, REPO).name == name


def test_a_command_with_its_own_filter_never_gets_the_fallback():
    assert catalogue.lookup("git status", REPO).name == "git-status"
    assert catalogue.lookup("sed -n 1,80p x.py", REPO).name == "read"  # a read, not generic
    assert catalogue.lookup("zzz-unknown", REPO, fallback=False) is None
    assert "generic" not in [e.name for e, _ in catalogue.explain("zzz-unknown", REPO)]


def test_the_hooks_config_turns_it_off(ctxcrl_home):
    assert catalogue.lookup("zzz-unknown", REPO).name == "generic"
    with open(os.path.join(str(ctxcrl_home), "config.toml"), "w") as f:
        f.write("[hooks]\nfallback_filter = false\n")
    import ctxcrl.config

    ctxcrl.config._loaded = None
    assert catalogue.lookup("zzz-unknown", REPO) is None
    assert catalogue.fallback_for("zzz-unknown", REPO)[1].startswith("turned off")


def test_output_under_the_threshold_is_untouched():
    lines = [f"\x1b[31mline {i}\x1b[0m" for i in range(THRESHOLD)] + ["", "", "error: x"]
    lines = lines[:THRESHOLD]
    assert list(Generic(["x"]).run(lines, 1)) == lines


def test_runs_of_identical_similar_and_blank_lines_are_counted():
    c = Collapser()
    out = []
    for line in ["a", "a", "a", "Downloading 1/300", "Downloading 2/300", "Downloading 3/300",
                 "Downloading 4/300", "", "", "", "error: 1", "error: 2", "error: 2", "b"]:
        out += c.push(line)
    out += c.flush()
    assert out == ["a (×3)", "Downloading 1/300", "... (2 similar lines omitted)",
                   "Downloading 4/300", "", "error: 1", "error: 2 (×2)", "b"]


def test_a_long_output_keeps_head_every_error_with_neighbours_and_tail():
    def word(i):  # distinct lines that are not near-identical (not only their numbers differ)
        return "".join(chr(97 + int(d)) for d in str(i))

    lines = [f"compiling module_{word(i)}.c" for i in range(5000)]
    lines[2500] = "src/module_2500.c:12:5: error: 'x' undeclared"
    lines[4000] = "warning: deprecated flag -O4"
    cut = LongOutput(head=40, tail=60, context=2)
    out = []
    for line in lines:
        out += cut.push(line)
    out += cut.finish()
    assert out[:40] == lines[:40] and out[-60:] == lines[-60:]
    assert lines[2498:2503] == out[out.index(lines[2500]) - 2:out.index(lines[2500]) + 3]
    assert lines[4000] in out
    markers = [line for line in out if line.startswith("... (")]
    assert sum(int(m.split("(")[1].split()[0]) for m in markers) + len(out) - len(markers) \
        == 5000  # every line is shown or counted


def test_many_error_lines_are_capped_and_counted():
    cut = LongOutput(head=2, tail=2, context=0, max_kept=10)
    out = []
    for i in range(100):
        out += cut.push(f"error number {i} in file f{i}.c")
    out += cut.finish()
    assert out[:12] == [f"error number {i} in file f{i}.c" for i in range(12)]
    assert out[12] == "... (86 lines omitted)"
    assert out[13] == "[86 more lines naming an error were omitted past the first 10 kept: " \
        "see the full output]"
    assert out[14:] == ["error number 98 in file f98.c", "error number 99 in file f99.c"]


def test_a_data_field_saying_there_is_no_error_is_not_an_error_line():
    # `jq . records.json`: 2,000 records, each with an `"error"` field; two are real errors
    lines = ["["]
    for i in range(2000):
        lines += ["  {", f'    "id": {i},', f'    "error": {"true" if i in (700, 1500) else "false"},',
                  f'    "failures": {3 if i == 1500 else 0}', "  },"]
    lines.append("]")
    cut = LongOutput(head=40, tail=60, context=2)
    out = []
    for line in lines:
        out += cut.push(line)
    out += cut.finish()
    assert '    "id": 700,' in out and '    "id": 1500,' in out and '    "failures": 3' in out
    assert len(out) < 150  # not 2,000 `"error": false` lines kept as errors
    assert not any("naming an error were omitted" in line for line in out)


def test_an_unknown_5000_line_command_end_to_end(capfd, demo_bin, ctxcrl_home):
    """The issue's 'done when': head, errors and tail with a marker; the raw output in the
    tee dir; the exit code kept."""
    demo_bin.tool("demo-unknown-build", """
        i=0
        while [ $i -lt 5000 ]; do
            if [ $i -eq 3000 ]; then echo "FAILED: tests/test_io.py::test_read (line $i)"; fi
            echo "building target $i"
            i=$((i + 1))
        done
        exit 2
    """)
    code = cli.main(["run", "demo-unknown-build"])
    out, _err = capfd.readouterr()
    lines = out.splitlines()
    assert code == 2
    assert lines[0] == "building target 0"
    assert "FAILED: tests/test_io.py::test_read (line 3000)" in lines
    assert "building target 4999" in lines
    assert any(line.endswith("similar lines omitted)") or line.endswith("lines omitted)")
               for line in lines)
    assert lines[-1].startswith("[full output: ")
    tee_dir = os.path.join(str(ctxcrl_home), "tee")
    # the run's own tee file (tee/last.raw, for `cc-filter raw`, is the same output; the
    # retention's own bookkeeping, tee/.sweep, is no output)
    (tee_file,) = [name for name in os.listdir(tee_dir) if name.endswith(".log")]
    with open(os.path.join(tee_dir, tee_file)) as f:
        assert f.read().count("building target") == 5000
    assert len(lines) < 150


def test_which_explains_the_fallback(capfd):
    assert cli.main(["which", "zzz-unknown-tool", "--flag"]) == 0
    out = capfd.readouterr().out
    assert "filter:  generic (fallback: no filter matches the key)" in out
    assert "fallback_filter = false" in out
    assert cli.main(["which", "vim", "x"]) == 1
    out = capfd.readouterr().out
    assert "filter:  none" in out and "vim is interactive" in out


def test_rewrite_gives_the_fallback_only_to_executables_on_the_path(demo_bin):
    demo_bin.tool("demo-long-tool", "echo hi\n")
    settings = RewriteSettings()
    assert rewrite("demo-long-tool --all", Catalogue(REPO), settings).text == \
        "cc-filter run demo-long-tool --all"
    # a name the shell resolves to a function or alias: cc-filter run could not find it
    assert rewrite("my_shell_function arg", Catalogue(REPO), settings).text == \
        "my_shell_function arg"
    assert rewrite("cd /tmp && demo-long-tool", Catalogue(REPO), settings).text == \
        "cd /tmp && cc-filter run demo-long-tool"


def test_run_passes_a_missing_program_through(capfd):
    code = cli.main(["run", "no-such-tool-xyz-123"])
    assert code == 127


def test_the_readme_coverage_line_is_what_the_catalogue_gives():
    """cc-filter/README.md's coverage of the agent week is the script's current answer."""
    import subprocess
    import sys

    script = os.path.join(REPO, "scripts", "catalogue_coverage.py")
    line = subprocess.run([sys.executable, script, "--summary"], capture_output=True, text=True,
                          cwd=REPO, timeout=60, check=True).stdout.strip()
    with open(os.path.join(REPO, "cc-filter", "README.md"), encoding="utf-8") as f:
        assert f"**{line}.**" in f.read(), line


def _fallback(lines):
    out = []
    generic = Generic(["x"])
    for line in lines:
        out += generic.feed(line)
    return out + list(generic.finish(1))


def test_test_runner_failure_marks_are_error_lines():
    """A TAP producer without its filter (tape under an unknown wrapper): every `not ok` and
    its expected/actual survive the fallback's cut (real tape 5.10.2 output, 12 failures)."""
    with open(os.path.join(REPO, "tests", "fixtures", "js", "tap", "failures.out")) as f:
        raw = f.read().splitlines()
    out = _fallback(raw)
    assert len(raw) > THRESHOLD and len(out) < len(raw)
    for marks in ("not ok ", "expected:", "actual:"):
        wanted = [line for line in raw if line.strip().startswith(marks)]
        assert len(wanted) == 12 and all(line in out for line in wanted), marks
    for line in ["  ✖ 60% off 200 (5.9ms)", "✗ adds", "FAIL src/a.test.js", "FAILED tests/x.py",
                 "ERROR: boom", "thread 'main' panicked at src/lib.rs:3:5:",
                 "Traceback (most recent call last):"]:
        assert is_error_line(line), line
    assert not is_error_line("ok 12 55% off 200") and not is_error_line("unexpected = 3")


def test_a_long_diff_keeps_every_file_and_counts_each_cut():
    """`buf format -d` (real buf 1.75.0 output, ten files, 320 lines): no file disappears
    from the middle; each keeps its header and the start of its hunk, the rest counted."""
    with open(os.path.join(REPO, "tests", "fixtures", "generic", "generic",
                           "buf-format-diff.out")) as f:
        raw = f.read().splitlines()
    out = _fallback(raw)
    assert len(out) < len(raw) // 2
    for line in raw:
        if line.startswith(("diff ", "--- ", "+++ ", "@@ ")):
            assert line.split("\t")[0] in out  # a `---`/`+++` line without its file time
    markers = [line for line in out if line.startswith("... (")]
    assert len(markers) == 10
    assert sum(int(m.split("(")[1].split()[0]) for m in markers) + len(out) - len(markers) \
        == len(raw)  # every line is shown or counted


def test_a_diff_cut_shares_the_budget_and_bounds_memory():
    cut = DiffCut(budget=20)
    for n in range(2):
        for line in [f"--- a/f{n}", f"+++ b/f{n}", "@@ -1,3 +1,3 @@"] + \
                [f"+line {i}" for i in range(FILE_KEEP + 50)]:
            cut.push(line)
    out = cut.finish()
    assert out[:3] == ["--- a/f0", "+++ b/f0", "@@ -1,3 +1,3 @@"]
    assert f"... ({FILE_KEEP + 50 + 1 - 10} diff lines of 1 hunk of b/f0 omitted)" in out
    assert "+++ b/f1" in out and len(out) == 2 * (2 + 10 + 1)
    assert not looks_like_diff(["--- a", "+++ b", "some log", "another", "@@ x"] + ["log"] * 50)
