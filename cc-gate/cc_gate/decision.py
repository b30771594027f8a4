"""The gate's verdict on one command line: allow, ask or deny (ARCHITECTURE §5, steps 1-5).

Evaluated on the ORIGINAL command, each segment alone (segments inside `$(…)`, backticks,
`( )`, `{ }` and control structures included). Deny and ask rules are tested against every
spelling of a segment (as written, its peeled core, its key, its unquoted words, and what runs
under launchers such as `sudo`, `xargs`, `bash -c '…'`, `eval …`, `find -exec`), so no wrapper
or spelling escapes a deny; allow rules only against the segment as written (trailing
redirects cut off). An `allow` needs an allow rule for every segment.

Never auto-allowed (step 2): command/process substitution, arithmetic expansion, a redirect
that writes a file (`/dev/null`, `/dev/stdout`, `/dev/stderr` are not files), a command name
taken from a variable or a glob, a command that cannot be parsed.

Runs on every agent command: imports only the cheap cc_lex and cc_peel (the peeler, not
cc-peel's command line).
"""
from cc_lex.lexer import LexError
from cc_lex.words import split_words
from cc_peel import launchers
from cc_peel.keys import key_of
from cc_peel.peeling import peel

from . import hidden
from .rules import ALLOW, ASK, DENY

#: Programs that may run a command given as their later words (`mise exec -- git push`): for
#: deny and ask rules, every word within reach after them may start a command. The launchers
#: whose options are known (cc_peel.launchers: `prlimit`, `script -c`, `env -S`, …) are also
#: read exactly.
LAUNCHERS = frozenset({"prlimit", "setpriv", "coproc", "sg", "busybox", "ltrace", "bwrap",
    "systemd-nspawn", "faketime", "eatmydata", "fakeroot", "nocache", "trickle", "cpulimit",
    "numactl", "pkexec", "su", "script", "parallel", "npx", "pnpx",
    "sudo", "doas", "xargs", "watch", "nice", "nohup", "time", "timeout", "env", "command",
    "exec", "builtin", "stdbuf", "ionice", "setsid", "taskset", "chrt", "flock", "unbuffer",
    "caffeinate", "chronic", "firejail", "nsenter", "unshare", "strace", "ltrace", "noglob",
    "nocorrect", "!", "then", "do", "else", "elif", "if", "while", "until", "run0", "systemd-run",
    "mise", "rtx", "asdf", "direnv", "pkgx", "doppler", "dotenv", "aws-vault", "proxychains",
    "proxychains4", "torsocks", "runuser", "chroot", "sg", "catchsegv", "valgrind",
})
#: Programs whose `-c STRING` (or stdin) is a shell script.
SHELLS = frozenset({"bash", "sh", "zsh", "dash", "ksh", "mksh", "fish", "ash", "busybox", "su"})
#: Output targets that write nothing anyone keeps.
HARMLESS_TARGETS = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})

#: cc-gate's exit code in bare mode, per decision (ARCHITECTURE §3).
EXIT_BY_DECISION = {ALLOW: 0, DENY: 2, ASK: 3}

_MAX_DEPTH = 4
_SPELLING_BUDGET = 500
_LAUNCHER_REACH = 16  # words after a launcher that may start its command (options, values)
_GLOB_CHARS = "*?["


class GateDecision:
    """`decision` is allow|ask|deny; `reason` names the rule (or construct) that decided."""

    __slots__ = ("decision", "reason", "rule", "prompts")

    def __init__(self, decision: str, reason: str, rule=None, prompts: bool = False):
        self.decision = decision
        self.reason = reason
        self.rule = rule
        #: "ask", and the user will surely see a prompt for this command, whether the hook
        #: rewrites it or not (Claude Code: the hook's own ask; Gemini CLI: the client's, as
        #: about the original): the rewrite is safe because the user approves what runs.
        #: The record's `"prompts": true` (ARCHITECTURE §3).
        self.prompts = prompts

    def __repr__(self):
        return f"GateDecision({self.decision!r}, {self.reason!r})"


