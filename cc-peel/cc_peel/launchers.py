"""What a launcher runs: `prlimit --nofile=9 git push` runs `git push`, `script -qec 'git push'
/dev/null` runs the shell script `git push`.

`launched(argv, stdin=None)` → a Launch, or None when argv[0] is no launcher this knows:
- `argvs`: the commands it runs (words), `scripts`: the shell scripts it runs (text);
- `unsure`: why its options could not be read for sure (an option it does not know): what it
  runs is then not known, and a caller must never allow on it.
`stdin` is the launcher's input when it is known (`echo push | xargs git`): xargs and
parallel make their commands of it.

Each launcher's options come from its own manual (GNU coreutils 9.1, util-linux 2.38, sudo,
GNU parallel 20221122): which take a value, which take one only when attached (`-n5`,
`--nofile=9`), which words come before the command (timeout's duration, chroot's root,
flock's file). GNU getopt_long abbreviations of long options (`--split-s`) are understood.
`env` is read as GNU env does, `-S`/`--split-string` split by env's own rules (`split_string`).
Imports nothing.
"""


class Launch:
    __slots__ = ("argvs", "scripts", "unsure")

    def __init__(self, argvs=(), scripts=(), unsure=None):
        self.argvs = list(argvs)
        self.scripts = list(scripts)
        self.unsure = unsure

    def __repr__(self):
        return f"Launch({self.argvs!r}, {self.scripts!r}, {self.unsure!r})"


class _Spec:
    """Options of a launcher that runs `[options] [positionals] command [args]`."""

    __slots__ = ("values", "optional", "flags", "long_values", "long_optional", "long_flags",
                 "positionals", "permute", "numeric")

    def __init__(self, values="", optional="", flags="", long_values=(), long_optional=(),
                 long_flags=(), positionals=0, permute=False, numeric=False):
        self.values = values              # short options that take a value (`-n 5`, `-n5`)
        self.optional = optional          # short options whose value is attached only
        self.flags = flags + "hV"
        self.long_values = frozenset(long_values)
        self.long_optional = frozenset(long_optional)  # `--nofile` or `--nofile=9`
        self.long_flags = frozenset(long_flags) | {"--help", "--version"}
        self.positionals = positionals    # words between the options and the command
        self.permute = permute            # options may follow the command's first word
        self.numeric = numeric            # `nice -5`: a number is an option


_RESOURCES = ("--core", "--data", "--nice", "--fsize", "--sigpending", "--memlock", "--rss",
              "--nofile", "--msgqueue", "--rtprio", "--stack", "--cpu", "--nproc", "--as",
              "--locks", "--rttime")

