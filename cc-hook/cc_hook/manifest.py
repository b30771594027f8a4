"""hooks.json in the data directory: what `init` installed, for verify, status and uninstall.

{"version": 1,
 "scripts": {"<agent>": {"path", "sha256", "hook_version", "tools": {name: path}}},
 "installs": [{"agent", "scope", "root", "installed_at", "files": [{"path", "kind", "sha256"}]}],
 "filter_bin": {"config": <config.toml path>, "value": <path>} | null (set by init when the
               agent's shell cannot find cc-filter),
 "link": {"path": <symlink init made>, "target": <our cc-filter>} | null (init --link),
 "created_dirs": [folders init created, removed by uninstall once empty],
 "originals": {"<path>": <text before contextcrawler first changed it, or null if absent>}}

The recorded SHA-256 of each script is also written next to it (`<script>.sha256`), where the
script itself reads it. Uninstall still works without this file (our entries are recognised
by the script name), only the exact restore of original bytes needs it. Cold path.
"""
import json
import os

from ctxcrl import home

from .hook_script import script_path
from .settings_file import write_atomic

VERSION = 1


def path() -> str:
    return os.path.join(home.data_dir(), "hooks.json")


class Manifest:
    def __init__(self, data: dict | None = None):
        data = data if isinstance(data, dict) else {}
        self.scripts: dict = data.get("scripts") if isinstance(data.get("scripts"), dict) else {}
        self.installs: list = [i for i in data.get("installs", []) if isinstance(i, dict)] \
            if isinstance(data.get("installs"), list) else []
        self.originals: dict = data.get("originals") \
            if isinstance(data.get("originals"), dict) else {}
        dirs = data.get("created_dirs")
        self.created_dirs: list = [d for d in dirs if isinstance(d, str)] \
            if isinstance(dirs, list) else []
        filter_bin = data.get("filter_bin")
        self.filter_bin: dict | None = filter_bin if isinstance(filter_bin, dict) and \
            isinstance(filter_bin.get("config"), str) and \
            isinstance(filter_bin.get("value"), str) else None

        link = data.get("link")
        self.link: dict | None = link if isinstance(link, dict) and \
            isinstance(link.get("path"), str) and isinstance(link.get("target"), str) else None

    @classmethod
    def load(cls) -> "Manifest":
        try:
            with open(path(), encoding="utf-8") as f:
                return cls(json.load(f))
        except (OSError, ValueError):
            return cls()

    def save(self) -> None:
        home.ensure_private_dir(home.data_dir())
        data = {"version": VERSION, "scripts": self.scripts, "installs": self.installs,
                "filter_bin": self.filter_bin, "link": self.link, "created_dirs": self.created_dirs,
                "originals": self.originals}
        write_atomic(path(), json.dumps(data, indent=2) + "\n", backup=False, mode=0o600)

    def script_of(self, agent: str) -> str:
        """The agent's hook script: the recorded path, else where init writes it."""
        return (self.scripts.get(agent) or {}).get("path") or script_path(agent)

    def find(self, agent: str, scope: str, root: str) -> dict | None:
        for install in self.installs:
            if (install.get("agent"), install.get("scope"), install.get("root")) == \
                    (agent, scope, root):
                return install
        return None

    def record_install(self, install: dict) -> None:
        old = self.find(install["agent"], install["scope"], install["root"])
        if old is not None:
            self.installs[self.installs.index(old)] = install
        else:
            self.installs.append(install)

    def drop_install(self, agent: str, scope: str, root: str) -> None:
        self.installs = [i for i in self.installs
                         if (i.get("agent"), i.get("scope"), i.get("root")) != (agent, scope, root)]

    def uses_path(self, file_path: str) -> bool:
        return any(f.get("path") == file_path for i in self.installs for f in i.get("files", []))


def installed(agent: str, cwd: str) -> tuple[dict, str] | None:
    """(install, where) the agent would use in `cwd`: the project's if there is one, else the
    global one."""
    manifest = Manifest.load()
    from ctxcrl.spool import project_of

    root = project_of(os.path.abspath(cwd))
    installs = [i for i in manifest.installs if i.get("agent") == agent]
    chosen = next((i for i in installs if i.get("scope") == "project" and i.get("root") == root),
                  None) or next((i for i in installs if i.get("scope") == "global"), None)
    if chosen is None:
        return None
    where = chosen.get("scope") if chosen.get("scope") == "global" else \
        f"project {home.short_path(root)}"
    return chosen, where


def install_texts(install: dict) -> list:
    """The texts of the files an install registered in (what its hooks and plugins say)."""
    from .settings_file import MalformedSettings, read_text

    texts = []
    for item in install.get("files", []):
        try:
            texts.append(read_text(item.get("path") or ""))
        except MalformedSettings:
            continue
    return texts
