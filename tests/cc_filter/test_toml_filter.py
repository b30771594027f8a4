"""The TOML DSL (ARCHITECTURE §6.3): validation and the eight stages in their exact order."""
import os

import pytest

from cc_filter import cases

from cc_filter.choose import catalogue
from cc_filter.kit.toml_filter import FilterFileError, load_file, make_class, parse_filter_file

from filter_testkit import TEST_FILTERS


def spec_of(**filter_keys):
    table = {"name": "t", "match_command": "^t(\\s|$)", **filter_keys}
    return parse_filter_file("t.toml", {"schema_version": 1, "filter": table})


def run(spec, text, exit_code=0):
    lines = text.split("\n") if text else []
    return list(make_class(spec)([]).run(lines, exit_code))


# -- validation ----------------------------------------------------------------------------------
@pytest.mark.parametrize("data,message", [
    ({"filter": {"name": "t", "match_command": "^t"}}, "schema_version must be 1"),
    ({"schema_version": 2, "filter": {"name": "t", "match_command": "^t"}}, "schema_version must be 1"),
    ({"schema_version": 1}, "missing [filter] table"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t"}, "extra": 1},
     "unknown key extra"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t", "strip_lines": []}},
     "unknown key filter.strip_lines"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t",
                                      "replace": [{"pattern": "a", "replacement": "b", "flags": "i"}]}},
     "unknown key filter.replace[0].flags"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t"},
      "test": [{"name": "x", "input": "", "expected": "", "exitcode": 1}]},
     "unknown key test[0].exitcode"),
    ({"schema_version": 1, "filter": {"match_command": "^t"}}, "filter.name is required"),
    ({"schema_version": 1, "filter": {"name": "t"}}, "filter.match_command is required"),
    ({"schema_version": 1, "filter": {"name": "T_x", "match_command": "^t"}}, "lowercase"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "t"}}, "anchored with ^"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t", "head_lines": "3"}},
     "filter.head_lines must be an integer"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t", "strip_ansi": 1}},
     "filter.strip_ansi must be true or false"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t", "head_lines": 0}},
     "at least 1"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t",
                                      "strip_lines_matching": ["a"], "keep_lines_matching": ["b"]}},
     "cannot both be set"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t",
                                      "strip_lines_matching": ["(a+)+$"]}},
     "exponential"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t",
                                      "keep_lines_matching": ["([a-z]*)*x"]}},
     "exponential"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t",
                                      "strip_lines_matching": ["(unclosed"]}},
     "bad regex"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t",
                                      "replace": [{"pattern": "a", "replacement": "\\2"}]}},
     "replacement"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t",
                                      "match_output": [{"pattern": "a\\nb", "message": "m"}]}},
     "line by line"),
    ({"schema_version": 1, "filter": {"name": "t", "match_command": "^t",
                                      "omitted_as": "lines (noise)"}},
     "filter.omitted_as must name what strip/keep drop"),
])
def test_invalid_filter_files_are_rejected_naming_file_and_key(data, message):
    with pytest.raises(FilterFileError) as err:
        parse_filter_file("/x/bad.toml", data)
    assert str(err.value).startswith("/x/bad.toml: ")
    assert message in str(err.value)


def test_name_must_match_file_name(tmp_path):
    path = tmp_path / "other.toml"
    path.write_text('schema_version = 1\n[filter]\nname = "t"\nmatch_command = "^t"\n')
    with pytest.raises(FilterFileError, match="must match the file name"):
        load_file(str(path), expected_name="other")


def test_invalid_toml_names_the_file(tmp_path):
    path = tmp_path / "t.toml"
    path.write_text("schema_version = = 1\n")
    with pytest.raises(FilterFileError, match=f"{path}: invalid TOML"):
        load_file(str(path))


# -- the stages ----------------------------------------------------------------------------------
def test_strip_ansi():
    assert run(spec_of(strip_ansi=True), "\x1b[1;31mred\x1b[0m text") == ["red text"]
    assert run(spec_of(), "\x1b[1mbold") == ["\x1b[1mbold"]


def test_replace_rules_chain_with_backreferences():
    spec = spec_of(replace=[{"pattern": "^(\\w+)=(\\w+)$", "replacement": "\\2:\\1"},
                            {"pattern": "b:", "replacement": "B="}])
    assert run(spec, "a=b\nx=y") == ["B=a", "y:x"]