SPECS = {
    "nohup": _Spec(),
    "nice": _Spec(values="n", long_values=("--adjustment",), numeric=True),
    "timeout": _Spec(values="sk", flags="v", long_values=("--signal", "--kill-after"),
                     long_flags=("--foreground", "--preserve-status", "--verbose"),
                     positionals=1),
    "stdbuf": _Spec(values="ioe", long_values=("--input", "--output", "--error")),
    "setsid": _Spec(flags="cfw", long_flags=("--ctty", "--fork", "--wait")),
    "ionice": _Spec(values="cnpPu", flags="t", long_values=(
        "--class", "--classdata", "--pid", "--pgid", "--uid"), long_flags=("--ignore",)),
    "chrt": _Spec(values="TPD", flags="abdfiormRv", long_values=(
        "--sched-runtime", "--sched-period", "--sched-deadline"), long_flags=(
        "--all-tasks", "--batch", "--deadline", "--fifo", "--idle", "--other", "--rr",
        "--reset-on-fork", "--verbose", "--max", "--pid"), positionals=1),
    "taskset": _Spec(flags="acp", long_flags=("--all-tasks", "--pid", "--cpu-list"),
                     positionals=1),
    "prlimit": _Spec(values="po", optional="cdefilmnqrstuvxy", long_values=(
        "--pid", "--output"), long_optional=_RESOURCES, long_flags=(
        "--noheadings", "--raw", "--verbose")),
    "setpriv": _Spec(flags="d", long_values=(
        "--reuid", "--regid", "--ruid", "--rgid", "--euid", "--egid", "--groups", "--inh-caps",
        "--ambient-caps", "--bounding-set", "--securebits", "--pdeathsig", "--selinux-label",
        "--apparmor-profile", "--landlock-access", "--landlock-rule", "--seccomp-filter"),
        long_flags=("--clear-groups", "--keep-groups", "--init-groups", "--no-new-privs",
                    "--reset-env", "--dump")),
    "unshare": _Spec(values="SGRwl", optional="imnpuUCT", flags="frc", long_values=(
        "--setuid", "--setgid", "--root", "--wd", "--propagation", "--setgroups",
        "--map-user", "--map-group", "--map-users", "--map-groups", "--load-interp"),
        long_optional=("--mount", "--uts", "--ipc", "--net", "--pid", "--user", "--cgroup",
                       "--time", "--kill-child", "--monotonic", "--boottime"),
        long_flags=("--fork", "--map-root-user", "--map-current-user", "--map-auto",
                    "--mount-proc", "--keep-caps", "--mount-binfmt")),
    "nsenter": _Spec(values="tSGe", optional="muipUnCTrw", flags="aFZ", long_values=(
        "--target", "--setuid", "--setgid", "--env"), long_optional=(
        "--mount", "--uts", "--ipc", "--net", "--pid", "--user", "--cgroup", "--time",
        "--root", "--wd"), long_flags=("--all", "--preserve-credentials", "--no-fork",
                                       "--follow-context", "--user-parent", "--keep-caps")),
    "chroot": _Spec(long_values=("--userspec", "--groups"), long_flags=("--skip-chdir",),
                    positionals=1),
    "sudo": _Spec(values="ughpCDRTUrt", flags="AbEeHiKklnPSsv", long_values=(
        "--user", "--group", "--host", "--prompt", "--close-from", "--chdir", "--chroot",
        "--command-timeout", "--other-user", "--role", "--type"), long_optional=(
        "--preserve-env",), long_flags=(
        "--askpass", "--background", "--bell", "--edit", "--set-home", "--login",
        "--remove-timestamp", "--reset-timestamp", "--list", "--non-interactive",
        "--preserve-groups", "--stdin", "--shell", "--validate")),
    "doas": _Spec(values="Cu", flags="Lns"),
    "run0": _Spec(values="ugDM", long_values=(
        "--user", "--group", "--chdir", "--machine", "--unit", "--property", "--description",
        "--slice", "--setenv", "--nice", "--background"), long_flags=("--no-ask-password",)),
    "time": _Spec(values="fo", flags="pvqa", long_values=("--format", "--output"),
                  long_flags=("--portability", "--verbose", "--quiet", "--append")),
    "command": _Spec(flags="p"),
    "exec": _Spec(values="a", flags="cl"),
    "caffeinate": _Spec(values="tw", flags="dimsu"),
    "unbuffer": _Spec(flags="p"),
    "chronic": _Spec(flags="ev"),
    "catchsegv": _Spec(),
    "nocorrect": _Spec(),
    "noglob": _Spec(),
    "coproc": _Spec(),
    "strace": _Spec(values="abeIoOpPsSuEXU", flags="cCdDfFhiknqrtTvVwxyYzZ", long_values=(
        "--output", "--trace", "--signal", "--status", "--attach", "--user", "--env",
        "--string-limit", "--columns", "--abbrev", "--verbose", "--raw", "--read",
        "--write", "--fault", "--inject", "--kvm", "--trace-path", "--summary-sort-by",
        "--const-print-style", "--decode-fds", "--quiet", "--silence", "--timestamps",
        "--stack-traces"), long_flags=("--follow-forks", "--output-separately",
                                       "--summary-only", "--summary", "--daemonize",
                                       "--no-abbrev", "--relative-timestamps",
                                       "--syscall-times", "--instruction-pointer")),
    "flock": _Spec(values="wEc", flags="sxunoFv", long_values=(
        "--wait", "--timeout", "--conflict-exit-code", "--command"), long_flags=(
        "--shared", "--exclusive", "--unlock", "--nonblock", "--nb", "--close", "--no-fork",
        "--verbose"), positionals=1),
    "xargs": _Spec(values="aEdILnPs", optional="eil", flags="0prtox", long_values=(
        "--arg-file", "--delimiter", "--max-args", "--max-procs", "--max-chars",
        "--process-slot-var"), long_optional=("--eof", "--replace", "--max-lines"),
        long_flags=("--null", "--interactive", "--no-run-if-empty", "--verbose",
                    "--exit", "--open-tty", "--show-limits")),
}