class _Analysis:
    """What the rules are tested against, gathered from a command and the commands inside it."""

    __slots__ = ("strict", "allow_texts", "allow_segments", "hazard", "budget", "seen",
                 "values", "nested", "shell_runs", "hidden")

    def __init__(self):
        self.strict: list = []       # one list of spellings per segment (deny and ask rules)
        self.allow_texts: list = []  # one as-written text per top-level-script segment
        self.allow_segments: list = []  # the cc_peel Segment of each allow text
        self.hazard: str | None = None
        #: variable name → the values a word `$name` may take on this line (loop lists,
        #: assignments, `${name:-word}` defaults): what deny rules see them as
        self.values: dict = {}
        self.nested: str | None = None  # a segment inside ( ), { }, a control structure
        # Launchers inside launchers (`sudo xargs nice …`) multiply the candidate commands;
        # past this many the command is too contrived to be auto-allowed.
        self.budget = _SPELLING_BUDGET
        self.seen: set = set()  # argv tails already spelled (one launcher reaches many)
        self.shell_runs = False  # a launcher runs a shell (`prlimit sh <<EOF`)
        self.hidden = None  # cc_gate.hidden.State, once a line holds a hidden command

    def flag(self, reason: str) -> None:
        if self.hazard is None:
            self.hazard = reason


def decide(command: str, rules, transparent_prefixes=(), auto_allowed=None,
           bypass: str | None = None, nested_asks: bool = False) -> GateDecision:
    """The verdict for `command` under `rules` (a rules.RuleSet).

    Agent models refine step 4: `auto_allowed(segment, text)` says whether the agent runs a
    segment that no allow rule matches without asking (its built-in read-only commands);
    `bypass` (a reason) allows whatever no deny or ask rule matches (a mode that runs
    everything); `nested_asks` keeps segments inside `( )`, `{ }` and control structures from
    being allowed (an agent that asks about those)."""
    analysis = _Analysis()
    _analyse(command, 0, analysis, transparent_prefixes, top=True)

    for spellings in analysis.strict:                                   # 1. deny
        rule = _first_match(rules.deny, spellings)
        if rule is not None:
            return GateDecision(DENY, rule.describe(), rule)
    if analysis.hazard is not None:                                     # 2. never auto-allowed
        return GateDecision(ASK, analysis.hazard)
    for spellings in analysis.strict:                                   # 3. ask
        rule = _first_match(rules.ask, spellings)
        if rule is not None:
            return GateDecision(ASK, rule.describe(), rule)
    if not analysis.allow_texts:
        return GateDecision(ASK, "no command to allow")
    if rules.doubt is not None:                                         # never allow in doubt
        return GateDecision(ASK, rules.doubt)
    if bypass is not None:
        return GateDecision(ALLOW, bypass)
    if nested_asks and analysis.nested is not None:
        return GateDecision(ASK, analysis.nested)
    used = []                                                           # 4. allow
    builtin = []
    for text, seg in zip(analysis.allow_texts, analysis.allow_segments):
        rule = _first_match(rules.allow, (text,))
        if rule is None:
            if auto_allowed is not None and auto_allowed(seg, text):
                builtin.append(text)
                continue
            return GateDecision(ASK, f"no allow rule matches: {text}")  # 5. default
        if rule not in used:
            used.append(rule)
    if not used:
        return GateDecision(ALLOW, "auto-allowed read-only command"
                            + ("s: " if len(builtin) > 1 else ": ") + "; ".join(builtin))
    if len(used) == 1:
        return GateDecision(ALLOW, used[0].describe(), used[0])
    described = "; ".join(f"{r.text} in {r.source}" for r in used)
    return GateDecision(ALLOW, f"allow rules {described}", used[0])



def deny_only(command: str, rules, prefixes, why) -> GateDecision:
    """The verdict for an agent the hook may only refuse for (it filters after execution, or
    its hook cannot rewrite): a deny stands; anything else is "ask", which the encoders answer
    with nothing, so the client decides on the unchanged command. `why(verdict)` words the
    reason from the verdict `decide` reached."""
    verdict = decide(command, rules, prefixes)
    if verdict.decision == DENY:
        return verdict
    return GateDecision(ASK, why(verdict))

