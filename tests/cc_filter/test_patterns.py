"""match_command analysis: literal fast matching agrees with `re`, unsafe regexes are refused."""
import re

import pytest
from hypothesis import given
from hypothesis import strategies as st

from cc_filter.kit import patterns


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


# Every shape that can backtrack exponentially is refused: a group that repeats without a small
# bound while one iteration can match in several ways (a quantifier or alternatives inside).
REJECTED = [
    (r"(a+)+", "a quantifier inside"),
    (r"(\w*)*x", "a quantifier inside"),
    (r"^(\s*\S+)*$", "a quantifier inside"),
    (r"((ab)*c)+", "a quantifier inside"),
    (r"(\d+\.)+", "a quantifier inside"),
    (r"(a?a)+", "a quantifier inside"),  # `?` inside: each iteration takes one or two characters
    (r"(a{1,3})+", "a quantifier inside"),
    (r"(a+){2}", "a quantifier inside"),  # an unbounded quantifier repeated even twice
    (r"(a{0,100}){1,4}", "a quantifier inside"),
    (r"(a|b+)*", "alternatives"),
    (r"^(a|aa)+$", "alternatives"),  # the system test's output rule
    (r"^(a|aa)+b(\s|$)", "alternatives"),  # ... and its match_command
    (r"(ab|cd)*", "alternatives"),  # any alternation under `*`/`+`, even a harmless one
    (r"(?:error|warning)+", "alternatives"),
    (r"^(?:x(y|yz))+$", "alternatives"),  # nested deeper in the repeated group
    (r"(a|aa){2,}", "alternatives"),
    (r"(a|aa){1,8}", "alternatives"),  # 256 ways: a large {n,m} counts as repeated
    (r"((a|aa){1,4}){1,4}", "alternatives"),  # bounds multiply
    (r"(?:a|aa)*?b", "alternatives"),  # lazy repeats backtrack just the same
    (r"((a)?(?(2)b|c))+", "a quantifier inside"),
    (r"(?>(a|aa)+)", "alternatives"),  # explosive inside the atomic group itself
]

ACCEPTED = [
    r"(\s|$)",  # alternatives, but not repeated
    r"^git status(\s|$)",
    r"(-[0-9.]+)?",  # a quantifier inside a group that matches at most once
    r"^(\d+) passed",
    r"(?:error|warning): .*",
    r"^a+b",
    r"x{1,3}",
    r"^\s*$",
    r"(a{2})+",  # a fixed count inside: one way per iteration
    r"(a|b)*",  # single characters: re makes it a character class
    r"(\w|a)*",
    r"(ab|ac)*",  # re factors it into a[bc]
    r"(\d{1,3}\.){3}",  # few iterations × few choices
    r"(a|aa){1,6}",
    r"(?:\d+\.)++",  # possessive: never backtracked into
    r"(?:a|aa)++",
    r"(?>a|aa)+",  # atomic alternatives: one way per iteration
    r"^(uv run )?pytest(\s|$)",
    r"^(python[0-9.]* -m )?unittest(\s|$)",
    r"^(env|printenv)$|^printenv [A-Z_]+$",
]


@pytest.mark.parametrize("pattern,why", REJECTED)
def test_exponential_regexes_are_rejected(pattern, why):
    with pytest.raises(patterns.UnsafeRegex) as caught:
        patterns.check_regex(pattern)
    message = str(caught.value)
    assert repr(pattern) in message and "exponential time" in message
    assert f"a repeated group with {why}" in message and "rewrite it without nesting" in message


@pytest.mark.parametrize("pattern", ACCEPTED)
def test_safe_regexes_are_accepted(pattern):
    patterns.check_regex(pattern)


@pytest.mark.parametrize("pattern", [r"(a", r"a**", r"(?P<x>a)(?P=y)"])
def test_regexes_that_do_not_compile_are_rejected(pattern):
    with pytest.raises(re.error):
        patterns.check_regex(pattern)


def test_catch_all():
    assert patterns.is_catch_all("^.*$") and patterns.is_catch_all(".*")
    assert not patterns.is_catch_all("^error")


@pytest.mark.parametrize("rule,where", [
    ('match_command = "^(a|aa)+b(\\\\s|$)"', "filter.match_command"),
    ('match_command = "^redos(\\\\s|$)"\nstrip_lines_matching = ["^(a|aa)+$"]',
     "filter.strip_lines_matching[0]"),
    ('match_command = "^redos(\\\\s|$)"\nmatch_output = [{ pattern = "x", message = "m", '
     'unless = "(ab|cd)+" }]', "filter.match_output[0].unless"),
])
def test_a_user_filter_with_an_unsafe_regex_is_skipped_with_one_warning(
        rule, where, user_filters, builtin_dir, capsys, monkeypatch):
    """The check runs when the index is built (every regex of the file, match_command
    included): the file is skipped, one warning names it and the rule, and a lookup never
    compiles the regex (re.compile would hang on this key)."""
    path = user_filters.write("redos", f'schema_version = 1\n[filter]\nname = "redos"\n{rule}\n')
    word = "a" * 40 + "!"
    from cc_filter.choose import catalogue

    assert catalogue.lookup(f"{word} x") is None and catalogue.lookup("redos x") is None
    err = capsys.readouterr().err.splitlines()
    assert len(err) == 1, err
    from ctxcrl import home

    assert err[0].startswith(f"ctxcrl: skipping filter {home.short_path(path)}: ")
    assert where in err[0] and "exponential time" in err[0]
    catalogue.reset()  # a new process: the index is cached, the warning is not repeated
    monkeypatch.setattr(re, "compile", lambda *a, **k: pytest.fail("a lookup compiled a regex"))
    assert catalogue.lookup(f"{word} x") is None
    assert capsys.readouterr().err == ""
    entry, = [e for e in catalogue.all_entries() if e.name == "redos"]
    assert entry.error and "exponential time" in entry.error


# -- may a line regex run over many lines joined at once? --------------------------------------
@pytest.mark.parametrize("pattern,body", [
    ("^\\S+ (DEBUG|TRACE) ", "\\S+ (DEBUG|TRACE) "),
    ("^\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z ", "\\d{4}-\\d\\d-\\d\\dT[\\d:.]+Z "),
    ("^[^\\n]+$", "[^\\n]+$"),  # a negated class that excludes the newline
    ("^(?:a|b)\\b", "(?:a|b)\\b"),
    ("^(?=.)a", "(?=.)a"),
    ("^(a)\\1", "(a)\\1"),
    ("^\\s", None),  # \s matches a newline
    ("^[^x]", None),  # so does any negated class without \n
    ("^\\W", None),
    ("^\\D", None),
    ("^[\\x00-\\x20]", None),  # a range over the newline
    ("^a\\Z", None),  # \Z is the end of the whole text
    ("^\\Aa", None),
    ("^(?s:.)", None),  # DOTALL: . matches a newline
    ("^a|b", None),  # the ^ covers one alternative only
    ("x", None),  # not anchored
    ("(?i)^k", None),
    ("^(", None),  # does not parse
])
def test_line_start_body(pattern, body):
    from cc_filter.kit.patterns import line_start_body

    assert line_start_body(pattern) == body


@pytest.mark.parametrize("pattern,local", [
    ("E\\d+", True), ("\\bok$", True), ("^ERR", True), ("(?i)warn", True),
    ("\\s$", False), ("[^a]", False), ("(?s).", False), ("a\\Z", False), ("(", False),
])
def test_line_local(pattern, local):
    from cc_filter.kit.patterns import line_local

    assert line_local(pattern) is local
