"""The npm-test filter: `npm test` routed to the filter of the runner behind the script."""
import json
import shlex

import pytest

from cc_filter.choose import catalogue, keys
from cc_filter.filters.js.npm_test import NpmTest


def test_npm_test_routes_to_the_runner_named_by_package_json(tmp_path, monkeypatch):
    (tmp_path / "package.json").write_text(json.dumps({"scripts": {"test": "tsc && mocha"}}))
    monkeypatch.chdir(tmp_path)
    lines = ["", "> basket@1.0.0 test", "> tsc && mocha", "", "  apples", "    ✔ totals one",
             "", "  1 passing (3ms)"]
    assert list(NpmTest(["npm", "test"]).run(lines, 0)) == [
        "... (2 npm lines omitted)", "... (1 describe heading omitted)",
        "... (1 passing test omitted)", "1 passing (3ms)"]


def test_npm_test_routes_by_the_banner_without_package_json(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = ["", "> till@1.0.0 test", "> vitest run", "", " ✓ test/tea.test.ts (3 tests) 5ms",
             " Test Files  1 passed (1)", "      Tests  3 passed (3)"]
    assert list(NpmTest(["npm", "run", "test"]).run(lines, 0)) == [
        "Test Files  1 passed (1)", "Tests  3 passed (3)",
        "... (2 npm lines omitted)", "... (1 passing file omitted)"]


def test_npm_test_without_a_known_runner_passes_lines(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    lines = ["> x@1.0.0 test", '> echo "Error: no test specified" && exit 1', "",
             "Error: no test specified"]
    assert list(NpmTest(["npm", "test"]).run(lines, 1)) == [
        "Error: no test specified", "... (2 npm lines omitted)"]


@pytest.mark.parametrize("command,name", [
    ("npm test", "npm-test"), ("npm t", "npm-test"), ("npm run test -- -t x", "npm-test"),
    ("npm run test:unit", "npm-test"),
])
def test_commands_route_here(command, name):
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), warn=False)
    assert entry is not None and entry.name == name
