"""The real agent clients as a test bench: what every `tests/agents/<agent>/` shares.

- `install_client(name)`: the pinned client from the npm registry (PyPI for `PYPI_CLIENTS`: a
  venv of its own, made with a Python the package supports, found on the PATH or in pyenv),
  installed once per machine into a world-readable cache (`CTXCRL_AGENTS_CACHE`, default
  `/var/tmp/ctxcrl-agents`); `client_env(name)` is what its environment needs. When the
  registry cannot be reached the test is **skipped with the reason** (pytest `-ra` prints
  it), never silently passed.
- `agent_user()`: the ordinary user the clients run as (Claude Code refuses bypassPermissions
  as root). As root it is `ctxagent`, created on first use; otherwise the current user.
- `product_venv()`: contextcrawler installed from this checkout (non-editable, like a user's
  `pip install .`) into a venv the agent user can read, once per test session.
- `Workspace`: a fresh HOME and a git project with a local bare remote, owned by the agent
  user, so "a denied push never lands" is a fact read off the remote.
- `ScriptedServer`: a model server on 127.0.0.1 (port 0) in a thread, for the agents' wire
  protocols (each agent's folder subclasses it). It logs every request it gets, answers from a
  script, and stops itself after `lifetime` seconds whatever happens.
- `run_as_agent(argv, ws, ...)`: run a client as the agent user, with a hard timeout.
- `Tmux`: a client's interactive session in tmux as the agent user (type, read the screen).
- `rust_bin()`: a directory with `cargo` and `rustc` the agent user can run (this machine's
  Rust toolchain, made reachable once), or None; `Workspace.env()` puts it on the agent's PATH
  (`agent_path()`), so every table can run `cargo test` where the machine has a toolchain.

Nothing here talks to anything but the package registries (install) and 127.0.0.1.
"""
from __future__ import annotations

import hashlib
import http.server
import json
import os
import pwd
import shlex
import shutil
import socketserver
import subprocess
import sys
import tempfile
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
CACHE = Path(os.environ.get("CTXCRL_AGENTS_CACHE", "/var/tmp/ctxcrl-agents"))
AGENT_USER = "ctxagent"

#: name → (npm package, pinned version, binary name). Bump a version only after re-checking the
#: client's behaviour (ARCHITECTURE §8) and, for Claude Code, its built-in auto-allow list.
#: `CTXCRL_CLAUDE_VERSION=2.1.197` runs the Claude Code tests on the previous pin (its table of
#: outcomes and its read-only tables are kept).
CLIENTS = {
    "claude": ("@anthropic-ai/claude-code", os.environ.get("CTXCRL_CLAUDE_VERSION") or "2.1.332",
               "claude"),
    "codex": ("@openai/codex", "0.171.0", "codex"),
    "gemini": ("@google/gemini-cli", "0.61.0", "gemini"),
    "opencode": ("opencode-ai", "1.18.33", "opencode"),
    "copilot": ("@github/copilot", "1.0.102", "copilot"),
    "qwen": ("@qwen-code/qwen-code", "0.24.4", "qwen"),
    "kilo": ("@kilocode/cli", "7.7.7", "kilo"),
    "pi": ("@mariozechner/pi-coding-agent", "0.73.1", "pi"),
    "cline": ("cline", "3.0.65", "cline"),
    "vibe": ("mistral-vibe", "3.0.2", "vibe"),  # PyPI (3.0.3 pins a certifi the registry lacks)
}
#: The clients that come from PyPI, not npm: name → the oldest Python their package runs on.
PYPI_CLIENTS = {
    "vibe": (3, 12),
}

#: Outcomes of one scenario, as the real client showed them.
RAN = "ran"            # the command ran (with or without a prompt that was auto-approved)
PROMPT = "prompt"      # the client wanted the user's approval (headless: refused for approval)
REFUSED = "refused"    # a deny: the client refused it


def _writable_tree(path: Path) -> None:
    for dirpath, dirnames, filenames in os.walk(path):
        os.chmod(dirpath, 0o755)
        for name in filenames:
            p = os.path.join(dirpath, name)
            if not os.path.islink(p):
                os.chmod(p, os.stat(p).st_mode | 0o444)


