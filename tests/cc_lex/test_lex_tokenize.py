"""cc_lex.tokenize: one row per construct, with the exact tokens expected.

Rows list (kind, text); every row also checks that the offsets are exact (text ==
input[start:end], in order) and that only blanks and line continuations sit between tokens.
OFFSET_CASES pin start/end explicitly.
"""
import pytest

from cc_lex import LexError, tokenize

W, OP, P, R, S, G, C, H = ("word", "operator", "pipe", "redirect", "substitution", "group",
                           "comment", "heredoc")

CASES = [
    # plain words and blanks
    ("", []),
    ("   \t ", []),
    ("git status", [(W, "git"), (W, "status")]),
    ("  git   status  ", [(W, "git"), (W, "status")]),
    ("git\tstatus", [(W, "git"), (W, "status")]),
    ("ls -la --color=auto", [(W, "ls"), (W, "-la"), (W, "--color=auto")]),
    # quotes stay inside words
    ("echo 'a b'", [(W, "echo"), (W, "'a b'")]),
    ('echo "a b"', [(W, "echo"), (W, '"a b"')]),
    ('echo a"b c"d', [(W, "echo"), (W, 'a"b c"d')]),
    ("echo ''", [(W, "echo"), (W, "''")]),
    ('echo ""', [(W, "echo"), (W, '""')]),
    ("echo a\\ b", [(W, "echo"), (W, "a\\ b")]),
    ("echo \\'", [(W, "echo"), (W, "\\'")]),
    ('echo "it\'s"', [(W, "echo"), (W, '"it\'s"')]),
    ("echo 'say \"hi\"'", [(W, "echo"), (W, "'say \"hi\"'")]),
    ('echo "a\\"b"', [(W, "echo"), (W, '"a\\"b"')]),
    ("echo $'a\\nb'", [(W, "echo"), (W, "$'a\\nb'")]),
    ("echo $'it\\'s'", [(W, "echo"), (W, "$'it\\'s'")]),
    ('echo $"x y"', [(W, "echo"), (W, '$"x y"')]),
    ("echo $HOME ${USER}", [(W, "echo"), (W, "$HOME"), (W, "${USER}")]),
    ('echo ${a:-"b c"} d', [(W, "echo"), (W, '${a:-"b c"}'), (W, "d")]),
    ('echo "${a:-"b c"}" d', [(W, "echo"), (W, '"${a:-"b c"}"'), (W, "d")]),
    ("echo ${x:-'}'}", [(W, "echo"), (W, "${x:-'}'}")]),
    ("echo ${#arr[@]}", [(W, "echo"), (W, "${#arr[@]}")]),
    ("echo {a,b} }", [(W, "echo"), (W, "{a,b}"), (W, "}")]),
    ("echo \\\\", [(W, "echo"), (W, "\\\\")]),
    ("echo \\", [(W, "echo"), (W, "\\")]),
    # quoted operators are not operators
    ("echo 'a && b | c'", [(W, "echo"), (W, "'a && b | c'")]),
    ('grep "x;y" f', [(W, "grep"), (W, '"x;y"'), (W, "f")]),
    ("echo a\\;b", [(W, "echo"), (W, "a\\;b")]),
    ("echo \\|", [(W, "echo"), (W, "\\|")]),
    ('echo "2>&1"', [(W, "echo"), (W, '"2>&1"')]),
    ("echo '#not'", [(W, "echo"), (W, "'#not'")]),
    # operators
    ("a && b", [(W, "a"), (OP, "&&"), (W, "b")]),
    ("a&&b", [(W, "a"), (OP, "&&"), (W, "b")]),
    ("a || b", [(W, "a"), (OP, "||"), (W, "b")]),
    ("a; b", [(W, "a"), (OP, ";"), (W, "b")]),
    ("a & b", [(W, "a"), (OP, "&"), (W, "b")]),
    ("sleep 1 &", [(W, "sleep"), (W, "1"), (OP, "&")]),
    ("a && b || c ; d & e", [(W, "a"), (OP, "&&"), (W, "b"), (OP, "||"), (W, "c"), (OP, ";"),
                             (W, "d"), (OP, "&"), (W, "e")]),
    ("a;;b", [(W, "a"), (OP, ";;"), (W, "b")]),
    ("a ;& b", [(W, "a"), (OP, ";&"), (W, "b")]),
    ("a ;;& b", [(W, "a"), (OP, ";;&"), (W, "b")]),
    ("a\nb", [(W, "a"), (OP, "\n"), (W, "b")]),
    ("a\r\nb\r\n", [(W, "a"), (OP, "\r\n"), (W, "b"), (OP, "\r\n")]),
    ("a\n\nb", [(W, "a"), (OP, "\n"), (OP, "\n"), (W, "b")]),
    # pipes
    ("a | b", [(W, "a"), (P, "|"), (W, "b")]),
    ("a|b|c", [(W, "a"), (P, "|"), (W, "b"), (P, "|"), (W, "c")]),
    ("a |& b", [(W, "a"), (P, "|&"), (W, "b")]),
    ("a|&b", [(W, "a"), (P, "|&"), (W, "b")]),
    # redirects
    ("a > x", [(W, "a"), (R, ">"), (W, "x")]),
    ("a >x", [(W, "a"), (R, ">"), (W, "x")]),
    ("a >> x", [(W, "a"), (R, ">>"), (W, "x")]),
    ("a < x", [(W, "a"), (R, "<"), (W, "x")]),
    ("a 2>&1", [(W, "a"), (R, "2>&1")]),
    ("a 2> x", [(W, "a"), (R, "2>"), (W, "x")]),
    ("a 2 > x", [(W, "a"), (W, "2"), (R, ">"), (W, "x")]),
    ("a 2>/dev/null", [(W, "a"), (R, "2>"), (W, "/dev/null")]),
    ("a >&2", [(W, "a"), (R, ">&2")]),
    ("a 2>&-", [(W, "a"), (R, "2>&-")]),
    ("a 1>&2-", [(W, "a"), (R, "1>&2-")]),
    ("a <&3", [(W, "a"), (R, "<&3")]),
    ("a >& f", [(W, "a"), (R, ">&"), (W, "f")]),
    ("a >&2x", [(W, "a"), (R, ">&"), (W, "2x")]),
    ("a &> x", [(W, "a"), (R, "&>"), (W, "x")]),
    ("a &>>x", [(W, "a"), (R, "&>>"), (W, "x")]),
    ("a >| x", [(W, "a"), (R, ">|"), (W, "x")]),
    ("a 3<> f", [(W, "a"), (R, "3<>"), (W, "f")]),
    ("a 10>x", [(W, "a"), (R, "10>"), (W, "x")]),
    ("a2>x", [(W, "a2"), (R, ">"), (W, "x")]),
    ('"2">x', [(W, '"2"'), (R, ">"), (W, "x")]),
    ("2>x a", [(R, "2>"), (W, "x"), (W, "a")]),
    ("cat <<< \"$x\"", [(W, "cat"), (R, "<<<"), (W, '"$x"')]),
    ("make 2>&1 | tee log", [(W, "make"), (R, "2>&1"), (P, "|"), (W, "tee"), (W, "log")]),
    # comments: only where a word starts
    ("a #c", [(W, "a"), (C, "#c")]),
    ("# only", [(C, "# only")]),
    ("a#b #c", [(W, "a#b"), (C, "#c")]),
    ("echo \\#x", [(W, "echo"), (W, "\\#x")]),
    ("echo # x ; y\nz", [(W, "echo"), (C, "# x ; y"), (OP, "\n"), (W, "z")]),
    ("a # c\r\nb", [(W, "a"), (C, "# c"), (OP, "\r\n"), (W, "b")]),
    ("echo $#", [(W, "echo"), (W, "$#")]),
    # line continuations
    ("a \\\nb", [(W, "a"), (W, "b")]),
    ("a\\\nb", [(W, "a\\\nb")]),
    ("git log \\\n  --oneline", [(W, "git"), (W, "log"), (W, "--oneline")]),
    ("a \\\r\nb", [(W, "a"), (W, "b")]),
    # command substitution, backticks, process substitution, arithmetic
    ("echo $(git push)", [(W, "echo"), (S, "$("), (W, "git"), (W, "push"), (S, ")")]),
    ('echo "$(git push)"', [(W, "echo"), (W, '"'), (S, "$("), (W, "git"), (W, "push"), (S, ")"),
                            (W, '"')]),
    ('echo "a $(b) c"', [(W, "echo"), (W, '"a '), (S, "$("), (W, "b"), (S, ")"), (W, ' c"')]),
    ("x$(a b)y", [(W, "x"), (S, "$("), (W, "a"), (W, "b"), (S, ")"), (W, "y")]),
    ("echo $(a $(b) c)", [(W, "echo"), (S, "$("), (W, "a"), (S, "$("), (W, "b"), (S, ")"),
                          (W, "c"), (S, ")")]),
    ('echo $(echo ")" "(")', [(W, "echo"), (S, "$("), (W, "echo"), (W, '")"'), (W, '"("'),
                              (S, ")")]),
    ("echo $(a | b && c)", [(W, "echo"), (S, "$("), (W, "a"), (P, "|"), (W, "b"), (OP, "&&"),
                            (W, "c"), (S, ")")]),
    ("echo $( (a) )", [(W, "echo"), (S, "$("), (G, "("), (W, "a"), (G, ")"), (S, ")")]),
    ("echo `date`", [(W, "echo"), (S, "`"), (W, "date"), (S, "`")]),
    ('echo "`date`"', [(W, "echo"), (W, '"'), (S, "`"), (W, "date"), (S, "`"), (W, '"')]),
    ("x=$(a `b` c)", [(W, "x="), (S, "$("), (W, "a"), (S, "`"), (W, "b"), (S, "`"), (W, "c"),
                      (S, ")")]),
    ("echo `a \\`b\\``", [(W, "echo"), (S, "`"), (W, "a"), (W, "\\`b\\`"), (S, "`")]),
    ("diff <(ls a) >(cat)", [(W, "diff"), (S, "<("), (W, "ls"), (W, "a"), (S, ")"), (S, ">("),
                             (W, "cat"), (S, ")")]),
    ("echo a>(b)", [(W, "echo"), (W, "a"), (S, ">("), (W, "b"), (S, ")")]),
    ("echo $((1+(2*3)))", [(W, "echo"), (S, "$(("), (W, "1+(2*3)"), (S, "))")]),
    ("echo $(( 1 < 2 ))", [(W, "echo"), (S, "$(("), (W, "1"), (W, "<"), (W, "2"), (S, "))")]),
    ("echo $((a)|b)", [(W, "echo"), (S, "$("), (G, "("), (W, "a"), (G, ")"), (P, "|"), (W, "b"),
                       (S, ")")]),
    ("echo $(( $(a) + 1 ))", [(W, "echo"), (S, "$(("), (S, "$("), (W, "a"), (S, ")"), (W, "+"),
                              (W, "1"), (S, "))")]),
    ("echo ${x:-$(ls)}", [(W, "echo"), (W, "${x:-"), (S, "$("), (W, "ls"), (S, ")"), (W, "}")]),
    ("echo \\$(ls)", [(W, "echo"), (W, "\\$"), (G, "("), (W, "ls"), (G, ")")]),
    ("echo '$(ls)'", [(W, "echo"), (W, "'$(ls)'")]),
    # groups and control structures
    ("(cd x && make)", [(G, "("), (W, "cd"), (W, "x"), (OP, "&&"), (W, "make"), (G, ")")]),
    ("{ a; }", [(G, "{"), (W, "a"), (OP, ";"), (G, "}")]),
    ("{ a; } > x", [(G, "{"), (W, "a"), (OP, ";"), (G, "}"), (R, ">"), (W, "x")]),
    ("((i++))", [(G, "(("), (W, "i++"), (G, "))")]),
    ("for ((i=0;i<3;i++)); do :; done", [(W, "for"), (G, "(("), (W, "i=0;i<3;i++"), (G, "))"),
                                         (OP, ";"), (W, "do"), (W, ":"), (OP, ";"),
                                         (W, "done")]),
    ("if true; then { ls; }; fi", [(W, "if"), (W, "true"), (OP, ";"), (W, "then"), (G, "{"),
                                   (W, "ls"), (OP, ";"), (G, "}"), (OP, ";"), (W, "fi")]),
    ("f() { ls; }", [(W, "f"), (G, "("), (G, ")"), (G, "{"), (W, "ls"), (OP, ";"), (G, "}")]),
    ("function f { ls; }", [(W, "function"), (W, "f"), (G, "{"), (W, "ls"), (OP, ";"),
                            (G, "}")]),
    ("case x in a) ls;; esac", [(W, "case"), (W, "x"), (W, "in"), (W, "a"), (G, ")"), (W, "ls"),
                                (OP, ";;"), (W, "esac")]),
    ("echo $(case x in a) ls;; esac) z", [(W, "echo"), (S, "$("), (W, "case"), (W, "x"),
                                         (W, "in"), (W, "a"), (G, ")"), (W, "ls"), (OP, ";;"),
                                         (W, "esac"), (S, ")"), (W, "z")]),
    # heredocs
    ("cat <<EOF\nhello\nEOF\nls", [(W, "cat"), (R, "<<"), (W, "EOF"), (OP, "\n"),
                                   (H, "hello\nEOF\n"), (W, "ls")]),
    ("cat <<-EOF\n\tbody\n\tEOF\nls", [(W, "cat"), (R, "<<-"), (W, "EOF"), (OP, "\n"),
                                       (H, "\tbody\n\tEOF\n"), (W, "ls")]),
    ("cat <<'EOF'\n$(not run)\nEOF", [(W, "cat"), (R, "<<"), (W, "'EOF'"), (OP, "\n"),
                                      (H, "$(not run)\nEOF")]),
    ('cat <<"E F"\nx\nE F', [(W, "cat"), (R, "<<"), (W, '"E F"'), (OP, "\n"), (H, "x\nE F")]),
    ("cat <<EOF | grep x\na\nEOF\n", [(W, "cat"), (R, "<<"), (W, "EOF"), (P, "|"), (W, "grep"),
                                      (W, "x"), (OP, "\n"), (H, "a\nEOF\n")]),
    ("a <<A <<B\n1\nA\n2\nB\n", [(W, "a"), (R, "<<"), (W, "A"), (R, "<<"), (W, "B"),
                                 (OP, "\n"), (H, "1\nA\n"), (H, "2\nB\n")]),
    ("cat <<EOF\nno end", [(W, "cat"), (R, "<<"), (W, "EOF"), (OP, "\n"), (H, "no end")]),
    ("cat <<EOF\r\nx\r\nEOF\r\n", [(W, "cat"), (R, "<<"), (W, "EOF"), (OP, "\r\n"),
                                   (H, "x\r\nEOF\r\n")]),
    ("cat <<EOF\nhi $(rm x)\nEOF\n", [(W, "cat"), (R, "<<"), (W, "EOF"), (OP, "\n"),
                                      (H, "hi "), (S, "$("), (W, "rm"), (W, "x"), (S, ")"),
                                      (H, "\nEOF\n")]),
    ("cat <<EOF\n$(ls)\nEOF", [(W, "cat"), (R, "<<"), (W, "EOF"), (OP, "\n"), (H, ""),
                               (S, "$("), (W, "ls"), (S, ")"), (H, "\nEOF")]),
    ("echo $(cat <<EOF\n)\nEOF\n)", [(W, "echo"), (S, "$("), (W, "cat"), (R, "<<"), (W, "EOF"),
                                     (OP, "\n"), (H, ")\nEOF\n"), (S, ")")]),
    # unicode
    ('echo é€😀 "ü"', [(W, "echo"), (W, "é€😀"), (W, '"ü"')]),
    ("grep -r 'naïve café' .", [(W, "grep"), (W, "-r"), (W, "'naïve café'"), (W, ".")]),
]


