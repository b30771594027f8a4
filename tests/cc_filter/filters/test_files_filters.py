"""The ls / find / tree / grep / read filters beyond their fixture cases: option handling, what
passes through untouched, caps and their markers, the exact sed command of a head+tail cut,
bounded memory, and the hot-path import rule."""
import os
import subprocess
import sys

import pytest

from cc_filter.filters.files import find, grep, ls, read, tree


def run(cls, argv, text, exit_code=0):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    f = cls(argv)
    return list(f.run(lines, exit_code)), f


def test_filter_modules_import_nothing_heavy():
    modules = ["files.ls", "files.find", "files.tree", "files.grep", "files.read",
               "git.git_status", "git.git_diff", "git.git_log", "git.git_show", "git.git_push",
               "git.git_pull", "git.git_commit", "git.git_stash", "git.git_branch",
               "git.git_add", "git.git_fetch"]
    code = ("import sys\nimport " + ", ".join(f"cc_filter.filters.{m}" for m in modules) + "\n"
            "print(sorted(m for m in ('re', 'subprocess', 'json', 'pathlib', 'tomllib', 'shlex',"
            " 'dataclasses', 'typing', 'sqlite3') if m in sys.modules))")
    out = subprocess.run([sys.executable, "-I", "-c", code], capture_output=True, text=True,
                         env={**os.environ, "PYTHONPATH": os.pathsep.join(sys.path)})
    assert out.stdout.strip() == "[]", out.stderr


# -- ls -----------------------------------------------------------------------------------------
LONG = """\
total 16
drwxr-xr-x 3 me staff 4096 Mar  1 12:00 .
drwxr-xr-x 9 me staff 4096 Mar  1 12:00 ..
-rw-r--r-- 1 me staff  120 Mar  1 12:00 a b.txt
-rwxr-xr-x 1 me staff 2048 Mar  1 12:00 build.sh
-rw------- 1 me staff   10 Mar  1 12:00 .env
drwx------ 2 root root 4096 Mar  1  2023 secret
lrwxrwxrwx 1 me staff    6 Mar  1 12:00 latest -> v1.2.3
crw-rw-rw- 1 root root 1, 3 Mar  1 12:00 null
"""


def test_ls_long_keeps_names_sizes_and_what_is_unusual():
    out, _ = run(ls.Ls, ["ls", "-la"], LONG)
    assert out == ["'a b.txt'  120", "build.sh*  2048", ".env  10 [-rw-------]",
                   "secret/ [drwx------] root:root", "latest -> v1.2.3",
                   "crw-rw-rw- 1 root root 1, 3 Mar  1 12:00 null",
                   "... (3 total/./.. lines omitted)"]


def test_ls_keeps_dates_when_sorted_by_time():
    out, _ = run(ls.Ls, ["ls", "-lt"], "-rw-r--r-- 1 me staff 120 Mar  1 12:00 a\n")
    assert out == ["a  120 Mar 1 12:00"]


@pytest.mark.parametrize("argv", [["ls"], ["ls", "-1"], ["ls", "-li"], ["ls", "-ls"],
                                  ["ls", "-l", "--full-time"], ["ls", "-n"]])
def test_ls_passes_through_plain_and_unknown_forms(argv):
    assert run(ls.Ls, argv, LONG)[0] == LONG.splitlines()


def test_ls_recursive_summarises_cache_dirs_and_caps_huge_dirs():
    raw = ".:\nnode_modules\nsrc\n\n./node_modules:\na\nb\n\n./node_modules/a:\nx.js\n\n./src:\n" + \
        "".join(f"m{i}.py\n" for i in range(100))
    out, f = run(ls.Ls, ["ls", "-R"], raw)
    assert out[0] == "node_modules/ src"
    assert out[1].startswith("src/: {m0,m1,") and out[2] == f"  +{100 - ls.NAMES_LIMIT} more names"
    # node_modules' 3 entries and its 2 section headers
    assert out[3] == "... (5 lines inside 1 node_modules/ omitted)"
    assert f.dropped


# -- find ---------------------------------------------------------------------------------------
def test_find_groups_quotes_and_braces():
    paths = [f"./src/m{i}.py" for i in range(10)] + ["./src/a b.txt", "./README", "./docs/x.md"]
    raw = "\n".join(paths) + "\nfind: './secret': Permission denied\n"
    out, _ = run(find.Find, ["find", "."], raw)
    assert out == ["./src/: {m0,m1,m2,m3,m4,m5,m6,m7,m8,m9}.py 'a b.txt'", "./: README",
                   "./docs/: x.md", "find: './secret': Permission denied"]


