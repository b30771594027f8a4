"""The installed hook script: where it lives, how it is rendered, hashed and checked.

One script per hook agent, `<data dir>/hooks/ctxcrl-hook-<agent>.sh`, shared by the global and
project installs of that agent. It chains the stages with the tools' absolute paths (resolved
at install time, so the agent's PATH does not matter) and first compares its own SHA-256 with
the one recorded next to it (`<script>.sha256`, also kept in hooks.json): a changed script
refuses to rewrite. Cold path.
"""
import hashlib
import os
import shlex
import shutil
import sys
import sysconfig

from cc_track import home

HOOK_VERSION = 1
"""Bump when the script template or the stages' contract changes; `status` warns on older."""

VERSION_MARK = "# ctxcrl-hook-version:"
SCRIPT_PREFIX = "ctxcrl-hook-"
TOOLS = ("cc-hook", "cc-gate", "cc-rewrite", "cc-filter")


class ToolNotFound(Exception):
    pass


def hooks_dir() -> str:
    return os.path.join(home.data_dir(), "hooks")


def script_path(agent: str) -> str:
    return os.path.join(hooks_dir(), f"{SCRIPT_PREFIX}{agent}.sh")


def hash_path(script: str) -> str:
    return script + ".sha256"


def sha256_text(text: str) -> str:
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def sha256_file(path: str) -> str | None:
    try:
        with open(path, "rb") as f:
            return hashlib.sha256(f.read()).hexdigest()
    except OSError:
        return None


def template(name: str) -> str:
    with open(os.path.join(os.path.dirname(__file__), "templates", name), encoding="utf-8") as f:
        return f.read()


def tool_path(name: str) -> str:
    """The absolute path of one of our console scripts: next to this interpreter's scripts
    first (the same install as the running cc-hook), then the PATH."""
    candidates = [sysconfig.get_path("scripts"), os.path.dirname(sys.executable)]
    argv0 = os.path.abspath(sys.argv[0]) if sys.argv and sys.argv[0] else ""
    if os.path.basename(argv0) == "cc-hook":
        candidates.insert(0, os.path.dirname(argv0))
    for directory in candidates:
        if directory:
            path = os.path.join(directory, name)
            if os.path.isfile(path) and os.access(path, os.X_OK):
                return path
    found = shutil.which(name)
    if found:
        return os.path.abspath(found)
    raise ToolNotFound(f"{name} not found next to {sys.executable} nor on the PATH")


def hasher_command() -> str:
    """A shell command printing the SHA-256 of stdin as its first word."""
    for name, args in (("sha256sum", ""), ("shasum", " -a 256"), ("openssl", " dgst -sha256 -r")):
        found = shutil.which(name)
        if found:
            return shlex.quote(found) + args
    raise ToolNotFound("none of sha256sum, shasum, openssl found to check the hook's hash")


def render(agent: str, no_answer: str, tools: dict | None = None, hasher: str | None = None,
           script: str | None = None) -> str:
    """The script's text for `agent` (tools: name → absolute path)."""
    tools = tools or {name: tool_path(name) for name in TOOLS}
    script = script or script_path(agent)
    q = shlex.quote
    env = ""
    if os.environ.get("CTXCRL_HOME"):
        env = f"CTXCRL_HOME=${{CTXCRL_HOME:-{q(os.environ['CTXCRL_HOME'])}}}; export CTXCRL_HOME\n"
    replacements = {
        "@@VERSION@@": str(HOOK_VERSION),
        "@@AGENT@@": agent,
        "@@SCRIPT@@": q(script),
        "@@HASH_FILE_COMMENT@@": home.short_path(hash_path(script)),
        "@@HASH_FILE@@": q(hash_path(script)),
        "@@HASHER@@": hasher or hasher_command(),
        "@@NO_ANSWER@@": f"printf '%s\\n' {q(no_answer)}; " if no_answer else "",
        "@@ENV@@": env,
        "@@HOOK@@": q(tools["cc-hook"]),
        "@@GATE@@": q(tools["cc-gate"]),
        "@@REWRITE@@": q(tools["cc-rewrite"]),
    }
    text = template("hook.sh")
    for mark, value in replacements.items():
        text = text.replace(mark, value)
    return text


def version_of(text: str | None) -> int | None:
    """The `# ctxcrl-hook-version: N` of an installed script or plugin."""
    for line in (text or "").splitlines()[:5]:
        for prefix in (VERSION_MARK, "// ctxcrl-hook-version:"):
            if line.startswith(prefix):
                try:
                    return int(line[len(prefix):].strip())
                except ValueError:
                    return None
    return None


def tools_in(text: str) -> list[str]:
    """The absolute tool paths a rendered script runs (for verify)."""
    paths = []
    for line in text.splitlines():
        if line.startswith("answer=$("):
            for word in shlex.split(line[len("answer=$("):].rstrip(")"), posix=True):
                if word.startswith("/") and word not in paths:
                    paths.append(word)
    return paths


def is_ctxcrl_command(command) -> bool:
    """Whether a registered hook command runs one of our scripts (found without hooks.json)."""
    if not isinstance(command, str):
        return False
    try:
        words = shlex.split(command)
    except ValueError:
        return False
    return any(os.path.basename(w).startswith(SCRIPT_PREFIX) and w.endswith(".sh") for w in words)


def hook_command(script: str) -> str:
    """The command string registered in the agent's settings."""
    return shlex.quote(script)
