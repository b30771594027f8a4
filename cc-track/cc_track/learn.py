"""Corrections in agent history, turned into rules (`cc-track learn`).

Reads the sessions of history.py and finds **error → correction pairs**: a shell call that
failed (non-zero exit, or the agent marked it an error) followed, within CORRECTION_CALLS calls
and CORRECTION_SECONDS, by a similar call that succeeded. Each pair is classified:

| class | the failed call | the fix |
|---|---|---|
| `missing-tool` | exit 127 / "command not found" | another program, sharing an argument |
| `wrong-directory` | `cd DIR && …` and "No such file or directory" | the same command without that `cd` (or another) |
| `misspelled-subcommand` | same program, a subcommand a short edit away | the real subcommand |
| `wrong-flag` | same program and subcommand, options differ | the options that work |
| `wrong-argument` | same program and subcommand, operands differ | the operands that work |

Pairs with the same class and the same difference are one suggestion, counted (how often, in
how many sessions) and ranked by count. A suggestion becomes a line for the agent's
instruction file (`CLAUDE.md`, `AGENTS.md`, `GEMINI.md`), written only by `--write`, inside a
block marked as contextcrawler's (`write_rules`; `remove_rules` takes it out again, leaving
the rest of the file byte for byte).

A filtered run (through `cc-filter`) re-run right after with `CTXCRL_DISABLED=1` means the
filter got in the way: that becomes an `exclude_commands` suggestion for `[hooks]`.
"""
import os
import shlex

from .discover import family
from .sessions import uses_cc_filter

SCHEMA = "ctxcrl.learn/1"
CORRECTION_CALLS = 4
CORRECTION_SECONDS = 600
RERUN_CALLS = 2
MAX_WRITTEN_RULES = 20
BEGIN = "<!-- contextcrawler:learn begin · written by `cc-track learn --write`, removed by `cc-track learn --remove` -->"
END = "<!-- contextcrawler:learn end -->"
INSTRUCTION_FILES = {"claude": "CLAUDE.md", "codex": "AGENTS.md", "gemini": "GEMINI.md"}
_NOT_FOUND = ("command not found", "not found", "no such file or directory")
_UNKNOWN_SUBCOMMAND = ("is not a git command", "unknown command", "unrecognized command",
                       "no such command", "did you mean", "most similar command",
                       "invalid choice", "unknown subcommand")


def words(command: str) -> list[str]:
    try:
        return shlex.split(command)
    except ValueError:
        return command.split()


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