def test_find_short_lists_and_actions_pass_through():
    assert run(find.Find, ["find", "."], "./a\n./b\n")[0] == ["./a", "./b"]
    raw = "".join(f"./f{i}\n" for i in range(50))
    for action in ("-exec", "-print0", "-printf", "-ls", "-delete"):
        assert run(find.Find, ["find", ".", action, "x"], raw)[0] == raw.splitlines()


def test_find_caps_huge_directories_with_a_marker():
    raw = "".join(f"./d/f{i}.log\n" for i in range(find.NAMES_LIMIT + 7))
    out, f = run(find.Find, ["find", "."], raw)
    assert out[0].startswith("./d/: {f0,f1,") and out[1] == "  +7 more names" and f.dropped


@pytest.mark.parametrize("names,expected", [
    (["a.py", "b.py"], "a.py b.py"),
    (["a.py", "b.py", "c.py", "R"], "{a,b,c}.py R"),
    (["x,y.py", "b.py", "c.py", "d.py"], "x,y.py {b,c,d}.py"),
    ([".a.py", ".b.py", ".c.py"], "{.a,.b,.c}.py"),
])
def test_brace_names_expand_back_to_the_same_names(names, expected):
    assert find.brace_names(names) == expected


# -- tree ---------------------------------------------------------------------------------------
ASCII_TREE = """\
.
|-- README.md
|-- node_modules
|   `-- lodash
|       `-- index.js
`-- src
    |-- a.py
    `-- empty

4 directories, 3 files
"""


def test_tree_ascii_drawing_and_cache_dirs():
    out, f = run(tree.Tree, ["tree"], ASCII_TREE)
    assert out == ["README.md node_modules/", "  ... (2 entries under node_modules/ omitted)",
                   "src/: a.py empty", "4 directories, 3 files"]
    assert f.dropped


@pytest.mark.parametrize("flag", ["-J", "-X", "-H", "-p", "-s", "-h", "-f", "-i", "--du", "-pug"])
def test_tree_detail_and_other_formats_pass_through(flag):
    assert run(tree.Tree, ["tree", flag], ASCII_TREE)[0] == ASCII_TREE.splitlines()


# -- grep / rg ------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv,mode,pattern,names,numbers", [
    (["grep", "-rn", "foo", "src"], "group", "foo", True, True),
    (["grep", "-n", "foo", "a.py"], "cut", "foo", False, True),
    (["grep", "-n", "foo", "a.py", "b.py"], "group", "foo", True, True),
    (["grep", "-rc", "foo", "src"], "untouched", "foo", True, False),
    (["grep", "-rl", "foo"], "untouched", "foo", True, False),
    (["grep", "-rn", "-C2", "foo", "src"], "cut", "foo", True, True),
    (["grep", "-rn", "-e", "a.b", "src"], "group", None, True, True),
    (["grep", "-rnF", "-e", "a.b", "src"], "group", "a.b", True, True),
    (["grep", "-rn", "--include=*.py", "foo", "."], "group", "foo", True, True),
    (["rg", "foo"], "group", "foo", True, False),
    (["rg", "-n", "foo", "src"], "group", "foo", True, True),
    (["rg", "-n", "foo", "a.py"], "cut", "foo", False, True),
    (["rg", "-c", "foo"], "untouched", "foo", True, False),
    (["rg", "--json", "foo"], "untouched", "foo", True, False),
    (["rg", "-l", "foo"], "untouched", "foo", True, False),
    (["rg", "--files"], "untouched", None, True, False),
    (["rg", "-g", "*.py", "-n", "foo"], "group", "foo", True, True),
    (["rg", "--heading", "foo"], "cut", "foo", True, False),
])
def test_grep_reads_the_command_line(argv, mode, pattern, names, numbers):
    args = grep.GrepArgs(argv)
    assert (args.mode, args.pattern, args.with_names, args.numbers) == (mode, pattern, names, numbers)


def test_grep_paths_with_colons_and_numbers_in_text():
    raw = "a:b.txt:3:x = 1:2:3\nsrc/m.py:10:    value: 5\n"
    out, _ = run(grep.Grep, ["grep", "-rn", "x", "."], raw)
    assert out == ["a:b.txt:", "  3: x = 1:2:3", "src/m.py:", "  10:     value: 5"]  # indentation kept


