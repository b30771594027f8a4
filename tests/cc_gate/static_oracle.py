"""A bash oracle for the gate's attack corpus: what does real bash run for a spelling?

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
"""
import os
import shutil
import subprocess
import tempfile

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
