# contextcrawler tasks. `just --list` shows them.

venv := ".venv"
python := venv / "bin/python"

# Create .venv and install contextcrawler with its dev extra (for working on it)
install:
    test -x {{python}} || python3 -m venv {{venv}}
    {{python}} -m pip install -q --upgrade pip
    {{python}} -m pip install -q -e '.[dev]'
    {{python}} scripts/dev_pth.py

# Run the test suite (the README's test command)
test *args:
    {{python}} -m pytest -q {{args}}

# The quick tests only (skips @slow)
quick *args:
    {{python}} -m pytest -q -m "not slow" {{args}}

# Every budget of DESIGN §9, side by side; writes bench/RESULTS.md
bench *areas:
    {{python}} bench/run.py {{areas}}

# Re-capture every filter fixture from the real tools (see tests/fixtures/README.md)
fixtures *groups:
    bash tests/fixtures/capture/all.sh {{groups}}

# Re-write filter output snapshots after an intended change (review the diff!)
snapshots *args:
    {{python}} -m pytest -q tests/cc_filter/test_fixtures.py --snapshot-update {{args}}

# The same checks CI runs, from a clean clone
ci:
    bash .ci/run