def _first_match(rules, spellings):
    for rule in rules:
        for text in spellings:
            if rule.matches(text):
                return rule
    return None


def _analyse(command: str, depth: int, analysis: _Analysis, prefixes, top: bool) -> None:
    try:
        peeled = peel(command, prefixes) if prefixes else peel(command)
    except LexError as exc:
        analysis.flag(f"cannot parse the command ({_lex_message(exc)}): never auto-allowed")
        offset = getattr(exc, "offset", None)
        if isinstance(offset, int) and 0 < offset < len(command) and depth < _MAX_DEPTH:
            # Whatever parses before the error still meets the deny rules.
            _analyse(command[:offset], depth + 1, analysis, prefixes, top=False)
        return
    except RecursionError:
        analysis.flag("command nested too deeply: never auto-allowed")
        return

    tokens = peeled.tokens
    _flag_hazards(tokens, analysis)
    _collect_values(tokens, peeled.segments, analysis)
    hidden.line(peeled, analysis)
    inner: list = []
    segments = peeled.segments
    fed_to_shell = False
    for index, seg in enumerate(segments):
        argv = list(seg.argv or ())
        as_written = command[seg.start:_written_end(seg)].strip()
        spellings = {as_written: None}  # an ordered set
        core = command[seg.core_start:seg.core_end].strip()
        if core:
            spellings[core] = None
        if seg.key:
            spellings[seg.key] = None
        for rest in hidden.segment(seg, analysis):
            _argv_spellings(rest, spellings, inner, analysis)
        if "{" in command[seg.start:seg.end]:
            expanded = _brace_expanded(command, tokens, seg, analysis)
            if expanded is not None:
                inner.append(expanded)  # `git pu{sh,}` runs `git push pu`
        piped = index > 0 and _piped(command, segments[index - 1], seg)
        stdin = None
        if argv:
            stdin = _pipeline_output(command, segments, index - 1) if piped else None
            if stdin is None:
                stdin = _here_string(seg)
            fed = piped or _reads_input(seg)
            _argv_spellings(argv, spellings, inner, analysis, stdin, seg.env_vars, fed)
            if seg.wrappers.strip():  # `timeout --bogus 5 git status`: the wrappers' options too
                try:
                    wrapped = split_words(seg.wrappers) + argv
                except LexError:
                    wrapped = None
                if wrapped:
                    _argv_spellings(wrapped, spellings, inner, analysis, stdin, seg.env_vars,
                                    fed)
            if _is_dynamic(argv[0]):
                analysis.flag(f"a command name from a variable or glob ({argv[0]}) "
                              "is never auto-allowed")
            for expanded in _expanded_argvs(argv, analysis):
                _argv_spellings(expanded, spellings, inner, analysis, stdin, seg.env_vars)
        analysis.strict.append(list(spellings))
        if seg.nested and analysis.nested is None and seg.nested != "substitution":
            where = "group" if seg.nested == "group" else "control structure"
            analysis.nested = f"a command inside a {where} ({as_written}) is never auto-allowed"
        if top and as_written:
            analysis.allow_texts.append(as_written)
            analysis.allow_segments.append(seg)
        if argv and _base(argv[0]) in SHELLS:
            fed_to_shell = True
            if stdin is not None:
                inner.append(stdin)  # `printf 'git push\n' | sh`, `sh <<< 'git push'`
            elif (piped or _reads_input(seg)) and _shell_c_string(argv) is None:
                analysis.flag(f"a shell reading a script that is not known ({as_written}) "
                              "is never auto-allowed")
            inner.extend(_produced_texts(command[seg.start:seg.end]))  # bash <(echo git push)
    if fed_to_shell or analysis.shell_runs:
        inner.extend(hidden.stdin_scripts(tokens))
    if analysis.budget <= 0:
        analysis.flag("too many nested launchers to check: never auto-allowed")
    if depth < _MAX_DEPTH:
        for text in inner[:64]:
            if text.strip():
                _analyse(text, depth + 1, analysis, prefixes, top=False)
        # what git or bash runs that no segment shows: judged like the line it hides in
        for text in hidden.texts(analysis):
            _analyse(text, depth + 1, analysis, prefixes, top=top)
    elif hidden.texts(analysis):
        analysis.flag("hidden commands nested too deeply to check: never auto-allowed")


