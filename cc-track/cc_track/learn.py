"""Corrections in agent history, turned into rules (`cc-track learn`).

Reads the sessions of history.py and finds **error → correction pairs**: a shell call that
failed (non-zero exit, or the agent marked it an error) followed, within CORRECTION_CALLS calls
and CORRECTION_SECONDS, by a similar call that succeeded. Each pair is classified:

| class | the failed call | the fix |
|---|---|---|
| `missing-tool` | exit 127 / "command not found" | another program, sharing an argument |
| `wrong-directory` | `cd DIR && …` and "No such file or directory"; or a command failing in the root ("No rule to make target" …) | the same command without that `cd` (or another); or `cd DIR && …` with the same program |
| `misspelled-subcommand` | same program, a subcommand a short edit away | the real subcommand |
| `wrong-flag` | same program and subcommand, options differ | the options that work |
| `wrong-argument` | same program and subcommand, operands differ | the operands that work |

Pairs with the same class and the same difference are one suggestion, counted (how often, in
how many sessions) and ranked by count. A suggestion becomes a line for the agent's
instruction file (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`), written only by `--write`, inside a
block marked as contextcrawler's (`write_rules`; `remove_rules` takes it out again, leaving
the rest of the file byte for byte).

What goes into that file is only what learn can vouch for, because a transcript line is text
an agent was steered into running, not text the user wrote:
- a rule is rebuilt from the *parsed* command (cc-peel's words, re-quoted with shlex.join),
  never copied from the transcript; both commands of the pair must be one simple command
  (optionally after `cd DIR &&`), with no substitution, here-doc, file redirection, pipe,
  delegation to a shell (`sh -c`, `eval` …) and no URL (`vouch_command`);
- the rule is one line of at most MAX_RULE_CHARS printable characters, with no marker, no
  `<`, `>` or backslash, and no markdown control at its start (`vouch_line`);
- a correction seen fewer than MIN_SEEN times is never proposed (`held_back` counts it);
- the block is found by an id only contextcrawler writes: a random id made once per install
  and kept in the ctxcrl data directory (`install_id`), in the begin and end markers, plus the
  digest of the block's lines in the begin marker. `--remove` takes out exactly that block,
  and refuses (BlockEdited) when its content no longer matches the digest.

A filtered run (through `cc-filter`) re-run right after with `CTXCRL_DISABLED=1` means the
filter got in the way: that becomes an `exclude_commands` suggestion for `[hooks]`.
"""
import errno
import hashlib
import os
import re
import shlex

from .discover import family
from .sessions import uses_cc_filter

SCHEMA = "ctxcrl.learn/1"
CORRECTION_CALLS = 4
CORRECTION_SECONDS = 600
RERUN_CALLS = 2
MAX_WRITTEN_RULES = 20
#: A correction seen fewer times than this is never proposed: once is not a habit, and a
#: single transcript line is exactly what a steered agent can produce.
MIN_SEEN = 2
#: The longest rule line written (the `- ` and `(seen N×)` around it not counted).
MAX_RULE_CHARS = 120
ID_FILE = "learn.id"
_MARK = "<!-- contextcrawler:learn {id} "
HEADING = "## Shell commands: corrections from past sessions"
_NOT_FOUND = ("command not found", "not found", "no such file or directory")
_NO_TARGET = ("no rule to make target", "no such file or directory", "not found",
              "does not exist", "no such task", "missing script")
_UNKNOWN_SUBCOMMAND = ("is not a git command", "unknown command", "unrecognized command",
                       "no such command", "did you mean", "most similar command",
                       "invalid choice", "unknown subcommand")


def words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


#: cc-peel's reasons a segment is opaque that still leave a plain, visible command.
_PLAIN = (None, "already_filtered", "disabled")
_URL = re.compile(r"(?i)\b[a-z][a-z0-9+.-]*://|\bwww\.|^[\w.-]+@[\w.-]+:")
#: Characters no word of a vouched command may hold: substitution and history expansion,
#: what could leave an inline code span or open markup, and every control character.
#: (`;`, `&` and `|` inside a quoted word are text: a second command is a second segment.)
_BAD_CHARS = re.compile(r"[`$<>\\!\x00-\x1f\x7f]")