def client_version(name: str) -> str:
    """The version the tables run: the pinned one, or `CTXCRL_CLIENT_VERSION_<AGENT>`
    (`just clients-latest` sets it to the package's newest release)."""
    return os.environ.get(f"CTXCRL_CLIENT_VERSION_{name.upper()}") or CLIENTS[name][1]


def install_client(name: str) -> Path:
    """The client's executable at `client_version(name)`, installed from its registry (npm, or
    PyPI for `PYPI_CLIENTS`) once per machine and version. Run it with `client_env(name)`."""
    package, _pinned, binary = CLIENTS[name]
    version = client_version(name)
    if name in PYPI_CLIENTS:
        return _install_pypi(name, package, version, binary)
    if shutil.which("npm") is None:
        pytest.skip(f"{name}: npm is not installed, so {package}@{version} cannot be installed")

    def npm_install(tmp: Path):
        proc = subprocess.run(
            ["npm", "install", "--prefix", str(tmp), "--no-fund", "--no-audit",
             "--loglevel=error", f"{package}@{version}"],
            capture_output=True, text=True, timeout=900)
        return None if proc.returncode == 0 else proc

    return _install_once(name, f"{package}@{version} from the npm registry",
                         CACHE / f"{name}-{version}", Path("node_modules") / ".bin" / binary,
                         npm_install)


def _install_once(name: str, what: str, prefix: Path, exe: Path, install,
                  relocatable: bool = True) -> Path:
    """`prefix / exe`, after `install(folder)` (None, or the failed CompletedProcess) filled a
    folder of the world-readable cache; a failure skips the test with the installer's last
    lines. A relocatable install is made aside and renamed into place (another process may be
    installing the same); a venv, whose scripts name its own path, is made in place and counts
    only once its `.installed` mark is written."""
    done = prefix / exe if relocatable else prefix / ".installed"
    if done.exists():
        return prefix / exe
    CACHE.mkdir(parents=True, exist_ok=True)
    os.chmod(CACHE, 0o755)
    if relocatable:
        target = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=CACHE))
    else:
        shutil.rmtree(prefix, ignore_errors=True)  # a half-made one from a run that died
        prefix.mkdir()
        target = prefix
    failed = install(target)
    if failed is not None or not (target / exe).exists():
        shutil.rmtree(target, ignore_errors=True)
        tail = ((failed.stderr or failed.stdout) if failed is not None
                else f"no {exe} after the install").strip().splitlines()[-3:]
        short = (line if len(line) <= 300 else line[:300] + " …" for line in tail)
        pytest.skip(f"{name}: cannot install {what}: " + " | ".join(short))
    _writable_tree(target)
    if not relocatable:
        done.write_text("")
    else:
        try:
            target.rename(prefix)
        except OSError:  # another process installed it meanwhile
            shutil.rmtree(target, ignore_errors=True)
    return prefix / exe


def _python_version(python: str) -> tuple | None:
    try:
        done = subprocess.run([python, "-c", "import sys, venv; print(*sys.version_info[:3])"],
                              capture_output=True, text=True, timeout=30)
    except (OSError, subprocess.TimeoutExpired):
        return None
    parts = done.stdout.split()
    return tuple(int(p) for p in parts) if done.returncode == 0 and len(parts) == 3 else None


def python_at_least(minimum: tuple) -> tuple[str, tuple] | None:
    """(path, version) of a Python ≥ `minimum` on this machine, the newest found: the
    `python3.N` commands on the PATH (a pyenv shim that is not selected fails and is passed
    over), then pyenv's installed versions (`pyenv root`, `$PYENV_ROOT`, `~/.pyenv`)."""
    candidates = []
    for minor in range(minimum[1] + 4, minimum[1] - 1, -1):
        found = shutil.which(f"python{minimum[0]}.{minor}")
        if found:
            candidates.append(found)
    roots = [os.environ.get("PYENV_ROOT"), str(Path.home() / ".pyenv")]
    if shutil.which("pyenv"):
        roots.insert(0, subprocess.run(["pyenv", "root"], capture_output=True,
                                       text=True).stdout.strip())
    for root in dict.fromkeys(r for r in roots if r):
        versions = Path(root) / "versions"
        if versions.is_dir():
            candidates += sorted((str(p) for p in versions.glob("*/bin/python3.*")
                                  if p.name.count(".") == 1 and p.name[8:].isdigit()),
                                 reverse=True)
    best = None
    for candidate in candidates:
        version = _python_version(candidate)
        if version and version[:2] >= minimum and (best is None or version > best[1]):
            best = (os.path.realpath(candidate), version)
    return best