def _brace_expanded(command: str, tokens, seg, analysis: _Analysis):
    """The segment's text with every word brace-expanded as bash does it (cc_lex.braces), or
    None when no word changes. Assignments before the command are not expanded (bash does
    not); an expansion too large to check is never auto-allowed."""
    from cc_lex.braces import TooLarge, expand
    from cc_lex.words import word_at
    from cc_peel.layers import is_assignment

    pieces = []
    pos = seg.start
    leading = True
    k, n = 0, len(tokens)
    while k < n and tokens[k].start < seg.start:
        k += 1
    while k < n and tokens[k].start < seg.end:
        tok = tokens[k]
        if tok.kind != "word" and not (tok.kind == "substitution" and tok.pair > k):
            k += 1
            continue
        word = word_at(tokens, k, command)
        k = word.last + 1
        raw = command[word.start:word.end]
        if leading and is_assignment(raw):
            continue
        leading = False
        if "{" not in raw:
            continue
        try:
            words = expand(raw)
        except TooLarge:
            analysis.flag(f"a brace expansion too large to check ({raw}) is never auto-allowed")
            return None
        if words != [raw]:
            pieces.append(command[pos:word.start])
            pieces.append(" ".join(words))
            pos = word.end
    if not pieces:
        return None
    pieces.append(command[pos:seg.end])
    return "".join(pieces)


def _lex_message(exc) -> str:
    return str(exc.args[0]) if exc.args else exc.__class__.__name__


def _written_end(seg) -> int:
    """End of the segment without its trailing redirects."""
    if seg.redirects and seg.core_end > seg.start:
        return seg.core_end
    return seg.end


def _base(word: str) -> str:
    return word.rsplit("/", 1)[-1] if "/" in word else word


def _is_dynamic(word: str) -> bool:
    if word in ("[", "[["):
        return False
    return "$" in word or "`" in word or any(c in word for c in _GLOB_CHARS)


def has_live_substitution(word: str) -> bool:
    """`$(`, `<(`, `>(` or a backtick outside single quotes in a word as written."""
    quote = None
    i, n = 0, len(word)
    while i < n:
        c = word[i]
        if quote == "'":
            if c == "'":
                quote = None
        elif c == "\\":
            i += 1
        elif c == "'" and quote is None:
            quote = "'"
        elif c == '"':
            quote = None if quote == '"' else '"'
        elif c == "`" or (c in "$<>" and word.startswith("(", i + 1)):
            if not (c in "<>" and quote == '"'):
                return True
        i += 1
    return False


