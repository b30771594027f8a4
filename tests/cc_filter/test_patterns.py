"""match_command analysis: literal fast matching agrees with `re`, unsafe regexes are refused."""
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cc_filter import patterns


@pytest.mark.parametrize("pattern,forms", [
    (r"^git status(\s|$)", [("git status", "word")]),
    (r"^git status(?:\s|$)", [("git status", "word")]),
    (r"^(cat|head|tail)(\s|$)", [("cat", "word"), ("head", "word"), ("tail", "word")]),
    (r"^git (status|st)(\s|$)", [("git status", "word"), ("git st", "word")]),
    (r"^make$", [("make", "exact")]),
    (r"^ls", [("ls", "prefix")]),
    (r"^docker compose\ ps(\s|$)", [("docker compose ps", "word")]),
    (r"^go\-test(\s|$)", [("go-test", "word")]),
    (r"^(uv run )?pytest", None),
    (r"^cargo (build|check)\b", None),
    (r"^npm run \S+", None),
    (r"^git\s+log", None),
    (r"^a.b", None),
    (r"git status", None),
    (r"^(?i)git", None),
])
def test_literal_forms(pattern, forms):
    assert patterns.literal_forms(pattern) == forms


@pytest.mark.parametrize("pattern,prefixes", [
    (r"^git status(\s|$)", ["git status"]),
    (r"^(uv run )?pytest", ["uv run pytest", "pytest"]),
    (r"^(python[0-9.]* -m )?unittest(\s|$)", ["unittest", "python"]),
    (r"^cargo (build|check)\b", ["cargo build", "cargo check"]),
    (r"^npm run \S+", ["npm run "]),
    (r"^git\s+log", ["git"]),
    (r"^ab+c", ["ab"]),
    (r"^abc?d", ["abcd", "abd"]),
    (r"^x*y", ["x", "y"]),
    (r"^(?:ab)*c", ["ab", "c"]),
    (r"^a|b", None),
    (r"^(env|printenv)$|^printenv [A-Z_]+$", ["printenv ", "printenv", "env"]),
    (r"^[ab]c", None),
])
def test_required_prefixes(pattern, prefixes):
    assert patterns.required_prefixes(pattern) == prefixes


PATTERNS = [r"^git status(\s|$)", r"^(cat|head|tail)(\s|$)", r"^make$", r"^ls", r"^git (status|st)(\s|$)",
            r"^go\-test(\s|$)", r"^a b(?:\s|$)"]
WORDS = st.sampled_from(["git", "status", "st", "stat", "cat", "head", "tail", "make", "ls",
                         "lsof", "go-test", "a", "b", "-x", "x", "makefile"])


@given(st.lists(WORDS, min_size=0, max_size=4), st.sampled_from(PATTERNS))
def test_literal_matching_agrees_with_re(words, pattern):
    key = " ".join(words)
    forms = patterns.literal_forms(pattern)
    assert forms is not None
    assert patterns.literal_matches(forms, key) == bool(re.search(pattern, key))


@given(st.text(alphabet="abcdgiloprstuvxyz0123456789 .-", max_size=24),
       st.sampled_from([r"^cargo (build|check)\b", r"^git\s+log", r"^ab+c", r"^(uv run )?pytest",
                        r"^npm run \S+", r"^g(it|o) ", r"^(python[0-9.]* -m )?unittest(\s|$)",
                        r"^abc?d", r"^x*y", r"^(?:ab)*c", r"^(a|b[xy])c", r"^(a|bc)?(d|e)f",
                        r"^a(b(c|d)?)?e", r"^(ab|c)$|^cd [a-z]+$"]))
def test_required_prefixes_never_exclude_a_match(key, pattern):
    prefixes = patterns.required_prefixes(pattern)
    if re.search(pattern, key) and prefixes is not None:
        assert any(key.startswith(p) for p in prefixes)


@pytest.mark.parametrize("pattern", [r"(a+)+", r"(\w*)*x", r"^(\s*\S+)*$", r"(a|b+)*", r"((ab)*c)+"])
def test_nested_unbounded_quantifiers_are_rejected(pattern):
    with pytest.raises(patterns.UnsafeRegex):
        patterns.check_regex(pattern)


@pytest.mark.parametrize("pattern", [r"^a+b", r"(ab|cd)*", r"x{1,3}", r"(a{2})+", r"^\s*$",
                                     r"(?:error|warning): .*", r"^(\d+) passed", r"(?:\d+\.)++"])
def test_safe_regexes_are_accepted(pattern):
    patterns.check_regex(pattern)


def test_catch_all():
    assert patterns.is_catch_all("^.*$") and patterns.is_catch_all(".*")
    assert not patterns.is_catch_all("^error")