def test_match_output_first_rule_whose_unless_does_not_match():
    spec = spec_of(match_output=[
        {"pattern": "Already up to date", "message": "ok: up to date", "unless": "error"},
        {"pattern": "up to date", "message": "second rule"},
    ])
    # the message stands for the lines it replaced: they are counted
    assert run(spec, "fetching\nAlready up to date.") == ["ok: up to date", "... (2 lines omitted)"]
    assert run(spec, "error: x\nAlready up to date.") == ["second rule", "... (2 lines omitted)"]
    assert run(spec, "nothing relevant") == ["nothing relevant"]


def test_match_output_sees_text_after_replace_and_before_strip():
    spec = spec_of(replace=[{"pattern": "colour", "replacement": "color"}],
                   match_output=[{"pattern": "color", "message": "matched"}],
                   strip_lines_matching=["color"])
    assert run(spec, "colour") == ["matched", "... (1 line omitted)"]


def test_strip_and_keep_lines():
    # every non-blank line removed is counted (blank ones carry nothing)
    assert run(spec_of(strip_lines_matching=["^#", "^\\s*$"]), "# c\na\n\n  \nb") == \
        ["a", "b", "... (1 line omitted)"]
    assert run(spec_of(keep_lines_matching=["error", "(warn)ing"]), "x\nerror 1\nwarning\ny") == \
        ["error 1", "warning", "... (2 other lines omitted)"]
    assert run(spec_of(strip_lines_matching=["^\\s*$"]), "a\n\n \nb") == ["a", "b"]


def test_omitted_as_names_what_strip_and_keep_drop():
    assert run(spec_of(strip_lines_matching=["^Progress"], omitted_as="progress lines"),
               "Progress 1\nProgress 2\ndone") == ["done", "... (2 progress lines omitted)"]
    assert run(spec_of(keep_lines_matching=["error"], omitted_as="build lines"),
               "cc a.c\nerror: x") == ["error: x", "... (1 build line omitted)"]


def test_truncate_lines_at():
    assert run(spec_of(truncate_lines_at=10), "0123456789abc\nshort") == ["0123456789…", "short"]


def test_head_and_tail_with_one_marker():
    text = "\n".join(f"l{i}" for i in range(10))
    assert run(spec_of(head_lines=2, tail_lines=3), text) == \
        ["l0", "l1", "... (5 lines omitted)", "l7", "l8", "l9"]
    assert run(spec_of(head_lines=2), text) == ["l0", "l1", "... (8 lines omitted)"]
    assert run(spec_of(tail_lines=2), text) == ["... (8 lines omitted)", "l8", "l9"]
    assert run(spec_of(head_lines=5, tail_lines=5), text) == [f"l{i}" for i in range(10)]
    assert run(spec_of(head_lines=20), text) == [f"l{i}" for i in range(10)]


def test_max_lines_after_head_tail():
    text = "\n".join(f"l{i}" for i in range(10))
    assert run(spec_of(max_lines=3), text) == ["l0", "l1", "l2", "... (7 lines truncated)"]
    assert run(spec_of(head_lines=4, tail_lines=2, max_lines=4), text) == \
        ["l0", "l1", "l2", "l3", "... (3 lines truncated)"]


def test_on_empty_only_on_success():
    spec = spec_of(strip_lines_matching=["."], on_empty="all good")
    assert run(spec, "a\nb") == ["all good", "... (2 lines omitted)"]
    assert run(spec, "a\nb", exit_code=1) == ["... (2 lines omitted)"]


def test_stage_order_is_exact():
    """strip_ansi → replace → match_output → strip → truncate → head/tail → max → on_empty."""
    spec = spec_of(
        strip_ansi=True,
        replace=[{"pattern": "^DROP(.*)", "replacement": "gone\\1"}],   # sees ANSI-free text
        strip_lines_matching=["^gone"],                                # sees replaced text
        truncate_lines_at=12,
        head_lines=2, tail_lines=1,                                    # counts stripped lines only
        max_lines=3,
    )
    text = "\x1b[2mDROP me\x1b[0m\nkeep 1 and a long tail\nkeep 2\nDROP x\nkeep 3\nkeep 4"
    assert run(spec, text) == ["keep 1 and a…", "keep 2", "... (1 line omitted)",
                               "... (1 line truncated)", "... (2 lines omitted)"]