def _argv_spellings(argv: list, spellings: dict, inner: list, analysis: _Analysis,
                    stdin=None, env=(), fed=False) -> None:
    """Add the spellings of `argv` and of every command it launches (`sudo -u x git push`:
    every word within reach of a launcher may start its command), breadth first. `stdin`: the
    command's input when it is known (`echo push | xargs git`); `env`: the line's assignments
    before it (what `env -S '… ${X}'` may use); `fed`: it reads a pipe or a redirect."""
    queue = [(argv, True)]  # (argv, sure): sure when argv surely is what runs
    while queue:
        argv, sure = queue.pop()
        tail = (tuple(argv), sure)  # a sure spelling is read again (launchers, input)
        if not argv or tail in analysis.seen or (tuple(argv), True) in analysis.seen:
            continue
        analysis.seen.add(tail)
        analysis.budget -= 1
        if analysis.budget < 0:
            return
        spellings[" ".join(argv)] = None
        program = _base(argv[0])
        if program != argv[0]:
            spellings[" ".join([program] + argv[1:])] = None
        if program.startswith("git-") and len(program) > 4:
            # git's exec path: `/usr/lib/git-core/git-push`, `PATH=… git-push` run `git push`
            queue.append((["git", program[4:]] + argv[1:], sure))
        if program == "--":
            queue.append((argv[1:], sure))  # `nohup -- git push` peeled to `-- git push`
        try:
            key = key_of(argv)
        except Exception:  # a peel bug must not open a hole: the other spellings still count
            key = None
        if key:
            spellings[key] = None
        if program in hidden.PROGRAMS:
            queue.extend((found, sure) for found in hidden.argv_commands(argv, program, analysis))
        if "--" in argv[1:]:
            # `kubectl exec pod -- rm -rf /`, `mise exec -- git push`: what follows `--` is
            # often a command; for deny and ask rules it counts as one.
            queue.append((argv[argv.index("--", 1) + 1:], False))
        if program in launchers.KNOWN:
            launch = launchers.launched(argv, stdin if sure else None)
            if launch is not None:
                for launched_argv in launch.argvs:
                    queue.append((launched_argv, sure))
                    if any("${" in w for w in launched_argv):
                        if sure:
                            analysis.flag(f"a variable in what {program} runs "
                                          f"({' '.join(launched_argv)}) is never auto-allowed")
                        queue.extend((a, False) for a in _with_env_values(
                            launched_argv, env, analysis))
                inner.extend(launch.scripts)
                if launch.unsure and sure:
                    analysis.flag(f"a launcher's options that cannot be read for sure "
                                  f"({launch.unsure}) are never auto-allowed")
        if program in LAUNCHERS:
            for i in range(1, min(len(argv), _LAUNCHER_REACH + 1)):
                word = argv[i]
                if not word or word[0] in "-+" or word.isdigit() or \
                        ("=" in word and word.split("=", 1)[0].isidentifier()):
                    continue  # an option, a count or duration, an assignment: not a command
                queue.append((argv[i:], False))
        elif program in SHELLS:
            script = _shell_c_string(argv)
            if script is not None:
                inner.append(script)
                inner.extend(_produced_texts(script))
            else:  # `prlimit bash <(echo git push)`, `echo git push | nice sh`
                analysis.shell_runs = True
                inner.extend(_produced_texts(" ".join(argv[1:])))
                if sure and stdin is not None:
                    inner.append(stdin)
                elif sure and fed:
                    analysis.flag(f"a shell reading a script that is not known "
                                  f"({' '.join(argv)}) is never auto-allowed")
        elif program == "eval" and len(argv) > 1:
            inner.append(" ".join(argv[1:]))
            inner.extend(_produced_texts(" ".join(argv[1:])))
        elif program == "cc-filter" and len(argv) > 2 and argv[1] == "run":
            # `cc-filter run git push` typed by the model runs `git push`
            rest = argv[2:]
            while rest and rest[0].startswith("-"):
                rest = rest[1:]
            queue.append((rest, sure))
        elif program in ("find", "fd", "fdfind"):
            queue.extend((a, sure) for a in _exec_commands(argv))


def _with_env_values(argv: list, env, analysis: _Analysis) -> list:
    """argv with each `${NAME}` (env -S's own expansion) replaced by the values it may have
    on this line, or by nothing (unset)."""
    out = [[]]
    for word in argv:
        options = [word]
        if "${" in word:
            options = [""]
            start = 0
            pieces = []
            while True:
                i = word.find("${", start)
                end = word.find("}", i) if i >= 0 else -1
                if i < 0 or end < 0:
                    pieces.append([word[start:]])
                    break
                name = word[i + 2:end]
                known = [v for n, v in env if n == name] + list(analysis.values.get(name, ()))
                pieces.append([word[start:i]])
                pieces.append((known + [""])[:_MAX_VALUES])
                start = end + 1
            options = [""]
            for piece in pieces:
                options = [o + p for o in options for p in piece][:_MAX_VALUES]
        out = [prefix + [o] for prefix in out for o in options][:_MAX_VALUES * 4]
    return [a for a in out if a != argv]


def _shell_c_string(argv: list):
    """The script of `bash -c '…'`, `sh -xc '…'`, `su -c '…' user`, `bash --command=…`."""
    for i in range(1, len(argv)):
        word = argv[i]
        if word.startswith("--command="):
            return word[len("--command="):]
        if word == "--command" or (word.startswith("-") and not word.startswith("--")
                                   and "c" in word[1:]):
            if i + 1 < len(argv):
                return argv[i + 1]
            return None
    return None


