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

# The system tests: agent sessions through the installed hook, faults, security
system *args:
    {{python}} -m pytest -q tests/system {{args}}

# Every budget of ARCHITECTURE §9, side by side; writes bench/RESULTS.md
bench *areas:
    {{python}} bench/run.py {{areas}}

# Re-capture every fixture from the real tools (`just fixtures agents`: the agent histories; see tests/fixtures/README.md)
fixtures *groups:
    #!/usr/bin/env bash
    set -euo pipefail
    # the tools of .tools/ (`just fixture-tools`) unless PYTHON_TOOLS etc. say otherwise;
    # without .tools/ they come from PATH
    tools="{{justfile_directory()}}/.tools"
    if [ -d "$tools/py" ]; then
        export PYTHON_TOOLS="${PYTHON_TOOLS:-$tools/py/bin}" LINT_TOOLS="${LINT_TOOLS:-$tools/py/bin}"
    fi
    if [ -d "$tools/node" ]; then export NODE_TOOLS="${NODE_TOOLS:-$tools/node}"; fi
    if [ -d "$tools/ts5" ]; then export TSC5="${TSC5:-$tools/ts5/node_modules/.bin/tsc}"; fi
    if [ -d "$tools/firebase" ]; then export FIREBASE_TOOLS="${FIREBASE_TOOLS:-$tools/firebase}"; fi
    if [ -d "$tools/tap" ]; then export TAP_TOOLS="${TAP_TOOLS:-$tools/tap}"; fi
    if [ -d "$tools/buf" ]; then export BUF_TOOLS="${BUF_TOOLS:-$tools/buf}"; fi
    if [ -d "$tools/cov" ]; then export COVERAGE_TOOLS="${COVERAGE_TOOLS:-$tools/cov/bin}"; fi
    exec bash tests/fixtures/capture/all.sh {{groups}}

# Install the tools the fixture capture scripts run (Debian packages, .tools/py, .tools/node)
fixture-tools:
    #!/usr/bin/env bash
    set -euo pipefail
    # Debian packages as root (or with sudo); into .tools/ a venv (py) and two npm folders (node,
    # ts5), pinned to the versions the committed fixtures were captured with. Node.js 20+ with
    # npm, and Rust with clippy (rustup), must be there already.
    sudo=""
    if [ "$(id -u)" != 0 ]; then sudo=sudo; fi
    $sudo apt-get update -qq
    $sudo env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq tree ripgrep shellcheck \
        golang-go clang gcc g++ make procps curl wget gh util-linux
    command -v npm >/dev/null || { echo "fixture-tools: needs Node.js 20+ with npm" >&2; exit 1; }
    tools="{{justfile_directory()}}/.tools"
    test -x "$tools/py/bin/python" || python3 -m venv "$tools/py"
    "$tools/py/bin/python" -m pip install -q --upgrade pip
    "$tools/py/bin/python" -m pip install -q pytest==9.2.0 mypy==2.4.1 pyright==1.1.414 \
        ruff==0.17.6 black==26.10.1 yamllint==1.38.0 uv==0.13.9 freezegun==1.5.5
    "$tools/py/bin/pyright" --version  # fetches pyright's npm package now, not during a capture
    mkdir -p "$tools/node" "$tools/ts5"
    npm install --prefix "$tools/node" --no-fund --no-audit --loglevel=error jest@30.5.2 \
        vitest@3.2.7 vite@7.3.8 mocha@12.0.3 typescript@7.0.2 eslint@10.15.0 @eslint/js@10.0.1 \
        prettier@3.10.1 pnpm@12.21.0 yarn@1.22.22 @vitest/coverage-v8@3.2.7 bun@1.4.5
    npm install --prefix "$tools/ts5" --no-fund --no-audit --loglevel=error typescript@5.9.3
    test -x "$tools/cov/bin/python" || python3 -m venv "$tools/cov"
    "$tools/cov/bin/python" -m pip install -q pytest==9.2.0 pytest-cov==7.1.0
    mkdir -p "$tools/buf"
    npm install --prefix "$tools/buf" --no-fund --no-audit --loglevel=error @bufbuild/buf@1.75.0
    mkdir -p "$tools/tap"
    npm install --prefix "$tools/tap" --no-fund --no-audit --loglevel=error tape@5.10.2 nyc@18.0.0 \
        tap@21.8.0
    mkdir -p "$tools/firebase"
    npm install --prefix "$tools/firebase" --no-fund --no-audit --loglevel=error firebase-tools@15.34.2

# Re-write filter output snapshots after an intended change (review the diff!)
snapshots *args:
    {{python}} -m pytest -q tests/cc_filter/test_fixtures.py --snapshot-update {{args}}

# The real-client tables on each client's newest npm release, and what differs from the pinned run (`just clients-latest gemini codex`)
clients-latest *agents:
    {{python}} tests/agents/clients_latest.py {{agents}}

# The same checks CI runs, from a clean clone
ci:
    bash .ci/run
