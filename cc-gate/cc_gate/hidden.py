"""Commands hidden inside another command: what bash or git will run that no segment shows.

A segment's words are not always what runs. `git -c alias.x=push x` runs `git push`;
`git -c core.fsmonitor='git push' status` and `GIT_EDITOR='git push;:' git commit` make git
start a shell command; `trap 'git push' EXIT` runs its action later; `. /dev/stdin <<<
'git push'` and `source <(echo git push)` run generated text; `PS4='$(git push)'` with
`set -x`, `PROMPT_COMMAND`, `BASH_ENV`, `ENV` and `bash --rcfile F -i` run code at a shell's
start or at every prompt; `alias g=git` makes a later `g push` a push, and `printf -v` /
`read` give a variable its value. The deny rules never see such a command as a segment, so the gate
(cc_gate.decision) asks this module, for every line it analyses:

- `line(peeled, analysis)` once per line: git config writes anywhere on it (an alias defined
  after its use still counts: a loop runs it again);
- `assignments(pairs, analysis)` for every `NAME=value` that takes effect (a segment's
  prefix, `export`/`declare`/`local`/`readonly`/`env` words);
- `argv_commands(argv, program, analysis)` for every argv the gate spells out (launchers
  included): the argvs git will run (aliases expanded), while the texts bash or git will run
  as shell code are queued for `texts(analysis)`, which the gate analyses like the line
  itself (deny and ask rules, and, on the top-level line, the allow rules too: a hidden
  command must be allowed as well).

Two answers, never an allow of something unseen: a hidden command whose text is static is
judged as a command (a `git push` deny denies it); one that cannot be known (a value with `$`
or a backtick, a startup file, a hooks directory, an included config file, a git alias written
to the config on the same line) makes the line never auto-allowed (`analysis.flag`). Startup
and prompt variables are never auto-allowed even when static. Over-matching can only turn an
allow into a deny or an ask, never the reverse.

Runs on every agent command: nothing is imported until a line holds one of these programs or
variables, and then only cc_peel's peeler and cc_lex's word splitter.
"""

#: Programs whose argv this module reads (the gate calls argv_commands only for these).
PROGRAMS = frozenset({"git", "trap", "source", ".", "export", "declare", "typeset", "local",
                      "readonly", "env", "bash", "sh", "zsh", "dash", "ksh", "mksh", "ash",
                      "alias", "hash", "enable", "printf", "read"})
_SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "ash"})
_ASSIGNERS = frozenset({"export", "declare", "typeset", "local", "readonly", "env"})

#: Variables whose value is a command a program runs (git, less, man, ssh …): judged as one.
COMMAND_VARS = frozenset({
    "GIT_EDITOR", "GIT_SEQUENCE_EDITOR", "GIT_PAGER", "GIT_SSH", "GIT_SSH_COMMAND",
    "GIT_EXTERNAL_DIFF", "GIT_ASKPASS", "SSH_ASKPASS", "GIT_PROXY_COMMAND", "EDITOR", "VISUAL",
    "PAGER", "MANPAGER", "SYSTEMD_PAGER", "BROWSER", "LESSOPEN", "LESSCLOSE",
})
#: Variables whose value is shell code a shell runs at a prompt or with `set -x` (PS0-PS4
#: undergo command substitution): never auto-allowed, and judged as code.
PROMPT_VARS = frozenset({"PROMPT_COMMAND", "PS0", "PS1", "PS2", "PS3", "PS4"})
#: Variables naming a file or directory whose content runs, or options that load code:
#: never auto-allowed (the content cannot be seen).
STARTUP_VARS = frozenset({
    "BASH_ENV", "ENV", "ZDOTDIR", "SHELLOPTS", "BASHOPTS", "BASH_LOADABLES_PATH",
    "LD_PRELOAD", "LD_AUDIT", "LD_LIBRARY_PATH", "PYTHONSTARTUP", "PERL5OPT", "PERL5LIB",
    "PERL5DB", "RUBYOPT", "NODE_OPTIONS", "GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG", "GIT_CONFIG_PARAMETERS", "GIT_CONFIG_COUNT", "GIT_EXEC_PATH",
    "GIT_TEMPLATE_DIR",
})
#: Startup variables whose value is a file a shell sources: /dev/stdin and `<(…)` are read.
_SOURCED_VARS = frozenset({"BASH_ENV", "ENV"})
_WATCHED_PREFIXES = ("BASH_FUNC_", "GIT_CONFIG_KEY_", "GIT_CONFIG_VALUE_")