def _exec_commands(argv) -> list:
    """`find . -exec rm -rf {} \\;`: the commands between -exec and `;`/`+`."""
    found = []
    i = 0
    while i < len(argv):
        if argv[i] in ("-exec", "-execdir", "-ok", "-okdir", "-x", "--exec", "-X", "--exec-batch"):
            j = i + 1
            while j < len(argv) and argv[j] not in (";", "+", "\\;"):
                j += 1
            if j > i + 1:
                found.append(argv[i + 1:j])
            i = j
        i += 1
    return found


#: Programs that pass their input on (as far as a script fed on is concerned).
_PASS_THROUGH = frozenset(("cat", "head", "tail", "tee", "sort", "uniq", "tac", "dd"))


def _piped(command: str, before, seg) -> bool:
    """`before | seg`, also when `before` ends a group: `{ echo git push; } | sh`."""
    if before.separator in ("|", "|&"):
        return True
    gap = command[before.end:seg.start]
    return "|" in gap.replace("||", "") and all(c in " \t\n;|&}){(" for c in gap)


def _pipeline_output(command: str, segments, j: int):
    """What the pipeline ending at segments[j] writes, when it is static: an echo, printf,
    yes or here-string cat at its head, pass-through filters after it; else None."""
    while j >= 0:
        seg = segments[j]
        argv = list(seg.argv or ())
        for _ in range(4):  # `prlimit printf 'git push\n' | sh`: what the launcher runs prints
            launch = launchers.launched(argv) if argv and _base(argv[0]) in launchers.KNOWN \
                else None
            if launch is None or len(launch.argvs) != 1 or launch.scripts:
                break
            argv = launch.argvs[0]
        name = _base(argv[0]) if argv else ""
        if name in _PASS_THROUGH and not [w for w in argv[1:] if not w.startswith("-")
                                          and not w.isdigit()]:
            here = _here_string(seg)
            if here is not None:
                return here
            if j > 0 and _piped(command, segments[j - 1], seg):
                j -= 1
                continue
            return None
        return _printed(argv)
    return None


def _printed(argv: list):
    """What `echo …`, `printf FORMAT …` or `yes …` writes (once), when its words are static."""
    if not argv or any("$" in w or "`" in w for w in argv):
        return None
    name = _base(argv[0])
    args = argv[1:]
    if name == "echo":
        escapes = False
        while args and args[0][:1] == "-" and set(args[0][1:]) <= set("neE") and args[0] != "-":
            escapes = escapes or "e" in args[0]
            args = args[1:]
        text = " ".join(args)
        return _unescaped(text) if escapes or "\\" in text else text
    if name == "yes":
        return " ".join(args) or "y"
    if name == "printf" and args:
        return _printf(args[0], args[1:])
    return None


def _unescaped(text: str) -> str:
    """echo -e / printf %b / printf's format: backslash escapes."""
    out = []
    i, n = 0, len(text)
    simple = {"n": "\n", "t": "\t", "r": "\r", "a": "\a", "b": "\b", "f": "\f", "v": "\v",
              "\\": "\\", "e": "\x1b", "E": "\x1b"}
    while i < n:
        c = text[i]
        if c != "\\" or i + 1 >= n:
            out.append(c)
            i += 1
            continue
        d = text[i + 1]
        if d in simple:
            out.append(simple[d])
            i += 2
        elif d == "c":
            break
        elif d == "x":
            j = i + 2
            while j < n and j < i + 4 and text[j] in "0123456789abcdefABCDEF":
                j += 1
            out.append(chr(int(text[i + 2:j], 16)) if j > i + 2 else "\\x")
            i = j
        elif d in "01234567":
            j = i + 1 + (d == "0")
            k = j
            while k < n and k < j + 3 and text[k] in "01234567":
                k += 1
            out.append(chr(int(text[j:k] or "0", 8) & 0xFF))
            i = k
        else:
            out.append(c)
            i += 1
    return "".join(out)