def split_cd(command: str) -> tuple[str | None, str]:
    """(`DIR` of a leading `cd DIR &&`, the rest) or (None, command)."""
    argv = words(command)
    if len(argv) >= 4 and argv[0] == "cd" and argv[2] == "&&":
        rest = command.split("&&", 1)[1].strip()
        return argv[1], rest
    return None, command


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
    the same attempt."""
    error = (failed.output or "").lower()
    cd_dir, rest = split_cd(failed.command)
    fixed_dir, fixed_rest = split_cd(fixed.command)
    a, b = core(words(rest)), core(words(fixed_rest))
    if not a or not b:
        return None
    if cd_dir is not None and cd_dir != fixed_dir and "cd:" in error and a == b:
        return {"class": "wrong-directory", "key": (cd_dir, fixed_dir),
                "text": f"There is no `{cd_dir}` directory here (`cd {cd_dir}` fails): run "
                        f"`{family(b)}` from "
                        + (f"`{fixed_dir}`." if fixed_dir else "the project root.")}
    if failed.exit_code == 127 or "command not found" in error:
        if a[0] != b[0] and set(_operands(a)) & set(_operands(b)):
            return {"class": "missing-tool", "key": (a[0], b[0]),
                    "text": f"`{a[0]}` is not installed here: use `{b[0]}` "
                            f"(e.g. `{fixed.command}`)."}
        return None
    if a[0] != b[0]:
        return None
    if (len(a) > 1 and len(b) > 1 and _is_sub(a[1]) and _is_sub(b[1]) and a[1] != b[1]
            and (edit_distance(a[1], b[1]) <= 2 or any(s in error for s in _UNKNOWN_SUBCOMMAND))
            and a[2:] == b[2:]):
        wrong, right = f"{a[0]} {a[1]}", f"{b[0]} {b[1]}"
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
    fam = family(a)
    changed_flags = any(w.startswith("-") for w in removed + added)
    kind = "wrong-flag" if changed_flags else "wrong-argument"
    if kind == "wrong-flag":  # name the options, not the values that moved with them
        removed = [w for w in removed if w.startswith("-")] or removed
        added = [w for w in added if w.startswith("-")] or added
    use = " ".join(added) if added else "nothing"
    text = (f"`{fam}`: use `{use}`, not `{' '.join(removed)}`." if removed
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
            fam = family(core(words(filtered.rewritten or filtered.command)))
            row = excludes.setdefault(fam, {"command": fam, "count": 0, "sessions": set(),
                                            "example": None})
            row["count"] += 1
            row["sessions"].add(session.id)
            row["example"] = {"filtered": filtered.command, "rerun": rerun.command}
    rule_rows = sorted(rules.values(), key=lambda r: (-r["count"], -r["last_ts"], r["text"]))
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
            "corrections": len(pair_rows), "rules": rule_rows,
            "exclude_commands": exclude_rows, "pairs": pair_rows, "written": [],
            "removed": []}


def _toml_string(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"') + '"'


# --- the marked block in CLAUDE.md / AGENTS.md -------------------------------------------------

def rules_block(rules: list[dict]) -> str:
    lines = [BEGIN, "## Shell commands: corrections from past sessions", ""]
    for rule in rules[:MAX_WRITTEN_RULES]:
        lines.append(f"- {rule['text']} (seen {rule['count']}×)")
    lines.append(END)
    return "\n".join(lines) + "\n"


def _split_block(text: str) -> tuple[str, str, str] | None:
    start = text.find(BEGIN)
    if start < 0:
        return None
    end = text.find(END, start)
    if end < 0:
        return None
    end += len(END)
    if text[end:end + 1] == "\n":
        end += 1
    return text[:start], text[start:end], text[end:]


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
        with open(tmp, "w", encoding="utf-8", newline="") as f:
            f.write(text)
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except OSError:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise


def _read(path: str) -> str | None:
    try:
        with open(path, encoding="utf-8", newline="") as f:
            return f.read()
    except FileNotFoundError:
        return None


def without_block(text: str) -> str:
    """The file as it was before `with_block` added the block."""
    parts = _split_block(text)
    if parts is None:
        return text
    before, _block, after = parts
    if not after and before.endswith("\n\n"):
        before = before[:-1]  # the blank line with_block put before the block
    return before + after


def with_block(text: str, block: str) -> str:
    parts = _split_block(text)
    if parts is not None:
        return parts[0] + block + parts[2]
    if not text:
        return block
    return text + ("\n" if text.endswith("\n") else "\n\n") + block


def write_rules(root: str, agents, rules: list[dict]) -> list[str]:
    """Put the rules block into each agent's instruction file in `root` (replacing an older
    block); with no rules, take the block out. Returns the files changed."""
    changed = []
    for agent in agents:
        path = os.path.join(root, INSTRUCTION_FILES[agent])
        old = _read(path)
        if not rules:
            new = without_block(old) if old is not None else None
            if old is not None and new != old:
                _atomic_write(path, new if new else None)
                changed.append(path)
            continue
        new = with_block(old or "", rules_block(rules))
        if new != old:
            _atomic_write(path, new)
            changed.append(path)
    return changed


def remove_rules(root: str) -> list[str]:
    """Take contextcrawler's block out of every instruction file in `root`; a file that held
    nothing else is deleted (it was created by `write_rules`)."""
    changed = []
    for name in sorted(set(INSTRUCTION_FILES.values())):
        path = os.path.join(root, name)
        old = _read(path)
        if old is None or _split_block(old) is None:
            continue
        new = without_block(old)
        _atomic_write(path, new if new else None)
        changed.append(path)
    return changed


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
        out.append("No corrections found.")
    if data["exclude_commands"]:
        out += ["", style.bold("Filters that got in the way (re-run with CTXCRL_DISABLED=1)")]
        rows = [[fmt_int(r["count"]), r["command"], r["example"]["rerun"],
                 f"exclude_commands = [{_toml_string(r['command'])}]"]
                for r in data["exclude_commands"]]
        out.append(text_table(rows, ["Seen", "Command", "Re-run as", "Add under [hooks]"],
                          ["right", "left", "left", "left"], style))
    for path in data["written"]:
        out += ["", f"wrote the rules block into {home.short_path(path)}"]
    for path in data["removed"]:
        out += ["", f"removed the rules block from {home.short_path(path)}"]
    if data["rules"] and not data["written"] and not data["removed"]:
        out += ["", style.dim("`cc-track learn --write` puts these rules into CLAUDE.md / "
                              "AGENTS.md / GEMINI.md (a marked block; `--remove` takes it "
                              "out).")]
    return "\n".join(out)