#: git commands: builtins and the commands of its exec path (2.39, and newer ones); a git
#: alias can only add a name outside this set.
GIT_COMMANDS = frozenset((
    "add am annotate apply archimport archive backfill bisect blame branch bugreport bundle "
    "cat-file check-attr check-ignore check-mailmap check-ref-format checkout checkout-index "
    "cherry cherry-pick citool clean clone column commit commit-graph commit-tree config "
    "count-objects credential credential-cache credential-store cvsexportcommit cvsimport "
    "cvsserver daemon describe diagnose diff diff-files diff-index diff-pairs diff-tree "
    "difftool fast-export fast-import fetch fetch-pack filter-branch fmt-merge-msg "
    "for-each-ref for-each-repo format-patch fsck fsck-objects fsmonitor--daemon gc "
    "get-tar-commit-id gitk grep gui hash-object help hook http-backend http-fetch http-push "
    "imap-send index-pack init init-db instaweb interpret-trailers last-modified log ls-files "
    "ls-remote ls-tree mailinfo mailsplit maintenance merge merge-base merge-file merge-index "
    "merge-octopus merge-one-file merge-ours merge-recursive merge-resolve merge-subtree "
    "merge-tree mergetool mktag mktree multi-pack-index mv name-rev notes p4 pack-objects "
    "pack-redundant pack-refs patch-id prune prune-packed pull push quiltimport range-diff "
    "read-tree rebase receive-pack reflog refs remote repack replace replay repo request-pull "
    "rerere reset restore rev-list rev-parse revert rm scalar send-email send-pack shell "
    "shortlog show show-branch show-index show-ref sparse-checkout stage stash status "
    "stripspace submodule subtree svn switch symbolic-ref tag unpack-file unpack-objects "
    "update-index update-ref update-server-info upload-archive upload-pack var verify-commit "
    "verify-pack verify-tag version web--browse whatchanged worktree write-tree").split())

#: git's global options that take the next word as their value.
_GIT_VALUE_OPTIONS = frozenset(("-C", "--git-dir", "--work-tree", "--namespace",
                                "--super-prefix", "--attr-source", "--list-cmds"))
#: git config keys whose value is a command git runs (lower case; `*` is a subsection).
_GIT_COMMAND_KEYS = frozenset((
    "core.fsmonitor", "core.sshcommand", "core.pager", "core.editor", "core.askpass",
    "core.gitproxy", "core.alternaterefscommand", "sequence.editor", "diff.external",
    "credential.helper", "gpg.program", "uploadpack.packobjectshook", "interactive.difffilter",
    "web.browser", "sendemail.tocmd", "sendemail.cccmd", "sendemail.sendmailcmd",
    "sendemail.smtpserver", "gpg.ssh.program", "gpg.ssh.defaultkeycommand",
    "diff.*.textconv", "diff.*.command", "merge.*.driver", "filter.*.clean",
    "filter.*.smudge", "filter.*.process", "credential.*.helper", "gpg.*.program", "pager.*",
    "browser.*.cmd", "browser.*.path", "man.*.cmd", "man.*.path", "mergetool.*.cmd",
    "mergetool.*.path", "difftool.*.cmd", "difftool.*.path", "tar.*.command", "hook.*.command",
    "remote.*.uploadpack", "remote.*.receivepack",
))
#: git config keys that make git run what the gate cannot see (a directory of hooks, another
#: config file, a protocol that runs commands, URL rewriting, a remote helper).
_GIT_HIDDEN_KEYS = frozenset((
    "core.hookspath", "include.path", "includeif.*.path", "init.templatedir",
    "protocol.allow", "protocol.*.allow", "url.*.insteadof", "url.*.pushinsteadof",
    "remote.*.vcs", "core.worktree", "safe.directory",
))
#: `git <command>` options whose value is shell code git runs (`git rebase --exec X`), or
#: (None) whose remaining words are a command (`git bisect run git push`).
_GIT_COMMAND_OPTIONS = {
    "rebase": ("--exec", "-x"),
    "submodule": ("foreach",),
    "filter-branch": ("--env-filter", "--tree-filter", "--index-filter", "--parent-filter",
                      "--msg-filter", "--commit-filter", "--tag-name-filter"),
    "difftool": ("--extcmd", "-x"),
    "mergetool": ("--tool-cmd",),
    "fetch": ("--upload-pack",), "pull": ("--upload-pack",), "clone": ("--upload-pack", "-u"),
    "ls-remote": ("--upload-pack",), "push": ("--receive-pack", "--exec"),
    "archive": ("--exec",), "grep": ("--open-files-in-pager", "-O"),
    "send-email": ("--to-cmd", "--cc-cmd", "--sendmail-cmd", "--smtp-server"),
    "instaweb": ("--browser", "-b"),
}
_MAX_ALIASES = 8  # alias expansions per line: a loop (`alias.a=a`) ends here
_MAX_TEXTS = 64


