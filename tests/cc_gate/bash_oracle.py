"""Bash oracles for the gate's attack corpus: what does real bash run for a spelling?

Two oracles, for two kinds of attack:

- `BashOracle` (static spellings: braces, git's exec path, `env -S`, launchers, shells fed
  code): stub programs that only log, nothing real runs;
- `run(spelling)` / `ran(spelling, denied)` (hidden commands: git aliases and config,
  GIT_* variables, trap, source, startup variables): the real git runs, since its aliases,
  config entries, editors, pagers and hooks are what those spellings abuse.

## BashOracle

`BashOracle().run(spelling)` runs the spelling with `bash -c` in an empty temporary folder,
with stub programs `git`, `rm` and `curl` first on the PATH. Each stub appends its argv (its
own name first, `git-push` logged as `git push`) to a log whose path is written in the stub
(`env -i` cannot lose it), and does nothing else, so `rm -rf`
removes nothing and `git push` pushes nothing. The git exec path is a folder of stubs too
(`git-push`, `git-status`, …: every program of the real `/usr/lib/git-core`), and the stub
`git --exec-path` prints it.

Absolute paths (`/usr/lib/git-core/git-push`, `/usr/bin/git`) would run the real programs, so
when the oracle can make a private mount namespace (`unshare -m`, as root; else `unshare -rm`)
it binds the stubs over `/usr/lib/git-core`, `/usr/bin/git`, `/usr/bin/rm` and
`/usr/bin/curl` for that one run, and the stub git prints the real exec path. Without a mount
namespace, `needs_mounts(spelling)` says which spellings it cannot check.

`saw(spelling, denied)`: whether bash ran `denied` (`git push`, `rm -rf`, `curl`), its words
first, as the program's argv (git's global options `-C x`, `-c a=b` allowed between).

## run / ran

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
GIT_CORE = "/usr/lib/git-core"
STUBBED = ("git", "rm", "curl")
_SEP = "\x1f"
_STUB = r"""#!/bin/sh
n=${0##*/}
case $n in git-*) set -- "${n#git-}" "$@"; n=git;; esac
if [ "$n" = git ] && [ "$1" = --exec-path ]; then printf '%%s\n' "%s"; exit 0; fi
{ printf '%%s' "$n"; for a in "$@"; do printf '\037%%s' "$a"; done; printf '\n'; } >> "%s"
"""


def _mount_prefix():
    """The `unshare` words that give a private mount namespace here, or None."""
    unshare = shutil.which("unshare")
    if unshare is None or BASH is None:
        return None
    for words in ([unshare, "-m"], [unshare, "-rm"]):
        try:
            proc = subprocess.run(words + ["--", BASH, "-c", "mount --bind /tmp /mnt"],
                                  stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                                  timeout=10)
        except (OSError, subprocess.SubprocessError):
            continue
        if proc.returncode == 0:
            return words
    return None


class BashOracle:
    def __init__(self):
        self.root = tempfile.mkdtemp(prefix="cc-oracle-")
        self.mounts = _mount_prefix()
        core_shown = GIT_CORE if self.mounts else os.path.join(self.root, "git-core")
        self.bin = os.path.join(self.root, "bin")
        self.core = os.path.join(self.root, "git-core")
        os.makedirs(self.bin)
        os.makedirs(self.core)
        self.log = os.path.join(self.root, "log")
        stub = _STUB % (core_shown, self.log)
        names = set()
        if os.path.isdir(GIT_CORE):
            names = {n for n in os.listdir(GIT_CORE) if n.startswith("git-")}
        names |= {"git", "git-push", "git-status", "git-log", "git-fetch"}
        for folder, progs in ((self.bin, STUBBED + ("git-push",)), (self.core, sorted(names))):
            for name in progs:
                path = os.path.join(folder, name)
                with open(path, "w", encoding="utf-8") as f:
                    f.write(stub)
                os.chmod(path, 0o755)
        # git-push on the PATH too: `git-push` alone runs where git's exec path is on it
        os.remove(os.path.join(self.bin, "git-push"))

    def close(self):
        shutil.rmtree(self.root, ignore_errors=True)

    def needs_mounts(self, spelling: str) -> bool:
        return any(p in spelling for p in (GIT_CORE, "/usr/bin/", "/bin/"))

    def run(self, spelling: str, timeout: float = 20) -> list:
        """The argv of every stub bash ran for `spelling` (a list of lists)."""
        work = tempfile.mkdtemp(dir=self.root, prefix="w")
        log = self.log  # the stubs' own (a spelling may clear the environment)
        open(log, "w").close()
        env = {"PATH": f"{self.bin}:/usr/local/bin:/usr/bin:/bin:/usr/sbin:/sbin", "HOME": work,
               "SHELL": "/bin/sh", "TERM": "dumb", "LC_ALL": "C.UTF-8",
               "npm_config_update_notifier": "false", "npm_config_yes": "true",
               "npm_config_cache": os.path.join(self.root, "npm-cache"),
               "PARALLEL_HOME": os.path.join(work, ".parallel")}
        argv = [BASH, "-c", spelling]
        if self.mounts is not None:
            binds = [f"mount --bind {self.core} {GIT_CORE}"] if os.path.isdir(GIT_CORE) else []
            for name in STUBBED:
                if os.path.exists(f"/usr/bin/{name}"):
                    binds.append(f"mount --bind {self.bin}/{name} /usr/bin/{name}")
            setup = " && ".join(binds) + ' && exec "$0" -c "$1"' if binds else 'exec "$0" -c "$1"'
            argv = self.mounts + ["--", BASH, "-c", setup, BASH, spelling]
        try:
            subprocess.run(argv, cwd=work, env=env, stdin=subprocess.DEVNULL,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                           timeout=timeout)
        except subprocess.TimeoutExpired:
            pass
        with open(log, encoding="utf-8", errors="replace") as f:
            lines = f.read().splitlines()
        shutil.rmtree(work, ignore_errors=True)
        return [line.split(_SEP) for line in lines]

    def saw(self, spelling: str, denied: str, timeout: float = 20) -> bool:
        return any(ran_denied(argv, denied) for argv in self.run(spelling, timeout))


def ran_denied(argv: list, denied: str) -> bool:
    """`argv` runs `denied`: its words first, git's global options allowed between."""
    words = denied.split()
    if argv[:1] != words[:1]:
        return False
    rest = argv[1:]
    if words[0] == "git":
        while rest and rest[0].startswith("-"):
            rest = rest[2:] if rest[0] in ("-C", "-c") else rest[1:]
    return rest[:len(words) - 1] == words[1:]


