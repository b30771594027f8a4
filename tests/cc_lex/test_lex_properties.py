"""Hypothesis properties of the lexer: exact round trip, and agreement with shlex.split."""
import shlex

from hypothesis import assume, example, given
from hypothesis import strategies as st

from cc_lex import LexError, split_words, tokenize

FRAGMENTS = list(" \t\n\r\\'\"$`(){}<>|&;#=-2aé😀") + [
    "$(", "${", "<<", "<<EOF\n", "\nEOF\n", "$'", "((", "))", "EOF", "if ", "then ", "fi",
    "case ", "esac", " in ", "x) ", ";;", "2>&1", "&&", "||", "|&", "<(", ">(", "$((", "\\\n",
    "\r\n", "git ", "status", "'a b'", '"c $d"', "{ ", " }", "function ", "f() ",
]
shellish = st.lists(st.sampled_from(FRAGMENTS), max_size=25).map("".join)
any_text = st.one_of(shellish, st.text(max_size=40))


def _inside_arithmetic(tokens, pos):
    for index, tok in enumerate(tokens):
        if tok.text in ("((", "$((") and tok.pair > index \
                and tok.end <= pos <= tokens[tok.pair].start:
            return True
    return False


@given(any_text)
@example("cat <<EOF\n$(a)\nEOF\n")
@example("echo $(( 1 +\n 2 ))")
def test_round_trip(text):
    """Token texts plus the gaps between them rebuild the input; gaps are only blanks."""
    try:
        tokens = tokenize(text)
    except LexError as error:
        assert 0 <= error.offset <= len(text)
        return
    rebuilt = []
    pos = 0
    for tok in tokens:
        assert tok.text == text[tok.start:tok.end]
        assert pos <= tok.start <= tok.end
        gap = text[pos:tok.start]
        rebuilt.append(gap)
        rebuilt.append(tok.text)
        blanks = " \t\r\n" if _inside_arithmetic(tokens, tok.start) else " \t\r"
        assert gap.replace("\\\r\n", "").replace("\\\n", "").strip(blanks) == ""
        assert tok.end > tok.start or tok.kind == "heredoc"
        pos = tok.end
    rebuilt.append(text[pos:])
    assert text[pos:].replace("\\\r\n", "").replace("\\\n", "").strip(" \t\r") == ""
    assert "".join(rebuilt) == text


PLAIN = list(" \t\n\r'\"\\a-={}é*~!%:.,/+@^") + ["ab", "x y", "  "]
plain_text = st.lists(st.sampled_from(PLAIN), max_size=30).map("".join)


@given(plain_text)
def test_split_words_equals_shlex_split(text):
    """Without shell syntax (operators, $, `, #) and line continuations, == shlex.split."""
    assume("\\\n" not in text and "\\\r" not in text)
    try:
        expected = shlex.split(text)
    except ValueError:
        return
    assert split_words(text) == expected


@given(st.lists(st.text(min_size=0, max_size=12), max_size=8))
def test_quoted_words_come_back(argv):
    """Whatever shlex.quote produces lexes back to the same words."""
    assert split_words(" ".join(shlex.quote(word) for word in argv)) == argv