def test_streaming_batches_equal_whole_text():
    spec = spec_of(strip_lines_matching=["^x"], head_lines=3, tail_lines=2, max_lines=5)
    lines = [f"{'x' if i % 3 == 0 else 'y'}{i}" for i in range(50)]
    whole = run(spec, "\n".join(lines))
    f = make_class(spec)([])
    out = []
    for i in range(0, 50, 7):
        out += f.feed_lines(lines[i:i + 7])
    out += list(f.finish(0))
    assert out == whole


def test_regexes_see_a_bounded_prefix_of_long_lines():
    from cc_filter.kit.patterns import REGEX_TEXT_LIMIT

    long = "a" * (REGEX_TEXT_LIMIT + 10) + "TAIL"
    spec = spec_of(replace=[{"pattern": "a", "replacement": "b"}],
                   strip_lines_matching=["TAIL"])
    assert run(spec, long) == ["b" * REGEX_TEXT_LIMIT + "a" * 10 + "TAIL"]


def test_dropped_is_set_when_lines_are_left_out():
    f = make_class(spec_of(head_lines=1))([])
    list(f.run(["a", "b"], 0))
    assert f.dropped
    f = make_class(spec_of(head_lines=5))([])
    list(f.run(["a", "b"], 0))
    assert not f.dropped


# -- inline [[test]] cases ---------------------------------------------------------------------
def test_inline_cases_of_the_demo_filter_pass():
    spec = load_file(os.path.join(TEST_FILTERS, "demo-make.toml"), expected_name="demo-make")
    entry = catalogue.Entry("demo-make", spec["match_command"], "toml", "user", "x", spec=spec)
    assert len(spec["tests"]) == 4
    for case in spec["tests"]:
        assert cases.run_inline_case(entry, case) == []


def test_failing_inline_case_is_reported():
    spec = spec_of()
    entry = catalogue.Entry("t", spec["match_command"], "toml", "user", "x", spec=spec)
    problems = cases.run_inline_case(entry, ("case", 0, "a\n", "b\n"))
    assert problems and "output differs" in problems[0]


# -- the joined (whole-text) stages equal the line-by-line ones --------------------------------
from unittest import mock  # noqa: E402

from cc_filter.kit import toml_filter  # noqa: E402
from hypothesis import given, settings, strategies as st  # noqa: E402


def joined_for_every_block():
    """The whole-text stages for blocks of any size (they start at JOINED_MIN_CHARS)."""
    return mock.patch.object(toml_filter, "JOINED_MIN_CHARS", 0)

_LINE_RULES = ["^x", "^\\d+ ", "^(\\S+ )?(DEBUG|TRACE) ", "^$", "^\\w+\\b-", "^.*k$", "^(?=a)",
               "^[\\d:.]+Z", "^[^x]", "^\\s*$", "x", "^a|b", "(?i)^k", "^\\W", "^(a)\\1"]
_REPLACES = [("^\\d+", ""), ("^(a+)x", "\\1"), ("^x", "y"), ("^", "> "), ("^(\\w)", "[\\1]"),
             ("^a", "\\n"), ("^E", "e\n"), ("^k", "\\g<0>\\g<0>"), ("a", "b"), ("^\\s", "_")]
_TOKENS = ["a", "aax", "x", " ", "k", "0", "42 ", "Z", "12:00.5Z", "-", "_", "E1", "ERR", "ok",
           "DEBUG ", "TRACE ", "\x1c", "\t", "\u0663", "\u017f", "K", "\x1b[31m", "\x1b[0m"]
_MATCHES = [("^ERR", "boom", None), ("E\\d", "matched", "^ok"), ("\\s$", "space", None),
            ("^k$", "kay", "x")]


@st.composite
def _specs(draw, focus):
    """A spec with at least one rule of the `focus` stage (others only now and then)."""
    def rules_of(stage, choices):
        return draw(st.lists(st.sampled_from(choices), min_size=1 if stage == focus else 0,
                             max_size=3 if stage == focus else 1))

    keys = {}
    rules = rules_of("line rules", _LINE_RULES)
    if rules:
        keys["keep_lines_matching" if draw(st.booleans()) else "strip_lines_matching"] = rules
    keys["replace"] = [{"pattern": p, "replacement": r}
                       for p, r in rules_of("replace", _REPLACES)]
    keys["match_output"] = [dict({"pattern": p, "message": m}, **({"unless": u} if u else {}))
                            for p, m, u in rules_of("match_output", _MATCHES)]
    for key in ("head_lines", "tail_lines", "max_lines"):
        if draw(st.booleans()):
            keys[key] = draw(st.integers(1, 6))
    if draw(st.booleans()):
        keys["truncate_lines_at"] = draw(st.integers(8, 12))
    keys["strip_ansi"] = draw(st.booleans())
    keys["on_empty"] = "empty"
    return spec_of(**keys)