def read_corpus(path: str):
    """(denied command, [spellings]) of an attacks/*.txt file: one bash spelling a line,
    `#` comment lines and blank lines ignored; the first comment line is `# denied: CMD`."""
    denied = None
    spellings = []
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f):
            line = line.rstrip("\n")
            stripped = line.strip()
            if number == 0:
                if not stripped.startswith("# denied:"):
                    raise ValueError(f"{path}: the first line is not '# denied: CMD'")
                denied = stripped.split(":", 1)[1].strip()
            elif stripped and not stripped.startswith("#"):
                spellings.append(line)
    return denied, spellings


# -- the real-git oracle (hidden commands) ------------------------------------------------

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
    if at >= 0 and any(t in spelling[at:] for t in (" /", "~", "..", "$HOME")):
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
                   PAGER="cat", TERM="xterm", GIT_EXEC_PATH=os.path.join(root, "git-core"))
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
        pushed = subprocess.run([REAL_GIT, "--git-dir", os.path.join(root, "remote.git"),
                                 "rev-parse", "-q", "--verify", "refs/heads/main"],
                                capture_output=True, env=_base_env(root)).returncode == 0
        return Run(calls, pushed, b"".join(out).decode("utf-8", "replace"), code)


def ran(spelling: str, denied: str) -> bool:
    """Whether real bash runs `denied` for `spelling`."""
    return run(spelling).ran(denied)
