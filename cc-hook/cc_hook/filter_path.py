"""Can the agent's shell find `cc-filter`? The rewritten command (`cc-filter run …`) runs in
the agent's own shell, not in the hook, so `init` asks a login shell with a clean environment
(what an agent started from a desktop or a service sees) where `cc-filter` is. When it is not
found there, or it is another install, `init` records our absolute path as `[hooks] filter_bin`
in config.toml; cc-rewrite writes that path instead of `cc-filter` (env `CTXCRL_FILTER_BIN`
overrides both). Cold path.
"""
import os
import shutil
import subprocess

CLEAN_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
KNOWN_SHELLS = ("bash", "zsh", "sh", "dash", "ksh")


class FilterCheck:
    __slots__ = ("ours", "seen", "shell")

    def __init__(self, ours: str, seen: str | None, shell: str):
        self.ours = ours
        self.seen = seen
        self.shell = shell

    @property
    def visible(self) -> bool:
        """The agent's shell runs our cc-filter when it types `cc-filter`."""
        return bool(self.seen) and _same_file(self.seen, self.ours)


def login_shell() -> str:
    shell = os.environ.get("SHELL") or ""
    if os.path.basename(shell) in KNOWN_SHELLS and os.access(shell, os.X_OK):
        return shell
    return shutil.which("bash") or "/bin/sh"


def clean_env() -> dict:
    env = {"PATH": CLEAN_PATH}
    for name in ("HOME", "USER", "LOGNAME", "SHELL", "LANG", "TERM"):
        if os.environ.get(name):
            env[name] = os.environ[name]
    return env


def which_in_agent_shell(name: str = "cc-filter") -> tuple[str | None, str]:
    """What `command -v <name>` gives in a login shell with a clean environment."""
    shell = login_shell()
    try:
        done = subprocess.run([shell, "-lc", f"command -v {name}"], env=clean_env(),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=10, cwd=os.environ.get("HOME") or "/")
    except (OSError, subprocess.SubprocessError):
        return None, shell
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    found = lines[-1] if done.returncode == 0 and lines else None
    return (found if found and found.startswith("/") else None), shell


def check(ours: str) -> FilterCheck:
    seen, shell = which_in_agent_shell()
    return FilterCheck(ours, seen, shell)


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