def test_grep_shows_every_match_under_its_budget():
    raw = "".join(f"f{i}.py:{j}:    hit {j}\n" for i in range(40) for j in range(1, 6))
    out, f = run(grep.Grep, ["grep", "-rn", "hit", "."], raw)
    assert len(out) == 40 + 200 and "f39.py:" in out and "  5:     hit 5" in out
    assert not f.dropped and not any("omitted" in l for l in out)


def test_grep_within_its_budget_shows_every_match_grouped():
    """240 short matches take about 1,000 tokens grouped: no map, every match."""
    raw = "".join(f"f{i}.py:{j}:hit {j}\n" for i in range(40) for j in range(1, 7))
    out, f = run(grep.Grep, ["grep", "-rn", "hit", "."], raw)
    assert out[0] == "f0.py:" and len(out) == 280 and not f.dropped


def test_grep_over_its_budget_fills_it_and_names_every_file_with_its_count():
    raw = "".join(f"f{i}.py:{j}:    handled request number {j} for tenant {i}\n"
                  for i in range(40) for j in range(1, 121))
    out, f = run(grep.Grep, ["grep", "-rn", "request", "."], raw)
    assert out[0].startswith("4800 matches in 40 files (grouped, about ")
    assert "over the 4,000-token budget" in out[0] and "200 matches" not in out[0]
    assert all(f"f{i}.py: 120 matches" in out for i in range(40))
    assert grep.CHAR_BUDGET * 0.9 < len("\n".join(out)) <= grep.CHAR_BUDGET
    shown = sum(1 for line in out if line.startswith("  ") and "omitted" not in line)
    counted = sum(int(line.split("(")[1].split()[0]) for line in out if "matches omitted" in line)
    assert shown + counted == 4800 and shown > 250 and f.dropped


def test_grep_over_its_budget_keeps_the_match_that_stands_out():
    """The issue's case: 480 `trace=` matches, look-alike DEBUG lines, one WARN (#320) — it
    is shown, first, whatever its place."""
    lines = [f"svc/app.log:{n}:2026-05-01T10:{n // 60 % 60:02d}:{n % 60:02d}Z DEBUG handler "
             f"done trace={n * 7919 % 100000:05x} route=/api/items/{n} took={n % 90}ms"
             for n in range(1, 481)]
    lines[319] = ("svc/app.log:320:2026-05-01T10:05:20Z WARN upstream returned 503 "
                  "trace=4be1c route=/api/items/320 retry=1")
    out, f = run(grep.Grep, ["grep", "-rn", "trace=", "svc"], "\n".join(lines) + "\n")
    assert out[0].startswith("480 matches in 1 files") and f.dropped
    assert any("320: 2026-05-01T10:05:20Z WARN upstream returned 503 trace=4be1c" in line
               for line in out)


def test_grep_cut_mode_keeps_what_stands_out_past_its_budget_in_place():
    raw = "".join(f"{j}:2026-05-01 DEBUG hit {j}\n" if j != 700 else
                  "700:2026-05-01 ERROR hit failed: disk full\n" for j in range(1, 1001))
    out, f = run(grep.Grep, ["grep", "-n", "hit", "app.log"], raw)
    i = out.index("700:2026-05-01 ERROR hit failed: disk full")
    assert out[i - 1] == "... (298 more lines omitted)" and out[i + 1] == "... (300 more lines omitted)"


def test_grep_cut_mode_counts_what_is_past_its_budget():
    raw = "".join(f"{j}:hit {j}\n" for j in range(1, 1001))
    out, f = run(grep.Grep, ["grep", "-n", "hit", "a.py"], raw)
    assert out[0] == "1:hit 1" and out[-1] == "... (599 more lines omitted)" and f.dropped


def test_grep_cuts_long_lines_around_a_literal_match():
    line = "x" * 3000 + "NEEDLE" + "y" * 3000
    out, f = run(grep.Grep, ["grep", "-n", "NEEDLE", "big.js"], f"7:{line}\n")
    assert out[0].startswith("7:[2940 chars] …") and "NEEDLE" in out[0]
    assert out[0].endswith(" more chars]") and len(out[0]) < 300 and f.dropped


def test_grep_errors_come_after_the_matches_unchanged():
    raw = "grep: nosuch: No such file or directory\na.py:1:foo\nb.py:2:foo\n"
    out, _ = run(grep.Grep, ["grep", "-n", "foo", "nosuch", "a.py", "b.py"], raw)
    assert out == ["a.py:", "  1: foo", "b.py:", "  2: foo", "grep: nosuch: No such file or directory"]