def vouch_command(command: str) -> tuple[str | None, list[str]] | None:
    """(`DIR` of a leading `cd DIR &&` or None, the command's words) when `command` is one
    simple command learn may build a rule from; None when it cannot vouch for it."""
    if not command or "\n" in command or "\r" in command or len(command) > 400:
        return None
    try:
        from cc_peel import peel

        peeled = peel(command)
    except Exception:
        return None
    segments = peeled.segments
    if peeled.whole_opaque or not segments or len(segments) > 2:
        return None
    cd_dir = None
    if len(segments) == 2:
        first = segments[0]
        if first.argv[:1] != ["cd"] or len(first.argv) != 2 or first.separator != "&&":
            return None
        cd_dir = first.argv[1]
    last = segments[-1]
    if last.separator or last.nested:
        return None
    for seg in segments:
        if seg.opaque not in _PLAIN or seg.nested or seg.wrappers:
            return None
        if any(r not in ("2>&1", "1>&2", ">&2") for r in seg.redirects):
            return None
    argv = core(last.argv)
    checked = argv + ([cd_dir] if cd_dir is not None else [])
    if not argv or any(not w or _BAD_CHARS.search(w) or _URL.search(w) for w in checked):
        return None
    return cd_dir, argv


def vouch_line(text: str) -> bool:
    """Is `text` a rule line learn may write: one line of printable characters, bounded, no
    marker or markup that could end or fake the block, nothing markdown acts on at its start."""
    return (0 < len(text) <= MAX_RULE_CHARS and text.isprintable()
            and not any(c in text for c in "<>\\$")
            and "contextcrawler:learn" not in text
            and text[:1] not in "#>[-*+=|~<!" and not text[:1].isdigit()
            and not _URL.search(text))


#: A word that may appear in a rule: a name, a flag, a path — no spaces, no quotes, no prose.
_RULE_WORD = re.compile(r"[A-Za-z0-9_./:=,+@%~^-]{1,60}")


class _Unsafe(Exception):
    pass


def quoted(argv) -> str:
    """`argv` re-quoted for the rule; _Unsafe when a word is more than a name, flag or path:
    a rule carries commands, never sentences an attacker put in an argument."""
    if not argv or not all(_RULE_WORD.fullmatch(w) for w in argv):
        raise _Unsafe
    return shlex.join(argv)


def core(argv: list[str]) -> list[str]:
    """The command without leading `VAR=value` words, `env`, and a `cc-filter run` wrapper."""
    i = 0
    while i < len(argv) and ("=" in argv[i] and argv[i].split("=", 1)[0].isidentifier()
                             or argv[i] == "env"):
        i += 1
    argv = argv[i:]
    if argv[:2] == ["cc-filter", "run"] or (argv and argv[0].endswith("/cc-filter")
                                            and argv[1:2] == ["run"]):
        argv = argv[2:]
    if argv:
        argv = [os.path.basename(argv[0]) or argv[0], *argv[1:]]
    return argv


def edit_distance(a, b) -> int:
    previous = list(range(len(b) + 1))
    for i, x in enumerate(a, 1):
        current = [i]
        for j, y in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (x != y)))
        previous = current
    return previous[-1]


def _is_sub(word: str) -> bool:
    return word[:1].isalpha() and all(c.isalnum() or c in "-_:" for c in word)


def _operands(argv):
    return [w for w in argv[1:] if not w.startswith("-")]


def classify(failed, fixed) -> dict | None:
    """The correction `fixed` makes to `failed` (two ShellCalls), or None when they are not
    the same attempt. Only commands `vouch_command` accepts are compared, and the rule's text
    is built from their parsed words; its "text" is None when a word it would name is more
    than a name, flag or path (counted, never proposed)."""
    failed_parsed, fixed_parsed = vouch_command(failed.command), vouch_command(fixed.command)
    if failed_parsed is None or fixed_parsed is None:
        return None
    try:
        return _classify(failed, failed_parsed, fixed_parsed, quoted)
    except _Unsafe:
        found = _classify(failed, failed_parsed, fixed_parsed, shlex.join)
        return found and dict(found, text=None)


