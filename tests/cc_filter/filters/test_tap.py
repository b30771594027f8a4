"""The TAP filters (tap: tape, node-tap, nyc/c8 over them; node-test: `node --test`): which
commands reach them, which reporters pass through, and the fixture runs' facts."""
import os
import shlex

import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.js.node_test import NodeTest
from cc_filter.filters.js.tap import Tap

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "js")


@pytest.fixture(autouse=True)
def _fresh_catalogue():
    catalogue.reset()


@pytest.mark.parametrize("command, name", [
    ("tape test/*.js", "tap"), ("tap", "tap"), ("tap --reporter=tap test/a.js", "tap"),
    ("nyc tape test/*.js", "tap"), ("nyc --reporter=text-summary tape test/*.js", "tap"),
    ("c8 tap test/", "tap"), ("npx tape t.js", "tap"),
    ("node --test", "node-test"), ("node --test node-test/", "node-test"),
    ("node --test-reporter=spec --test", "node-test"),
    ("node --test --test-reporter=tap x.test.js", "node-test"),
])
def test_the_commands_reach_the_filter(command, name):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False, fallback=False)
    assert entry is not None and entry.name == name


@pytest.mark.parametrize("command", [
    "node --test --watch", "node --watch --test", "node server.js", "node --test-only x.js",
    "tapestry", "nyc mocha",
])
def test_other_node_commands_do_not(command):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False, fallback=False)
    assert entry is None or entry.name not in ("tap", "node-test")


def _run(cls, argv, text):
    f = cls(argv)
    out = []
    for line in text.splitlines():
        out.extend(f.feed(line))
    out.extend(f.finish(1))
    return out


def test_machine_reporters_and_help_pass_through():
    raw = "TAP version 13\nok 1 a\n1..1\n"
    for argv in (["tap", "--reporter=json"], ["tap", "-R", "junit"], ["tape", "--help"],
                 ["node", "--test", "--test-reporter=junit"], ["node", "--version"]):
        cls = NodeTest if argv[0] == "node" else Tap
        assert _run(cls, argv, raw) == raw.splitlines()
    # nyc's own --reporter is not the runner's
    assert "ok 1 a" not in _run(Tap, ["nyc", "--reporter=text", "tape", "t.js"], raw)


def _fixture(case):
    with open(os.path.join(FIXTURES, case), encoding="utf-8") as f:
        return f.read()


def test_every_not_ok_keeps_its_expected_and_actual():
    raw = _fixture("tap/failures.out")
    out = _run(Tap, ["tape", "test/*.js"], raw)
    not_ok = [line for line in raw.splitlines() if line.startswith("not ok")]
    assert len(not_ok) == 12 and all(line in out for line in not_ok)
    assert sum(1 for line in out if line.strip().startswith("expected:")) == 12
    assert sum(1 for line in out if line.strip().startswith("actual:")) == 12
    assert not any(line.startswith("ok ") for line in out)
    assert out[-3:] == ["# tests 141", "# pass  129", "# fail  12"]  # the counts come last


def test_node_test_default_reporter_is_sniffed():
    """Node 20 off a terminal prints TAP; Node 23+ prints spec without being asked."""
    out = _run(NodeTest, ["node", "--test"], _fixture("node-test/spec_failures.out"))
    assert "✖ failing tests:" in out and out[-1].startswith("ℹ duration_ms")
    assert not any(line.startswith("✔") for line in out)
    out = _run(NodeTest, ["node", "--test"], _fixture("node-test/failures.out"))
    assert "# fail 8" in out and "not ok 3 - parseQty reads whole numbers" in out
