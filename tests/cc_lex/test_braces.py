"""cc_lex.braces against real bash: every word's expansion is the arguments bash passes for it.

The table holds bash's own corner cases (sequences, padding, quoted and escaped braces,
`${…}`, `$(…)`, unmatched braces); hypothesis then generates words from brace, comma, dot,
quote and letter pieces and compares each with bash, many words to one bash run.
"""
import os
import shutil
import subprocess
import tempfile

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cc_lex import LexError, split_words
from cc_lex.braces import TooLarge, expand

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed")
_END = "\x01END"


def bash_words(words):
    """What bash makes of each word (after every expansion), in an empty folder."""
    script = "x='${x}'\n" f"p() {{ for a; do printf '%s\\0' \"$a\"; done; printf '{_END}\\0'; }}\n" \
        + "".join(f"p {w}\n" for w in words)
    with tempfile.TemporaryDirectory() as cwd:
        out = subprocess.run([BASH, "-c", script], cwd=cwd, capture_output=True,
                             env={"PATH": os.environ.get("PATH", "/usr/bin:/bin")},
                             timeout=30).stdout.decode("utf-8", "replace")
    groups, current = [], []
    for item in out.split("\0")[:-1]:
        if item == _END:
            groups.append(current)
            current = []
        else:
            current.append(item)
    return groups


def ours(word):
    """expand(word), each raw result unquoted as the lexer does (empty unquoted words drop)."""
    out = []
    for raw in expand(word):
        out.extend(split_words(raw))
    return out


TABLE = [
    "git", "pu{sh,}", "{git,push}", "{-rf,build}", "{a,b}{1,2}", "x{a,b{1,2}}y",
    "{a,{b,c},d}", "{a,b", "{a,{b,c}", "a}b{c", "{}", "{x}", "x{}y{a,b}", "{1..}{c,d}",
    "x{a}y{b,c}", "{a..e}", "{e..a}", "{a..e..2}", "{1..3}", "{3..1}", "{1..9..2}", "{1..9..-2}",
    "{1..3..0}", "{01..10}", "{1..010}", "{-05..3}", "{05..-3}", "{-01..2}", "{-0..2}",
    "{+1..3}", "{00..2}", "{a..5}", "{!..#}", "{1..3..}", "{1...3}", "{x..y..z}", "{a..A}",
    "{Z..a}", "{9223372036854775807..9223372036854775808}", "'{a,b}'", '"{a,b}"', "\\{a,b}",
    "{a\\,b}", "{a,b\\}", "{'a,b'}", "{'a,b',c}", '{"a b",c}', "{a,'b c'}d", "${x}{a,b}",
    "$'{a,b}'",
    "{a,b}=c", "{,}", "{,,}", "a{,}b", "{a,}{b,}", "{{a,b},c}", "{a..c}{1..2}",
    "{a,b}{c,d}{e,f}", "pu{s{h,},}", "{p..p}ush", "{{,}}", "{{a,b}}", "x{{a,b}}y", "{a{,}}",
    "{{,}a}", "{{a}", "{{a,b}", "{a}b,c}", "{a..5}{c,d}", "{a..b..}{c,d}", "{1..3..x}",
    "{,a}", "a{b,c}d{e,f}g", "{-1..-10..3}", "{+3..-2}", "{1..5..+2}", "{a..z..5}",
    "{\x27x,y\x27..z}", "x{1..}", "{..}", "{a..}", "{..b}", "{a...c}", "{}{a,b}",
]


def test_the_table_is_what_bash_makes():
    expected = bash_words(TABLE)
    assert len(expected) == len(TABLE)
    for word, want in zip(TABLE, expected):
        assert ours(word) == want, word


# A substitution's text is not looked into (bash would run it, so these are written out).
RAW = {
    "{$(echo a,b)}": ["{$(echo a,b)}"],
    "{a,$(echo x),b}": ["a", "$(echo x)", "b"],
    "{`echo ,`,b}": ["`echo ,`", "b"],
    '{a,"$(echo "}")"}': ["a", '"$(echo "}")"'],
    "${x:-{a,b}}": ["${x:-{a,b}}"],
    "${x}{a,b}": ["${x}a", "${x}b"],
}


def test_substitutions_are_opaque():
    for word, want in RAW.items():
        assert expand(word) == want, word


def test_a_huge_expansion_is_refused_before_it_is_made():
    for word in ("{1..100000}", "{a,b}" * 20, "{a..z}{a..z}", "{1..9223372036854775807}"):
        with pytest.raises(TooLarge):
            expand(word)
    assert len(expand("{a,b}" * 8)) == 256
    with pytest.raises(TooLarge):
        expand("{1..5}", limit=4)


PIECES = ["{", "}", ",", "..", "a", "b", "1", "0", "2", "-", "'", '"', "\\", "x", "{a,b}",
          "{1..3}", "${x}", "'q,r'", '"s t"', "Z", "{,}"]


@settings(max_examples=30, deadline=None)
@given(st.lists(st.lists(st.sampled_from(PIECES), min_size=1, max_size=10).map("".join),
                min_size=1, max_size=60))
def test_generated_words_expand_as_in_bash(words):
    kept = []
    for word in words:
        try:
            if len(split_words(word)) == 1 and not word.endswith("\\"):  # `\` + newline: one line
                kept.append(word)
        except LexError:
            continue
    if not kept:
        return
    for word, want in zip(kept, bash_words(kept)):
        try:
            got = ours(word)
        except TooLarge:
            continue
        assert got == want, word