def _classify(failed, failed_parsed, fixed_parsed, q) -> dict | None:
    """classify's work; `q` quotes the words the rule names (`quoted`, or shlex.join to find
    the class of a pair whose rule cannot be written)."""
    error = (failed.output or "").lower()
    (cd_dir, a), (fixed_dir, b) = failed_parsed, fixed_parsed
    if cd_dir is not None and cd_dir != fixed_dir and "cd:" in error and a == b:
        return {"class": "wrong-directory", "key": (cd_dir, fixed_dir),
                "text": f"There is no `{q([cd_dir])}` directory here: run "
                        f"`{q(family(b).split())}` from "
                        + (f"`{q([fixed_dir])}`." if fixed_dir else "the project root.")}
    if (fixed_dir is not None and fixed_dir != cd_dir and a[0] == b[0]
            and failed.exit_code not in (None, 0, 127)
            and (fixed_dir in a[1:] or any(s in error for s in _NO_TARGET))):
        text = (f"Run `{q(b)}` in `{q([fixed_dir])}` (`cd {q([fixed_dir])} && {q(b)}`): "
                "it fails in the project root." if a == b else
                f"`{q(a)}` fails here: run `{q(b)}` in `{q([fixed_dir])}` "
                f"(`cd {q([fixed_dir])} && {q(b)}`).")
        return {"class": "wrong-directory", "key": (tuple(a), fixed_dir, tuple(b)),
                "text": text}
    if failed.exit_code == 127 or "command not found" in error:
        if a[0] != b[0] and set(_operands(a)) & set(_operands(b)):
            return {"class": "missing-tool", "key": (a[0], b[0]),
                    "text": f"`{q(a[:1])}` is not installed here: use `{q(b[:1])}`."}
        return None
    if a[0] != b[0]:
        return None
    if (len(a) > 1 and len(b) > 1 and _is_sub(a[1]) and _is_sub(b[1]) and a[1] != b[1]
            and (edit_distance(a[1], b[1]) <= 2 or any(s in error for s in _UNKNOWN_SUBCOMMAND))
            and a[2:] == b[2:]):
        wrong, right = q(a[:2]), q(b[:2])
        return {"class": "misspelled-subcommand", "key": (wrong, right),
                "text": f"Use `{right}`, not `{wrong}`."}
    sub_a = a[1] if len(a) > 1 and _is_sub(a[1]) else None
    sub_b = b[1] if len(b) > 1 and _is_sub(b[1]) else None
    if sub_a != sub_b or edit_distance(a, b) > max(2, len(a) // 2):
        return None
    start = 2 if sub_a else 1
    removed = [w for w in a[start:] if w not in b[start:]]
    added = [w for w in b[start:] if w not in a[start:]]
    if not removed and not added:
        return None
    fam = q(family(a).split())
    changed_flags = any(w.startswith("-") for w in removed + added)
    kind = "wrong-flag" if changed_flags else "wrong-argument"
    if kind == "wrong-flag":  # name the options, not the values that moved with them
        removed = [w for w in removed if w.startswith("-")] or removed
        added = [w for w in added if w.startswith("-")] or added
    use = q(added) if added else "nothing"
    text = (f"`{fam}`: use `{use}`, not `{q(removed)}`." if removed
            else f"`{fam}` needs `{use}`.")
    return {"class": kind, "key": (fam, tuple(removed), tuple(added)), "text": text}


def _through_ctxcrl(call, linked) -> bool:
    return call.id in linked or uses_cc_filter(call.rewritten) or uses_cc_filter(call.command)


def find_pairs(session, linked=None) -> tuple[list, list]:
    """([(failed, fixed, classification)], [(filtered, unfiltered rerun)]) in one session."""
    linked = linked or {}
    calls = [c for c in session.calls if c.answered]
    pairs, reruns = [], []
    used = set()
    for i, call in enumerate(calls):
        failed = call.failed or (call.exit_code not in (None, 0))
        if failed:
            for later in calls[i + 1:i + 1 + CORRECTION_CALLS]:
                if (call.ts is not None and later.ts is not None
                        and later.ts - call.ts > CORRECTION_SECONDS):
                    break
                ok = not later.failed and later.exit_code in (None, 0)
                if not ok or later.id in used:
                    continue
                found = classify(call, later)
                if found:
                    pairs.append((call, later, found))
                    used.add(later.id)
                    break
        if _through_ctxcrl(call, linked) and "CTXCRL_DISABLED=" not in call.command:
            mine = core(words(call.rewritten or call.command))
            for later in calls[i + 1:i + 1 + RERUN_CALLS]:
                argv = words(later.command)
                if not any(w.startswith("CTXCRL_DISABLED=") for w in argv[:3]):
                    continue
                if core(argv) == mine or family(core(argv)) == family(mine):
                    reruns.append((call, later))
                    break
    return pairs, reruns


def build_learn(history, linked=None, *, since_text=None, scope="project", project=None) -> dict:
    rules: dict = {}
    excludes: dict = {}
    pair_rows = []
    commands = failed = 0
    for session in history.sessions:
        commands += len(session.calls)
        failed += sum(1 for c in session.calls if c.failed or c.exit_code not in (None, 0))
        pairs, reruns = find_pairs(session, linked)
        for bad, good, found in pairs:
            error = next((line for line in (bad.output or "").splitlines()
                          if line.strip() and not line.startswith("Exit code")), "")
            pair_rows.append({"agent": session.agent, "session": session.id,
                              "class": found["class"], "failed": bad.command,
                              "exit_code": bad.exit_code, "error": error[:200],
                              "fixed": good.command, "ts": bad.ts})
            key = (found["class"], found["key"])
            rule = rules.setdefault(key, {
                "class": found["class"], "text": found["text"], "count": 0, "sessions": set(),
                "agents": set(), "example": None, "last_ts": 0})
            rule["count"] += 1
            rule["sessions"].add(session.id)
            rule["agents"].add(session.agent)
            rule["example"] = {"failed": bad.command, "error": error[:200],
                               "fixed": good.command}
            rule["last_ts"] = max(rule["last_ts"], bad.ts or 0)
        for filtered, rerun in reruns:
            if vouch_command(rerun.command) is None:
                continue  # shown in the table: only a plain one-line command
            fam = family(core(words(filtered.rewritten or filtered.command)))
            row = excludes.setdefault(fam, {"command": fam, "count": 0, "sessions": set(),
                                            "example": None})
            row["count"] += 1
            row["sessions"].add(session.id)
            row["example"] = {"filtered": filtered.command, "rerun": rerun.command}
    held_back = {"seen_once": 0, "unsafe": 0}
    kept = []
    for r in rules.values():
        if not r["text"] or not vouch_line(r["text"]):
            held_back["unsafe"] += r["count"]
        elif r["count"] < MIN_SEEN:
            held_back["seen_once"] += r["count"]
        else:
            kept.append(r)
    rule_rows = sorted(kept, key=lambda r: (-r["count"], -r["last_ts"], r["text"]))
    for r in rule_rows:
        r["sessions"] = len(r["sessions"])
        r["agents"] = sorted(r["agents"])
        del r["last_ts"]
    exclude_rows = sorted(excludes.values(), key=lambda r: (-r["count"], r["command"]))
    for r in exclude_rows:
        r["sessions"] = len(r["sessions"])
        r["toml"] = f"[hooks]\nexclude_commands = [{_toml_string(r['command'])}]"
    return {"schema": SCHEMA, "since": since_text, "scope": scope, "project": project,
            "sessions": len(history.sessions), "commands": commands, "failed_commands": failed,
            "corrections": len(pair_rows), "rules": rule_rows, "held_back": held_back,
            "exclude_commands": exclude_rows, "pairs": pair_rows, "written": [],
            "removed": []}


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --- the marked block in CLAUDE.md / AGENTS.md -------------------------------------------------

class BlockEdited(Exception):
    """contextcrawler's block in an instruction file no longer holds what it wrote."""

    def __init__(self, path: str):
        super().__init__(path)
        self.path = path


class UntrustedHome(Exception):
    """The data directory holding the block id may be the project's (ctxcrl.home says why)."""


def install_id(create: bool = True) -> str | None:
    """This install's random block id (`learn.id` in the ctxcrl data directory), made on
    first use; None when there is none and `create` is false. Raises UntrustedHome when the
    data directory is one the project could have chosen (the id would then be the project's)."""
    from ctxcrl import home

    reason = home.untrusted_home()
    if reason is not None:
        raise UntrustedHome(reason)
    path = os.path.join(home.data_dir(), ID_FILE)
    try:
        with open(path, encoding="ascii") as f:
            value = f.read().strip()
        if re.fullmatch(r"[0-9a-f]{32}", value):
            return value
    except (OSError, UnicodeDecodeError):
        pass
    if not create:
        return None
    value = os.urandom(16).hex()
    home.ensure_private_dir(os.path.dirname(path))
    tmp = f"{path}.{os.getpid()}.tmp"
    fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0), 0o600)
    with os.fdopen(fd, "w", encoding="ascii") as f:
        f.write(value + "\n")
    try:
        os.link(tmp, path)  # the first writer wins: two installs never race to two ids
    except FileExistsError:
        pass
    finally:
        os.unlink(tmp)
    return install_id(create=False)