class State:
    """What one gate decision learned about hidden commands (analysis.hidden)."""

    __slots__ = ("aliases", "config_written", "env", "texts", "expansions", "stdin",
                 "shell_aliases")

    def __init__(self):
        self.aliases: dict = {}  # lower-case alias name → its values (git config writes)
        self.config_written = False  # a git config write, a config file or GIT_CONFIG_* seen
        self.env: dict = {}  # variable → the values it is given on the line
        self.texts: list = []  # shell code to analyse as commands
        self.expansions = 0
        self.stdin: list | None = None  # what a shell may read on stdin on the line
        self.shell_aliases: dict = {}  # bash `alias name=value` seen so far


def _state(analysis) -> State:
    if analysis.hidden is None:
        analysis.hidden = State()
    return analysis.hidden


def texts(analysis) -> list:
    """The hidden shell code found so far, taken (the gate analyses each as a command)."""
    state = analysis.hidden
    if state is None or not state.texts:
        return []
    found, state.texts = state.texts[:_MAX_TEXTS], []
    return found


def _judge(analysis, text: str, what: str) -> None:
    """Queue `text` (shell code `what` runs) to be judged; a dynamic text is never allowed."""
    if not text or not text.strip():
        return
    if "$" in text or "`" in text:
        analysis.flag(f"{what} runs text that is only known when it runs ({text}): "
                      "never auto-allowed")
    _state(analysis).texts.append(text)


# ---------------------------------------------------------------------------------------------
# the whole line


def line(peeled, analysis) -> None:
    """Once per analysed line: git config writes anywhere on it, and what a shell on it may
    read on stdin (heredocs, here-strings, what a pipe's producer prints)."""
    piped = False
    for seg in peeled.segments:
        argv = seg.argv
        piped |= seg.separator in ("|", "|&")
        if argv and "config" in argv and _base(argv[0]) == "git":
            rest = _git_command(list(argv))
            if rest and rest[0] == "config":
                _config_write(rest[1:], analysis)
    if piped or _has_stdin(peeled.tokens):
        state = _state(analysis)
        state.stdin = (state.stdin or []) + _stdin_texts(peeled)


def _has_stdin(tokens) -> bool:
    for tok in tokens:
        if tok.kind == "heredoc" or (tok.kind == "redirect" and tok.text.endswith("<<<")):
            return True
    return False


def stdin_scripts(tokens) -> list:
    """What a shell on this line may read on stdin: heredoc bodies (the terminator line cut
    off) and `<<<` strings (the word's unquoted value), in order."""
    found = []
    for pos, tok in enumerate(tokens):
        if tok.kind == "heredoc":
            body = tok.text.rstrip("\n")
            cut = body.rfind("\n")  # the last line is the terminator
            found.append(body[:cut + 1] if cut >= 0 else "")
        elif tok.kind == "redirect" and tok.text.endswith("<<<"):
            nxt = tokens[pos + 1] if pos + 1 < len(tokens) else None
            if nxt is not None and nxt.kind == "word":
                found.append(nxt.value)
    return found


def _stdin_texts(peeled) -> list:
    """Heredoc bodies, here-strings and the static output of each pipe's producer."""
    found = stdin_scripts(peeled.tokens)
    for seg in peeled.segments:
        if seg.separator in ("|", "|&"):
            out = static_output(list(seg.argv or ()))
            found.append(out if out is not None else None)
    return found


# ---------------------------------------------------------------------------------------------
# variables


def segment(seg, analysis) -> list:
    """A segment's own assignments (`GIT_EDITOR=… git commit`), and the argvs left to spell
    when its first words are assignments the peeler did not take as such (`env
    'BASH_FUNC_git%%=() { …; }' bash -c …`: a name bash imports that is no identifier)."""
    if seg.env_vars:
        assignments(seg.env_vars, analysis)
    argv = seg.argv
    state = analysis.hidden
    if argv and state is not None and argv[0] in state.shell_aliases:
        found = []  # `alias g=git` … `g push`: bash reads `git push`
        for value in state.shell_aliases[argv[0]]:
            words = _split(value)
            if words:
                found.append(words + list(argv[1:]))
        return found
    if not argv or "=" not in argv[0] or not argv[0].startswith("BASH_FUNC_"):
        return []
    pairs = []
    i = 0
    while i < len(argv) and "=" in argv[i] and not argv[i].startswith("="):
        name, _, value = argv[i].partition("=")
        pairs.append((name, value))
        i += 1
    assignments(pairs, analysis)
    return [argv[i:]] if i < len(argv) else []


