"""Properties of cc-rewrite over generated agent-like command lines (hypothesis)."""
from cc_peel import peel
from cc_rewrite.refusals import RewriteSettings
from cc_rewrite.rewrite import rewrite
from hypothesis import given
from hypothesis import strategies as st
from rewrite_catalogue import fake_catalogue

import re

INSERT = "cc-filter run "
#: an insertion: `cc-filter run `, with what reads the answer after the pipe (`--then=tail:20 `)
_INSERTED = re.compile(r"cc-filter run (?:--then=[a-z0-9:,]+ )?")


def undo(text: str) -> str:
    return _INSERTED.sub("", text)
SETTINGS = RewriteSettings(exclude_commands=["git log -p"])

programs = st.sampled_from([
    "git status", "git diff", "git log", "/usr/bin/git status", "\\git diff", "git -C x log",
    "ls", "ls -la", "cat", "head", "tail", "grep", "rg", "pytest", "cargo test", "npm test",
    "uv run pytest", "python -m pytest", "npx vitest run", "echo", "cd", "mkdir -p", "wc -l",
    "sort", "jq .", "awk '{print $1}'", "sed -n 1p", "xargs rm", "sudo ls", "ssh h", "make",
    "gh pr list", "gh pr list --json n", "bash -c 'ls'", "eval ls", "watch ls", "tee out",
    "docker exec c ls", "tree", "find .", "rm -rf", "true", "git", "gh api x -q .a",
])
args = st.lists(st.sampled_from([
    "-q", "-n", "5", "-20", "-f", "src/", "a.txt", "'a b'", '"x y"', "--short", "HEAD~1",
    "$HOME", "'$(no)'", "\"$x\"", "-n 3", "--follow", "-c", "x\\ y", "é", "--json=a",
]), max_size=3)
env = st.sampled_from(["", "", "", "FOO=1 ", "A=1 B='x y' ", "CTXCRL_DISABLED=1 ",
                       "X=\"CTXCRL_DISABLED=1\" ", "env A=1 "])
wrapper = st.sampled_from(["", "", "", "timeout 5 ", "time ", "nice -n 5 ", "nohup ",
                           "command ", "timeout -s KILL 9 "])
redirect = st.sampled_from(["", "", "", " 2>&1", " >&2", " > out.txt", " 2>/dev/null",
                            " < in.txt", " >> log"])
space = st.sampled_from([" ", " ", "  ", "\t"])


@st.composite
def segment(draw):
    words = " ".join([draw(programs)] + draw(args))
    return draw(env) + draw(wrapper) + words + draw(redirect)


@st.composite
def command_line(draw):
    shape = draw(st.sampled_from(["plain", "plain", "plain", "subst", "group", "control",
                                  "backtick", "comment", "into_group", "from_group"]))
    parts = [draw(segment())]
    for _ in range(draw(st.integers(0, 4))):
        op = draw(st.sampled_from(["&&", "||", ";", "|", "|", "|&", "&", "\n"]))
        gap = draw(space)
        parts.append((" " if op != "\n" else "") + op + gap)
        parts.append(draw(segment()))
    line = "".join(parts)
    if shape == "subst":
        line = f"echo $({line})"
    elif shape == "backtick":
        line = f"{draw(segment())} && echo `ls`"
    elif shape == "group":
        line = f"({line}) && {draw(segment())}"
    elif shape == "control":
        line = f"if true; then {line}; fi"
    elif shape == "comment":
        line = f"{line} # note && git status"
    elif shape == "into_group":
        line = f"{line} | (wc -l)"
    elif shape == "from_group":
        line = f"{{ ls; }} | {line}"
    return draw(st.sampled_from(["", " ", "\n"])) + line + draw(st.sampled_from(["", " ", "\n"]))


def do(command: str) -> str:
    return rewrite(command, fake_catalogue(), SETTINGS).text


@given(command_line())
def test_deleting_the_insertions_gives_back_the_input(command):
    assert undo(do(command)) == command


@given(command_line())
def test_rewriting_is_idempotent(command):
    once = do(command)
    assert do(once) == once


@given(command_line())
def test_shell_words_of_every_segment_are_kept(command):
    out = do(command)
    before = peel(command).segments
    after = peel(out).segments
    assert len(before) == len(after)
    for old, new in zip(before, after, strict=True):
        assert new.env_vars == old.env_vars
        assert new.redirects == old.redirects
        assert new.argv == old.argv or new.argv[:2] == ["cc-filter", "run"] and (
            new.argv[2:] == old.argv
            or new.argv[2].startswith("--then=") and new.argv[3:] == old.argv)
        assert new.separator == old.separator


@given(st.text(alphabet=st.characters(blacklist_categories=("Cs",)), max_size=80))
def test_any_text_is_answered_and_insertions_are_the_only_change(text):
    out = do(text)
    if "cc-filter" not in text:
        assert undo(out) == text


@given(st.text(alphabet=" \t\n;&|()<>$`'\"\\{}#=gitsalcd-", max_size=40))
def test_shell_punctuation_soup_never_breaks(text):
    out = do(text)
    assert undo(out) == undo(text) or "cc-filter" in text


DISPLAY = ("cat", "head", "tail")


@given(command_line())
def test_only_displayed_or_grepped_output_is_compacted(command):
    """A rewritten stage of a pipe is followed by cat/head/tail only (and is not fed by
    anything unless it is a grep/rg): a consumer never sees compacted input it computes on."""
    out = do(command)
    segments = [s for s in peel(out).segments if s.nested is None]
    for i, seg in enumerate(segments):
        if seg.argv[:2] != ["cc-filter", "run"]:
            continue
        fed = seg.position in ("middle", "final")
        if fed:
            assert seg.key.split(" ")[2:3][0] in ("grep", "rg") or \
                seg.argv[2].rsplit("/", 1)[-1] in ("grep", "rg"), out
        j = i
        while segments[j].separator in ("|", "|&"):
            j += 1
            stage = segments[j]
            assert stage.argv and stage.argv[0].rsplit("/", 1)[-1] in DISPLAY, out
            assert not any(w.startswith(("-f", "-F", "--follow")) for w in stage.argv), out
        assert segments[j].position in ("alone", "final"), out


@given(command_line())
def test_a_then_names_exactly_the_display_stages_after_the_rewritten_one(command):
    """`--then=` carries what the later stages keep, each a head/tail count the runner reads."""
    from cc_filter.run import consumer

    out = do(command)
    for spec in re.findall(r"cc-filter run --then=(\S+) ", out):
        stages = consumer.parse(spec)
        assert stages is not None, spec
