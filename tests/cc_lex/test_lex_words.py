"""cc_lex.split_words: the unquoted shell words, compared with shlex.split (posix)."""
import shlex

import pytest

from cc_lex import LexError, split_words, tokenize
from cc_lex.words import words

CASES = [
    ("git status", ["git", "status"]),
    ("git commit -m 'fix: a b'", ["git", "commit", "-m", "fix: a b"]),
    ('echo "a b" c\\ d', ["echo", "a b", "c d"]),
    ('FOO="x y" cmd', ["FOO=x y", "cmd"]),
    ("echo ''", ["echo", ""]),
    ('echo "$HOME/x"', ["echo", "$HOME/x"]),
    ("echo \\\\git", ["echo", "\\git"]),
    # intentional differences from shlex.split
    ("a&&b", ["a", "&&", "b"]),  # shlex: ['a&&b']
    ("a >out", ["a", ">", "out"]),  # shlex: ['a', '>out']
    ("a 2>&1", ["a", "2>&1"]),
    ("echo hi # comment", ["echo", "hi"]),  # shlex (comments=False): keeps '#', 'comment'
    ("echo $(git log -1)", ["echo", "$(git log -1)"]),  # shlex: ['echo', '$(git', 'log', '-1)']
    ('echo "a $(b "c d") e"', ["echo", "a $(b \"c d\") e"]),
    ("echo `a b`", ["echo", "`a b`"]),
    ("echo $'a\\tb'", ["echo", "a\tb"]),  # shlex: ['echo', '$a\\tb']
    ('echo "\\$x"', ["echo", "$x"]),  # shlex: ['echo', '\\$x'] (bash removes the backslash)
    ("a \\\nb", ["a", "b"]),  # shlex: ['a', '\nb'] (a line continuation)
    ("echo \\", ["echo", "\\"]),  # shlex: ValueError (bash -c keeps it)
    ("cat <<EOF\nbody words\nEOF\n", ["cat", "<<", "EOF"]),  # the heredoc body is not words
    ("a\nb", ["a", "b"]),
]


@pytest.mark.parametrize("text, expected", CASES)
def test_split_words(text, expected):
    assert split_words(text) == expected


AGREE = [
    "git status", "ls -la /tmp", "echo 'it'\"'\"'s'", 'grep -rn "foo bar" src/',
    "pytest -q -k 'test_a or test_b'", "a\\ b\\ c", 'x="1 2" y=3 env', "é 'ü' \"€\"",
    "  lead  trail  ", "", "\t", "cmd 'a\nb'", "cmd a{b,c}d", "-- -x",
]


@pytest.mark.parametrize("text", AGREE)
def test_agrees_with_shlex_without_shell_syntax(text):
    assert split_words(text) == shlex.split(text)


def test_words_glue_tokens_of_one_word():
    text = 'pre$(a b)"x $(c) y"post next'
    found = words(tokenize(text), text)
    assert [(w.value, w.start, w.end, w.substitution) for w in found] == [
        ("pre$(a b)x $(c) ypost", 0, 23, True), ("next", 24, 28, False)]


def test_words_skip_heredoc_substitutions():
    text = "cat <<E\n$(x)\nE\n"
    assert [w.value for w in words(tokenize(text), text)] == ["cat", "E"]


def test_unterminated_raises():
    with pytest.raises(LexError):
        split_words("echo 'x")
