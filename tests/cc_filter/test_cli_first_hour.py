"""What a new user sees first: `cc-filter list` fits a terminal and says what each filter
matches in words, `--filter=nosuch` is a usage error, and `test --require-all` from an
installed package says it needs the checkout."""
import os
import shutil
import subprocess
import sys

import pytest

from cc_filter.choose.match_words import match_words

from filter_testkit import cc_filter

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


@pytest.mark.parametrize("pattern, words", [
    (r"^git status(\s|$)", "git status"),
    (r"^(pytest|py\.test)(\s|$)", "pytest, py.test"),
    (r"^(mypy|dmypy (run|check))(\s|$)", "mypy, dmypy run, dmypy check"),
    (r"^cargo (test|t)(\s|$)", "cargo test, cargo t"),
    (r"^pip3? list(\s|$)", "pip list, pip3 list"),
    (r"^pip3?(\.\d+)? list(\s|$)", None),  # a class: not said in words
    (r"^prettier(\s.*)?\s(--check|-c)(\s|$)", None),
    (r"^git (?=x)", None),
    ("^(" + "|".join(f"t{i}" for i in range(20)) + r")(\s|$)", None),  # too many spellings
])
def test_match_words(pattern, words):
    assert match_words(pattern) == words


def test_list_fits_a_terminal_and_says_what_each_filter_matches(ctxcrl_home):
    done = cc_filter("list")
    assert done.returncode == 0
    lines = done.stdout.decode().splitlines()
    assert lines[0].split() == ["filter", "matches", "kind"]
    assert max(len(line) for line in lines) <= 100
    rows = {line.split()[0]: line for line in lines[2:]}
    assert "pytest, py.test" in rows["pytest"] and rows["pytest"].endswith("python")
    assert "(\\s|$)" not in done.stdout.decode()


def test_list_verbose_adds_the_regex_and_description(ctxcrl_home):
    done = cc_filter("list", "--verbose")
    text = done.stdout.decode()
    assert done.returncode == 0 and "match_command" in text.splitlines()[0]
    assert r"^git status(\s|$)" in text and "git status: branch and upstream" in text


def test_list_shows_tier_and_status_once_a_user_filter_is_there(user_filters):
    user_filters.write("mine", '''
        schema_version = 1
        [filter]
        name = "mine"
        description = "mine: demo"
        match_command = "^mytool(\\\\s|$)"
    ''')
    lines = cc_filter("list").stdout.decode().splitlines()
    assert lines[0].split() == ["filter", "matches", "kind", "tier", "status"]
    assert lines[2].split()[:3] == ["mine", "mytool", "toml"]


def test_an_unknown_filter_is_a_usage_error_and_runs_nothing(ctxcrl_home, tmp_path):
    marker = tmp_path / "ran"
    done = cc_filter("run", "--filter=nosuch", "touch", str(marker))
    assert done.returncode == 64
    assert b"no filter named 'nosuch'" in done.stderr
    assert not marker.exists()


def installed_copy(tmp_path):
    """The packages as pip installs them: in a site folder, without the checkout around."""
    site = tmp_path / "site-packages"
    for folder, package in (("cc-filter", "cc_filter"), ("cc-track", "cc_track"),
                            ("cc-peel", "cc_peel"), ("cc-lex", "cc_lex"), ("ctxcrl", "ctxcrl")):
        shutil.copytree(os.path.join(REPO, folder, package), site / package,
                        ignore=shutil.ignore_patterns("__pycache__"))
    return site


def test_require_all_from_an_installed_package_says_it_needs_the_checkout(ctxcrl_home,
                                                                          tmp_path):
    site = installed_copy(tmp_path)
    elsewhere = tmp_path / "work"
    (elsewhere / "tests" / "fixtures").mkdir(parents=True)  # another project's fixtures
    code = f"import sys; sys.path.insert(0, {str(site)!r}); from cc_filter.cli import main; " \
           "sys.exit(main())"
    done = subprocess.run([sys.executable, "-c", code, "test", "--require-all"],
                          cwd=elsewhere, capture_output=True, text=True, timeout=120)
    assert done.returncode == 64, done.stdout + done.stderr
    assert "needs the fixture cases of a contextcrawler checkout" in done.stderr
    assert "--fixtures=DIR" in done.stderr and "Traceback" not in done.stderr

    done = subprocess.run([sys.executable, "-c", code, "test", "--require-all",
                           f"--fixtures={REPO}/tests/fixtures", "git-status"],
                          cwd=elsewhere, capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 filter(s) failing" in done.stdout
