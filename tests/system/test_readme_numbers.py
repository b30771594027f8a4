"""Every number a README states about the product is checked here against the thing it counts,
so a README cannot drift from the code: the filter count, the savings bound, the catalogue
coverage of a typical agent week, the bench's input sizes, the tools."""
import os
import re
import subprocess
import sys

import pytest

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


def _readmes():
    for base, dirs, files in os.walk(REPO):
        dirs[:] = [d for d in dirs if not d.startswith(".") and d not in ("node_modules", "fixtures")]
        for name in files:
            if name.endswith(".md"):
                yield os.path.relpath(os.path.join(base, name), REPO)


TOP = ("docs/", "tests/", "scripts/", "bench/", "ctxcrl/", "cc-lex/", "cc-peel/", "cc-gate/",
       "cc-rewrite/", "cc-filter/", "cc-track/", "cc-hook/")


@pytest.mark.parametrize("page", sorted(_readmes()))
def test_no_page_cites_a_file_the_repository_lacks(page):
    """Markdown links and backticked repository paths (`tests/agents/…`, `docs/…`) name files
    that exist, from the page's folder or from the repository root."""
    text = readme(page)
    cited = re.findall(r"\]\(([^)#\s]+)", text)
    cited += [p for p in re.findall(r"`([A-Za-z0-9_./-]+)`", text) if p.startswith(TOP)]
    here = os.path.dirname(os.path.join(REPO, page))
    missing = [p for p in dict.fromkeys(cited) if "://" not in p and "*" not in p
               and "<" not in p and not os.path.exists(os.path.join(here, p))
               and not os.path.exists(os.path.join(REPO, p))]
    assert not missing, f"{page} cites {missing}"


def test_the_standout_windows_are_the_pickers():
    from cc_filter.filters.files import grep
    from cc_filter.kit import standout

    text = readme("cc-filter/README.md")
    assert number(text, r"the first (\d+) MB of a read") == standout.SCAN_CHARS >> 20
    assert number(text, r"the first (\d+) MB of a search") == grep.STANDOUT_SCAN >> 20
    assert number(readme("docs/ARCHITECTURE.md"), r"a read's first (\d+) MB") == \
        standout.SCAN_CHARS >> 20