def _printf(fmt: str, args: list) -> str:
    """printf's output for %s, %b, %c, %d, %%; the format reused while arguments remain."""
    out = []
    args = list(args)
    for _ in range(16):
        i, n = 0, len(fmt)
        while i < n:
            c = fmt[i]
            if c == "%" and i + 1 < n:
                j = i + 1
                while j < n and fmt[j] in "-+ #0123456789.":
                    j += 1
                conv = fmt[j] if j < n else ""
                if conv == "%":
                    out.append("%")
                elif conv in "sbcdiqu":
                    arg = args.pop(0) if args else ""
                    out.append(_unescaped(arg) if conv == "b" else arg[:1] if conv == "c"
                               else arg)
                i = j + 1
                continue
            if c == "\\":
                k = i + 2
                if fmt.startswith("x", i + 1):
                    k = i + 2
                    while k < n and k < i + 4 and fmt[k] in "0123456789abcdefABCDEF":
                        k += 1
                out.append(_unescaped(fmt[i:k]))
                i = k
                continue
            out.append(c)
            i += 1
        if not args:
            break
    return "".join(out)


def _here_string(seg):
    """The text a `<<< word` gives the segment's command, when it is static."""
    redirects = list(seg.redirects or ())
    for i, word in enumerate(redirects):
        if word.lstrip("0123456789").startswith("<<<"):
            raw = word.lstrip("0123456789")[3:] or (redirects[i + 1] if i + 1 < len(redirects)
                                                     else "")
            if "$" in raw or "`" in raw:
                return None
            try:
                return " ".join(split_words(raw)) + "\n"
            except LexError:
                return None
    return None


def _reads_input(seg) -> bool:
    return any(w.lstrip("0123456789").startswith("<") and not w.startswith("<&")
               for w in seg.redirects or ())


def _produced_texts(text: str) -> list:
    """What each `$(…)`, `<(…)` or backtick substitution in `text` writes, when it is static
    (`bash <(echo git push)`, `sh -c "$(printf 'git push')"`): scripts, for a shell."""
    if "(" not in text and "`" not in text:
        return []
    try:
        from cc_lex.lexer import tokenize

        tokens = tokenize(text)
    except LexError:
        return []
    out = []
    for pos, tok in enumerate(tokens):
        if tok.kind == "substitution" and tok.text in ("$(", "<(", "`") and tok.pair > pos:
            body = text[tok.end:tokens[tok.pair].start]
            try:
                segments = peel(body).segments
            except (LexError, RecursionError):
                continue
            if segments:
                printed = _pipeline_output(body, segments, len(segments) - 1)
                if printed is not None:
                    out.append(printed)
    return out[:16]


def _flag_hazards(tokens, analysis: _Analysis) -> None:
    for pos, tok in enumerate(tokens):
        kind, text = tok.kind, tok.text
        if kind == "substitution":
            if text == "$(":
                analysis.flag("command substitution $(…) is never auto-allowed")
            elif text == "`":
                analysis.flag("command substitution `…` is never auto-allowed")
            elif text in ("<(", ">("):
                analysis.flag(f"process substitution {text}…) is never auto-allowed")
            elif text == "$((":
                analysis.flag("arithmetic expansion $((…)) is never auto-allowed")
        elif kind == "redirect":
            target = _written_file(tokens, pos)
            if target is not None:
                analysis.flag(f"a redirect to a file ({text}{' ' if target else ''}{target})"
                              " is never auto-allowed")
        elif kind == "word" and has_live_substitution(text):
            analysis.flag("command substitution inside a word is never auto-allowed")
        if kind == "word" and "${" in text and _patterns()[0].search(text):
            analysis.flag(f"a parameter expansion that can produce a word ({text}) "
                          "is never auto-allowed")