def assignments(pairs, analysis) -> None:
    """`NAME=value` pairs that take effect (prefixes, export, env …): every one is kept for
    `git --config-env`, the watched ones are judged."""
    for name, value in pairs:
        value = value or ""
        if name in COMMAND_VARS or name in PROMPT_VARS or name in STARTUP_VARS or \
                name.startswith(_WATCHED_PREFIXES):
            _variable(name, value, analysis)
        else:
            _add(_state(analysis).env, name, value)


def _variable(name: str, value: str, analysis) -> None:
    state = _state(analysis)
    _add(state.env, name, value)
    if name in COMMAND_VARS:
        _judge(analysis, value, name)
        return
    if name.startswith(("GIT_CONFIG", "GIT_EXEC_PATH", "GIT_TEMPLATE_DIR")):
        state.config_written = True
        analysis.flag(f"{name} changes what git runs: never auto-allowed")
        return
    analysis.flag(f"{name} makes a program run code it reads at start or at a prompt: "
                  "never auto-allowed")
    if name in PROMPT_VARS:
        state.texts.append(value)
    elif name.startswith("BASH_FUNC_"):
        body = value.strip()
        if body.startswith("()"):
            body = body[2:]
        state.texts.append(body)
    elif name in _SOURCED_VARS:
        _sourced(value, analysis, name)


def _git_config_env(state: State) -> list:
    """(key, value) pairs of GIT_CONFIG_KEY_n / GIT_CONFIG_VALUE_n and GIT_CONFIG_PARAMETERS."""
    env = state.env
    pairs = []
    for name, keys in env.items():
        if name.startswith("GIT_CONFIG_KEY_"):
            values = env.get("GIT_CONFIG_VALUE_" + name[len("GIT_CONFIG_KEY_"):], [""])
            pairs += [(k, v) for k in keys for v in values]
    for text in env.get("GIT_CONFIG_PARAMETERS", ()):
        for word in _split(text) or ():
            key, _, value = word.partition("=")
            pairs.append((key, value))
    return pairs


# ---------------------------------------------------------------------------------------------
# sourced files


_STDIN_FILES = ("/dev/stdin", "/dev/fd/", "/proc/self/fd/", "/proc/thread-self/fd/", "-")


def _is_stdin_file(path: str) -> bool:
    if path == "-" or path == "/dev/stdin" or path.startswith(("/dev/fd/", "/dev/tcp/",
                                                               "/dev/udp/")):
        return True
    return path.startswith("/proc/") and "/fd/" in path


def _sourced(path: str, analysis, what: str) -> bool:
    """A file bash will source: /dev/stdin (and fds) → what the line feeds it; `<(…)` → its
    static output. True when it was such a file (never auto-allowed then)."""
    if path.startswith("<(") and path.endswith(")"):
        analysis.flag(f"{what} reads generated code ({path}): never auto-allowed")
        out = _static_output_of_text(path[2:-1])
        if out is None:
            analysis.flag(f"{what} reads code only known when it runs ({path}): "
                          "never auto-allowed")
        else:
            _state(analysis).texts.append(out)
        return True
    if _is_stdin_file(path):
        analysis.flag(f"{what} reads code from {path}: never auto-allowed")
        fed = _state(analysis).stdin or []
        for text in fed:
            if text is None:
                analysis.flag(f"{what} reads code only known when it runs: never auto-allowed")
            else:
                _state(analysis).texts.append(text)
        return True
    return False


# ---------------------------------------------------------------------------------------------
# argv


def argv_commands(argv: list, program: str, analysis) -> list:
    """The argvs `argv` makes run (git aliases, `git bisect run …`); the shell code it makes
    run is queued for texts(). `program` is argv[0]'s base name."""
    if program == "git":
        return _git(argv, analysis)
    if program == "trap":
        _trap(argv[1:], analysis)
    elif program in ("source", "."):
        if len(argv) > 1:
            _sourced(argv[1], analysis, program)
    elif program in _ASSIGNERS:
        pairs = []
        for word in argv[1:]:
            name, eq, value = word.partition("=")
            if eq and (name.isidentifier() or name.startswith("BASH_FUNC_")):
                pairs.append((name, value))
            elif program == "env" and not word.startswith("-"):
                break
        assignments(pairs, analysis)
    elif program in _SHELLS:
        _shell_startup(argv, analysis)
    elif program == "alias":
        for word in argv[1:]:  # `alias x='git push'`: x runs that text (expand_aliases)
            name, eq, value = word.partition("=")
            if eq:
                _judge(analysis, value, f"alias {name}")
                _add(_state(analysis).shell_aliases, name, value)
    elif program == "hash" and any(w.startswith("-") and "p" in w for w in argv[1:]):
        analysis.flag("hash -p makes a name run another program: never auto-allowed")
    elif program == "enable" and any(w.startswith("-") and "f" in w for w in argv[1:]):
        analysis.flag("enable -f loads a builtin from a shared object: never auto-allowed")
    elif program == "printf" and len(argv) > 3 and argv[1] == "-v":
        # `printf -v PS4 '$(git push)'`: the words as they are (a `$` may be literal)
        value = static_output(["printf"] + argv[3:], literal=True)
        assignments([(argv[2], value if value is not None else "$(unknown)")], analysis)
    elif program == "read":
        _read(argv[1:], analysis)
    return []


