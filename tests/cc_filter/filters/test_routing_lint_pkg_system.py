"""Which filter the catalogue gives the linter, package-manager and system commands."""
import shlex

import pytest

from cc_filter.choose import catalogue, keys

ROUTES = [
    ("ruff check .", "ruff"), ("ruff format --check src", "ruff"), ("uv run ruff check", "ruff"),
    ("npx eslint src", "eslint"), ("prettier --check .", "prettier"),
    ("prettier src --write", "prettier"), ("prettier src/a.js", None),
    ("black --check .", "black"), ("shellcheck a.sh", "shellcheck"), ("yamllint .", "yamllint"),
    ("pip install -r requirements.txt", "pip-install"), ("python -m pip install x", "pip-install"),
    ("pip3 list", "pip-list"), ("pip show -f requests", "pip-show"), ("uv sync", "uv"),
    ("uv pip install flask", "uv"), ("uv run pytest", "pytest"),
    ("npm install", "npm-install"), ("npm ci", "npm-install"), ("npm i lodash", "npm-install"),
    ("npm ls --all", "npm-ls"), ("npm outdated", "npm-outdated"), ("pnpm install", "pnpm"),
    ("yarn", "yarn"), ("yarn add cors", "yarn"), ("cargo install --path .", "cargo-install"),
    ("ps aux", "ps"), ("df -h", "df"), ("du -sh *", "du"), ("env", "env"), ("printenv", "env"),
    ("printenv HOME PATH", "env"), ("wc -l a.py", "wc"), ("diff -u a b", "diff"),
    ("curl -s http://127.0.0.1:8000/", "curl"), ("wget http://127.0.0.1/x", "wget"),
    ("docker build .", "docker"), ("docker ps", "docker"), ("docker exec web ls", None),
    ("kubectl get pods", "kubectl"), ("kubectl logs web", None), ("gh pr checks 1", "gh"),
    ("terraform plan", "terraform"), ("systemctl status nginx", "systemctl"),
]


@pytest.mark.parametrize("command, name", ROUTES)
def test_route(command, name, monkeypatch, tmp_path):
    monkeypatch.chdir(tmp_path)
    catalogue.reset()
    entry = catalogue.lookup(keys.key_of(shlex.split(command)), str(tmp_path))
    if name is None:
        assert entry is None or entry.name not in {r[1] for r in ROUTES if r[1]}
    else:
        assert entry is not None and entry.name == name