def _python_for_agent(python: str, version: tuple) -> tuple[str, dict]:
    """(interpreter, environment it needs) the agent user can run: `python` itself when
    others can reach it, else a copy of its installation in the cache (a pyenv under /root,
    mode 0700, is not reachable), without its tests and site-packages; the copy finds its
    libpython through LD_LIBRARY_PATH (the binary's RUNPATH names the original folder)."""
    if os.geteuid() != 0 or _reachable_by_others(python):
        return python, {}
    prefix = Path(python).parent.parent
    copy = CACHE / f"python-{'.'.join(map(str, version))}"
    major_minor = f"python{version[0]}.{version[1]}"
    if not (copy / ".installed").exists():
        shutil.rmtree(copy, ignore_errors=True)
        CACHE.mkdir(parents=True, exist_ok=True)
        os.chmod(CACHE, 0o755)
        skip = shutil.ignore_patterns("test", "site-packages", "config-*", "idlelib",
                                      "tkinter", "turtledemo", "*.a")
        shutil.copytree(prefix / "bin", copy / "bin", symlinks=True,
                        ignore=shutil.ignore_patterns("*-config", "idle*", "pydoc*", "2to3*"))
        shutil.copytree(prefix / "lib", copy / "lib", symlinks=True, ignore=skip)
        (copy / "lib" / major_minor / "site-packages").mkdir(exist_ok=True)
        if (prefix / "include").is_dir():
            shutil.copytree(prefix / "include", copy / "include", symlinks=True)
        _writable_tree(copy)
        (copy / ".installed").write_text("")
    return str(copy / "bin" / major_minor), {"LD_LIBRARY_PATH": str(copy / "lib")}


def _install_pypi(name: str, package: str, version: str, binary: str) -> Path:
    """A PyPI client in a venv of its own, made with a Python its package supports."""
    minimum = PYPI_CLIENTS[name]
    found = python_at_least(minimum)
    wanted = ".".join(map(str, minimum))
    if found is None:
        pytest.skip(f"{name}: {package} needs Python ≥ {wanted} and none is installed here "
                    f"(looked for python{wanted}+ on the PATH and in pyenv)")
    python, env = _python_for_agent(*found)
    env = dict(os.environ, **env)

    def pip_install(venv: Path):
        made = subprocess.run([python, "-m", "venv", str(venv)], capture_output=True,
                              text=True, env=env)
        if made.returncode != 0:
            return made
        proc = subprocess.run(
            [str(venv / "bin" / "python"), "-m", "pip", "install", "-q",
             "--disable-pip-version-check", f"{package}=={version}"],
            capture_output=True, text=True, timeout=1800, env=env)
        return None if proc.returncode == 0 else proc

    exe = _install_once(name, f"{package}=={version} from PyPI",
                        CACHE / f"{name}-{version}", Path("bin") / binary, pip_install,
                        relocatable=False)
    _CLIENT_ENV[name] = {k: v for k, v in env.items() if k == "LD_LIBRARY_PATH"}
    return exe


_CLIENT_ENV: dict = {}


def client_env(name: str) -> dict:
    """What the environment of a client installed by `install_client` must hold (a PyPI
    client on a copied interpreter: its LD_LIBRARY_PATH); empty for the others."""
    return dict(_CLIENT_ENV.get(name, {}))


@dataclass(frozen=True)
class AgentUser:
    name: str
    uid: int
    gid: int