@pytest.mark.parametrize("text, expected", CASES, ids=[repr(c[0])[:40] for c in CASES])
def test_tokens(text, expected):
    tokens = tokenize(text)
    assert [(tok.kind, tok.text) for tok in tokens] == expected
    pos = 0
    for tok in tokens:
        assert tok.text == text[tok.start:tok.end]
        assert tok.start >= pos
        gap = text[pos:tok.start].replace("\\\r\n", "").replace("\\\n", "")
        assert gap.strip(" \t\r") == ""
        pos = tok.end


OFFSET_CASES = [
    ("git status", [(W, "git", 0, 3), (W, "status", 4, 10)]),
    ("a  &&  b", [(W, "a", 0, 1), (OP, "&&", 3, 5), (W, "b", 7, 8)]),
    ("x 2>&1|y", [(W, "x", 0, 1), (R, "2>&1", 2, 6), (P, "|", 6, 7), (W, "y", 7, 8)]),
    ("é ü", [(W, "é", 0, 1), (W, "ü", 2, 3)]),
    ("😀x 'é'", [(W, "😀x", 0, 2), (W, "'é'", 3, 6)]),
    ("a\r\nb", [(W, "a", 0, 1), (OP, "\r\n", 1, 3), (W, "b", 3, 4)]),
    ("e $(f)", [(W, "e", 0, 1), (S, "$(", 2, 4), (W, "f", 4, 5), (S, ")", 5, 6)]),
    ("c <<E\nx\nE\n", [(W, "c", 0, 1), (R, "<<", 2, 4), (W, "E", 4, 5), (OP, "\n", 5, 6),
                       (H, "x\nE\n", 6, 10)]),
]


