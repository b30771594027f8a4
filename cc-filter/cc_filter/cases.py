"""Filter test cases (ARCHITECTURE §6.5): fixture cases and TOML inline `[[test]]` cases.

A fixture case is `tests/fixtures/<ecosystem>/<filter>/<case>.toml` (the ecosystem folder
mirrors the filter's own, `filters/git/` → `fixtures/git/`; a flat `<dir>/<filter>/` works too)
plus the raw captured output
`<case>.out` (stdout+stderr bytes as the real tool printed them). `run_fixture_case` pushes
the raw bytes through the filter under the runner's own safety rules (guard.py — the same code
path as `cc-filter run`) and checks everything the case states plus the invariants every
filter must keep:
  - the command is routed to this filter by the catalogue (cc_peel key, built-in tier);
  - the filter does not raise; the output does not depend on how the bytes were chunked;
  - never empty, never worse, a failure (non-zero exit) stays visible;
  - `[full output: …]` appears exactly when a tee file was written;
  - savings ≥ 60 % when the raw output has 20 lines or more (a case whose answer *is* the
    output — a search under its budget, a file read — states a lower `min_savings` and says
    why in its description);
  - `equals`, `contains`, `not_contains`, `matches` (regex, multiline), `line_count`.
Both `cc-filter test` and tests/cc_filter/test_fixtures.py (which adds the pytest-snapshot
snapshot of `result.output`) use this module.
"""
import os

from cc_filter.choose import catalogue, keys

from cc_filter.run import guard
from cc_filter.run.tee import TeePolicy
from ctxcrl.spool import estimate_tokens

CASE_KEYS = ("command", "exit_code", "source", "contains", "not_contains", "matches", "equals",
             "line_count", "description", "min_savings", "ran_in", "origin")
SOURCES = ("captured", "documented", "published")
MIN_SAVINGS = 0.60
SAVINGS_MIN_LINES = 20
TEE_HINT_SHOWN = "~/.local/share/ctxcrl/tee/"


class Case:
    __slots__ = ("filter_name", "name", "path", "out_path", "data", "error", "folder")

    def __init__(self, filter_name: str, name: str, path: str, folder: str | None = None):
        self.filter_name = filter_name
        self.folder = folder or filter_name  # relative to the fixtures dir: "git/git-status"
        self.name = name
        self.path = path
        self.out_path = path[:-5] + ".out"
        self.data: dict = {}
        self.error: str | None = None

    def __repr__(self) -> str:
        return f"Case({self.filter_name}/{self.name})"

    @property
    def id(self) -> str:
        return f"{self.filter_name}/{self.name}"


class CaseResult:
    __slots__ = ("case", "output", "failures", "raw_lines", "savings", "outcome_mode",
                 "facts", "facts_kept", "min_savings")

    def __init__(self, case):
        self.case = case
        self.output = ""
        self.failures: list[str] = []
        self.raw_lines = 0
        self.savings: float | None = None
        self.outcome_mode = ""
        self.facts = 0  # the case's `contains` entries: the facts its raw output holds
        self.facts_kept = 0  # … that the filtered output still shows
        self.min_savings = MIN_SAVINGS

    @property
    def ok(self) -> bool:
        return not self.failures


CHECKOUT_FIXTURES = os.path.join("tests", "fixtures")


def find_fixtures_dir(start: str | None = None) -> str | None:
    """`tests/fixtures` of a contextcrawler checkout: from `start` (cwd) upward, then from this
    package's own checkout (cc-filter/cc_filter → ../../tests/fixtures). None for an installed
    package (the fixtures do not ship with it). Another project's `tests/fixtures` does not
    count: the checkout also has `cc-filter/cc_filter`."""
    path = os.path.abspath(start or os.getcwd())
    while True:
        if _is_checkout(path):
            return os.path.join(path, CHECKOUT_FIXTURES)
        parent = os.path.dirname(path)
        if parent == path:
            break
        path = parent
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    return os.path.join(here, CHECKOUT_FIXTURES) if _is_checkout(here) else None


def _is_checkout(root: str) -> bool:
    return os.path.isdir(os.path.join(root, CHECKOUT_FIXTURES)) and \
        os.path.isdir(os.path.join(root, "cc-filter", "cc_filter"))


def discover(fixtures_dir: str | None, name: str | None = None) -> list[Case]:
    """Every `<dir>/<ecosystem>/<filter>/<case>.toml` and `<dir>/<filter>/<case>.toml`
    (sorted by filter, then case), optionally for one filter only. A folder holding case
    files is a filter's; one without is an ecosystem folder and its subfolders are searched."""
    cases: list[Case] = []
    if not fixtures_dir or not os.path.isdir(fixtures_dir):
        return cases
    for folder_name in sorted(os.listdir(fixtures_dir)):
        folder = os.path.join(fixtures_dir, folder_name)
        if folder_name == "capture" or not os.path.isdir(folder):
            continue
        found = _cases_in(folder, folder_name, folder_name, name)
        if found is None:  # an ecosystem folder
            found = []
            for sub in sorted(os.listdir(folder)):
                if os.path.isdir(os.path.join(folder, sub)):
                    found += _cases_in(os.path.join(folder, sub), sub, f"{folder_name}/{sub}",
                                       name) or []
        cases += found
    cases.sort(key=lambda c: (c.filter_name, c.name))
    return cases


