"""When a command with no filter of its own gets the generic fallback filter (issue 15).

The fallback (`filters/generic/generic.py`) leaves output of up to 200 lines untouched and
cuts a longer one to its head, its error lines and its tail. But a filtered command's output
is shown when it ends, and it runs outside the agent's shell, so the fallback must never take
a command that:
  - changes the shell itself (`cd`, `export`, `source`, any builtin);
  - is interactive or never ends on its own (editors, pagers, REPLs, `top`, servers, `tail -f`,
    `--watch`, `npm run dev`): its output would be held back while it runs;
  - runs an arbitrary program (`python x.py`, `node server.js`, `cargo run`): it may be one;
  - prints next to nothing (`echo`, `mkdir`, `rm`): wrapping only costs time.
The `[hooks] fallback_filter = false` config switch turns it off.

`refusal(key)` is asked by the catalogue only when no filter matched, on every agent command:
imports nothing (a frozenset lookup over the key's words, one config read, marshal-cached).
"""
from ctxcrl import lean_os as os

NAME = "generic"

#: Shell builtins and keywords: they must run in the agent's own shell.
BUILTINS = frozenset({
    "cd", "pushd", "popd", "dirs", "export", "unset", "set", "shopt", "source", ".", "alias",
    "unalias", "eval", "exec", "exit", "logout", "return", "trap", "ulimit", "umask", "wait",
    "jobs", "fg", "bg", "disown", "read", "readarray", "mapfile", "shift", "local", "declare",
    "typeset", "readonly", "let", "hash", "type", "command", "builtin", "enable", "history",
    "complete", "compgen", "bind", "times", "caller", "getopts", "break", "continue", ":",
    "true", "false", "test", "[", "[[", "help", "kill", "nohup", "setopt", "conda", "nvm",
    "pyenv", "rbenv", "direnv", "deactivate",
})
#: Interactive, full-screen or never-ending programs.
INTERACTIVE = frozenset({
    "vi", "vim", "nvim", "view", "nano", "pico", "emacs", "ed", "micro", "helix", "hx", "less",
    "more", "most", "man", "info", "top", "htop", "btop", "atop", "iotop", "nmon", "watch",
    "tmux", "screen", "fzf", "ssh", "mosh", "telnet", "ftp", "sftp", "nc", "ncat", "socat",
    "tcpdump", "ping", "ping6", "yes", "sleep", "tee", "script", "expect", "dialog",
    "whiptail", "mc", "ranger", "nnn", "lazygit", "tig", "gitui", "k9s", "psql", "mysql",
    "mariadb", "sqlite3", "redis-cli", "mongo", "mongosh", "irb", "pry", "ipython", "jupyter",
    "ghci", "iex", "erl", "lua", "R", "julia", "scala", "clj", "sbcl", "guile", "gdb", "lldb",
    "pdb", "strace-attach", "nodemon", "http-server", "live-server", "serve", "uvicorn",
    "gunicorn", "hypercorn", "daphne", "flask", "streamlit", "gradio", "ngrok", "caddy",
    "nginx", "httpd", "apache2", "code", "cursor", "open", "xdg-open", "xclip", "xsel",
    "pbcopy", "pbpaste", "passwd", "login", "su", "sudo", "doas", "crontab", "visudo",
    "vipw", "git-credential", "gpg-agent", "ssh-agent", "ssh-add", "bash", "sh", "zsh",
    "dash", "ksh", "fish", "csh", "tcsh", "clear", "reset", "tput", "stty", "read",
})
#: Interpreters and launchers of arbitrary programs (the program may be a server or a REPL).
RUNNERS = frozenset({
    "python", "python2", "python3", "pypy", "pypy3", "node", "deno", "bun", "ruby", "perl",
    "php", "java", "dotnet-run", "Rscript", "osascript", "env", "xargs", "parallel",
    "timeout", "time", "nice", "ionice", "chrt", "taskset", "stdbuf", "unbuffer",
    "setsid", "flock", "uv", "poetry", "pipenv", "pdm", "hatch", "rye", "npx", "pnpx",
    "bunx", "dlx",
})
#: Commands that print (next to) nothing: wrapping them only costs time.
QUIET = frozenset({
    "echo", "printf", "pwd", "mkdir", "rmdir", "rm", "cp", "mv", "ln", "touch", "chmod",
    "chown", "chgrp", "which", "whereis", "whoami", "id", "hostname", "uname", "date",
    "basename", "dirname", "realpath", "readlink", "mktemp", "sync", "clear", "tty",
    "nproc", "arch", "expr", "md5sum", "sha1sum", "sha256sum", "stat", "file", "install",
})
#: Words that make any command interactive or never-ending.
STREAMING_WORDS = frozenset({
    "--watch", "--watchAll", "--watch-all", "--follow", "--serve", "--interactive", "-it",
    "-ti", "--tty", "--hot", "--inspect", "--inspect-brk",
})
#: Sub-commands that start a server, a watcher or a program of the project.
STREAMING_SUBCOMMANDS = frozenset({
    "dev", "serve", "server", "start", "watch", "preview", "run", "repl", "shell", "console",
    "attach", "exec", "top", "stats", "proxy", "port-forward", "tunnel",
    "listen", "monitor", "debug", "s", "c",
})
#: Package managers: a sub-command anywhere in their command may start a script or a server
#: (`npm --prefix web run dev`).
MANAGERS = frozenset({"npm", "pnpm", "yarn", "bun", "deno", "composer", "bundle"})
#: git words that open an editor or prompt: `git rebase -i`, `git add -p`, `git mergetool`.
GIT_INTERACTIVE = frozenset({"-i", "-p", "--patch", "--interactive", "-e", "--edit",
                             "mergetool", "difftool", "gui", "citool"})