@pytest.mark.parametrize("text, expected", OFFSET_CASES)
def test_offsets(text, expected):
    assert [tok.as_tuple() for tok in tokenize(text)] == expected


VALUES = [
    ("'a b'", "a b"),
    ('"a b"', "a b"),
    ('a"b c"d', "ab cd"),
    ("a\\ b", "a b"),
    ('"a\\"b"', 'a"b'),
    ('"a\\$b"', "a$b"),
    ('"a\\xb"', "a\\xb"),
    ("$'a\\nb\\t'", "a\nb\t"),
    ("$'\\x41\\u00e9\\101\\cA\\z'", "Aé A\x01\\z".replace(" ", "")),
    ('$"x y"', "x y"),
    ("${x:-'a b'}", "${x:-'a b'}"),
    ("${a:-$b}", "${a:-$b}"),
    ('"${a:-$b}x"', "${a:-$b}x"),
    ("${a:-${b}}c", "${a:-${b}}c"),
    ("$$", "$$"),
    ("\\git", "git"),
    ("a\\\nb", "ab"),
    ('"a\\\nb"', "ab"),
    ("''", ""),
]


@pytest.mark.parametrize("text, value", VALUES)
def test_word_values(text, value):
    (token,) = tokenize(text)
    assert token.value == value


