"""The installed hook script: where it lives, how it is rendered, hashed and checked.

One script per hook agent, `<data dir>/hooks/ctxcrl-hook-<agent>.sh`, shared by the global and
project installs of that agent. It chains the stages with absolute paths resolved at install
time, so the agent's PATH does not matter; its first stage, `cc-hook decode`, compares the
script's SHA-256 with the one recorded next to it (`<script>.sha256`, also kept in hooks.json):
a changed script refuses to rewrite.

How a stage starts (`stage_launcher`): when the console scripts run this very interpreter, the
script starts each stage as `python -I -S -c "<path>; from cc_X.cli import run; run()"` with the
directories of our packages put on `sys.path` by the script itself. `-S` skips `site` (its
`.pth` files, `sitecustomize` lookups; about 3 ms of every start, and the hook starts four
Python processes: ARCHITECTURE §9), `-I` keeps the agent's PYTHON* variables and current directory
out. Otherwise (another interpreter, an unusual shebang) it runs the console scripts. Cold path.
"""
import hashlib
import os
import shlex
import shutil
import sys
import sysconfig

from ctxcrl import home

from .stage import MENTION_MARK

HOOK_VERSION = 9
PINNED_ENV_VERSION = 6
"""From this version on the script pins CTXCRL_HOME and CTXCRL_FILTER_BIN (`verify` FAILs an
older one: there, a project's settings can point them into the project)."""
"""Bump when the script template or the stages' contract changes; `status` warns on older.
2: the SHA-256 check moved from a `sha256sum` process into `cc-hook decode`.
3: the script exports `CTXCRL_FILTER_BIN` when init recorded `filter_bin` (a broken config.toml
   no longer loses it), and runs cc-rewrite with `CTXCRL_QUIET_CONFIG=1` (one config warning
   per command: cc-gate's).
4: stages start as `from cc_X.cli import run; run()`: the console-script entry, which ends
   with `ctxcrl.console.exit_now` (no interpreter teardown).
5: agents that filter after execution (Copilot CLI) get two pipelines in one script, chosen by
   its first argument: `pre` (decode | cc-gate | encode: denies only) and `post`
   (decode | cc-filter result | encode).
   Gemini: cc-rewrite runs before cc-gate (the gate judges the rewritten command too), and a
   pipeline that fails answers deny for an event that mentions cc-filter (FAIL_CLOSED).
6: the script pins CTXCRL_HOME and CTXCRL_FILTER_BIN to init's values (or unsets them): the
   agent's environment, which a project can set, no longer chooses them.
7: Claude Code: the same script also gets PreSkillShellCommand (init registers it: denies
   only), and a command the client surely prompts for is answered ask with the rewrite (the
   gate's `"prompts": true`).
8: Codex's script gets the `post` pipeline too (its PostToolUse registration filters what the
   pre-execution hook left alone).
9: the stages start with the cyclic garbage collector off, and their hot paths no longer
   import `os` (ctxcrl.lean_os): together about a tenth of the hook's time. Gemini's
   fail-closed script no longer reads the event itself first: decode marks one that mentions
   cc-filter on fd 3 (stage.MENTION_ENV), and `mark_strip` turns a mark alone into the deny."""

VERSION_MARK = "# ctxcrl-hook-version:"
SCRIPT_PREFIX = "ctxcrl-hook-"
TOOLS = ("cc-hook", "cc-gate", "cc-rewrite", "cc-filter")
STAGE_TOOLS = (("cc-hook", "cc_hook"), ("cc-gate", "cc_gate"), ("cc-rewrite", "cc_rewrite"),
               ("cc-filter", "cc_filter"))
