"""Hypothesis properties of peel: exact slices, and no byte lost between segments."""
from hypothesis import example, given
from hypothesis import strategies as st

from cc_lex import LexError
from cc_peel import peel

WORDS = ["git", "status", "-C", "dir", "'a && b'", '"x | y"', "a\\ b", "FOO=1", 'BAR="a b"',
         "timeout", "5", "env", "uv", "run", "python", "-m", "pytest", "2>&1", ">", "out.txt",
         "2>/dev/null", "é", "😀", "--no-pager", "nice", "-n", "/usr/bin/git", "\\git", "$x",
         "${y:-z}", "$'q\\n'", "npx", "time"]
SEPARATORS = [" && ", " || ", " | ", "; ", " & ", "\n", " |& ", "&&", "|", ";", "\r\n"]
command = st.lists(st.sampled_from(WORDS), min_size=1, max_size=6).map(" ".join)


@st.composite
def command_lines(draw):
    commands = draw(st.lists(command, min_size=1, max_size=5))
    line = commands[0]
    for text in commands[1:]:
        line += draw(st.sampled_from(SEPARATORS)) + text
    if draw(st.booleans()):
        line += draw(st.sampled_from(["", " ", "  # trailing comment", "\n"]))
    return line


@given(command_lines())
@example("FOO=1 timeout 5 git status 2>&1 | head && ls # c")
def test_segments_and_separators_rebuild_the_input(text):
    peeled = peel(text)
    pos = 0
    rebuilt = ""
    for segment in peeled.segments:
        assert segment.nested is None
        gap = text[pos:segment.start]
        assert gap.strip(" \t") == ""
        rebuilt += gap + segment.text
        pos = segment.end
        if segment.separator:
            blank = len(text[pos:]) - len(text[pos:].lstrip(" \t"))
            assert text.startswith(segment.separator, pos + blank)
            rebuilt += text[pos:pos + blank] + segment.separator
            pos += blank + len(segment.separator)
    tail = text[pos:]
    assert tail.strip(" \t") == "" or tail.lstrip(" \t").startswith("#")
    assert rebuilt + tail == text


FRAGMENTS = WORDS + SEPARATORS + ["$(", ")", "`", "(", "{ ", " }", "if ", "then ", "fi",
                                  "for x in a; do ", "done", "case x in a) ", ";;", "esac",
                                  "<<EOF\n", "\nEOF\n", "$((1))", "<(", "f() ", "[[ ", " ]]"]


@given(st.one_of(st.lists(st.sampled_from(FRAGMENTS), max_size=20).map(" ".join),
                 st.text(max_size=30)))
def test_segments_are_exact_slices(text):
    try:
        peeled = peel(text)
    except LexError:
        return
    for segment in peeled.segments:
        assert segment.text == text[segment.start:segment.end]
        assert segment.core == text[segment.core_start:segment.core_end]
        assert text[segment.start:segment.core_start] == segment.env + segment.wrappers
        assert segment.start <= segment.core_start <= segment.core_end <= segment.end
        assert segment.position in ("alone", "producer", "middle", "final")
        assert segment.nested in (None, "substitution", "group", "control")
        if segment.nested:
            assert segment.opaque is not None
        for piece in segment.redirects:
            assert piece in text[segment.core_end:segment.end]
    starts = [segment.start for segment in peeled.segments]
    assert starts == sorted(starts)
