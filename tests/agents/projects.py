"""Build, install and test projects for the real-client tables: the commands whose output costs
the most tokens, each failing the way a real one does, offline.

`add_build_projects(ws)` puts into the workspace's project:
- `Makefile`: `make test` echoes 40 compile commands (it compiles nothing) and a test loop
  that fails (make's exit 2);
- `package.json` depending on `vendor/native-addon` (a local folder, `file:` dependency: no
  network): its postinstall step prints a build log and fails, so `npm install` fails the way
  a native addon does (npm's error block, exit 1);
- `test_many.py`: 12,000 generated tests, three of them failing: a large pytest run.

They are committed (so `git status` does not list them). `BUILD_ROWS`: the commands, as
the tables run them.
"""
from __future__ import annotations

import json
import subprocess

from harness import chown_tree

MAKEFILE = """\
.PHONY: test
test:
\t@for f in $$(seq 1 40); do echo "cc -O2 -Wall -Iinclude -c src/unit$$f.c -o build/unit$$f.o"; done
\t@echo "running unit tests"
\t@for t in parse lex eval print; do echo "ok   $$t"; done
\t@echo "FAIL compile: expected 3 arguments, got 2 (src/compile.c:41)"
\t@exit 1
"""
ADDON = {
    "name": "native-addon", "version": "1.0.0",
    "scripts": {"postinstall": "node build.js"},
}
ADDON_BUILD = """\
for (let i = 1; i <= 40; i++) console.log(`gyp info compiling src/part${i}.cc`);
console.error("gyp ERR! build error: src/part41.cc:7: 'napi.h' file not found");
process.exit(1);
"""
MANY_TESTS = 12_000
FAILING = (17, 5_000, 11_999)

NPM_INSTALL = "npm install --no-audit --no-fund --offline"
MAKE_TEST = "make test"
BIG_PYTEST = "python3 -m pytest -q -p no:cacheprovider test_many.py"
BUILD_ROWS = (NPM_INSTALL, MAKE_TEST, BIG_PYTEST)


def add_build_projects(ws) -> None:
    project = ws.project
    (project / "Makefile").write_text(MAKEFILE)
    addon = project / "vendor" / "native-addon"
    addon.mkdir(parents=True, exist_ok=True)
    (addon / "package.json").write_text(json.dumps(ADDON, indent=2))
    (addon / "build.js").write_text(ADDON_BUILD)
    (project / "package.json").write_text(json.dumps(
        {"name": "demo", "version": "1.0.0", "private": True,
         "dependencies": {"native-addon": "file:vendor/native-addon"}}, indent=2))
    lines = []
    for n in range(MANY_TESTS):
        body = "assert n % 7 == 100" if n in FAILING else "assert n >= 0"
        lines.append(f"def test_case_{n}():\n    n = {n}\n    {body}\n")
    (project / "test_many.py").write_text("\n".join(lines))
    chown_tree(project, ws.user)
    ident = ["-c", "safe.directory=*", "-c", "user.name=Dev", "-c", "user.email=dev@example.invalid"]
    run = dict(cwd=project, check=True, capture_output=True)
    subprocess.run(["git", *ident, "add", "Makefile", "package.json", "vendor", "test_many.py"],
                   **run)
    subprocess.run(["git", *ident, "commit", "-q", "-m", "build, install and test projects"],
                   **run)
    chown_tree(project, ws.user)