#: Tools whose `run` runs a check or a task graph, not a program of the project.
RUN_IS_A_CHECK = frozenset({"golangci-lint", "nx", "turbo", "moon", "lerna", "act", "pre-commit",
                            "tox", "nox", "just", "task", "mise"})
#: Words after which `-f`/`-F` means "follow" (`tail -f`, `journalctl -f`, `docker logs -f`).
FOLLOWERS = frozenset({"tail", "journalctl", "logs", "log", "dmesg", "less"})


def enabled() -> bool:
    """`[hooks] fallback_filter` (default true); `CTXCRL_FALLBACK_FILTER=0` turns it off too."""
    env = os.environ.get("CTXCRL_FALLBACK_FILTER")
    if env is not None:
        return env.strip().lower() not in ("0", "false", "no", "off", "")
    from ctxcrl import config

    hooks = config.section("hooks")
    value = hooks.get("fallback_filter", True) if isinstance(hooks, dict) else True
    return value is not False


def refusal(key: str) -> str | None:
    """Why the command with this peeled key must not get the fallback filter, or None."""
    words = key.split()
    if not words:
        return "no command"
    program = words[0].rsplit("/", 1)[-1] if "/" in words[0] else words[0]
    if program in BUILTINS:
        return f"{program} is a shell builtin (it must run in the agent's shell)"
    if program in INTERACTIVE:
        return f"{program} is interactive or does not end on its own"
    if program in RUNNERS or program.startswith("python"):
        return f"{program} runs a program that may be interactive or long-running"
    if program in QUIET:
        return f"{program} prints next to nothing"
    if program == "git" and any(w in GIT_INTERACTIVE for w in words[1:]):
        return "it opens an editor or asks questions (git -i / -p / --edit / mergetool)"
    follow = False
    for i, word in enumerate(words):
        if word in STREAMING_WORDS or word.startswith("--watch"):
            return f"{word} makes it interactive or long-running"
        if word in FOLLOWERS:
            follow = True
        elif (follow and word.startswith("-") and not word.startswith("--")
              and ("f" in word or "F" in word)):
            return f"{word} follows its output (it does not end on its own)"
        if ((0 < i < 3 or program in MANAGERS) and not word.startswith("-")
                and word in STREAMING_SUBCOMMANDS
                and not (word == "run" and program not in MANAGERS
                         and (i > 1 or program in RUN_IS_A_CHECK))):
            return f"`{program} {word}` may start a server, a watcher or a program"
    return None


def program_found(program: str, cwd: str | None = None) -> bool:
    """Is `program` an executable file (a path from cwd, or a name on the PATH)? The rewrite
    side asks before handing a command to the fallback: a name the shell resolves to a
    function or an alias would not be found by `cc-filter run`. A few `os.access` calls."""
    if not program:
        return False
    if "/" in program:
        return _executable(os.path.join(cwd or os.getcwd(), program))
    return any(_executable(os.path.join(d or ".", program))
               for d in os.environ.get("PATH", os.defpath).split(os.pathsep))


def _executable(path: str) -> bool:
    return os.access(path, os.X_OK) and os.path.isfile(path)


def describe() -> str:
    return ("the generic fallback: output of up to 200 lines is left untouched; a longer one "
            "keeps its head, every error/warning/failure line with its neighbours and its "
            "tail, repeated and near-identical lines counted, the rest counted in a marker "
            "(full output in the tee file)")