@pytest.mark.parametrize("focus", ["line rules", "replace", "match_output"])
@settings(max_examples=300, deadline=None)
@given(data=st.data(),
       lines=st.lists(st.lists(st.sampled_from(_TOKENS), max_size=6).map("".join),
                      min_size=1, max_size=30),
       batch=st.integers(1, 12))
def test_joined_stages_equal_line_by_line(focus, data, lines, batch):
    """feed_text (whole-text regexes when every rule allows it, patterns.line_start_body) gives
    exactly what feeding line by line gives, in any batching: a pattern that could see across
    a newline (`\\s`, `[^x]`, `\\W`, unanchored) keeps the filter line by line, and so does a
    replacement that could insert a newline."""
    spec = data.draw(_specs(focus))
    expected = list(make_class(spec)([]).run(lines, 0))
    f = make_class(spec)([])
    out = []
    with joined_for_every_block():
        for i in range(0, len(lines), batch):
            out += f.feed_text("\n".join(lines[i:i + batch]))
    out += list(f.finish(0))
    assert out == expected


def test_anchored_line_local_rules_run_joined_and_ascii():
    spec = spec_of(strip_ansi=True, replace=[{"pattern": "^\\d{4}-\\d\\dT[\\d:.]+Z ",
                                              "replacement": ""}],
                   strip_lines_matching=["^(\\S+ )?(DEBUG|TRACE) "], head_lines=2, tail_lines=1)
    f = make_class(spec)([])
    text = "\n".join(f"2024-11T12:00.{i}Z {'DEBUG' if i % 2 else 'INFO'} n{i}" for i in range(9))
    assert f.feed_text(text) == ["INFO n0", "INFO n2"]
    assert f.c._joined is None  # a small block: nothing built for the whole-text stages
    _plain, ascii_form, _spaces = f.c.joined()
    assert ascii_form.replace[0][0].flags & 256  # re.A: \d as a table lookup
    assert ascii_form.drop.flags & 256
    f = make_class(spec)([])
    with joined_for_every_block():
        assert f.feed_text(text) + list(f.finish(0)) == [
            "INFO n0", "INFO n2", "... (2 lines omitted)", "INFO n8", "... (4 lines omitted)"]
    for unsafe in ("^\\s", "^[^x]", "x", "^a|b", "^a\\Z", "^(?s:.)"):
        assert make_class(spec_of(strip_lines_matching=[unsafe]))([]).c.joined() is None


@pytest.mark.parametrize("text", ["a\x1cb x\nc x", "a\x1fb x\nc x", "a\u00a0b x\nc x"])
def test_ascii_rules_are_not_used_where_they_differ(text):
    """re.A runs only on ASCII blocks, and, for `\\s`/`\\S`, blocks without \\x1c-\\x1f (spaces
    to Unicode, not to re.A): `^\\S+ x` must not match across them."""
    spec = spec_of(strip_lines_matching=["^\\S+ x"])
    f = make_class(spec)([])
    assert f.c.joined() is not None
    with joined_for_every_block():
        assert f.feed_text(text) + list(f.finish(0)) == [text.split("\n")[0],
                                                         "... (1 line omitted)"]


def test_every_built_in_toml_filter_passes_its_inline_cases(tmp_path, monkeypatch):
    """The `[[test]]` cases shipped inside the built-in TOML filters hold (what
    `cc-filter test --require-all` checks besides the fixtures)."""
    from cc_filter import cases
    from cc_filter.choose import catalogue

    monkeypatch.setenv("CTXCRL_HOME", str(tmp_path))
    catalogue.refresh(str(tmp_path))
    entries = [e for e in catalogue.all_entries(str(tmp_path))
               if e.kind == "toml" and e.tier == "built-in"]
    assert len(entries) > 10
    failures = [f for e in entries for case in cases.inline_cases(e)
                for f in cases.run_inline_case(e, case)]
    assert not failures, "\n".join(failures)