def test_pairs_link_openers_and_closers():
    tokens = tokenize("a $(b `c`; (d)); { e; }")
    for index, tok in enumerate(tokens):
        if tok.kind in (S, G):
            assert tok.pair >= 0 and tokens[tok.pair].pair == index
        else:
            assert tok.pair == -1


ERRORS = [
    ("echo 'abc", "unterminated single quote", 5),
    ('echo "abc', "unterminated double quote", 5),
    ("echo $'abc", "unterminated $' quote", 5),
    ("echo $(ls", "unterminated $(", 5),
    ("echo `ls", "unterminated backtick", 5),
    ("echo ${x", "unterminated ${", 5),
    ("diff <(ls", "unterminated <(", 5),
    ("a && echo \"$(ls 'x)\"", "unterminated single quote", 16),
    ('x "$(echo "a)"', "unterminated $(", 3),
    ("echo $(echo # )", "unterminated $(", 5),
    ('é "', "unterminated double quote", 2),
]


@pytest.mark.parametrize("text, message, offset", ERRORS)
def test_errors_name_the_offset(text, message, offset):
    with pytest.raises(LexError) as caught:
        tokenize(text)
    assert caught.value.message == message
    assert caught.value.offset == offset
    assert str(caught.value) == f"{message} at offset {offset}"


def test_nesting_is_bounded():
    assert len(tokenize("$(" * 64 + ")" * 64)) == 128
    with pytest.raises(LexError) as caught:
        tokenize("$(" * 65 + ")" * 65)
    assert (caught.value.message, caught.value.offset) == ("substitutions nested too deeply",
                                                           128)


@pytest.mark.parametrize("text", ["$((" * 3000, "((" * 5000, "for ((" * 2000,
                                  "x $((a) | " * 2000])
def test_pathological_arithmetic_stays_fast(text):
    """Failed `$((` / `((` attempts have a budget, so these take well under a second."""
    try:
        tokens = tokenize(text)
    except LexError:
        return
    assert "".join(tok.text for tok in tokens).replace(" ", "") == text.replace(" ", "")
