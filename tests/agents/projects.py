"""Build, install and test projects for the real-client tables: the commands whose output costs
the most tokens, each failing the way a real one does, offline.

`add_build_projects(ws)` puts into the workspace's project:
- `Makefile`: `make test` echoes 40 compile commands (it compiles nothing) and a test loop
  that fails (make's exit 2);
- `package.json` depending on `vendor/native-addon` (a local folder, `file:` dependency: no
  network): its postinstall step prints a build log and fails, so `npm install` fails the way
  a native addon does (npm's error block, exit 1);
- `test_many.py`: 12,000 generated tests, three of them failing: a large pytest run;
- `rs/`: a Rust crate whose `add` subtracts: `cargo test` fails one of its two tests (exit
  101), offline (no dependencies).

They are committed (so `git status` does not list them). `BUILD_ROWS`: the commands, as
the tables run them; `build_commands()` adds `CARGO_TEST` when the agent user can run cargo
(`harness.rust_bin()`). `BUILD_FACTS`: per command, what its output must still say once
compacted (the failure) and its exit code.
"""
from __future__ import annotations

import json
import subprocess

from harness import chown_tree, rust_bin

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

CARGO_TOML = '[package]\nname = "calc"\nversion = "0.1.0"\nedition = "2021"\n\n[dependencies]\n'
LIB_RS = ("pub fn add(a: i32, b: i32) -> i32 {\n    a - b\n}\n\n#[cfg(test)]\nmod tests {\n"
          "    use super::*;\n\n    #[test]\n    fn adds() {\n        assert_eq!(add(2, 3), 5);\n"
          "    }\n\n    #[test]\n    fn subtracts_nothing() {\n        assert_eq!(add(1, 0), 1);\n"
          "    }\n}\n")

NPM_INSTALL = "npm install --no-audit --no-fund --offline"
MAKE_TEST = "make test"
BIG_PYTEST = "python3 -m pytest -q -p no:cacheprovider test_many.py"
CARGO_TEST = "cargo test --manifest-path rs/Cargo.toml"
BUILD_ROWS = (NPM_INSTALL, MAKE_TEST, BIG_PYTEST)
#: command → (what its compacted output must still say, its exit code)
BUILD_FACTS = {
    NPM_INSTALL: (("napi.h",), 1),
    MAKE_TEST: (("src/compile.c:41",), 2),
    BIG_PYTEST: (("3 failed", "test_case_5000"), 1),
    CARGO_TEST: (("adds", "test result: FAILED"), 101),
}


def build_commands() -> tuple:
    """The build rows this machine can run: `BUILD_ROWS`, and `cargo test` when the agent
    user can run cargo."""
    return BUILD_ROWS + ((CARGO_TEST,) if rust_bin() else ())


def add_rust_crate(project) -> None:
    """`rs/`: the failing crate (files only; `add_build_projects` commits it)."""
    (project / "rs" / "src").mkdir(parents=True, exist_ok=True)
    (project / "rs" / "Cargo.toml").write_text(CARGO_TOML)
    (project / "rs" / "src" / "lib.rs").write_text(LIB_RS)
    (project / "rs" / ".gitignore").write_text("/target\n/Cargo.lock\n")


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
    add_rust_crate(project)
    chown_tree(project, ws.user)
    ident = ["-c", "safe.directory=*", "-c", "user.name=Dev", "-c", "user.email=dev@example.invalid"]
    run = dict(cwd=project, check=True, capture_output=True)
    subprocess.run(["git", *ident, "add", "Makefile", "package.json", "vendor", "test_many.py",
                    "rs"], **run)
    subprocess.run(["git", *ident, "commit", "-q", "-m", "build, install and test projects"],
                   **run)
    chown_tree(project, ws.user)