#: Launchers whose options are all `--name` or `--name=value` (a word not starting with `-`
#: is the command).
LONG_ONLY = frozenset(("valgrind", "firejail", "torsocks", "proxychains", "proxychains4",
                       "ltrace", "systemd-run", "systemd-nspawn", "bwrap", "faketime",
                       "eatmydata", "fakeroot", "nocache", "trickle", "cpulimit", "numactl"))
#: Launchers that run a shell script given with -c (su, runuser also run commands).
_SHELL_C = frozenset(("su", "runuser", "script"))
KNOWN = frozenset(SPECS) | LONG_ONLY | _SHELL_C | frozenset((
    "env", "builtin", "busybox", "watch", "sg", "npx", "pnpx", "npm", "parallel"))


def launched(argv: list, stdin=None):
    """What `argv` runs, when argv[0] (its basename) is a launcher this knows; else None."""
    if not argv:
        return None
    name = argv[0].rpartition("/")[2]
    if name in SPECS:
        spec = SPECS[name]
        start, unsure = _skip_options(argv, 1, spec)
        if name == "flock":
            return _flock(argv, start, unsure)
        if name == "xargs":
            return _xargs(argv, start, unsure, stdin)
        if name == "command" and any(w in ("-v", "-V") for w in argv[1:start]):
            return Launch()  # `command -v git` looks a command up
        if name == "sudo" and (set(argv[1:start]) & {"-e", "--edit", "-l", "--list"}):
            return Launch(unsure=unsure)
        rest = argv[start:]
        while name == "sudo" and rest and _is_assignment(rest[0]):
            rest = rest[1:]
        return Launch([rest] if rest else [], (), unsure)
    if name in LONG_ONLY:
        i = 1
        while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
            i += 1
        if i < len(argv) and argv[i] == "--":
            i += 1
        rest = argv[i:]
        unsure = None if name in ("valgrind", "firejail") else \
            f"{name}'s options are not all known"
        return Launch([rest] if rest else [], (), unsure if rest else None)
    if name == "env":
        return _env(argv)
    if name in ("builtin", "busybox"):
        return Launch([argv[1:]] if len(argv) > 1 else [])
    if name in _SHELL_C:
        return _shell_c(name, argv)
    if name == "watch":
        return _watch(argv)
    if name == "sg":
        return _sg(argv)
    if name in ("npx", "pnpx", "npm"):
        return _npx(name, argv)
    if name == "parallel":
        return _parallel(argv, stdin)
    return None


def _long_name(word: str, spec: _Spec):
    """The long option a word names (exact, or an unambiguous GNU abbreviation), or None."""
    name = word.split("=", 1)[0]
    known = spec.long_values | spec.long_optional | spec.long_flags
    if name in known:
        return name
    found = [k for k in known if k.startswith(name)]
    return found[0] if len(found) == 1 else None


def _skip_options(argv: list, i: int, spec: _Spec):
    """(index of the command, None or why not sure) after the options and positionals."""
    n = len(argv)
    unsure = None
    positionals = spec.positionals
    while i < n:
        word = argv[i]
        if word == "--":
            i += 1
            break
        if word.startswith("--"):
            name = _long_name(word, spec)
            if name is None:
                unsure = unsure or f"{argv[0]} option {word}"
                i += 1
            elif name in spec.long_values and "=" not in word:
                i += 2
            else:
                i += 1
            continue
        if word.startswith("-") and len(word) > 1:
            if spec.numeric and word[1:].isdigit():
                i += 1
                continue
            k = 1
            i += 1
            while k < len(word):
                c = word[k]
                if c in spec.values:
                    if k + 1 == len(word):
                        i += 1  # the value is the next word
                    break
                if c in spec.optional:
                    break
                if c not in spec.flags:
                    unsure = unsure or f"{argv[0]} option -{c}"
                k += 1
            continue
        if positionals:
            positionals -= 1
            i += 1
            continue
        break
    return min(i, n), unsure


