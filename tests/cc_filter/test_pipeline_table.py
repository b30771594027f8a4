"""The pipeline table: real outputs through `| tail -N`, `| head -N` and `| grep FAILED`, raw
and rewritten, with the real `tail`/`head`/`grep` run on both.

Each row takes a captured fixture (tests/fixtures/, real runs), writes the pipeline an agent
would type (`<command> 2>&1 | tail -20`), asks cc-rewrite for the rewritten form, and answers it
as `cc-filter run` would: the producer's filter under the runner's guard, told its consumer by
the rewrite's `--then=`; for `| grep FAILED` the real `cc-filter run grep FAILED` CLI reading
the raw output on stdin. Then the real consumer program runs on the raw output and on our
answer, and the facts after the pipe are compared — failing test names, counts, file:line —
by an extractor of this test's own (not the runner's): every fact of the raw pipeline must be
there, and our side must never be larger (in tokens). The tracked figures must be those of
what reached the agent after the pipe.
"""
import os
import re
import shlex
import subprocess
import sys

import pytest

from cc_filter.choose import catalogue, keys

from cc_filter.run import consumer, guard
from cc_filter.run.tee import TeePolicy
from cc_rewrite.refusals import RewriteSettings
from cc_rewrite.rewrite import Catalogue, rewrite
from ctxcrl.spool import estimate_tokens

from filter_testkit import REPO

FIXTURES = os.path.join(REPO, "tests", "fixtures")
CASES = [
    "python/pytest/failures", "python/pytest/failures_quiet", "python/pytest/itsdangerous_failures",
    "python/pytest/itsdangerous_pass", "python/pytest/collection_error",
    "python/pytest/failures_verbose", "python/pytest/tb_short", "python/pytest/exitfirst",
    "python/pytest/long_test_id",
    "rust/cargo-test/failures", "rust/cargo-test/failures_workspace", "rust/cargo-test/pass",
    "rust/cargo-test/failures_quiet", "rust/cargo-test/failures_backtrace",
    "go/go-test/uuid_failures", "go/go-test/panic",
    "files/grep/recursive", "files/grep/uuid-over-budget", "files/grep/rg",
    "files/read/large",
]
SHAPES = ["tail -3", "tail -5", "tail -20", "tail -50", "head -5", "head -20", "grep FAILED"]


def _case(path: str):
    import tomllib

    with open(os.path.join(FIXTURES, path + ".toml"), "rb") as f:
        data = tomllib.load(f)
    with open(os.path.join(FIXTURES, path + ".out"), "rb") as f:
        raw = f.read()
    return data, raw


def _shell(program: str, data: bytes) -> bytes:
    return subprocess.run(shlex.split(program), input=data, capture_output=True,
                          timeout=30).stdout


_PATH_LINE = re.compile(r"[\w.-]*[\w/]\.\w+:\d+")
_TEST_NAME = re.compile(r"(?:FAILED|ERROR|--- FAIL:)[ \t]+([^\s\[]\S*)|^\s*(\w+(?:::\w+)+)\s*$"
                        r"|^(\S+::\S+) (?:FAILED|ERROR)\b"
                        r"|^---- (\S+) (?:stdout|panicked)", re.M)
_COUNT = re.compile(r"\b(\d+ (?:passed|failed|errors?|skipped|ignored))\b"
                    r"|^(test result: .*?)(?:; finished in \S+| \(×\d+ suites\))?$"
                    r"|^(FAIL|ok)[ \t]+(\S+)", re.M)
_ANSI = re.compile(r"\x1b\[[0-9;]*m")


def facts(text: str) -> set:
    """What an agent reads in a pipeline's answer: failing test names (`-v`'s `t.py::x FAILED`
    too), counts (a cargo suite's `test result:` line whole but for its `; finished in 0.01s`,
    or the filter's `(×12 suites)` of equal ones), file:line."""
    text = _ANSI.sub("", text)
    found = set()
    for m in _PATH_LINE.finditer(text):
        found.add(("file:line", m.group(0)))
    for m in _TEST_NAME.finditer(text):
        found.add(("test", next(g for g in m.groups() if g)))
    for m in _COUNT.finditer(text):
        found.add(("count", " ".join(g for g in m.groups() if g)))
    return found


def _shown(fact, ours: set) -> bool:
    kind, value = fact
    if fact in ours:
        return True
    if kind == "file:line":  # shown relative to where the command ran (/tmp/x/a.py:3 → a.py:3)
        return any(k == kind and value.endswith("/" + v) for k, v in ours)
    return False


def _rewritten(command: str, pipeline: str) -> str:
    settings = RewriteSettings()
    return rewrite(pipeline, Catalogue(REPO), settings).text


