"""Can the agent's shell find `cc-filter`? The rewritten command (`cc-filter run …`) runs in
the agent's own shell, not in the hook, so `init` asks a login shell with a clean environment
(what an agent started from a desktop or a service sees) where `cc-filter` is, and what its
PATH is. When it is not found there, or it is another install, `init` offers a symlink to ours
in a folder of that PATH the user can write to (`link_plan`); without one, it records our
absolute path as `[hooks] filter_bin` in config.toml and cc-rewrite writes that path instead of
`cc-filter` (env `CTXCRL_FILTER_BIN` overrides both; the hook script pins that variable to
init's choice, so the agent's environment cannot). Cold path.
"""
import os
import shutil
import subprocess

CLEAN_PATH = "/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin"
KNOWN_SHELLS = ("bash", "zsh", "sh", "dash", "ksh")


PATH_MARK = "ctxcrl-login-path="
PROFILES = (".profile", ".bash_profile", ".bash_login", ".zprofile", ".zshenv")


class FilterCheck:
    __slots__ = ("ours", "seen", "shell", "path")

    def __init__(self, ours: str, seen: str | None, shell: str, path: list | None = None):
        self.ours = ours
        self.seen = seen
        self.shell = shell
        self.path = path or []

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


def ask_agent_shell(name: str = "cc-filter") -> tuple[str | None, str, list]:
    """(what `command -v <name>` gives, the shell, its PATH) in a login shell with a clean
    environment."""
    shell = login_shell()
    script = f"printf '%s%s\\n' {PATH_MARK} \"$PATH\"; command -v {name}"
    try:
        done = subprocess.run([shell, "-lc", script], env=clean_env(),
                              stdin=subprocess.DEVNULL, capture_output=True, text=True,
                              timeout=10, cwd=os.environ.get("HOME") or "/")
    except (OSError, subprocess.SubprocessError):
        return None, shell, []
    lines = [line.strip() for line in done.stdout.splitlines() if line.strip()]
    path = next((line[len(PATH_MARK):].split(":") for line in reversed(lines)
                 if line.startswith(PATH_MARK)), [])
    lines = [line for line in lines if not line.startswith(PATH_MARK)]
    found = lines[-1] if done.returncode == 0 and lines else None
    return (found if found and found.startswith("/") else None), shell, path


def which_in_agent_shell(name: str = "cc-filter") -> tuple[str | None, str]:
    """What `command -v <name>` gives in a login shell with a clean environment."""
    found, shell, _ = ask_agent_shell(name)
    return found, shell


def check(ours: str) -> FilterCheck:
    seen, shell, path = ask_agent_shell()
    return FilterCheck(ours, seen, shell, path)


class LinkPlan:
    """A symlink `<folder>/cc-filter → ours` that makes the bare name reach our cc-filter in
    the agent's shell; `create_dir` when the folder is missing but the login profile puts it
    on PATH once it exists (Debian's and Ubuntu's ~/.profile do so for ~/.local/bin)."""

    __slots__ = ("folder", "path", "target", "create_dir")

    def __init__(self, folder: str, target: str, create_dir: bool = False):
        self.folder = folder
        self.path = os.path.join(folder, "cc-filter")
        self.target = target
        self.create_dir = create_dir

    def command(self) -> str:
        import shlex

        q = shlex.quote
        made = f"mkdir -p {q(self.folder)} && " if self.create_dir else ""
        return f"{made}ln -s {q(self.target)} {q(self.path)}"

    def create(self) -> None:
        if self.create_dir:
            os.makedirs(self.folder, exist_ok=True)
        os.symlink(self.target, self.path)


def link_plan(check: FilterCheck, user_home: str) -> LinkPlan | None:
    """Where a link would make `cc-filter` in the agent's shell ours: the first folder of its
    PATH under the home folder the user can write to; else ~/.local/bin when a login profile
    puts it on PATH once it exists; else any other writable folder of that PATH (root:
    /usr/local/bin), never an `sbin`. Only folders searched before one that holds another
    cc-filter count."""
    folders = [f for f in check.path if f.startswith("/")]
    if check.seen:
        seen_dir = os.path.dirname(check.seen)
        folders = folders[:folders.index(seen_dir)] if seen_dir in folders else folders
    usable = [f for f in dict.fromkeys(folders) if os.path.isdir(f) and os.access(f, os.W_OK)
              and not os.path.lexists(os.path.join(f, "cc-filter"))
              and os.path.basename(f) != "sbin"]
    mine = [f for f in usable if user_home and f.startswith(user_home.rstrip("/") + "/")]
    if mine:
        return LinkPlan(mine[0], check.ours)
    local_bin = os.path.join(user_home, ".local", "bin")
    if user_home and not os.path.exists(local_bin) and not check.seen and \
            _profile_adds(user_home, ".local/bin"):
        return LinkPlan(local_bin, check.ours, create_dir=True)
    return LinkPlan(usable[0], check.ours) if usable else None


def _profile_adds(user_home: str, folder: str) -> bool:
    for name in PROFILES:
        try:
            with open(os.path.join(user_home, name), encoding="utf-8", errors="replace") as f:
                if folder in f.read():
                    return True
        except OSError:
            continue
    return False


def remove_link(manifest, report, dry_run: bool) -> int:
    """Uninstall: the link init made, when it still points at the cc-filter it linked."""
    link = manifest.link
    if not link:
        return 0
    path = link["path"]
    try:
        ours = os.readlink(path) == link["target"]
    except OSError:
        ours = False
    if not dry_run:
        manifest.link = None
    if not ours:
        return 0
    from ctxcrl.home import short_path

    report.say("cc-filter link:")
    if not dry_run:
        os.unlink(path)
    report.say(f"  {'would delete' if dry_run else 'removed':9}  {short_path(path)}  "
               f"(→ {short_path(link['target'])})")
    return 1


def _same_file(a: str, b: str) -> bool:
    try:
        return os.path.samefile(a, b)
    except OSError:
        return False
