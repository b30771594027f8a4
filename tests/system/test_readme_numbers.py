"""Every number a README states about the product is checked here against the thing it counts,
so a README cannot drift from the code: the filter count, the savings bound, the catalogue
coverage of a typical agent week, the bench's input sizes, the tools."""
import os
import re
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def readme(path: str) -> str:
    with open(os.path.join(REPO, path), encoding="utf-8") as f:
        return f.read()


def number(text: str, pattern: str) -> int:
    found = re.search(pattern, text)
    assert found, f"README no longer says {pattern!r}"
    return int(found.group(1).replace(",", ""))


def test_the_filter_count_is_the_number_cc_filter_list_shows(tmp_path):
    env = {**os.environ, "CTXCRL_HOME": str(tmp_path / "home")}
    listed = subprocess.run([sys.executable, "-m", "cc_filter", "list"], capture_output=True,
                            text=True, env=env, cwd=tmp_path, timeout=60)
    assert listed.returncode == 0, listed.stderr
    rows = [line for line in listed.stdout.splitlines()[2:] if line.strip()]
    assert number(readme("README.md"), r"\((\d+) built in:") == len(rows)


def test_the_savings_bound_is_the_one_the_case_runner_enforces():
    from cc_filter import cases

    text = readme("README.md")
    assert number(text, r"outputs of (\d+)\+ lines") == cases.SAVINGS_MIN_LINES
    assert number(text, r"by at least (\d+) %") == round(cases.MIN_SAVINGS * 100)


def test_the_coverage_line_is_what_the_coverage_script_prints():
    done = subprocess.run([sys.executable, os.path.join(REPO, "scripts", "catalogue_coverage.py")],
                          capture_output=True, text=True, timeout=120, cwd=REPO)
    assert done.returncode == 0, done.stderr
    printed = done.stdout.strip().splitlines()[-1]
    stated = re.search(r"\*\*(\d+ commands, \d+ runs: .*?)\.\*\*", readme("cc-filter/README.md"))
    assert stated and stated.group(1) == printed


def test_the_lexer_bench_sizes_are_the_bench_s():
    with open(os.path.join(REPO, "bench", "bench_lex.py"), encoding="utf-8") as f:
        bench = f.read()
    text = readme("cc-lex/README.md")
    commands = number(text, r"on ([0-9,]+) commands")
    megabytes = number(text, r"on a (\d+) MB line")
    assert f"range({commands:_})" in bench
    assert f"_line_of({megabytes * 1_000_000:_})" in bench


def test_the_tool_table_names_every_tool_folder():
    tools = re.findall(r"^\| \[`(cc-[a-z]+)`\]", readme("README.md"), re.M)
    folders = sorted(d for d in os.listdir(REPO) if d.startswith("cc-")
                     and os.path.isdir(os.path.join(REPO, d, d.replace("-", "_"))))
    assert sorted(tools) == folders and len(folders) == 7