def _cases_in(folder: str, filter_name: str, relative: str, name: str | None) -> list | None:
    """The cases of one filter folder; None when the folder holds no case file."""
    files = sorted(f for f in os.listdir(folder) if f.endswith(".toml"))
    if not files:
        return None
    if name is not None and filter_name != name:
        return []
    found = []
    for file_name in files:
        case = Case(filter_name, file_name[:-5], os.path.join(folder, file_name), relative)
        _load(case)
        found.append(case)
    return found


def _load(case: Case) -> None:
    import tomllib

    try:
        with open(case.path, "rb") as f:
            data = tomllib.load(f)
    except (OSError, tomllib.TOMLDecodeError) as exc:
        case.error = f"{case.path}: {exc}"
        return
    unknown = [k for k in data if k not in CASE_KEYS]
    problems = []
    if unknown:
        problems.append(f"unknown key(s) {', '.join(unknown)} (allowed: {', '.join(CASE_KEYS)})")
    if not isinstance(data.get("command"), str) or not data.get("command"):
        problems.append("command (a string) is required")
    if not isinstance(data.get("exit_code"), int) or isinstance(data.get("exit_code"), bool):
        problems.append("exit_code (an integer) is required")
    if data.get("source", "captured") not in SOURCES:
        problems.append(f"source must be one of {', '.join(SOURCES)}")
    if data.get("source") == "published" and not (
            isinstance(data.get("origin"), str) and data["origin"].strip()):
        problems.append('source = "published" needs origin: where the output was published')
    if "origin" in data and data.get("source") != "published":
        problems.append('origin is only for source = "published"')
    for key in ("contains", "not_contains", "matches"):
        value = data.get(key, [])
        if not isinstance(value, list) or not all(isinstance(v, str) for v in value):
            problems.append(f"{key} must be an array of strings")
    ms = data.get("min_savings", MIN_SAVINGS)
    if not isinstance(ms, (int, float)) or isinstance(ms, bool) or not 0 <= ms <= 1:
        problems.append("min_savings must be a number from 0 to 1")
    if "ran_in" in data and not (isinstance(data["ran_in"], str) and data["ran_in"].startswith("/")):
        problems.append("ran_in must be an absolute folder")
    if "equals" in data and not isinstance(data["equals"], str):
        problems.append("equals must be a string")
    lc = data.get("line_count", {})
    if not isinstance(lc, dict) or set(lc) - {"min", "max", "equals"} or not all(
            isinstance(v, int) for v in lc.values()):
        problems.append("line_count must be a table with integer min / max / equals")
    if problems:
        case.error = f"{case.path}: " + "; ".join(problems)
    case.data = data


def _split(command: str) -> list[str]:
    import shlex

    return shlex.split(command)


def normalise(text: str, tee_path: str | None) -> str:
    """Output with the tee hint made stable: `[full output: ~/.local/share/ctxcrl/tee/TS_x.log]`."""
    if not tee_path:
        return text
    from ctxcrl import home

    shown = home.short_path(tee_path)
    base = os.path.basename(tee_path)
    stem = base.split("_", 1)[1] if "_" in base else base
    head, _, number = stem[:-4].rpartition("~")
    if head and number.isdigit():  # `x~2.log`: a same-second name clash, not part of the output
        stem = head + ".log"
    return text.replace(shown, TEE_HINT_SHOWN + "TS_" + stem)


def _apply(filter_cls, argv, raw: bytes, exit_code: int, tee_dir: str, chunk: int,
           ran_in: str | None = None):
    """The runner's answer for `raw`; `ran_in`: the folder the command was captured in, which
    filters that print paths relative to the working directory then see as theirs."""
    from cc_filter.filters import _paths

    policy = TeePolicy(directory=tee_dir)
    previous = _paths.pretend_working_directory(ran_in) if ran_in else None
    try:
        outcome = guard.apply(filter_cls(list(argv)), raw, exit_code, argv=argv,
                              tee_policy=policy, chunk_size=chunk)
        try:
            text = outcome.text()
        finally:
            outcome.close()
    finally:
        if ran_in:
            _paths.pretend_working_directory(previous)
    return outcome, normalise(text, outcome.tee_path)