def _read(args: list, analysis) -> None:
    """`read PS4 <<< '$(git push)'`: a watched variable read from stdin."""
    names = [w for w in args if not w.startswith("-") and w.isidentifier()]
    for name in names:
        if name in COMMAND_VARS or name in PROMPT_VARS or name in STARTUP_VARS:
            fed = [t for t in (_state(analysis).stdin or []) if t is not None] or ["$(unknown)"]
            for text in fed:
                _variable(name, text.rstrip("\n"), analysis)


def _trap(args: list, analysis) -> None:
    """`trap [--] ACTION SIGNAL…`: ACTION runs later (one word alone only resets a signal)."""
    while args and args[0].startswith("-") and args[0] != "-":
        if args[0] == "--":
            args = args[1:]
            break
        if args[0] in ("-l", "-p", "-P"):
            return  # lists or prints
        args = args[1:]
    if len(args) < 2 or args[0] in ("", "-"):
        return
    _judge(analysis, args[0], "trap")


def _shell_startup(argv: list, analysis) -> None:
    """`bash --rcfile F -i`, `--init-file F`: a startup file the shell sources."""
    for i, word in enumerate(argv[1:], 1):
        if word in ("--rcfile", "--init-file") and i + 1 < len(argv):
            path = argv[i + 1]
        elif word.startswith(("--rcfile=", "--init-file=")):
            path = word.partition("=")[2]
        else:
            continue
        analysis.flag(f"{argv[0]} {word} runs a startup file: never auto-allowed")
        _sourced(path, analysis, f"{argv[0]} {word}")


# ---------------------------------------------------------------------------------------------
# git


def _git_command(argv: list):
    """argv's words from git's subcommand on (None when there is none)."""
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "-c" or word == "--config-env" or word in _GIT_VALUE_OPTIONS:
            i += 2
        elif word.startswith("-"):
            i += 1
        else:
            return argv[i:]
    return None


def _git(argv: list, analysis) -> list:
    state = analysis.hidden or _NO_STATE  # most git commands hide nothing: no State for them
    pairs = _git_config_env(state) if state.env else []
    local_aliases: dict = {}
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "-c" and i + 1 < len(argv):
            key, _, value = argv[i + 1].partition("=")
            pairs.append((key, value))
            i += 2
        elif word == "--config-env" or word.startswith("--config-env="):
            spec = word.partition("=")[2] if "=" in word else \
                (argv[i + 1] if i + 1 < len(argv) else "")
            i += 1 if "=" in word else 2
            key, _, var = spec.partition("=")
            values = state.env.get(var) or list(analysis.values.get(var, ()))
            if not values:
                analysis.flag(f"git --config-env={spec} takes {key} from the environment: "
                              "never auto-allowed")
                values = [""]
            pairs += [(key, v) for v in values]
        elif word.startswith("--exec-path="):
            analysis.flag(f"git {word} runs git commands from another directory: "
                          "never auto-allowed")
            i += 1
        elif word in _GIT_VALUE_OPTIONS:
            i += 2
        elif word.startswith("-"):
            i += 1
        else:
            break
    for key, value in pairs:
        _config_pair(key, value, analysis, local_aliases)
    rest = argv[i:]
    found = []
    for word in rest:
        if "ext::" in word:
            _ext_url(word, analysis, found)
    if not rest:
        return found
    sub = rest[0]
    if sub == "config":
        _config_write(rest[1:], analysis)
    elif sub in _GIT_COMMAND_OPTIONS:
        found += _command_options(sub, rest[1:], analysis)
    elif sub == "bisect" and len(rest) > 2 and rest[1] == "run":
        found.append(rest[2:])
    if sub in GIT_COMMANDS:
        return found
    name = sub.lower()
    values = local_aliases.get(name, []) + state.aliases.get(name, [])
    if not values:
        # an alias already in git's config files (written by an earlier command): spelled
        # for the deny and ask rules (what is allowed stays the command as written)
        for value in saved_aliases(argv[:i]).get(name, ()):
            if value.startswith("!"):
                inner = _split(value[1:])
                if inner:
                    found.append(inner)
            else:
                words = _split(value)
                if words:
                    found.append(argv[:i] + words + rest[1:])
    if not values:
        if state.config_written:
            analysis.flag(f"git {sub}: not a git command, and git's config is changed on this "
                          "line (an alias?): never auto-allowed")
        return found
    for value in values:
        state = _state(analysis)
        if state.expansions >= _MAX_ALIASES:
            analysis.flag(f"git alias {sub} expands too often: never auto-allowed")
            break
        state.expansions += 1
        if value.startswith("!"):
            _judge(analysis, value[1:], f"git alias {sub}")
            continue
        if "$" in value or "`" in value:
            analysis.flag(f"git alias {sub} is only known when it runs ({value}): "
                          "never auto-allowed")
        words = _split(value)
        if words is None:
            analysis.flag(f"git alias {sub} ({value}) cannot be read: never auto-allowed")
            continue
        found.append(argv[:i] + words + rest[1:])
    return found


