"""The real agent clients as a test bench: what every `tests/agents/<agent>/` shares.

- `install_client(name)`: the pinned client from the npm registry, installed once per machine
  into a world-readable cache (`CTXCRL_AGENTS_CACHE`, default `/var/tmp/ctxcrl-agents`). When
  the registry cannot be reached the test is **skipped with the reason** (pytest `-ra` prints
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

Nothing here talks to anything but the npm registry (install) and 127.0.0.1.
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
    """The client's executable at `client_version(name)`, installed from the npm registry
    (once per machine and version)."""
    package, _pinned, binary = CLIENTS[name]
    version = client_version(name)
    prefix = CACHE / f"{name}-{version}"
    exe = prefix / "node_modules" / ".bin" / binary
    if exe.exists():
        return exe
    if shutil.which("npm") is None:
        pytest.skip(f"{name}: npm is not installed, so {package}@{version} cannot be installed")
    CACHE.mkdir(parents=True, exist_ok=True)
    os.chmod(CACHE, 0o755)
    tmp = Path(tempfile.mkdtemp(prefix=f"{name}-", dir=CACHE))
    proc = subprocess.run(
        ["npm", "install", "--prefix", str(tmp), "--no-fund", "--no-audit", "--loglevel=error",
         f"{package}@{version}"], capture_output=True, text=True, timeout=900)
    if proc.returncode != 0 or not (tmp / "node_modules" / ".bin" / binary).exists():
        shutil.rmtree(tmp, ignore_errors=True)
        tail = (proc.stderr or proc.stdout).strip().splitlines()[-3:]
        pytest.skip(f"{name}: cannot install {package}@{version} from the npm registry: "
                    + " | ".join(tail))
    _writable_tree(tmp)
    try:
        tmp.rename(prefix)
    except OSError:  # another process installed it meanwhile
        shutil.rmtree(tmp, ignore_errors=True)
    return exe


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


def agent_python() -> str:
    """A Python ≥ 3.11 the agent user can run, for the venvs it uses: this interpreter when
    every directory above it is open to others, else the system's `python3` (a pyenv under
    /root, mode 0700, is not)."""
    def reachable(path: str) -> bool:
        path = os.path.realpath(path)
        parent = os.path.dirname(path)
        while parent and parent != "/":
            if not os.stat(parent).st_mode & 0o001:
                return False
            parent = os.path.dirname(parent)
        return bool(os.stat(path).st_mode & 0o001)

    if os.geteuid() != 0 or reachable(sys.executable):
        return sys.executable
    for candidate in ("/usr/local/bin/python3", "/usr/bin/python3"):
        if os.path.exists(candidate) and reachable(candidate):
            probe = subprocess.run([candidate, "-c", "import sys, venv; "
                                    "print(sys.version_info >= (3, 11))"],
                                   capture_output=True, text=True)
            if probe.stdout.strip() == "True":
                return candidate
    pytest.skip("no Python ≥ 3.11 the agent user can run (this one is not reachable for it)")


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
        """The agent's environment: this HOME, the product's bin dir on PATH, no host secrets."""
        path = f"{product_venv()}:/usr/local/bin:/usr/bin:/bin"
        env = {"HOME": str(self.home), "USER": self.user.name, "LOGNAME": self.user.name,
               "PATH": path, "LANG": "C.UTF-8", "TERM": "dumb", "NO_COLOR": "1",
               "TMPDIR": str(self.root / "tmp")}
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


def wait_for(predicate, timeout: float = 10.0, step: float = 0.05) -> bool:
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if predicate():
            return True
        time.sleep(step)
    return predicate()