def _is_assignment(word: str) -> bool:
    name, eq, _ = word.partition("=")
    return bool(eq) and name.replace("_", "a").isalnum() and not name[0].isdigit()


# ---------------------------------------------------------------------------------------------
# env

def _env(argv: list) -> Launch:
    """GNU env: options (`-i`, `-u NAME`, `-C DIR`, `-S STRING`, `-0`, `-v`, the signal
    options), NAME=VALUE words, then the command. `-S` splits its string into words that take
    its place, and option parsing goes on over them."""
    words = list(argv)
    i = 1
    unsure = None
    for _ in range(16):  # -S inside -S inside …
        split = None
        while i < len(words):
            word = words[i]
            if word == "--":
                i += 1
                break
            if word.startswith("--"):
                name = _env_long(word)
                if name is None:
                    unsure = unsure or f"env option {word}"
                    i += 1
                elif name == "--split-string":
                    if "=" in word:
                        split, i = word.split("=", 1)[1], i + 1
                    elif i + 1 < len(words):
                        split, i = words[i + 1], i + 2
                    else:
                        i += 1
                    break
                elif name in ("--unset", "--chdir") and "=" not in word:
                    i += 2
                else:
                    i += 1
                continue
            if word.startswith("-") and len(word) > 1:
                k = 1
                i += 1
                while k < len(word):
                    c = word[k]
                    if c in "uCS":
                        value = word[k + 1:]
                        if not value:
                            value = words[i] if i < len(words) else ""
                            i += 1
                        if c == "S":
                            split = value
                        break
                    if c not in "i0v":
                        unsure = unsure or f"env option -{c}"
                    k += 1
                if split is not None:
                    break
                continue
            if word == "-":
                i += 1
                continue
            break
        if split is None:
            break
        try:
            parts = split_string(split)
        except ValueError as exc:
            return Launch(unsure=f"env -S: {exc}")
        words = [words[0]] + parts + words[i:]
        i = 1
    while i < len(words) and _is_assignment(words[i]):
        i += 1
    rest = words[i:]
    return Launch([rest] if rest else [], (), unsure)


def _env_long(word: str):
    name = word.split("=", 1)[0]
    known = ("--ignore-environment", "--null", "--unset", "--chdir", "--split-string",
             "--block-signal", "--default-signal", "--ignore-signal", "--list-signal-handling",
             "--debug", "--help", "--version")
    found = [k for k in known if k.startswith(name)]
    return name if name in known else (found[0] if len(found) == 1 else None)


def split_string(text: str) -> list:
    """The words GNU env -S makes of `text`: blanks separate; '…' takes everything but `\\\\`
    and `\\'`; "…" and unquoted text know `\\_` (a space; outside quotes a separator), `\\c`
    (end), `\\n` `\\t` `\\f` `\\r` `\\v`, `\\#`, `\\$`, `\\\\`, `\\"`, `\\'`; `${NAME}` stays as
    written (the caller knows or does not know its value); `#` at a word's start comments out
    the rest. Raises ValueError where env would fail."""
    words = []
    current = []
    started = False
    i, n = 0, len(text)
    quote = None
    escapes = {"n": "\n", "t": "\t", "f": "\f", "r": "\r", "v": "\v", "#": "#", "$": "$",
               "\\": "\\", '"': '"', "'": "'"}
    while i < n:
        c = text[i]
        if quote == "'":
            if c == "\\" and i + 1 < n and text[i + 1] in "\\'":
                current.append(text[i + 1])
                i += 2
                continue
            if c == "'":
                quote = None
            else:
                current.append(c)
            i += 1
            continue
        if c == "\\":
            if i + 1 >= n:
                raise ValueError("invalid backslash at the end of the string")
            d = text[i + 1]
            if d == "c":
                if quote == '"':
                    raise ValueError("'\\c' must not appear in double-quoted -S string")
                break
            if d == "_":
                if quote == '"':
                    current.append(" ")
                elif started:
                    words.append("".join(current))
                    current, started = [], False
                i += 2
                continue
            if d not in escapes:
                raise ValueError(f"invalid sequence '\\{d}' in -S")
            current.append(escapes[d])
            started = True
            i += 2
            continue
        if quote == '"':
            if c == '"':
                quote = None
                i += 1
                continue
            if c == "$" and text.startswith("{", i + 1):
                end = text.find("}", i)
                if end < 0:
                    raise ValueError("only ${VARNAME} expansion is supported")
                current.append(text[i:end + 1])
                i = end + 1
                continue
            current.append(c)
            i += 1
            continue
        if c in " \t\n\v\f\r":
            if started:
                words.append("".join(current))
                current, started = [], False
            i += 1
            continue
        if c == "#" and not started:
            break
        if c in "'\"":
            quote = c
            started = True
            i += 1
            continue
        if c == "$":
            if not text.startswith("{", i + 1) or text.find("}", i) < 0:
                raise ValueError("only ${VARNAME} expansion is supported")
            end = text.find("}", i)
            current.append(text[i:end + 1])
            started = True
            i = end + 1
            continue
        current.append(c)
        started = True
        i += 1
    if quote is not None:
        raise ValueError("no terminating quote in -S string")
    if started:
        words.append("".join(current))
    return words