#: The stages of each pipeline a hook may run (ARCHITECTURE §3): the parity rewrite before execution,
#: denies only before execution (agents that filter after it), and the filter after it.
REWRITE = "rewrite"
DENY_ONLY = "deny-only"
POST = "post"
PIPELINES = {
    REWRITE: (("cc-hook", "decode"), ("cc-gate", "--agent"), ("cc-rewrite", ""),
              ("cc-hook", "encode")),
    DENY_ONLY: (("cc-hook", "decode"), ("cc-gate", "--agent"), ("cc-hook", "encode")),
    POST: (("cc-hook", "decode"), ("cc-filter", "result"), ("cc-hook", "encode")),
}
#: What the stages may import from outside the standard library (docopt: unusual argv only).
STAGE_PACKAGES = ("cc_peel", "ctxcrl", "cc_lex", "cc_track", "cc_hook", "cc_gate", "cc_rewrite",
                  "cc_filter", "docopt")  # most used first: each folder is searched in turn
PATH_VARIABLE = "path"
FILTER_BIN_VARIABLE = "CTXCRL_FILTER_BIN"


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


def stage_launcher(tools: dict) -> tuple[str, list[str]] | None:
    """(python, directories for sys.path) to start the stages with `python -I -S`, or None to
    run the console scripts as they are.

    Only when every stage's console script names this interpreter in its shebang (a plain
    `#!/abs/python`), so the directories found here are the ones that interpreter uses."""
    python = None
    for name, _module in STAGE_TOOLS:
        if name not in tools:
            continue  # a pipeline that does not run it
        found = _shebang_python(tools.get(name))
        if found is None or (python is not None and found != python):
            return None
        python = found
    try:
        same = (os.path.dirname(python) == os.path.dirname(sys.executable)
                and os.path.samefile(python, sys.executable))
    except OSError:
        same = False
    if not same:
        return None
    import importlib.util

    directories: list[str] = []
    for package in STAGE_PACKAGES:
        try:
            spec = importlib.util.find_spec(package)
        except (ImportError, ValueError):
            return None
        if spec is None or not spec.origin or not os.path.isabs(spec.origin):
            return None
        folder = os.path.dirname(spec.origin)
        if spec.submodule_search_locations is not None:  # a package: …/cc_gate/__init__.py
            folder = os.path.dirname(folder)
        if folder not in directories:
            directories.append(folder)
    return python, directories


def _shebang_python(path: str | None) -> str | None:
    try:
        with open(path, "rb") as f:
            first = f.readline(4096)
    except (OSError, TypeError):
        return None
    try:
        line = first.decode("utf-8").strip()
    except UnicodeDecodeError:
        return None
    python = line[2:].strip() if line.startswith("#!") else ""
    if not python.startswith("/") or any(c.isspace() for c in python):
        return None  # `#!/usr/bin/env python3`, pip's `#!/bin/sh` trampoline, options
    return python if os.access(python, os.X_OK) else None


def stage_commands(agent: str, tools: dict, launcher=None, pipeline: str = REWRITE,
                   gate_after_rewrite: bool = False) -> tuple[str, list[str]]:
    """(the `path=` line or "", the stage commands of one of PIPELINES; gate_after_rewrite:
    cc-rewrite before cc-gate)."""
    q = shlex.quote
    steps = []
    order = PIPELINES[pipeline]
    if pipeline == REWRITE and gate_after_rewrite:
        decode, gate, rewrite, encode = order
        order = (decode, rewrite, gate, encode)
    for name, rest in order:
        if rest in ("decode", "encode"):
            rest = f"{rest} {agent}"
        elif rest == "--agent":
            rest = f"--agent {agent}"
        steps.append((name, rest))
    if launcher is None:
        return "", [f"{q(tools[name])} {rest}".rstrip() for name, rest in steps]
    python, directories = launcher
    modules = dict(STAGE_TOOLS)
    import json  # a list of double-quoted strings: valid Python, and no quote for the shell

    # gc off: a stage's imports would otherwise run the cyclic collector a dozen times, for
    # nothing (cc-filter result, whose work grows with the output, turns it back on)
    path_line = (f"{PATH_VARIABLE}="
                 + q(f"import gc, sys; gc.disable(); sys.path += {json.dumps(directories)}")
                 + "\n")
    commands = [f'{q(python)} -I -S -c "${PATH_VARIABLE}; from {modules[name]}.cli import run; '
                f'run()" {rest}'.rstrip() for name, rest in steps]
    return path_line, commands