_SAVED: dict = {}


def saved_aliases(globals_: list) -> dict:
    """The `[alias]` entries of git's config files for a command run here (system, global,
    the repository's own from the cwd or `-C`): lower-case name → values. Read only for a
    command git does not have, cached by file, mtime and size."""
    from ctxcrl import lean_os as os

    env = os.environ
    files = []
    if not env.get("GIT_CONFIG_NOSYSTEM"):
        files.append(env.get("GIT_CONFIG_SYSTEM") or "/etc/gitconfig")
    home = env.get("HOME") or os.path.expanduser("~")
    if env.get("GIT_CONFIG_GLOBAL"):
        files.append(env["GIT_CONFIG_GLOBAL"])
    else:
        xdg = env.get("XDG_CONFIG_HOME") or os.path.join(home, ".config")
        files += [os.path.join(xdg, "git", "config"), os.path.join(home, ".gitconfig")]
    here = os.getcwd()
    for k, word in enumerate(globals_):
        if word == "-C" and k + 1 < len(globals_):
            here = os.path.join(here, globals_[k + 1])
    files += _repository_configs(here)
    found: dict = {}
    for path in files:
        for name, values in _aliases_in(path).items():
            for value in values:
                _add(found, name, value)
    return found


def _repository_configs(here: str) -> list:
    from ctxcrl import lean_os as os

    for _ in range(64):
        dot = os.path.join(here, ".git")
        if os.path.isdir(dot):
            return [os.path.join(dot, "config")]
        if os.path.isfile(dot):
            try:
                with open(dot, encoding="utf-8", errors="replace") as f:
                    line = f.read(4096).strip()
            except OSError:
                return []
            if not line.startswith("gitdir:"):
                return []
            gitdir = os.path.join(here, line[len("gitdir:"):].strip())
            configs = [os.path.join(gitdir, "config")]
            try:
                with open(os.path.join(gitdir, "commondir"), encoding="utf-8") as f:
                    configs.append(os.path.join(gitdir, f.read().strip(), "config"))
            except OSError:
                pass
            return configs
        parent = os.path.dirname(here)
        if parent == here:
            return []
        here = parent
    return []


def _aliases_in(path: str) -> dict:
    from ctxcrl import lean_os as os

    try:
        st = os.stat(path)
    except OSError:
        return {}
    key = (path, st.st_mtime_ns, st.st_size)
    cached = _SAVED.get(path)
    if cached is not None and cached[0] == key:
        return cached[1]
    aliases: dict = {}
    try:
        with open(path, encoding="utf-8", errors="replace") as f:
            text = f.read(1 << 20)
    except OSError:
        text = ""
    section = ""
    for raw in text.splitlines():
        line = raw.strip()
        if not line or line[0] in "#;":
            continue
        if line.startswith("["):
            section = line[1:line.find("]")].strip().split(" ", 1)[0].lower() \
                if "]" in line else ""
            line = line[line.find("]") + 1:].strip() if "]" in line else ""
            if not line:
                continue
        if section != "alias" or "=" not in line:
            continue
        name, _, value = line.partition("=")
        _add(aliases, name.strip().lower(), _config_value(value))
    _SAVED[path] = (key, aliases)
    return aliases