def digest(body: str) -> str:
    return hashlib.sha256(body.encode("utf-8")).hexdigest()[:32]


def _markers(block_id: str) -> tuple[str, str]:
    """(the begin marker's start, the end marker line) for this install's id."""
    mark = _MARK.format(id=block_id)
    return mark + "begin ", mark + "end -->"


def rules_block(rules: list[dict], block_id: str) -> str:
    """The block: markers carrying this install's id, the begin marker also the digest of the
    lines between them. Rules `vouch_line` refuses are left out (build_learn already did)."""
    lines = [HEADING, ""]
    for rule in rules[:MAX_WRITTEN_RULES]:
        if rule.get("text") and vouch_line(rule["text"]):
            lines.append(f"- {rule['text']} (seen {int(rule['count'])}×)")
    body = "\n".join(lines) + "\n"
    begin, end = _markers(block_id)
    return (f"{begin}sha256:{digest(body)} · written by `cc-track learn --write`, removed by "
            f"`cc-track learn --remove` -->\n{body}{end}\n")


def _split_block(text: str, block_id: str, path: str = "") -> tuple[str, str, str] | None:
    """(before, the block, after) of this install's block in `text`, or None when it has
    none. Raises BlockEdited when the lines between its markers are not the ones it wrote."""
    begin, end_line = _markers(block_id)
    start = text.find(begin)
    while start > 0 and text[start - 1] != "\n":  # a marker starts a line
        start = text.find(begin, start + 1)
    if start < 0:
        return None
    head_end = text.find("\n", start)
    end = text.find("\n" + end_line, head_end) if head_end >= 0 else -1
    if head_end < 0 or end < 0:
        raise BlockEdited(path)
    found = re.fullmatch(r"sha256:([0-9a-f]{32}) · .* -->", text[start + len(begin):head_end])
    body = text[head_end + 1:end + 1]
    if not found or found.group(1) != digest(body):
        raise BlockEdited(path)
    stop = end + 1 + len(end_line)
    if text[stop:stop + 1] == "\n":
        stop += 1
    elif text[stop:stop + 1]:
        raise BlockEdited(path)  # text glued to the end marker
    return text[:start], text[start:stop], text[stop:]