def answer_line(stages: list[str], fail_closed: bool = False) -> str:
    """`answer=$(…)`: the stages chained; the first gets the script's path for its check;
    cc-rewrite and cc-filter run with CTXCRL_QUIET_CONFIG=1 (one config warning: cc-gate's,
    or decode's). fail_closed: decode also says, on fd 3 into the answer, whether the event
    mentions cc-filter (then `mark_strip`)."""
    parts = []
    for i, stage in enumerate(stages):
        if i == 0 and fail_closed:
            parts.append(f"CTXCRL_HOOK_SCRIPT=$script CTXCRL_MENTION_FD=3 {stage} 3>&4")
        elif i == 0:
            parts.append(f"CTXCRL_HOOK_SCRIPT=$script {stage}")
        elif i == len(stages) - 1:
            parts.append(stage)
        else:
            quiet = "cc_rewrite" in stage or "cc-rewrite" in stage or "cc_filter" in stage \
                or "cc-filter" in stage
            parts.append(f"CTXCRL_QUIET_CONFIG=1 {stage}" if quiet else stage)
    if fail_closed:
        return "answer=$({ " + " | ".join(parts) + "; } 4>&1)\n" + mark_strip()
    return "answer=$(" + " | ".join(parts) + ")"


def env_lines(filter_bin: str | None = None) -> str:
    """The script's pinned environment: `CTXCRL_HOME` as init ran with it (or unset), and
    `CTXCRL_FILTER_BIN` as init decided it (the path it writes as `[hooks] filter_bin` when
    the agent's shell cannot run a bare `cc-filter`), or unset. Pinned, not defaults: the
    agent's environment can come from the project (Claude Code's settings `env` block), and a
    value there must not choose where trust is read from nor which program the rewrites run
    (SECURITY.md). cc-rewrite reads the variable before the config, so a config.toml broken
    later cannot make it write a `cc-filter` the agent's shell does not find."""
    q = shlex.quote
    ctxcrl_home = os.environ.get("CTXCRL_HOME")
    if ctxcrl_home:
        lines = f"CTXCRL_HOME={q(ctxcrl_home)}; export CTXCRL_HOME\n"
    else:
        lines = "unset CTXCRL_HOME\n"
    if filter_bin:
        lines += f"{FILTER_BIN_VARIABLE}={q(filter_bin)}; export {FILTER_BIN_VARIABLE}\n"
    else:
        lines += f"unset {FILTER_BIN_VARIABLE}\n"
    return lines


#: What a fail-closed agent's script answers (its module's FAIL_CLOSED: init installs a rule that
#: lets `cc-filter run …` through) when the pipeline itself fails (a stage missing or crashed,
#: CTXCRL_DISABLED set) for an event that mentions cc-filter: deny, not that rule.
FAIL_CLOSED_ANSWER = ('{"decision": "deny", "reason": "contextcrawler: the hook could not check '
                      'this command, and cc-filter run is allowed only through the hook"}')


def no_answer_body(no_answer: str, fail_closed: bool = False) -> str:
    q = shlex.quote
    answer = f"printf '%s\\n' {q(no_answer)}; " if no_answer else ""
    if not fail_closed:
        return f"cat >/dev/null 2>&1; {answer}"
    # otherwise nothing: the agent's "no answer" (Gemini: an empty output changes nothing).
    # Here decode never read the event (no stage could start, CTXCRL_DISABLED): it is still
    # on stdin. (When decode read it, its mark answers: `mark_strip`.)
    return (f"case $(cat) in *cc-filter*) printf '%s\\n' {q(FAIL_CLOSED_ANSWER)} ;; esac; ")