# -- read (cat / head / tail) ---------------------------------------------------------------------
@pytest.mark.parametrize("argv,files,plain", [
    (["cat", "a.txt"], ["a.txt"], True),
    (["cat", "a", "b"], ["a", "b"], True),
    (["cat", "-n", "a"], [], False),
    (["cat"], [], False),
    (["cat", "-"], [], False),
    (["head", "-n", "50", "a"], ["a"], True),
    (["head", "-50", "a"], ["a"], True),
    (["head", "--lines=50", "a"], ["a"], True),
    (["head", "-c", "100", "a"], [], False),
    (["tail", "-n", "+20", "a"], ["a"], True),
    (["tail", "-f", "a"], [], False),
    (["tail", "-F", "a"], [], False),
    (["tail", "--follow", "a"], [], False),
    (["/usr/bin/tail", "-q", "-n", "5", "a", "b"], ["a", "b"], True),
    (["sed", "-n", "10,20p", "a"], ["a"], True),
    (["sed", "--quiet", "-e", "5p", "a"], ["a"], True),
    (["sed", "-n", "10,$p", "a"], ["a"], True),
    (["sed", "10,20p", "a"], [], False),
    (["sed", "-n", "/x/p", "a"], [], False),
    (["sed", "-i", "s/a/b/", "a"], [], False),
    (["sed", "-n", "1,5p", "a", "b"], [], False),
    (["sed", "-n", "1,5p"], [], False),
])
def test_read_touches_only_plain_forms(argv, files, plain):
    got_files, got_plain = read.parse_read(argv)
    assert got_plain is plain and (not plain or got_files == files)


@pytest.mark.parametrize("argv", [["cat", "{f}"], ["head", "-n", "2700", "{f}"],
                                  ["tail", "-n", "2600", "{f}"], ["cat", "{f}", "{f}"],
                                  ["tail", "-n", "+50", "{f}"], ["sed", "-n", "301,2900p", "{f}"],
                                  ["sed", "-n", "-e", "10,$p", "{f}"]])
def test_read_marker_names_the_exact_command_for_the_omitted_lines(tmp_path, argv):
    path = tmp_path / "data file.log"
    path.write_text("".join(f"line {i}\n" for i in range(1, 3001)))
    argv = [a.format(f=path) for a in argv]
    raw = subprocess.run(argv, capture_output=True, text=True).stdout
    out, f = run(read.Read, argv, raw)
    marker = [l for l in out if l.startswith("... lines ")]
    assert len(marker) == 1 and f.dropped
    command = marker[0].split(" omitted (", 1)[1][:-1]
    omitted = subprocess.run(["bash", "-c", command], capture_output=True, text=True).stdout
    assert "\n".join(out).replace(marker[0], omitted.rstrip("\n")) + "\n" == raw


def test_read_is_verbatim_up_to_the_limit_and_streams_the_head():
    lines = [f"l{i}" for i in range(read.VERBATIM_LIMIT)]
    assert run(read.Read, ["cat", "x"], "\n".join(lines) + "\n")[0] == lines
    f = read.Read(["cat", "x"])
    assert list(f.feed("first")) == ["first"]  # printed as it arrives


def test_read_memory_stays_bounded():
    f = read.Read(["cat", "x"])
    for i in range(200_000):
        list(f.feed(f"line {i}"))
    assert len(f.lines.last) <= 4 * read.TAIL + 256 + 1
    out = list(f.finish(0))
    assert out[0] == f"... lines {read.HEAD + 1}–{200_000 - read.TAIL} omitted (sed -n '{read.HEAD + 1},{200_000 - read.TAIL}p' x)"
    assert out[-1] == "line 199999"


def test_read_cuts_giant_lines():
    out, f = run(read.Read, ["cat", "min.js"], "a" * (read.LINE_LIMIT + 10) + "\n")
    assert out == ["a" * read.LINE_LIMIT + " … [10 more chars]"] and f.dropped


def test_read_of_a_long_log_keeps_its_warning_in_place():
    """The issue's case: `cat` of a 5,300-line release log; the one WARN (a 503 and its trace
    id) in the middle stays, with a neighbour each side, each gap its own sed range."""
    lines = [f"2026-05-01T10:{n // 60 % 60:02d}:{n % 60:02d}Z INFO release step {n} ok "
             f"duration={n % 90}ms" for n in range(1, 5301)]
    lines[2999] = "2026-05-01T10:50:00Z WARN upstream returned 503 trace=4be1c6 step 3000"
    out, f = run(read.Read, ["cat", "release.log"], "\n".join(lines) + "\n")
    i = out.index(lines[2999])
    assert out[i - 2] == "... lines 201–2998 omitted (sed -n '201,2998p' release.log)"
    assert out[i - 1] == lines[2998] and out[i + 1] == lines[3000]
    assert out[i + 2] == "... lines 3002–5250 omitted (sed -n '3002,5250p' release.log)"
    assert out[:200] == lines[:200] and out[-50:] == lines[-50:] and f.dropped


