"""`npm|pnpm|yarn|bun run <script>` gets the filter of the tool the script runs (issue 15)."""
import json

import pytest

from cc_filter import cli

from cc_filter.choose import catalogue, package_scripts
from cc_rewrite.refusals import RewriteSettings
from cc_rewrite.rewrite import Catalogue, rewrite

SCRIPTS = {
    "build": "cross-env NODE_ENV=production tsc -p .",
    "typecheck": "tsc --noEmit && echo typecheck ok",
    "both": "tsc && vite-unknown build",
    "lint": "eslint src",
    "dev": "vite-unknown",
    "start": "node server.js",
    "bundle": "webpack-unknown --mode production",
    "ci": "npm run build",
    "test": "vitest run",
    "test:unit": "jest",
}


@pytest.fixture
def project(tmp_path, monkeypatch):
    (tmp_path / "package.json").write_text(json.dumps({"name": "demo", "scripts": SCRIPTS}))
    sub = tmp_path / "src" / "deep"
    sub.mkdir(parents=True)
    monkeypatch.chdir(sub)  # package.json is found from cwd upward
    return tmp_path


@pytest.mark.parametrize("key, expected", [
    ("npm run build", "tsc"),
    ("pnpm run build", "tsc"),
    ("yarn run lint", "eslint"),
    ("bun run lint", "eslint"),
    ("npm run-script lint", "eslint"),
    ("npm run --silent build", "tsc"),
    ("npm run typecheck", "tsc"),        # `echo` prints next to nothing: the script is tsc's
    ("npm run ci", "tsc"),               # a script that runs another script is followed
    ("npm run build -- --pretty", "tsc"),
    ("npm run both", "generic"),         # two tools: no one tool's filter, the fallback
    ("npm run bundle", "generic"),
    ("npm run dev", None),               # a dev server: never held back by a filter
    ("npm run start", None),
    ("npm run nosuch", None),
    ("npm --prefix web run build", None),
    ("pnpm run --filter web build", None),
    ("npm run test", "npm-test"),        # its own filter first
    # yarn's and pnpm's shorthand: `yarn <script>`, `pnpm <script>`, pnpm's `test`/`t`/`tst`
    ("yarn lint", "eslint"),
    ("yarn lint --fix", "eslint"),
    ("pnpm build", "tsc"),
    ("pnpm test", "vitest"),
    ("pnpm t", "vitest"),
    ("yarn test:unit", "jest"),
    ("yarn dev", None),                  # a dev server, as with `npm run dev`
    ("pnpm start", None),
    ("yarn why vite", "generic"),        # yarn's own command, not a script
    ("pnpm audit", "generic"),
    ("yarn nosuch", "generic"),          # no such script: yarn says so, or runs a binary
    ("pnpm --filter web build", "generic"),
    ("bun lint", None),                  # not taken: `bun test`, `bun build` are bun's own
])
def test_the_script_chooses_the_filter(project, key, expected):
    entry = catalogue.lookup(key)
    assert (entry.name if entry else None) == expected


def test_no_package_json_no_script(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert package_scripts.resolve("npm run build") is None
    assert catalogue.lookup("npm run build") is None


def test_broken_package_json_is_no_script(tmp_path, monkeypatch):
    (tmp_path / "package.json").write_text("{not json")
    monkeypatch.chdir(tmp_path)
    assert catalogue.lookup("npm run build") is None


def test_the_extra_arguments_reach_the_script_command(project):
    assert package_scripts.resolve("npm run build -- --pretty").keys == ["tsc -p . --pretty"]


def test_cc_rewrite_and_which_agree(project, capfd):
    done = rewrite("npm run build && npm run dev", Catalogue(str(project)), RewriteSettings())
    assert done.text == "cc-filter run npm run build && npm run dev"
    assert cli.main(["which", "npm", "run", "build"]) == 0
    out = capfd.readouterr().out
    assert "script:  build = cross-env NODE_ENV=production tsc -p . (package.json)" in out
    assert "filter:  tsc (the filter of tsc -p .)" in out


def test_only_run_keys_read_package_json(project, monkeypatch):
    opened = []
    monkeypatch.setattr(package_scripts, "read_scripts",
                        lambda path: opened.append(path) or {})
    catalogue.lookup("npm install")
    catalogue.lookup("git status")
    catalogue.lookup("zzz-unknown")
    assert opened == []
    catalogue.lookup("npm run build")
    assert len(opened) == 1