def mark_strip() -> str:
    """What a fail-closed script does with its answer: decode's mark (stage.MENTION_MARK, on
    fd 3, taken into the answer through fd 4 before any answer can come) is taken off, and
    when nothing follows it the answer is FAIL_CLOSED_ANSWER."""
    mark = MENTION_MARK.decode().rstrip("\n")
    return (f'case $answer in "{mark}"*) answer=${{answer#"{mark}"}}; answer=${{answer#?}}; '
            f"[ -n \"$answer\" ] || answer={shlex.quote(FAIL_CLOSED_ANSWER)} ;; esac")


def render(agent: str, no_answer: str, tools: dict | None = None,
           script: str | None = None, launcher="auto", filter_bin: str | None = None,
           pipelines: tuple = (REWRITE,), gate_after_rewrite: bool = False,
           fail_closed: bool = False) -> str:
    """The script's text for `agent` (tools: name → absolute path; launcher: see
    `stage_launcher`, "auto" to find it, None for the console scripts; filter_bin: the
    cc-filter path rewrites must use, None when a bare `cc-filter` works in the agent's
    shell; pipelines: which of PIPELINES the script runs — with two, `(DENY_ONLY, POST)`, its
    first argument chooses: `post` runs the second, anything else the first). The agent
    module's GATE_AFTER_REWRITE (cc-rewrite runs before cc-gate, so the gate judges the
    rewritten command too: the agent's own rules judge only that) and FAIL_CLOSED
    (FAIL_CLOSED_ANSWER) come as the last two (Gemini CLI has both)."""
    tools = tools or {name: tool_path(name) for name in TOOLS}
    script = script or script_path(agent)
    if launcher == "auto":
        launcher = stage_launcher(tools)
    path_line = ""
    lines = []
    for pipeline in pipelines:
        path_line, stages = stage_commands(agent, tools, launcher, pipeline, gate_after_rewrite)
        lines.append(answer_line(stages, fail_closed))
    if len(lines) == 1:
        answer = lines[0]
    else:
        answer = (f"case ${{1:-}} in\npost) {lines[1]} ;;\n*) {lines[0]} ;;\nesac")
    q = shlex.quote
    env = env_lines(filter_bin) + path_line
    replacements = {
        "@@VERSION@@": str(HOOK_VERSION),
        "@@AGENT@@": agent,
        "@@SCRIPT@@": q(script),
        "@@HASH_FILE_COMMENT@@": home.short_path(hash_path(script)),
        "@@NO_ANSWER_BODY@@": no_answer_body(no_answer, fail_closed),
        "@@ENV@@": env,
        "@@ANSWER@@": answer,
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
    """The absolute paths a rendered script needs (for verify): the programs it runs and the
    package folders it puts on the stages' sys.path."""
    paths = []
    for line in text.splitlines():
        words = []
        at = line.find("answer=$(")
        if at != -1:
            body = line[at + len("answer=$("):]
            body = body[:-3].rstrip() if body.endswith(" ;;") else body
            words = shlex.split(body[:-1] if body.endswith(")") else body, posix=True)
        elif line.startswith(f"{PATH_VARIABLE}="):
            code = "".join(shlex.split(line[len(PATH_VARIABLE) + 1:], posix=True))
            import ast

            try:
                words = ast.literal_eval(code.partition("+=")[2].strip())
            except (ValueError, SyntaxError):
                words = []
        for word in words:
            if isinstance(word, str) and word.startswith("/") and word not in paths:
                paths.append(word)
    return paths


def filter_bin_in(text: str) -> str | None:
    """The cc-filter path a rendered script exports for the rewrites (`env_lines`), or None."""
    for line in text.splitlines():
        for start in (f"{FILTER_BIN_VARIABLE}=${{{FILTER_BIN_VARIABLE}:-",  # versions 3-5
                      f"{FILTER_BIN_VARIABLE}="):
            if line.startswith(start):
                value = line[len(start):]
                value = value.partition("}")[0] if "${" in start else value.partition(";")[0]
                try:
                    words = shlex.split(value, posix=True)
                except ValueError:
                    return None
                return words[0] if len(words) == 1 else None
    return None


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