def run_fixture_case(case: Case, *, tee_dir: str, cwd: str | None = None) -> CaseResult:
    import re

    result = CaseResult(case)
    if case.error:
        result.failures.append(case.error)
        return result
    data = case.data
    try:
        with open(case.out_path, "rb") as f:
            raw = f.read()
    except OSError as exc:
        result.failures.append(f"{case.id}: raw output {case.out_path} missing ({exc.strerror})")
        return result
    argv = _split(data["command"])
    exit_code = data["exit_code"]
    key = keys.key_of(argv)
    routed = catalogue.lookup(key, cwd, warn=False)
    entry = catalogue.by_name(case.filter_name, cwd, warn=False)
    if entry is None:
        result.failures.append(f"{case.id}: no filter named {case.filter_name!r}")
        return result
    if routed is None or routed.name != case.filter_name:
        result.failures.append(
            f"{case.id}: command {data['command']!r} (key {key!r}) is routed to "
            f"{routed.name if routed else 'no filter'!s}, not {case.filter_name}")
    try:
        filter_cls = catalogue.load(entry)
    except Exception as exc:
        result.failures.append(f"{case.id}: cannot load filter: {exc}")
        return result
    ran_in = data.get("ran_in")
    outcome, text = _apply(filter_cls, argv, raw, exit_code, tee_dir, 65536, ran_in)
    result.output = text
    result.outcome_mode = outcome.mode
    fail = result.failures.append
    if outcome.mode == "filter-error":
        fail(f"{case.id}: {outcome.warning}")
    _, text_small_chunks = _apply(filter_cls, argv, raw, exit_code,
                                  os.path.join(tee_dir, "chunked"), 997, ran_in)
    if text_small_chunks != text:
        fail(f"{case.id}: output depends on how the raw bytes were chunked")
    raw_text = raw.decode("utf-8", "replace")
    raw_lines = raw_text.count("\n") + (1 if raw_text and not raw_text.endswith("\n") else 0)
    result.raw_lines = raw_lines
    if raw_text.strip() and not text.strip():
        fail(f"{case.id}: never empty: non-empty raw output became empty")
    raw_tokens = estimate_tokens(outcome.raw_chars)
    out_tokens = estimate_tokens(len(text))
    if outcome.mode == "filtered" and out_tokens > raw_tokens:
        fail(f"{case.id}: never worse: {out_tokens} output tokens > {raw_tokens} raw tokens")
    if raw_tokens:
        result.savings = 1 - out_tokens / raw_tokens
    min_savings = result.min_savings = data.get("min_savings", MIN_SAVINGS)
    if raw_lines >= SAVINGS_MIN_LINES and (result.savings or 0) < min_savings:
        fail(f"{case.id}: savings {100 * (result.savings or 0):.0f}% < {100 * min_savings:.0f}% "
             f"on {raw_lines} raw lines ({raw_tokens} → {out_tokens} tokens, mode {outcome.mode})")
    if exit_code != 0 and raw_text.strip() and outcome.mode == "filtered":
        if "failure-tail" not in outcome.reasons and not _shows_failure(text, raw_text):
            fail(f"{case.id}: exit code {exit_code} but the output does not show the failure")
    hinted = "[full output: " in text
    if hinted != (outcome.tee_path is not None):
        fail(f"{case.id}: a [full output: …] hint must appear exactly when a tee file is written")
    body = text.rstrip("\n")
    if "equals" in data and body != data["equals"].rstrip("\n"):
        fail(f"{case.id}: output differs from `equals`:\n--- output\n{body}\n--- equals\n"
             f"{data['equals'].rstrip(chr(10))}")
    for needle in data.get("contains", []):
        result.facts += 1
        if needle not in text:
            fail(f"{case.id}: output lacks {needle!r}")
        else:
            result.facts_kept += 1
    for needle in data.get("not_contains", []):
        if needle in text:
            fail(f"{case.id}: output still contains {needle!r}")
    for pattern in data.get("matches", []):
        if not re.search(pattern, text, re.MULTILINE):
            fail(f"{case.id}: output does not match /{pattern}/")
    count = len(body.split("\n")) if body else 0
    lc = data.get("line_count", {})
    if "max" in lc and count > lc["max"]:
        fail(f"{case.id}: {count} output lines > line_count.max {lc['max']}")
    if "min" in lc and count < lc["min"]:
        fail(f"{case.id}: {count} output lines < line_count.min {lc['min']}")
    if "equals" in lc and count != lc["equals"]:
        fail(f"{case.id}: {count} output lines != line_count.equals {lc['equals']}")
    return result


def _shows_failure(text: str, raw_text: str) -> bool:
    g = guard.OutputGuard(None)
    g.out.write(text.encode())
    g.out_nonblank = bool(text.strip())
    g._tail = raw_text.split("\n")[-guard.TAIL_LINES:]
    return g._shows_failure()


def inline_cases(entry) -> list[tuple]:
    """A TOML filter's `[[test]]` cases: (name, exit_code, input, expected)."""
    if entry.kind == "toml" and entry.spec:
        return list(entry.spec.get("tests", ()))
    return []


def run_inline_case(entry, case: tuple) -> list[str]:
    """Run one inline case through the filter alone (its stages, not the runner's rules)."""
    name, exit_code, text, expected = case
    cls = catalogue.load(entry)
    lines = text[:-1].split("\n") if text.endswith("\n") else text.split("\n")
    if text == "":
        lines = []
    try:
        got = "\n".join(cls([]).run(lines, exit_code))
    except Exception as exc:
        return [f"{entry.name} [[test]] {name!r}: filter raised {type(exc).__name__}: {exc}"]
    if got.rstrip("\n") != expected.rstrip("\n"):
        return [f"{entry.name} [[test]] {name!r}: output differs\n--- got\n{got}\n--- expected\n"
                f"{expected.rstrip(chr(10))}"]
    return []