def agent_user() -> AgentUser:
    if os.geteuid() != 0:
        pw = pwd.getpwuid(os.geteuid())
        return AgentUser(pw.pw_name, pw.pw_uid, pw.pw_gid)
    try:
        pw = pwd.getpwnam(AGENT_USER)
    except KeyError:
        subprocess.run(["useradd", "--create-home", "--shell", "/bin/bash", AGENT_USER],
                       check=True, capture_output=True)
        pw = pwd.getpwnam(AGENT_USER)
    return AgentUser(pw.pw_name, pw.pw_uid, pw.pw_gid)


_VENV: Path | None = None


def _reachable_by_others(path: str) -> bool:
    """Can any user run `path` (every directory on the way searchable, the file executable)?"""
    p = Path(path)
    try:
        return all(os.stat(d).st_mode & 0o001 for d in p.parents) and \
            bool(os.stat(p).st_mode & 0o001)
    except OSError:
        return False


def agent_python() -> str:
    """An interpreter the agent user can run: this one unless it lives somewhere only root can
    reach (a pyenv under /root), else the system's python3."""
    base = os.path.realpath(getattr(sys, "_base_executable", None) or sys.executable)
    if os.geteuid() != 0 or _reachable_by_others(base):
        return base
    for candidate in ("/usr/bin/python3", "/usr/local/bin/python3"):
        if _reachable_by_others(os.path.realpath(candidate)):
            return candidate
    return base


def product_venv() -> Path:
    """A venv with contextcrawler installed from this checkout; returns its bin directory."""
    global _VENV
    if _VENV is not None:
        return _VENV
    digest = hashlib.sha256(str(ROOT).encode()).hexdigest()[:10]
    base = Path(tempfile.mkdtemp(prefix=f"ctxcrl-venv-{digest}-"))
    os.chmod(base, 0o755)
    subprocess.run([agent_python(), "-m", "venv", str(base)], check=True)
    pip = [str(base / "bin" / "python"), "-m", "pip", "install", "-q"]
    subprocess.run(pip + ["--upgrade", "pip"], check=True, capture_output=True)
    build = Path(tempfile.mkdtemp(prefix="ctxcrl-src-"))
    src = build / "src"
    shutil.copytree(ROOT, src, ignore=shutil.ignore_patterns(
        ".git", ".venv", ".ci", ".tools", "__pycache__", "*.egg-info", "build", "snapshots",
        "fixtures"))
    proc = subprocess.run(pip + [str(src)], capture_output=True, text=True)
    shutil.rmtree(build, ignore_errors=True)
    if proc.returncode != 0:
        raise RuntimeError(f"pip install of the checkout failed: {proc.stderr[-2000:]}")
    _writable_tree(base)
    _VENV = base / "bin"
    return _VENV


_RUST: list = []


def _toolchain_of(cargo: str) -> Path | None:
    """The toolchain directory behind `cargo` (a rustup proxy answers `rustup which`)."""
    real = Path(os.path.realpath(cargo))
    if real.name == "rustup":
        done = subprocess.run([str(real), "which", "cargo"], capture_output=True, text=True)
        if done.returncode != 0 or not done.stdout.strip():
            return None
        real = Path(os.path.realpath(done.stdout.strip()))
    return real.parent.parent if (real.parent / "rustc").exists() else None


def rust_bin() -> Path | None:
    """A bin directory holding `cargo` and `rustc` that the agent user can run, or None when
    this machine has no Rust toolchain. A toolchain under a folder only root can enter (root's
    rustup: /root is 0700) is linked once, file by file (`cp -al`: no copy, the same files),
    into the client cache, where the agent user reaches it."""
    if _RUST:
        return _RUST[0]
    found = None
    cargo = shutil.which("cargo") or next(
        (c for c in (os.path.expanduser("~/.cargo/bin/cargo"),) if os.path.exists(c)), None)
    toolchain = _toolchain_of(cargo) if cargo else None
    if toolchain is not None:
        if os.geteuid() != 0 or _reachable_by_others(str(toolchain / "bin" / "cargo")):
            found = toolchain / "bin"
        else:
            linked = CACHE / f"rust-{toolchain.name}"
            if not (linked / "bin" / "cargo").exists():
                CACHE.mkdir(parents=True, exist_ok=True)
                os.chmod(CACHE, 0o755)
                tmp = Path(tempfile.mkdtemp(prefix="rust-", dir=CACHE))
                done = subprocess.run(["cp", "-al", str(toolchain), str(tmp / "t")],
                                      capture_output=True, text=True)
                if done.returncode == 0:
                    for dirpath, _dirs, _files in os.walk(tmp):
                        os.chmod(dirpath, 0o755)  # the new folders only: the files are shared
                    try:
                        (tmp / "t").rename(linked)
                    except OSError:  # another process linked it meanwhile
                        pass
                shutil.rmtree(tmp, ignore_errors=True)
            if (linked / "bin" / "cargo").exists():
                found = linked / "bin"
    _RUST.append(found)
    return found


