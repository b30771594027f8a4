"""Whether real bash really runs a denied command for a spelling: the attack corpus's oracle.

`ran(spelling, denied)` runs `bash --norc --noprofile -c SPELLING` in a fresh sandbox and says
whether the denied command (`git push`, `rm -rf`, `curl`) really ran:

- the sandbox is a temporary directory with its own HOME, a git repository `repo` (the cwd:
  one commit on `main`, `origin` a bare repository beside it, `push.default=current`, so a bare
  `git push` really pushes) and a `bin` directory first on PATH;
- `bin/git` logs its argv, then runs the real git (so aliases, `-c` options, editors, pagers
  and hooks behave as they do for the user); `bin/rm` and `bin/curl` only log their argv (they
  never delete or fetch anything); git's exec path (`GIT_EXEC_PATH`) is `git-core/`, a copy of
  the real one made of symbolic links except its `git`, which logs too: git puts its exec path
  first on PATH for what it starts (editors, pagers, hooks, `!` aliases), so a `git` called
  from there is logged as well;
- the stubs' log directory is written into them, so `env -i` and a changed PATH cannot hide
  a call; stdout and stderr are a pseudo-terminal (git starts its pager only on a terminal),
  stdin is /dev/null, EDITOR=true and PAGER=cat (so nothing waits for a human).

`git push` ran when a logged git call's subcommand (after git's global options) is `push`,
or when `origin` received the commit (a push git ran inside itself: an alias, an exec-path
`git-push`, `/usr/bin/git` called directly). `rm -rf` ran when a logged rm call holds both a
recursive and a force option; `curl` when curl was called at all.

Spellings run for real: keep their targets inside the sandbox (`rm -rf build`, never `/`);
`ran` refuses a spelling that names `/`, `~`, `..` or `$HOME` after an `rm`.
"""
import os
import pty
import select
import shutil
import subprocess
import tempfile
import threading

BASH = shutil.which("bash")
REAL_GIT = shutil.which("git")
DENIED = ("git push", "rm -rf", "curl")
TIMEOUT = 20
#: git's global options that take the next word as their value (its subcommand comes after).
GIT_VALUE_OPTIONS = frozenset(("-C", "-c", "--git-dir", "--work-tree", "--namespace",
                               "--config-env", "--exec-path", "--super-prefix", "--attr-source",
                               "--list-cmds"))



def _logger(log: str, *fixed: str) -> str:
    """A /bin/sh script that logs `fixed` and its own arguments, one file per call."""
    words = " ".join(f'"{w}"' for w in fixed)
    return (f'#!/bin/sh\nf=$(/usr/bin/mktemp "{log}/call.XXXXXX")\n'
            f'printf \'%s\\0\' {words} "$@" > "$f"\n')

_TEMPLATE: dict = {}
_LOCK = threading.Lock()


def available() -> bool:
    return BASH is not None and REAL_GIT is not None


def _git(args, cwd, env):
    subprocess.run([REAL_GIT, *args], cwd=cwd, env=env, check=True, capture_output=True,
                   timeout=TIMEOUT)


def _base_env(root: str) -> dict:
    return {"HOME": os.path.join(root, "home"), "PATH": "/usr/bin:/bin", "LANG": "C.UTF-8",
            "GIT_AUTHOR_NAME": "o", "GIT_AUTHOR_EMAIL": "o@example.invalid",
            "GIT_COMMITTER_NAME": "o", "GIT_COMMITTER_EMAIL": "o@example.invalid",
            "GIT_CONFIG_NOSYSTEM": "1"}


def _template() -> str:
    """The repository and its remote, built once per process and copied for each run."""
    with _LOCK:
        found = _TEMPLATE.get("dir")
        if found is None:
            found = _build_template()
        return found


def _build_template() -> str:
    import atexit

    root = tempfile.mkdtemp(prefix="bash-oracle-template-")
    atexit.register(shutil.rmtree, root, True)
    env = _base_env(root)
    os.makedirs(env["HOME"])
    repo = os.path.join(root, "repo")
    _git(["init", "-q", "--bare", "-b", "main", os.path.join(root, "remote.git")], root, env)
    _git(["init", "-q", "-b", "main", repo], root, env)
    with open(os.path.join(repo, "README"), "w") as f:
        f.write("oracle\n")
    for args in (["add", "README"], ["commit", "-q", "-m", "one"],
                 ["remote", "add", "origin", os.path.join(root, "remote.git")],
                 ["config", "push.default", "current"]):
        _git(args, repo, env)
    real_core = subprocess.run([REAL_GIT, "--exec-path"], capture_output=True, text=True,
                               check=True).stdout.strip()
    core = os.path.join(root, "git-core")
    os.makedirs(core)
    for name in os.listdir(real_core):
        if name != "git":
            os.symlink(os.path.join(real_core, name), os.path.join(core, name))
    _TEMPLATE["git"] = os.path.join(real_core, "git")
    _TEMPLATE["dir"] = root
    return root