def test_read_of_a_coloured_log_tells_its_coloured_warning():
    """`\x1b[33mWARN` is a warning: the picker judges the line without its colour codes, and
    the line is shown as the file has it."""
    lines = [f"2026-05-01T10:{n // 60 % 60:02d}:{n % 60:02d}Z \x1b[32mINFO\x1b[0m step {n} ok"
             for n in range(1, 5301)]
    warned = [999, 1999, 2999, 3999, 4499]  # alike: no line of them is rare, each tells
    for n in warned:
        lines[n] = f"2026-05-01T10:50:00Z \x1b[33mWARN\x1b[0m upstream slow step {n + 1}"
    out, _ = run(read.Read, ["cat", "app.log"], "\n".join(lines) + "\n")
    assert all(lines[n] in out[200:-50] for n in warned)


def test_read_of_a_log_past_the_pickers_window_says_where_it_stopped_looking(monkeypatch,
                                                                              tmp_path):
    """Only the first SCAN_CHARS of a log are looked through (a whole 100 MB log would cost
    twenty copies of it): a WARN inside the window stays, one past it is in the range whose
    marker says it was not looked through, and that marker's command prints exactly it."""
    from cc_filter.kit import standout

    lines = [f"2026-05-01T10:{n // 60 % 60:02d}:{n % 60:02d}Z INFO release step {n} ok"
             for n in range(1, 5301)]
    lines[999] = "2026-05-01T10:16:40Z WARN upstream returned 503 step 1000"
    lines[3999] = "2026-05-01T11:06:40Z ERROR disk full step 4000"
    monkeypatch.setattr(standout, "SCAN_CHARS", 100 * 1024)  # about 2,000 of these lines
    path = tmp_path / "release.log"
    path.write_text("\n".join(lines) + "\n")
    out, f = run(read.Read, ["cat", str(path)], "\n".join(lines) + "\n")
    assert lines[999] in out and lines[3999] not in out and f.dropped
    stopped = [l for l in out if "not looked through for warnings" in l]
    assert len(stopped) == 1
    first, last = (int(n) for n in stopped[0].split()[2].split("–"))
    assert 1001 < first < 4000 < last == 5250
    command = stopped[0].split("; ", 1)[1][:-1]
    printed = subprocess.run(["bash", "-c", command], capture_output=True, text=True).stdout
    assert printed.splitlines() == lines[first - 1:last]


def test_read_of_long_source_code_keeps_head_and_tail_only():
    """Source code is no log: its `raise ValueError` lines are no reason to break the rule."""
    lines = [f"    def method_{n}(self):" if n % 3 else "        raise ValueError('bad')"
             for n in range(1, 3001)]
    out, _ = run(read.Read, ["cat", "big.py"], "\n".join(lines) + "\n")
    assert out == lines[:200] + ["... lines 201–2950 omitted (sed -n '201,2950p' big.py)"] + \
        lines[-50:]


def test_grep_past_its_file_limit_counts_files_not_matches():
    raw = "".join(f"f{i:03d}.py:{j}:hit {j}\n" for i in range(grep.FILE_LIMIT + 5)
                  for j in range(1, 4))
    out, f = run(grep.Grep, ["grep", "-rn", "hit", "."], raw)
    assert "... (5 files with 15 matches omitted)" in out and f.dropped


@pytest.mark.parametrize("argv", [["grep", "-rn", "hit", "."], ["grep", "-n", "hit", "app.log"]])
def test_grep_fed_in_chunks_answers_as_fed_line_by_line(argv):
    """The runner hands chunks (`feed_lines`, the fast path of a 1M-match search); the answer
    is the one `feed` line by line gives: every picked telling line, every count."""
    prefix = "app.log:" if "-rn" in argv else ""
    lines = [f"{prefix}{j}:2026-05-01 DEBUG hit {j} \x1b[1mtrace\x1b[0m={j * 7919 % 100000:05x}"
             for j in range(1, 9001)]
    lines[4321] = f"{prefix}4322:2026-05-01 ERROR hit failed: disk full"
    by_line = grep.Grep(argv)
    one = [x for line in lines for x in by_line.feed(line)] + list(by_line.finish(0))
    by_chunk = grep.Grep(argv)
    chunked = [x for at in range(0, len(lines), 777)
               for x in by_chunk.feed_lines(lines[at:at + 777])] + list(by_chunk.finish(0))
    assert chunked == one and any("ERROR hit failed: disk full" in x for x in one)
    assert by_chunk.dropped == by_line.dropped