def _atomic_write(path: str, text: str | None) -> None:
    if text is None:
        os.unlink(path)
        return
    tmp = f"{path}.{os.getpid()}.tmp"
    try:
        mode = os.stat(path).st_mode & 0o777
    except FileNotFoundError:
        mode = 0o644
    try:
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
        with os.fdopen(fd, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


class NotAFile(Exception):
    """An instruction file learn will not touch: a symbolic link or not a regular file (never
    followed: a repository's `CLAUDE.md -> ~/.ssh/id_rsa` would copy the key into the
    project), or not UTF-8 text (its bytes could not be given back as they were)."""

    def __init__(self, path: str, reason: str = "is a symbolic link or not a regular file"):
        super().__init__(path)
        self.path = path
        self.reason = reason


def _read(path: str) -> str | None:
    try:
        fd = os.open(path, os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0))
    except FileNotFoundError:
        return None
    except OSError as exc:
        if exc.errno == errno.ELOOP:
            raise NotAFile(path) from None
        raise
    import stat

    if not stat.S_ISREG(os.fstat(fd).st_mode):
        os.close(fd)
        if stat.S_ISDIR(os.stat(path, follow_symlinks=False).st_mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", path)
        raise NotAFile(path)
    with os.fdopen(fd, "rb") as f:
        data = f.read()
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError:
        raise NotAFile(path, "is not UTF-8 text") from None


def without_block(text: str, block_id: str, path: str = "") -> str:
    """The file as it was before `with_block` added the block."""
    parts = _split_block(text, block_id, path)
    if parts is None:
        return text
    before, _block, after = parts
    if before.endswith("\n\n"):
        before = before[:-1]  # the blank line with_block put before the block
    return before + after


def with_block(text: str, block: str, block_id: str, path: str = "") -> str:
    parts = _split_block(text, block_id, path)
    if parts is not None:
        return parts[0] + block + parts[2]
    if not text:
        return block
    return text + ("\n" if text.endswith("\n") else "\n\n") + block


def instructions_file(agent: str) -> str:
    """The project's instructions file `agent` reads (its cc-hook module's INSTRUCTIONS_FILE:
    CLAUDE.md, AGENTS.md, GEMINI.md)."""
    from cc_hook.agents import load

    return load(agent).INSTRUCTIONS_FILE


def planned_writes(root: str, agents, rules: list[dict]) -> list[tuple[str, str | None, str | None]]:
    """[(path, old text, new text or None to delete)] that `write_rules` would make; raises
    BlockEdited (before anything is written) when a block was changed by hand."""
    block_id = install_id()
    plans = []
    for agent in agents:
        path = os.path.join(root, instructions_file(agent))
        old = _read(path)
        if not rules:
            new = without_block(old, block_id, path) if old is not None else None
            if old is not None and new != old:
                plans.append((path, old, new or None))
            continue
        new = with_block(old or "", rules_block(rules, block_id), block_id, path)
        if new != old:
            plans.append((path, old, new))
    return plans


def write_rules(root: str, agents, rules: list[dict]) -> list[str]:
    """Put the rules block into each agent's instruction file in `root` (replacing this
    install's older block); with no rules, take the block out. Returns the files changed."""
    plans = planned_writes(root, agents, rules)
    for path, _old, new in plans:
        _atomic_write(path, new)
    return [path for path, _old, _new in plans]


def remove_rules(root: str) -> list[str]:
    """Take this install's block out of every instruction file in `root`; a file that held
    nothing else is deleted (it was created by `write_rules`). Raises BlockEdited, changing
    nothing, when a block's lines are not the ones it wrote."""
    from .history import transcript_agents

    block_id = install_id(create=False)
    if block_id is None:
        return []
    plans = []
    for name in sorted({m.INSTRUCTIONS_FILE for _agent, m in transcript_agents()}):
        path = os.path.join(root, name)
        old = _read(path)
        if old is None:
            continue
        new = without_block(old, block_id, path)
        if new != old:
            plans.append((path, new or None))
    for path, new in plans:
        _atomic_write(path, new)
    return [path for path, _new in plans]


def render_learn(data: dict, style=None) -> str:
    from ctxcrl import home
    from .render import Style, text_table, fmt_int

    style = style or Style()
    where = "all projects" if data["scope"] == "all" else home.short_path(data["project"] or "")
    since = f" since {data['since'][:10]}" if data["since"] else ""
    out = [style.bold(f"Corrections in agent history · {where}{since}"),
           f"{fmt_int(data['sessions'])} sessions, {fmt_int(data['commands'])} shell commands, "
           f"{fmt_int(data['failed_commands'])} failed, {fmt_int(data['corrections'])} "
           "corrected soon after."]
    out.append("")
    if data["rules"]:
        out.append(style.bold("Suggested rules for the agent's instructions"))
        rows = [[fmt_int(r["count"]), fmt_int(r["sessions"]), r["class"], r["text"]]
                for r in data["rules"]]
        out.append(text_table(rows, ["Seen", "Sessions", "Class", "Rule"],
                          ["right", "right", "left", "left"], style))
    else:
        out.append("No rules to suggest.")
    held = data.get("held_back") or {}
    if held.get("seen_once") or held.get("unsafe"):
        parts = []
        if held.get("seen_once"):
            parts.append(f"{fmt_int(held['seen_once'])} seen only once")
        if held.get("unsafe"):
            parts.append(f"{fmt_int(held['unsafe'])} whose commands learn cannot vouch for "
                         "(a URL, pipe, substitution, redirection, or more than one line)")
        out.append(style.dim(f"Not proposed: {'; '.join(parts)} corrections."))
    if data["exclude_commands"]:
        out += ["", style.bold("Filters that got in the way (re-run with CTXCRL_DISABLED=1)")]
        rows = [[fmt_int(r["count"]), r["command"], r["example"]["rerun"],
                 f"exclude_commands = [{_toml_string(r['command'])}]"]
                for r in data["exclude_commands"]]
        out.append(text_table(rows, ["Seen", "Command", "Re-run as", "Add under [hooks]"],
                          ["right", "left", "left", "left"], style))
    for plan in data.get("planned") or []:
        if plan["delete"] or plan["block"] is None:
            out += ["", f"would take the rules block out of {home.short_path(plan['path'])}"]
        else:
            out += ["", f"would write into {home.short_path(plan['path'])}, in full:", "",
                    plan["block"].rstrip("\n")]
    for path in data["written"]:
        out += ["", f"wrote the rules block into {home.short_path(path)}"]
    for path in data["removed"]:
        out += ["", f"removed the rules block from {home.short_path(path)}"]
    if data["rules"] and not data["written"] and not data["removed"] and not data.get("planned"):
        out += ["", style.dim("`cc-track learn --write` puts these rules into CLAUDE.md / "
                              "AGENTS.md / GEMINI.md (a marked block; `--remove` takes it "
                              "out).")]
    return "\n".join(out)