def _config_value(value: str) -> str:
    """A git config value: quotes removed, backslash escapes read, `#`/`;` comments cut."""
    out, quoted, i = [], False, 0
    value = value.strip()
    while i < len(value):
        c = value[i]
        if c == "\\" and i + 1 < len(value):
            out.append({"n": "\n", "t": "\t", "b": "\b"}.get(value[i + 1], value[i + 1]))
            i += 2
            continue
        if c == '"':
            quoted = not quoted
        elif c in "#;" and not quoted:
            break
        else:
            out.append(c)
        i += 1
    return "".join(out).strip()


_NO_STATE = State()  # read-only stand-in while a line has no hidden command


def _key_shape(key: str) -> tuple:
    """(the key as matched against the tables, its subsection-free form)."""
    parts = key.split(".")
    if len(parts) < 2:
        return key.lower(), key.lower()
    section, name = parts[0].lower(), parts[-1].lower()
    if len(parts) == 2:
        return f"{section}.{name}", f"{section}.{name}"
    sub = ".".join(parts[1:-1])
    return f"{section}.{sub.lower()}.{name}", f"{section}.*.{name}"


_BOOLEAN = frozenset(("", "true", "false", "yes", "no", "on", "off", "1", "0"))


def _config_pair(key: str, value: str, analysis, aliases: dict) -> None:
    """One git config entry in force for a command (`-c`, GIT_CONFIG_*, a config write)."""
    exact, shape = _key_shape(key)
    if exact.startswith("alias.") and exact.count(".") == 1:
        _add(aliases, exact[len("alias."):], value)
        return
    if "ext::" in value:
        _ext_url(value, analysis, None)
    if exact.startswith("pager.") and exact.count(".") == 1:
        shape = "pager.*"  # pager.<command>
    if exact in _GIT_COMMAND_KEYS or shape in _GIT_COMMAND_KEYS:
        if (shape == "pager.*" or exact == "core.fsmonitor") and value.lower() in _BOOLEAN:
            return
        what = f"git config {key}"
        if exact in ("credential.helper",) or shape == "credential.*.helper":
            if not value.startswith(("!", "/")) and value:
                value = "git credential-" + value
            value = value.lstrip("!")
        _judge(analysis, value, what)
        return
    if exact in _GIT_HIDDEN_KEYS or shape in _GIT_HIDDEN_KEYS:
        analysis.flag(f"git config {key} makes git run what cannot be seen here: "
                      "never auto-allowed")


_CONFIG_VALUE_OPTIONS = frozenset(("-f", "--file", "--blob", "--type", "--default", "--comment",
                                   "--value", "--url", "--worktree-file"))
_CONFIG_SUBCOMMANDS = frozenset(("list", "get", "set", "unset", "rename-section",
                                 "remove-section", "edit"))
_CONFIG_READS = frozenset(("--get", "--get-all", "--get-regexp", "--get-urlmatch", "--list",
                           "-l", "--unset", "--unset-all", "--get-color", "--get-colorbool",
                           "--remove-section", "--rename-section", "--edit", "-e",
                           "--show-origin", "--show-scope"))


def _config_write(args: list, analysis) -> None:
    """`git config [options] key value`, `git config set key value`: what it writes."""
    positional = []
    reading = False
    i = 0
    while i < len(args):
        word = args[i]
        if word in _CONFIG_VALUE_OPTIONS:
            i += 2
            continue
        if word.startswith("-"):
            reading |= word.split("=", 1)[0] in _CONFIG_READS
            i += 1
            continue
        positional.append(word)
        i += 1
    if positional and positional[0] in _CONFIG_SUBCOMMANDS:
        if positional[0] != "set":
            return
        positional = positional[1:]
    if reading or len(positional) < 2:
        return
    state = _state(analysis)
    state.config_written = True
    key, value = positional[0], positional[1]
    exact, _ = _key_shape(key)
    if exact.startswith("alias."):
        analysis.flag(f"git config {key} defines a git alias: never auto-allowed")
        _add(state.aliases, exact[len("alias."):], value)
        # what the alias will run meets the deny rules now: in a bypass mode this command
        # runs unasked, and a later `git p` alone would run it unseen
        state.texts.append(value[1:] if value.startswith("!") else "git " + value)
        return
    _config_pair(key, value, analysis, {})


def _command_options(sub: str, args: list, analysis) -> list:
    names = _GIT_COMMAND_OPTIONS[sub]
    if sub == "submodule":
        if "foreach" in args:
            rest = [w for w in args[args.index("foreach") + 1:] if not w.startswith("-")]
            if rest:
                _judge(analysis, " ".join(rest), "git submodule foreach")
        return []
    for i, word in enumerate(args):
        name, eq, value = word.partition("=")
        if name in names:
            if not eq:
                value = args[i + 1] if i + 1 < len(args) else ""
            _judge(analysis, value, f"git {sub} {name}")
        elif len(word) > 2 and word[:2] in names and not word.startswith("--"):
            _judge(analysis, word[2:], f"git {sub} {word[:2]}")  # -xCMD, -OCMD
    return []