def agent_path(*first) -> str:
    """The agent's PATH: `first`, the product's bin dir, the Rust toolchain (when there is
    one), then the system's."""
    rust = rust_bin()
    parts = [*map(str, first), str(product_venv()), *([str(rust)] if rust else []),
             "/usr/local/bin", "/usr/bin", "/bin"]
    return ":".join(parts)


def chown_tree(path: Path, user: AgentUser) -> None:
    for dirpath, dirnames, filenames in os.walk(path):
        os.lchown(dirpath, user.uid, user.gid)
        for name in filenames:
            os.lchown(os.path.join(dirpath, name), user.uid, user.gid)


@dataclass
class Workspace:
    """A fresh HOME and a git project (`project`) whose `origin` is a local bare repo."""
    root: Path
    user: AgentUser
    home: Path = field(init=False)
    project: Path = field(init=False)
    remote: Path = field(init=False)

    def __post_init__(self):
        os.chmod(self.root, 0o755)
        self.home = self.root / "home"
        self.project = self.home / "project"
        self.remote = self.root / "remote.git"
        self.home.mkdir()
        git = ["git", "-c", "init.defaultBranch=main"]
        subprocess.run(git + ["init", "-q", "--bare", str(self.remote)], check=True)
        self.project.mkdir()
        subprocess.run(git + ["init", "-q", str(self.project)], check=True)
        (self.project / "README.md").write_text("# demo\n")
        (self.project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
        (self.project / "test_calc.py").write_text(
            "from calc import add\n\n\ndef test_add():\n    assert add(2, 3) == 5\n")
        run = dict(cwd=self.project, check=True, capture_output=True)
        ident = ["-c", "user.name=Dev", "-c", "user.email=dev@example.invalid"]
        subprocess.run(["git", *ident, "add", "."], **run)
        subprocess.run(["git", *ident, "commit", "-q", "-m", "initial"], **run)
        subprocess.run(["git", "remote", "add", "origin", str(self.remote)], **run)
        subprocess.run(["git", "push", "-q", "origin", "HEAD:main"], **run)
        (self.home / ".gitconfig").write_text(
            "[user]\n\tname = Dev\n\temail = dev@example.invalid\n"
            f"[safe]\n\tdirectory = *\n")
        chown_tree(self.root, self.user)

    def commit_history(self, count: int, path: str = "notes.txt") -> None:
        """`count` more local commits editing `path`: a history worth compacting (`git log`),
        ahead of the remote (a push would land something)."""
        run = dict(cwd=self.project, check=True, capture_output=True)
        ident = ["-c", "safe.directory=*", "-c", "user.name=Dev",
                 "-c", "user.email=dev@example.invalid"]
        for i in range(count):
            (self.project / path).write_text(f"note {i}\n")
            subprocess.run(["git", *ident, "add", path], **run)
            subprocess.run(["git", *ident, "commit", "-q", "-m", f"note {i}: keep a record"],
                           **run)
        chown_tree(self.project, self.user)

    def remote_head(self) -> str:
        return subprocess.run(["git", "--git-dir", str(self.remote), "rev-parse", "main"],
                              capture_output=True, text=True).stdout.strip()

    def env(self, extra: dict | None = None) -> dict:
        """The agent's environment: this HOME, the product's bin dir (and the Rust toolchain,
        `rust_bin()`) on PATH, no host secrets."""
        env = {"HOME": str(self.home), "USER": self.user.name, "LOGNAME": self.user.name,
               "PATH": agent_path(), "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1",
               "TMPDIR": str(self.root / "tmp"), "CARGO_NET_OFFLINE": "true"}
        (self.root / "tmp").mkdir(exist_ok=True)
        os.chown(self.root / "tmp", self.user.uid, self.user.gid)
        env.update(extra or {})
        return env

    def write(self, relative: str, text: str) -> Path:
        """Write a file under HOME (e.g. settings), owned by the agent user."""
        path = self.home / relative
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text)
        for p in [path, *path.parents]:
            if p == self.home:
                break
            os.lchown(p, self.user.uid, self.user.gid)
        return path


