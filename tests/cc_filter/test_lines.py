"""The shared line helpers filters use (cc_filter.kit.lines)."""
import pytest

from cc_filter.kit import lines


@pytest.mark.parametrize("raw,clean", [
    ("\x1b[31mred\x1b[0m", "red"),
    ("\x1b]0;title\x07text", "text"),
    ("10%\r50%\r100%", "100%"),
    ("crlf\r", "crlf"),
    ("a\r\nb\rc", "a\nc"),
    ("\x1b[2K\r\x1b[1Gdone", "done"),
    ("\x1b[32m+x\n\x1b(B\x1b[m y", "+x\n y"),  # tput sgr0's charset designation
    ("plain", "plain"),
])
def test_strip_ansi(raw, clean):
    assert lines.strip_ansi(raw) == clean


def test_collapse_repeats():
    assert lines.collapse_repeats(["a", "a", "b", "a", "a", "a"]) == ["a (×2)", "b", "a (×3)"]
    assert lines.collapse_repeats([]) == []


def test_cap():
    assert lines.cap(["a", "b", "c"], 2) == ["a", "b", "+1 more"]
    assert lines.cap(["a", "b"], 2) == ["a", "b"]
    assert lines.cap(iter(["a", "b", "c", "d"]), 1, "more files") == ["a", "+3 more files"]


@pytest.mark.parametrize("line,marker", [
    ("+3 more", True), ("+12 more files", True), (lines.omitted(5), True),
    (lines.truncated(2), True), ("xxx … [100 more bytes]", True),
    ("+1 foo = 2", False), ("+added line", False), ("plain", False), ("+", False),
])
def test_is_omission_marker(line, marker):
    assert lines.is_omission_marker(line) is marker


def test_markers_read_the_same_everywhere():
    assert lines.omitted(3) == "... (3 lines omitted)"
    assert lines.truncated(4) == "... (4 lines truncated)"


@pytest.mark.parametrize("lengths,limit,expected", [
    ([1, 2, 3], 3, False), ([1, 4, 3], 3, True), ([10], 10, False), ([11], 10, True),
    ([5, 5, 5, 5, 5, 5], 5, False), ([5, 5, 5, 5, 5, 6], 5, True), ([], 1, False),
])
def test_has_line_longer_than(lengths, limit, expected):
    text = "\n".join("a" * n for n in lengths)
    assert lines.has_line_longer_than(text, limit) is expected
    assert lines.has_line_longer_than(text.encode(), limit) is expected


def test_a_marker_for_one_line_says_line():
    from cc_filter.kit.lines import omitted, truncated
    assert omitted(1) == "... (1 line omitted)" and omitted(2) == "... (2 lines omitted)"
    assert omitted(1, "no test files lines") == "... (1 no test files line omitted)"
    assert omitted(1, "passing tests") == "... (1 passing test omitted)"
    assert omitted(1, "deduped entries") == "... (1 deduped entry omitted)"
    assert omitted(1, "rebase todo headers") == "... (1 rebase todo header omitted)"
    assert omitted(1, "Author/Date lines: e-mail, time") == "... (1 Author/Date line: e-mail, time omitted)"
    assert truncated(1, "image digests") == "... (1 image digest truncated)"
    assert omitted(1, "odd stuff") == "... (1 odd stuff omitted)"  # no counted noun: unchanged