def _ext_url(word: str, analysis, found) -> None:
    """`ext::sh -c git% push`: git's ext transport runs that command (`% ` is a space)."""
    analysis.flag(f"a git ext:: URL runs a command ({word}): never auto-allowed")
    body = word[word.index("ext::") + 5:]
    argv, current, i = [], [], 0
    while i < len(body):
        c = body[i]
        if c == "%" and i + 1 < len(body):
            nxt = body[i + 1]
            if nxt in " %":
                current.append(nxt)
            i += 2
            continue
        if c == " ":
            if current:
                argv.append("".join(current))
            current = []
        else:
            current.append(c)
        i += 1
    if current:
        argv.append("".join(current))
    if argv:
        if found is not None:
            found.append(argv)
        else:
            _state(analysis).texts.append(" ".join(_quote(w) for w in argv))


def _add(table: dict, name: str, value: str) -> None:
    values = table.setdefault(name, [])
    if value not in values:
        values.append(value)


def _quote(word: str) -> str:
    return "'" + word.replace("'", "'\\''") + "'"


def _base(word: str) -> str:
    return word.rsplit("/", 1)[-1] if "/" in word else word


def _split(text: str):
    """Words of a git alias or GIT_CONFIG_PARAMETERS (quotes and backslashes as in git's
    split_cmdline); None when it cannot be split."""
    from cc_lex.lexer import LexError
    from cc_lex.words import split_words

    try:
        return split_words(text)
    except (LexError, RecursionError):
        return None


# ---------------------------------------------------------------------------------------------
# static output of echo / printf


def _static_output_of_text(text: str):
    """What a short command line prints, when it is one echo/printf/cat of static words."""
    if "$" in text or "`" in text:
        return None
    from cc_lex.lexer import LexError
    from cc_peel.peeling import peel

    try:
        peeled = peel(text)
    except (LexError, RecursionError):
        return None
    if len(peeled.segments) != 1:
        return None
    seg = peeled.segments[0]
    argv = list(seg.argv or ())
    if argv and _base(argv[0]) == "cat" and len(argv) == 1:
        fed = _stdin_texts(peeled)
        return fed[0] if len(fed) == 1 else None
    return static_output(argv)


def static_output(argv: list, literal: bool = False):
    """The output of `echo …` / `printf …` with static words, else None (`literal`: take a
    `$` or backtick in a word as written)."""
    if not argv:
        return None
    program = _base(argv[0])
    if not literal and any("$" in w or "`" in w for w in argv):
        return None
    if program == "echo":
        args = argv[1:]
        newline, escapes = True, False
        while args and len(args[0]) > 1 and args[0][0] == "-" and set(args[0][1:]) <= set("neE"):
            newline &= "n" not in args[0]
            escapes |= "e" in args[0]
            args = args[1:]
        text = " ".join(args)
        return (_escapes(text) if escapes else text) + ("\n" if newline else "")
    if program == "printf" and len(argv) > 1:
        args = argv[1:]
        if args[0] == "--":
            args = args[1:]
        if not args or args[0].startswith("-"):
            return None
        return _printf(args[0], args[1:])
    return None


_ESCAPES = {"n": "\n", "t": "\t", "\\": "\\", "a": "\a", "r": "\r", "v": "\v", "f": "\f",
            "e": "\x1b", '"': '"', "'": "'"}


def _escapes(text: str) -> str:
    out, i = [], 0
    while i < len(text):
        c = text[i]
        if c == "\\" and i + 1 < len(text) and text[i + 1] in _ESCAPES:
            out.append(_ESCAPES[text[i + 1]])
            i += 2
            continue
        out.append(c)
        i += 1
    return "".join(out)


def _printf(fmt: str, args: list):
    out = []
    args = list(args)
    for _ in range(16):
        i = 0
        used = False
        while i < len(fmt):
            c = fmt[i]
            if c == "%" and i + 1 < len(fmt):
                conv = fmt[i + 1]
                if conv == "%":
                    out.append("%")
                elif conv in "sb":
                    value = args.pop(0) if args else ""
                    out.append(_escapes(value) if conv == "b" else value)
                    used = True
                else:
                    return None
                i += 2
                continue
            if c == "\\" and i + 1 < len(fmt) and fmt[i + 1] in _ESCAPES:
                out.append(_ESCAPES[fmt[i + 1]])
                i += 2
                continue
            out.append(c)
            i += 1
        if not args or not used:
            break
    return "".join(out)