# ---------------------------------------------------------------------------------------------
# launchers that run a shell string or read their commands

def _shell_c(name: str, argv: list) -> Launch:
    """su / runuser / script: the -c (--command, --session-command) script, anywhere in
    argv (their getopt permutes); `runuser -u USER [--] command…` runs a command."""
    scripts = []
    i = 1
    while i < len(argv):
        word = argv[i]
        if word == "--":
            if name == "runuser":
                return Launch([argv[i + 1:]] if i + 1 < len(argv) else [], scripts)
            break
        for long in ("--command", "--session-command"):
            if word.startswith(long + "="):
                scripts.append(word[len(long) + 1:])
            elif word == long and i + 1 < len(argv):
                scripts.append(argv[i + 1])
        if word.startswith("-") and not word.startswith("--"):
            body = word[1:]
            for k, c in enumerate(body):
                if c in "cgGswuEIOBTmo":
                    value = body[k + 1:] or (argv[i + 1] if i + 1 < len(argv) else "")
                    if c == "c":
                        scripts.append(value)
                    if name == "runuser" and c == "u":
                        j = i + (1 if body[k + 1:] else 2)
                        if j < len(argv) and argv[j] == "--":
                            j += 1
                        if j < len(argv) and not argv[j].startswith("-"):
                            return Launch([argv[j:]], scripts)
                    if not body[k + 1:]:
                        i += 1
                    break
        i += 1
    return Launch((), scripts)


def _watch(argv: list) -> Launch:
    """watch [options] command: run by `sh -c` (the words joined), or exec'd with -x."""
    i = 1
    exec_it = False
    while i < len(argv) and argv[i].startswith("-") and argv[i] != "--":
        word = argv[i]
        if word in ("-x", "--exec") or (not word.startswith("--") and "x" in word[1:]):
            exec_it = True
        if word in ("-n", "--interval", "-q", "--equexit") or \
                (not word.startswith("--") and word[-1:] in "nq" and len(word) == 2):
            i += 1
        i += 1
    if i < len(argv) and argv[i] == "--":
        i += 1
    rest = argv[i:]
    if not rest:
        return Launch()
    return Launch([rest]) if exec_it else Launch([rest], [" ".join(rest)])


def _sg(argv: list) -> Launch:
    """sg [-] group [-c] command: the command is run by /bin/sh -c."""
    rest = argv[1:]
    if rest and rest[0] == "-":
        rest = rest[1:]
    rest = rest[1:]  # the group
    if rest and rest[0] == "-c":
        rest = rest[1:]
    return Launch([rest], [" ".join(rest)]) if rest else Launch()


def _npx(name: str, argv: list) -> Launch:
    """npx -c / --call, npm exec|x -c / --call: a shell script."""
    words = argv[1:]
    if name == "npm":
        if not words or words[0] not in ("exec", "x"):
            return Launch()
        words = words[1:]
    scripts = []
    for i, word in enumerate(words):
        if word == "--":
            break
        if word in ("-c", "--call") and i + 1 < len(words):
            scripts.append(words[i + 1])
        elif word.startswith("--call="):
            scripts.append(word[len("--call="):])
    return Launch((), scripts)