def can_bind_mount() -> bool:
    """Whether `run_as_agent(..., binds=…)` works here (root, and `unshare -m` allowed)."""
    if os.geteuid() != 0 or not shutil.which("unshare") or not shutil.which("setpriv"):
        return False
    return subprocess.run(["unshare", "-m", "true"], capture_output=True).returncode == 0


def run_as_agent(argv: list, ws: Workspace, env: dict | None = None, cwd: Path | None = None,
                 timeout: float = 120, stdin: str | None = None,
                 binds: dict | None = None) -> subprocess.CompletedProcess:
    """Run argv as the agent user. A client that hangs past `timeout` is killed (group).

    `binds` ({system directory: workspace directory}, root only, see `can_bind_mount`) mounts
    the workspace directories over system ones in a private mount namespace for this run alone
    (e.g. /etc/claude-code: managed settings without touching the machine's)."""
    kwargs = {}
    if binds:
        mounts = " && ".join(f"mount --bind {shlex.quote(str(src))} {shlex.quote(str(dst))}"
                             for dst, src in binds.items())
        for dst in binds:
            os.makedirs(dst, exist_ok=True)  # an empty mount point changes nothing outside
        argv = ["unshare", "-m", "--propagation", "private", "sh", "-c",
                f'{mounts} && exec setpriv --reuid={ws.user.uid} --regid={ws.user.gid} '
                f'--clear-groups -- "$@"', "sh", *argv]
    elif os.geteuid() == 0:
        kwargs = dict(user=ws.user.uid, group=ws.user.gid, extra_groups=[])
    proc = subprocess.Popen(argv, cwd=cwd or ws.project, env=ws.env(env), text=True,
                            stdin=subprocess.PIPE if stdin is not None else subprocess.DEVNULL,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                            start_new_session=True, **kwargs)
    try:
        out, err = proc.communicate(stdin, timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, 9)
        out, err = proc.communicate()
        err += f"\n[harness: killed after {timeout}s]"
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


class ScriptedServer:
    """A model server on 127.0.0.1 that answers from a script and logs what it receives.

    Subclasses implement `respond(handler, body) -> (status, headers, bytes | iterable)` for
    their protocol. `requests` holds (method, path, headers, parsed JSON body or raw text) in
    arrival order. The server stops itself after `lifetime` seconds; `stop()` (also on leaving
    the `with` block) stops it at once.
    """

    def __init__(self, lifetime: float = 300):
        self.requests: list = []
        self.lifetime = lifetime
        server = self

        class Handler(http.server.BaseHTTPRequestHandler):
            protocol_version = "HTTP/1.1"

            def log_message(self, *args):
                pass

            def _serve(self):
                length = int(self.headers.get("Content-Length") or 0)
                raw = self.rfile.read(length) if length else b""
                try:
                    body = json.loads(raw) if raw else None
                except ValueError:
                    body = raw.decode("utf-8", "replace")
                server.requests.append((self.command, self.path, dict(self.headers), body))
                status, headers, payload = server.respond(self, body)
                if isinstance(payload, (bytes, str)):
                    data = payload.encode() if isinstance(payload, str) else payload
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Content-Length", str(len(data)))
                    self.end_headers()
                    self.wfile.write(data)
                else:  # a stream (SSE): no length, close at the end
                    self.send_response(status)
                    for k, v in headers.items():
                        self.send_header(k, v)
                    self.send_header("Connection", "close")
                    self.end_headers()
                    for chunk in payload:
                        self.wfile.write(chunk.encode() if isinstance(chunk, str) else chunk)
                        self.wfile.flush()
                    self.close_connection = True

            do_GET = do_POST = do_PUT = _serve

        class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
            daemon_threads = True
            allow_reuse_address = True

        self.httpd = Server(("127.0.0.1", 0), Handler)
        self.port = self.httpd.server_address[1]
        self.url = f"http://127.0.0.1:{self.port}"
        self.thread = threading.Thread(target=self.httpd.serve_forever, daemon=True)
        self.timer = threading.Timer(lifetime, self.stop)
        self.timer.daemon = True

    def respond(self, handler, body):
        raise NotImplementedError

    def start(self) -> "ScriptedServer":
        self.thread.start()
        self.timer.start()
        return self

    def stop(self) -> None:
        self.timer.cancel()
        self.httpd.shutdown()
        self.httpd.server_close()

    def __enter__(self):
        return self.start()

    def __exit__(self, *exc):
        self.stop()


