"""Success is stated (issue 25): the answer every build, test and install filter gives to a
successful run keeps the tool's own success line (`** BUILD SUCCEEDED **`, `31 passed in
0.05s`, `Successfully installed …`, `Finished dev [unoptimized] target(s)`), or a line that
says what succeeded — never markers alone. Run on every successful fixture of those filters
whose raw output is not empty (an empty output stays empty: never worse)."""
import os
import re

import pytest

from cc_filter import cases

from cc_filter.choose import catalogue
from cc_filter.kit.lines import strip_ansi

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
FIXTURES = os.path.join(REPO, "tests", "fixtures")

BUILD = {"cargo-build", "go-build", "gcc", "make", "cmake", "ninja", "mvn", "gradle", "sbt",
         "bloop", "dotnet-build", "xcodebuild", "swift", "tsc", "vite", "next", "ng-build",
         "turbo", "nx", "moon", "docker"}
TEST = {"pytest", "unittest", "jest", "vitest", "mocha", "npm-test", "bun-test", "playwright",
        "cargo-test", "cargo-nextest", "go-test", "ctest", "dotnet-test", "rspec", "phpunit",
        "tap", "node-test"}
INSTALL = {"pip-install", "npm-install", "pnpm", "yarn", "uv", "cargo-install", "bundle",
           "composer"}
#: a line that says a run went well, in the words these tools use
SUCCESS = re.compile(
    r"(?i)succe(?:ss|ed)|\bpass(?:ed|ing|es)?\b|\bok\b|\bbuilt\b|\bfinished\b|\bcompiled\b"
    r"|\binstalled\b|\badded \d+|\bdone\b|up.to.date|[✓✔]|\bno (?:errors|issues|problems)\b"
    r"|\b0 (?:failed|failures|errors)\b|\bcomplete(?:d)?\b|\bresolved \d+|\baudited \d+"
    r"|\bgenerated\b|\bwritten\b|\bready\b|\bpackages: \+\d+|\bTests?: +\d+|\bchecked \d+"
    r"|\bvalid\b|\bnothing to (?:install|do|update)\b|\balready satisfied\b|\bnaming to \S+ done"
    r"|^Saved \S")
#: commands of these filters that list or show, not build, test or install
NOT_A_RUN = re.compile(r"\s(?:ps|images|list|--list|ls|show|outdated|why|config)(?:\s|$)")
#: filters whose tool prints no success line of its own: the answer keeps the last step of
#: the run (make's last command, ninja's `[14/14] Linking …`)
LAST_STEP = {"make", "cmake", "ninja"}


def _success_cases():
    out = []
    for case in cases.discover(FIXTURES):
        if case.filter_name not in BUILD | TEST | INSTALL:
            continue
        with open(case.out_path, "rb") as f:
            raw = f.read().decode("utf-8", "replace")
        if case.data.get("exit_code") == 0 and raw.strip() \
                and not NOT_A_RUN.search(" " + case.data.get("command", "")):
            out.append((case, raw))
    return out


CASES = _success_cases()


@pytest.fixture(autouse=True)
def _in_repo(monkeypatch):
    monkeypatch.chdir(REPO)
    catalogue.reset()


@pytest.mark.parametrize("case, raw", CASES, ids=[c.id for c, _ in CASES])
def test_a_successful_run_says_it_succeeded(case, raw, tmp_path):
    result = cases.run_fixture_case(case, tee_dir=str(tmp_path / "tee"))
    shown = [line for line in result.output.splitlines()
             if line.strip() and not line.startswith(("... (", "[full output: "))]
    assert shown, f"{case.id}: the answer is markers alone"
    if case.filter_name in LAST_STEP and not any(SUCCESS.search(line) for line in shown):
        last = [strip_ansi(line).strip() for line in raw.splitlines() if line.strip()][-1]
        assert any(last in line for line in shown), f"{case.id}: lacks the last step {last!r}"
        return
    assert any(SUCCESS.search(line) for line in shown), \
        f"{case.id}: no line says it succeeded in {shown[:6]}"
