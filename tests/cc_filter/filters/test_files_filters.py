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


def test_grep_over_its_budget_names_every_file_with_its_count():
    raw = "".join(f"f{i}.py:{j}:hit {j}\n" for i in range(40) for j in range(1, 7))
    out, f = run(grep.Grep, ["grep", "-rn", "hit", "."], raw)
    assert out[0].startswith("240 matches in 40 files (over 200 matches")
    assert all(f"f{i}.py: 6 matches" in out for i in range(40))
    assert "  ... (5 matches omitted)" in out and f.dropped
    assert len(out) < 130


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