# -- grep's counted runs: the same answer as one line at a time ------------------------------
from hypothesis import example, given, settings, strategies as st  # noqa: E402

_NAMES = st.sampled_from(["a.py", "b.py", "a", "a:1", "x:12:y", "src/c.py", "grep", "d e.py",
                          "a:", "9", "b.py:"])
_LINES = st.lists(st.one_of(
    st.tuples(_NAMES, st.integers(1, 30), st.integers(1, 40),
              st.sampled_from(["value = 1", "WARN retry", "status=503 x", "ok  ", "x" * 230,
                               "", "ERROR: disk", "7:value", ":value"])),
    st.sampled_from(["grep: nope: No such file or directory", "Binary file z matches",
                     "b.py-3-context", "plain text"])), max_size=120)


def _grep_lines(items, numbers: bool) -> list[str]:
    """Each (name, run, number, text): `run` lines of that file in a row (a file's matches
    come together, and a name may come back later), or a line as it is."""
    out = []
    for item in items:
        if isinstance(item, str):
            out.append(item)
            continue
        name, count, number, text = item
        out.extend(f"{name}:{number + j}:{text}" if numbers else f"{name}:{text}"
                   for j in range(count))
    return out


@settings(max_examples=150, deadline=None)
@given(_LINES, st.booleans(), st.sampled_from([1, 7, 64, 4096]))
# file `a:`'s line among file `a`'s, past every budget: `a::6:` begins with `a:` but has no
# line number after it, so it is not in `a`'s run
@example([("a.py", 3, 1, "value = 1"), ("b.py", 90, 1, "value = 1"), ("a", 2, 5, "value = 1"),
          ("a:", 1, 6, "value = 1"), ("a", 2, 7, "value = 1")], True, 7)
def test_grep_counts_runs_as_it_groups_each_line(items, numbers, chunk):
    """Past the budget, the holds and the standout picker's window, grep counts a file's run of
    matches at once (`_group_runs`); what it answers and counts is what one line at a time
    (`_group_each`) gives, whatever the file names, error lines and long lines."""
    from unittest import mock

    lines = _grep_lines(items, numbers)
    argv = ["grep", "-rn" if numbers else "-r", "value", "."]
    with mock.patch.multiple(grep, HOLD_TOTAL=5, HOLD_PER_FILE=3, FILE_LIMIT=4,
                             CHAR_BUDGET=200, STANDOUT_SCAN=300, _BLOCK=8):
        answers = []
        for runs in (True, False):
            f = grep.Grep(argv)
            if not runs:
                f._group_runs = f._group_each
            out = []
            for at in range(0, len(lines), chunk):
                out.extend(f.feed_lines(lines[at:at + chunk]))
            out.extend(f.finish(0))
            answers.append((out, f.total, f.hidden_files, f.hidden_matches, f.chars,
                            {p: e[1] for p, e in f.files.items()}, f.errors, f.dropped))
    assert answers[0] == answers[1]


def test_grep_counts_a_long_search_mostly_by_runs(monkeypatch):
    """The fast way is taken: of 60,000 matches in 300 files, one line at a time sees only those
    before the holds, the budget and the picker's window (here 200,000 characters) are
    behind."""
    monkeypatch.setattr(grep, "STANDOUT_SCAN", 200_000)
    lines = [f"src/m{i:03d}.py:{j}:    value = compute({j})" for i in range(300)
             for j in range(1, 201)]
    f = grep.Grep(["grep", "-rn", "value", "src"])
    seen = []
    each = f._group_each
    f._group_each = lambda chunk: (seen.append(len(chunk)), each(chunk))
    for at in range(0, len(lines), 4096):
        f.feed_lines(lines[at:at + 4096])
    out = list(f.finish(0))
    assert f.total == 60_000 and sum(seen) < 25_000
    assert out[0].startswith("60000 matches in 300 files (grouped")
    assert "src/m299.py: 200 matches" in out
    assert out[0].endswith(f"past the first {f.standout.unscanned_from - 1:,} were not looked "
                           "through for those that stand out)")