class Tmux:
    """An interactive client in a tmux session of its own, as the agent user: `start(argv)`,
    `screen()` (the visible screen), `keys(...)` (tmux send-keys), `stop()`. Needs tmux
    (Debian package `tmux`); without it the test is skipped with the reason."""

    def __init__(self, ws: Workspace, name: str, width: int = 200, height: int = 50):
        found = shutil.which("tmux")
        if found is None:
            pytest.skip("tmux is not installed (apt-get install tmux): the interactive client "
                        "cannot be driven")
        self.ws, self.name, self.size = ws, name, (width, height)
        self.base = [found, "-S", str(ws.root / f"{name}.sock")]

    def start(self, argv: list, env: dict) -> None:
        """Run argv in the project with exactly `env` (a terminal's TERM, colours on)."""
        exports = " ".join(f"{k}={shlex.quote(v)}" for k, v in env.items())
        inner = f"cd {shlex.quote(str(self.ws.project))} && exec env -i {exports} " + \
            " ".join(shlex.quote(str(a)) for a in argv)
        if os.geteuid() == 0:
            inner = (f"exec setpriv --reuid={self.ws.user.uid} --regid={self.ws.user.gid} "
                     f"--clear-groups -- sh -c {shlex.quote(inner)}")
        width, height = self.size
        subprocess.run(self.base + ["new-session", "-d", "-s", self.name, "-x", str(width),
                                    "-y", str(height), inner], check=True,
                       env={"PATH": "/usr/bin:/bin", "TERM": "xterm-256color"})

    def screen(self) -> str:
        """The visible screen only (an old dialog may still be in the history)."""
        return subprocess.run(self.base + ["capture-pane", "-p", "-t", self.name],
                              capture_output=True, text=True).stdout

    def keys(self, *keys: str) -> None:
        subprocess.run(self.base + ["send-keys", "-t", self.name, *keys], capture_output=True)

    def stop(self) -> None:
        """End the session, and whatever the client left running from its workspace (Codex's
        TUI starts an app-server daemon from a copy under HOME that outlives the terminal)."""
        subprocess.run(self.base + ["kill-server"], capture_output=True)
        stop_strays(self.ws)


def stop_strays(ws: Workspace) -> list:
    """Stop the agent user's processes whose program lives under the workspace's root (by
    PID, each one found): what a client left behind there. Returns the PIDs stopped."""
    import signal

    root = str(ws.root).rstrip("/") + "/"
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            if os.stat(f"/proc/{entry}").st_uid != ws.user.uid:
                continue
            with open(f"/proc/{entry}/cmdline", "rb") as f:
                program = f.read().split(b"\0", 1)[0].decode(errors="replace")
        except OSError:
            continue
        if program.startswith(root):
            found.append(int(entry))
    for pid in found:
        try:
            os.kill(pid, signal.SIGKILL)
        except OSError:
            pass
    return found


def wait_for(predicate, timeout: float = 10.0, step: float = 0.05) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