class Run:
    """What one spelling did: the logged calls (argv lists, program first) and the remote."""

    def __init__(self, calls: list, pushed: bool, output: str, code):
        self.calls = calls
        self.pushed = pushed
        self.output = output
        self.code = code

    def ran(self, denied: str) -> bool:
        if denied == "git push":
            return self.pushed or any(c[0] == "git" and git_subcommand(c[1:]) == "push"
                                      for c in self.calls)
        if denied == "rm -rf":
            return any(c[0] == "rm" and _recursive_and_forced(c[1:]) for c in self.calls)
        if denied == "curl":
            return any(c[0] == "curl" for c in self.calls)
        raise ValueError(f"unknown denied command {denied!r} (one of {', '.join(DENIED)})")


def git_subcommand(args: list):
    i = 0
    while i < len(args):
        word = args[i]
        if word in GIT_VALUE_OPTIONS:
            i += 2
            continue
        if word.startswith("-"):
            i += 1
            continue
        return word
    return None


def _recursive_and_forced(args: list) -> bool:
    recursive = forced = False
    for word in args:
        if word == "--":
            break
        if word in ("--recursive",):
            recursive = True
        elif word == "--force":
            forced = True
        elif word.startswith("-") and not word.startswith("--"):
            recursive |= "r" in word or "R" in word
            forced |= "f" in word
    return recursive and forced


def _guard(spelling: str) -> None:
    at = spelling.find("rm")
    if at >= 0 and any(t in spelling[at:] for t in (" /", "~", "../", " ..", "$HOME")):
        raise ValueError(f"refusing to run {spelling!r}: an rm that may reach outside the sandbox")


def _stubs(root: str, log: str) -> None:
    bindir = os.path.join(root, "bin")
    os.makedirs(bindir)
    scripts = {os.path.join(bindir, "git"): _logger(log, "git") + f'exec {REAL_GIT} "$@"\n',
               os.path.join(root, "git-core", "git"): _logger(log, "git")
               + f'exec {_TEMPLATE["git"]} "$@"\n',
               os.path.join(bindir, "rm"): _logger(log, "rm"),
               os.path.join(bindir, "curl"): _logger(log, "curl")}
    for path, text in scripts.items():
        with open(path, "w") as f:
            f.write(text)
        os.chmod(path, 0o755)


def _drain(fd: int, out: list) -> None:
    while True:
        try:
            ready, _, _ = select.select([fd], [], [], TIMEOUT)
            if not ready:
                return
            chunk = os.read(fd, 65536)
        except OSError:
            return
        if not chunk:
            return
        out.append(chunk)


def run(spelling: str) -> Run:
    """Run `spelling` with real bash in a fresh sandbox (see the module's docstring)."""
    _guard(spelling)
    with tempfile.TemporaryDirectory(prefix="bash-oracle-") as tmp:
        root = os.path.join(tmp, "s")
        template = _template()
        shutil.copytree(template, root, symlinks=True)
        config = os.path.join(root, "repo", ".git", "config")
        with open(config) as f:
            text = f.read()
        with open(config, "w") as f:  # origin: this sandbox's own remote
            f.write(text.replace(template, root))
        log = os.path.join(root, "log")
        os.makedirs(log)
        _stubs(root, log)
        env = _base_env(root)
        env.update(PATH=os.path.join(root, "bin") + ":/usr/bin:/bin", EDITOR="true",
                   PAGER="cat", TERM="xterm", GIT_EXEC_PATH=os.path.join(root, "git-core"),
                   GIT_TRACE=os.path.join(root, "git-trace.log"))
        master, slave = pty.openpty()
        out: list = []
        reader = threading.Thread(target=_drain, args=(master, out), daemon=True)
        reader.start()
        try:
            proc = subprocess.Popen([BASH, "--norc", "--noprofile", "-c", spelling],
                                    cwd=os.path.join(root, "repo"), env=env,
                                    stdin=subprocess.DEVNULL, stdout=slave, stderr=slave,
                                    start_new_session=True)
            os.close(slave)
            try:
                code = proc.wait(timeout=TIMEOUT)
            except subprocess.TimeoutExpired:
                os.killpg(proc.pid, 9)
                code = None
                proc.wait()
            reader.join(2)
        finally:
            os.close(master)
        calls = []
        for name in sorted(os.listdir(log)):
            with open(os.path.join(log, name), "rb") as f:
                words = f.read().decode("utf-8", "surrogateescape").split("\0")
            calls.append(words[:-1] if words and words[-1] == "" else words)
        calls += _traced_git_calls(os.path.join(root, "git-trace.log"))
        pushed = subprocess.run([REAL_GIT, "--git-dir", os.path.join(root, "remote.git"),
                                 "rev-parse", "-q", "--verify", "refs/heads/main"],
                                capture_output=True, env=_base_env(root)).returncode == 0
        return Run(calls, pushed, b"".join(out).decode("utf-8", "replace"), code)


def _traced_git_calls(path: str) -> list:
    """Every git command the real git ran, from its GIT_TRACE log (`trace: built-in: git push
    pu`): also the ones no stub saw (`/usr/bin/git push`, git-core's programs run directly)."""
    import shlex

    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
    except OSError:
        return []
    calls = []
    for line in lines:
        _, found, rest = line.partition("trace: built-in: ")
        if found:
            try:
                calls.append(shlex.split(rest))
            except ValueError:
                continue
    return calls


def ran(spelling: str, denied: str) -> bool:
    """Whether real bash runs `denied` for `spelling`."""
    return run(spelling).ran(denied)