def answer_after_pipe(path: str, shape: str):
    """(raw pipeline's answer, ours, the rewritten command, tracked raw/output chars)."""
    data, raw = _case(path)
    command = data["command"]
    pipeline = f"{command} 2>&1 | {shape}"
    rewritten = _rewritten(command, pipeline)
    raw_after = _shell(shape, raw)
    if shape.startswith("grep"):
        assert rewritten == f"{command} 2>&1 | cc-filter run {shape}", rewritten
        run = subprocess.run([sys.executable, "-m", "cc_filter", "run", *shlex.split(shape)],
                             input=raw, capture_output=True, timeout=60,
                             env=dict(os.environ, CTXCRL_HOME=os.environ.get("CTXCRL_HOME", "")))
        return raw_after, run.stdout, rewritten, None
    then = re.match(r"cc-filter run --then=(\S+) ", rewritten)
    assert then, rewritten
    argv = shlex.split(command)
    entry = catalogue.lookup(keys.key_of(argv), None, warn=False)
    cls = catalogue.load(entry)
    g = guard.OutputGuard(cls(list(argv)), argv=argv, filter_name=entry.name,
                          tee_policy=TeePolicy(directory=os.environ["CTXCRL_HOME"]))
    g.consumer = consumer.parse(then.group(1))
    for start in range(0, len(raw), 65536):
        g.feed(raw[start:start + 65536])
    outcome = g.finish(data["exit_code"])
    try:
        ours = outcome.text().encode("utf-8")
    finally:
        outcome.close()
    ours_after = _shell(shape, ours)
    return raw_after, ours_after, rewritten, (outcome.raw_chars, outcome.output_chars)


@pytest.fixture(autouse=True)
def _home(ctxcrl_home, monkeypatch):
    monkeypatch.setenv("CTXCRL_HOME", str(ctxcrl_home))


@pytest.mark.parametrize("shape", SHAPES)
@pytest.mark.parametrize("path", CASES)
def test_after_the_pipe_every_fact_is_kept_and_nothing_grows(path, shape):
    raw_after, ours_after, rewritten, tracked = answer_after_pipe(path, shape)
    raw_text = raw_after.decode("utf-8", "replace")
    ours_text = ours_after.decode("utf-8", "replace")
    ours_facts = facts(ours_text)
    lost = [f for f in sorted(facts(raw_text)) if not _shown(f, ours_facts)]
    assert not lost, f"{rewritten}: lost {lost}\n--- ours after the pipe:\n{ours_text}"
    assert estimate_tokens(len(ours_text)) <= estimate_tokens(len(raw_text)), rewritten
    if tracked is not None:  # what the runner counts: the two answers after the pipe
        assert tracked == (len(raw_text), len(ours_text))


def test_tail_3_of_a_failing_pytest_run_names_the_failures_in_fewer_tokens():
    """The issue's case: `pytest -q 2>&1 | tail -3` lost the count and the names to the tee
    hint and the markers; laid out for the tail, they are last (and the answer is smaller)."""
    raw_after, ours_after, _, _ = answer_after_pipe("python/pytest/failures_quiet", "tail -3")
    text = ours_after.decode()
    assert "6 failed, 32 passed" in text and text.count("FAILED tests/") == 2
    assert "[full output:" not in text and " omitted)" not in text
    assert len(ours_after) < len(raw_after)


#: `pytest … | tail -20` and `cargo test … | tail -20` of failing runs: the answer after the
#: pipe is ours (not the raw output passed through) and smaller, with every fact
TAIL_20_SAVES = ["python/pytest/failures", "python/pytest/failures_quiet",
                 "python/pytest/failures_verbose", "python/pytest/tb_short",
                 "python/pytest/exitfirst", "python/pytest/long_test_id",
                 "rust/cargo-test/failures"]


@pytest.mark.parametrize("path", TAIL_20_SAVES)
def test_tail_20_of_a_failing_run_is_ours_and_smaller(path):
    raw_after, ours_after, rewritten, tracked = answer_after_pipe(path, "tail -20")
    raw_text, ours_text = raw_after.decode(), ours_after.decode()
    assert ours_after != raw_after, f"{rewritten}: the raw output went through"
    assert estimate_tokens(len(ours_text)) < estimate_tokens(len(raw_text))
    assert not [f for f in facts(raw_text) if not _shown(f, facts(ours_text))]
    assert tracked == (len(raw_text), len(ours_text)) and tracked[1] < tracked[0]


def test_tail_20_of_a_failing_cargo_run_names_every_failure_and_the_tee_file():
    """The raw tail shows two failure sections and cargo's `failures:` list; ours the sections
    that fit, the others by name as cargo lists them, both result lines and the tee hint."""
    raw_after, ours_after, _, _ = answer_after_pipe("rust/cargo-test/failures", "tail -20")
    text = ours_after.decode()
    for name in ("parse_cents_pads_single_digit", "parse_cents_rejects_garbage",
                 "percent_of_zero_parts", "percent_rejects_negative", "split_keeps_every_cent"):
        assert f"regressions::{name}" in text
    assert "ledger-money/src/lib.rs:122:9" in text and "ledger-money/src/lib.rs:144:8" in text
    assert "test result: FAILED. 20 passed; 5 failed; 1 ignored" in text
    assert "error: test failed, to rerun pass `-p ledger-money --lib`" in text
    hint = re.search(r"^\[full output: (\S+)\]$", text, re.M)
    assert hint and os.path.isfile(os.path.expanduser(hint.group(1)))