def _written_file(tokens, pos):
    """The file an output redirect writes, or None (reads, fd duplications, /dev/null…)."""
    text = tokens[pos].text
    op = text.lstrip("0123456789")
    if op.startswith("{"):
        op = op[op.find("}") + 1:]
    if "<" in op and op != "<>":
        return None  # input: <, <<, <<-, <<<, <&
    if op in (">&", "<&") or ">&" in op:
        rest = op.split("&", 1)[1] if "&" in op and not op.startswith("&") else ""
        if rest:
            return None  # 2>&1, >&2, 2>&-: descriptor duplication
        nxt = _next_word(tokens, pos)
        if nxt is None or nxt.isdigit() or nxt == "-":
            return None
        return nxt
    nxt = _next_word(tokens, pos)
    if nxt is None:
        return ""
    if nxt in HARMLESS_TARGETS:
        return None
    return nxt


def _next_word(tokens, pos):
    if pos + 1 < len(tokens) and tokens[pos + 1].kind == "word":
        return tokens[pos + 1].text
    return None


_MAX_VALUES = 16
_PATTERNS: list = []


def _patterns():
    """(word expansions, variable references), compiled on first use: `re` is not imported
    for commands without a `$`."""
    if not _PATTERNS:
        import re

        # `${x:-word}`, `${x:=word}`, `${x-word}`, `${x=word}`, `${x:+word}`, `${x+word}`:
        # the word may become the expansion's value.
        _PATTERNS.append(re.compile(
            r"\$\{#?!?([A-Za-z_][A-Za-z_0-9]*|[0-9@*#?$!-])(:?[-=+?])([^}]*)\}"))
        _PATTERNS.append(re.compile(
            r"\$(?:\{([A-Za-z_][A-Za-z_0-9]*)\}|([A-Za-z_][A-Za-z_0-9]*))"))
    return _PATTERNS


def _collect_values(tokens, segments, analysis: _Analysis) -> None:
    """What `$name` may stand for on this line: loop lists (`for c in push pull`), plain
    assignments (`c=push;`) and the words of `${c:-push}` / `${c:=push}`."""
    values = analysis.values
    for pos, tok in enumerate(tokens):
        if tok.kind != "word":
            continue
        if tok.text in ("for", "select") and pos + 2 < len(tokens) and \
                tokens[pos + 1].kind == "word" and tokens[pos + 2].text == "in":
            name = tokens[pos + 1].text
            j = pos + 3
            while j < len(tokens) and tokens[j].kind == "word" and tokens[j].text != "do":
                values.setdefault(name, set()).update(_loop_words(tokens[j]))
                j += 1
            values.setdefault(name, set())
        if "${" not in tok.text:
            continue
        for match in _patterns()[0].finditer(tok.text):
            word = match.group(3).strip("'\"")
            values.setdefault(match.group(1), set()).add(word)
    for seg in segments:
        if seg.env_vars and not seg.argv:
            for name, value in seg.env_vars:
                values.setdefault(name, set()).add(value)


def _loop_words(tok) -> list:
    """The words a `for` list word stands for: its value, or its brace expansion."""
    value = getattr(tok, "value", tok.text) or tok.text
    if "{" not in tok.text:
        return [value]
    from cc_lex.braces import TooLarge, expand
    from cc_lex.words import split_words

    try:
        words = [w for raw in expand(tok.text, _MAX_VALUES) for w in split_words(raw)]
    except (TooLarge, LexError):
        return [value]
    return [value] + words


def _expanded_argvs(argv: list, analysis: _Analysis) -> list:
    """argv with each `$name` / `${name…}` replaced by the values it may take (for deny and
    ask rules only); flags a loop or line variable used as a word (never auto-allowed)."""
    if not any("$" in w for w in argv):
        return []
    values = analysis.values
    word_expansion, variable = _patterns()
    out = [[]]
    for word in argv:
        options = {word}
        if "$" in word:
            expanded = word_expansion.sub(lambda m: m.group(3).strip("'\""), word)
            options.add(expanded)
            for match in variable.finditer(word):
                name = match.group(1) or match.group(2)
                if name in values:
                    analysis.flag(f"a variable set on this line used as a word (${name}) "
                                  "is never auto-allowed")
                    for value in list(values[name])[:_MAX_VALUES]:
                        options.add(word.replace(match.group(0), value))
        out = [prefix + [o] for prefix in out for o in options][:_MAX_VALUES * 4]
    return [a for a in out if a != argv]