def _flock(argv: list, start: int, unsure) -> Launch:
    """flock [options] FILE command… | flock [options] FILE -c script (also before FILE)."""
    scripts = []
    for i in range(1, len(argv) - 1):
        if argv[i] in ("-c", "--command"):
            scripts.append(argv[i + 1])
        elif argv[i].startswith("--command="):
            scripts.append(argv[i][len("--command="):])
    rest = argv[start:]
    if scripts or not rest:
        return Launch((), scripts, unsure)
    return Launch([rest], (), unsure)


def _input_words(stdin) -> list:
    return stdin.split() if stdin else []


def _xargs(argv: list, start: int, unsure, stdin) -> Launch:
    """xargs [options] [command [args]]: the command (echo by default) with the input's words
    appended, or put in place of the -I string."""
    rest = argv[start:] or ["echo"]
    replace = None
    for i in range(1, start):
        word = argv[i]
        if word == "-I" and i + 1 < start:
            replace = argv[i + 1]
        elif word.startswith("-I") and len(word) > 2:
            replace = word[2:]
        elif word in ("-i", "--replace"):
            replace = "{}"
        elif word.startswith("--replace="):
            replace = word.split("=", 1)[1] or "{}"
    words = _input_words(stdin)
    if replace is not None:
        lines = [line.strip() for line in (stdin or "").splitlines() if line.strip()]
        argvs = [[w.replace(replace, line) for w in rest] for line in lines[:16]]
        return Launch(argvs or [rest], (), unsure)
    return Launch([rest + words], (), unsure)


_PARALLEL_VALUES = frozenset((
    "-j", "--jobs", "-S", "--sshlogin", "-a", "--arg-file", "-d", "--delimiter", "-I",
    "-n", "--max-args", "-N", "--max-replace-args", "-L", "--max-lines", "--colsep", "-C",
    "--joblog", "--results", "--res", "--tmpdir", "--timeout", "--delay", "--retries",
    "--shebang-wrap", "--workdir", "--wd", "--env", "--basefile", "--sshloginfile",
    "--slf", "--tag-string", "--tagstring", "-E", "--eof", "--load", "--memfree",
    "--block", "--block-size", "--halt", "--termseq", "-P", "--max-procs", "-s",
    "--max-chars", "--shell", "--profile", "-J", "--transfer-file", "--tf", "--return",
    "--trc", "--cleanup", "--xapply", "--rpl", "--seqreplace", "--sqlmaster", "--sqlworker",
    "--sql", "--plus", "--header",
))


def _parallel(argv: list, stdin) -> Launch:
    """GNU parallel [options] [command] (::: args)…: each combination of the `:::` lists (or
    each input line) appended to the command, or put in place of `{}`; the result is a
    shell command line. No command: the arguments are the commands."""
    i = 1
    unsure = None
    while i < len(argv) and argv[i].startswith("-") and argv[i] not in (":::", "::::"):
        word = argv[i]
        if word == "--":
            i += 1
            break
        if word.split("=", 1)[0] in _PARALLEL_VALUES and "=" not in word:
            i += 2
        else:
            i += 1
    template = []
    while i < len(argv) and argv[i] not in (":::", "::::", ":::+", "::::+"):
        template.append(argv[i])
        i += 1
    groups = []
    while i < len(argv):
        if argv[i] in ("::::", "::::+"):
            unsure = "parallel reads arguments from a file"
        group = []
        i += 1
        while i < len(argv) and argv[i] not in (":::", "::::", ":::+", "::::+"):
            group.append(argv[i])
            i += 1
        groups.append(group)
    if not groups:
        lines = [line for line in (stdin or "").splitlines() if line.strip()]
        groups = [lines] if lines else []
    combos = [[]]
    for group in groups:
        combos = [c + [a] for c in combos for a in group][:64]
    scripts = []
    for combo in combos:
        if not combo and not template:
            continue
        text = " ".join(template)
        if template and any("{" in w and "}" in w for w in template):
            for k, arg in enumerate(combo, 1):
                text = text.replace("{%d}" % k, arg)
            text = text.replace("{}", " ".join(combo))
        else:
            text = " ".join(template + combo)
        scripts.append(text)
    return Launch([template] if template else [], scripts, unsure)
