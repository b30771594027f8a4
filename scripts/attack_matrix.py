"""The attack corpus through the hook's own stages, for Claude Code and Codex in every mode.

Reads every `tests/cc_gate/attacks/<class>.txt`: one bash spelling a line, `#` comment lines,
blank lines ignored; the first comment `# denied: <command>` names the denied command every
line of the file really runs (tests/cc_gate/bash_oracle.py checks that, with real bash);
lines after a `# expect: ask` comment run it in a way the gate cannot see on the line (their
code is in a file, or only known when they run): for them the promise is "never allowed".

Rules, as a user would write them: Claude Code `permissions.deny` `Bash(git push:*)`,
`Bash(rm -rf:*)`, `Bash(curl:*)` and `permissions.allow` `Bash(git:*)` in
`~/.claude/settings.json`; for Codex the same as `prefix_rule`s in `~/.codex/rules/` (forbidden
for the denies, allow for `git`), and once more with the forbidden rules only (no rule: Codex
runs a command in its sandbox unasked, so a hook answer of allow is what it would do anyway).
Each spelling goes through what the installed hook runs, in-process: `cc-hook decode <agent>`
→ `cc-gate --agent <agent>` → `cc-rewrite` → `cc-hook encode <agent>`, with the event's
`permission_mode` set to each Claude mode (default, acceptEdits, plan, dontAsk,
bypassPermissions), and for Codex as if the hook ran under `codex` (on-request, the
interactive default) and under `codex exec` (approval never, reported as bypassPermissions),
with each rule set. A private HOME holds the rules; nothing of the user's is read.

The answer the client gets is counted: denied (the hook's deny), asked (a forced prompt),
allowed (the hook's allow, with or without a rewrite) or unanswered (no answer: the client's
own matcher decides, and in a bypass mode the command runs). A static spelling (no
`# expect: ask`) must come back denied in every mode; an `# expect: ask` one must never be
allowed (tests/cc_gate/test_attack_corpus.py).

    python scripts/attack_matrix.py             # the table per class
    python scripts/attack_matrix.py --failures  # also every spelling not answered as promised
"""
import json
import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ATTACKS = os.path.join(REPO, "tests", "cc_gate", "attacks")
CLAUDE_MODES = ("default", "acceptEdits", "plan", "dontAsk", "bypassPermissions")
#: Codex mode → (the codex process's argv, the event's permission_mode, its rules: with the
#: `git` allow rule, or the forbidden rules only — Codex's own default then runs the rest)
CODEX_MODES = {"default": (["codex"], "default", "rules"),
               "exec": (["codex", "exec", "go"], "bypassPermissions", "rules"),
               "default, denies only": (["codex"], "default", "denies"),
               "exec, denies only": (["codex", "exec", "go"], "bypassPermissions", "denies")}
COLUMNS = ("tried", "denied", "asked", "allowed", "unanswered")
CLAUDE_SETTINGS = {"permissions": {
    "deny": ["Bash(git push:*)", "Bash(rm -rf:*)", "Bash(curl:*)"],
    "allow": ["Bash(git:*)"]}}
CODEX_RULES = """\
prefix_rule(pattern=["git", "push"], decision="forbidden", justification="no pushes")
prefix_rule(pattern=["rm", "-rf"], decision="forbidden")
prefix_rule(pattern=["curl"], decision="forbidden")
prefix_rule(pattern=["git"], decision="allow")
"""


class Attack:
    __slots__ = ("klass", "denied", "static", "line", "where")

    def __init__(self, klass, denied, static, line, where):
        self.klass = klass
        self.denied = denied
        self.static = static
        self.line = line
        self.where = where

    def __repr__(self):
        return f"Attack({self.where}: {self.line!r})"


def load_corpus(directory: str = ATTACKS) -> list:
    """Every attack of every `<class>.txt` in `directory`, in file order."""
    attacks = []
    for name in sorted(os.listdir(directory)):
        if not name.endswith(".txt"):
            continue
        klass = name[:-len(".txt")]
        denied = None
        static = True
        with open(os.path.join(directory, name), encoding="utf-8") as f:
            for number, raw in enumerate(f, 1):
                line = raw.rstrip("\n")
                if not line.strip():
                    continue
                if line.startswith("#"):
                    comment = line[1:].strip()
                    if denied is None and comment.startswith("denied:"):
                        denied = comment[len("denied:"):].strip()
                    elif comment.replace(" ", "") == "expect:ask":
                        static = False
                    continue
                if denied is None:
                    raise ValueError(f"{name}:{number}: a spelling before '# denied: …'")
                attacks.append(Attack(klass, denied, static, line, f"{name}:{number}"))
    return attacks


class Sandbox:
    """A private HOME with the rules, and the environment the stages read, for one run."""

    def __init__(self):
        self.tmp = tempfile.TemporaryDirectory(prefix="attack-matrix-")
        root = self.tmp.name
        self.home = os.path.join(root, "home")
        self.cwd = os.path.join(root, "project")
        os.makedirs(os.path.join(self.home, ".claude"))
        os.makedirs(os.path.join(self.home, ".codex", "rules"))
        os.makedirs(os.path.join(self.cwd, ".git"))
        with open(os.path.join(self.home, ".claude", "settings.json"), "w") as f:
            json.dump(CLAUDE_SETTINGS, f)
        with open(os.path.join(self.home, ".codex", "rules", "default.rules"), "w") as f:
            f.write(CODEX_RULES)
        self.codex_homes = {"rules": os.path.join(self.home, ".codex"),
                            "denies": os.path.join(root, "codex-denies")}
        os.makedirs(os.path.join(self.codex_homes["denies"], "rules"))
        with open(os.path.join(self.codex_homes["denies"], "rules", "default.rules"), "w") as f:
            f.write("".join(line + "\n" for line in CODEX_RULES.splitlines()
                            if "forbidden" in line))
        self.saved = {}

    def __enter__(self):
        bindir = os.path.dirname(sys.executable)  # where cc-filter is, so rewrites happen
        env = {"HOME": self.home, "XDG_CONFIG_HOME": os.path.join(self.home, ".config"),
               "XDG_DATA_HOME": os.path.join(self.home, ".local", "share"),
               "XDG_STATE_HOME": os.path.join(self.home, ".local", "state"),
               "XDG_CACHE_HOME": os.path.join(self.home, ".cache"),
               "PATH": bindir + os.pathsep + os.environ.get("PATH", os.defpath),
               "CLAUDE_CONFIG_DIR": None, "CODEX_HOME": None, "CTXCRL_HOME": None,
               "CTXCRL_DISABLED": None, "CTXCRL_FILTER_BIN": None}
        for name, value in env.items():
            self.saved[name] = os.environ.get(name)
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        return self

    def __exit__(self, *exc):
        for name, value in self.saved.items():
            if value is None:
                os.environ.pop(name, None)
            else:
                os.environ[name] = value
        self.tmp.cleanup()


class Hook:
    """The hook's stages for one agent and mode, in-process, as the installed script runs
    them (decode | gate | rewrite | encode)."""

    def __init__(self, agent: str, mode: str, sandbox):
        from cc_gate.stage import Gate
        from cc_rewrite.rewrite import Rewriter

        self.agent = agent
        self.cwd = sandbox.cwd
        self.codex_home = None
        if agent == "codex":
            self.client_argv, self.event_mode, rules = CODEX_MODES[mode]
            self.codex_home = sandbox.codex_homes[rules]
        else:
            self.client_argv, self.event_mode = None, mode
        self.gate = Gate(agent=agent)
        self.rewriter = Rewriter()

    def answer(self, command: str) -> str:
        """denied | asked | allowed | unanswered: what the client gets for `command`."""
        import cc_gate.process as process
        from cc_hook import stage
        from cc_peel.record import dumps, loads

        event = {"session_id": "attack-matrix", "cwd": self.cwd, "hook_event_name":
                 "PreToolUse", "tool_name": "Bash", "tool_input": {"command": command},
                 "permission_mode": self.event_mode}
        saved = process.client_argv
        process.client_argv = lambda names, start=None: self.client_argv
        if self.codex_home is not None:
            os.environ["CODEX_HOME"] = self.codex_home
        try:
            line = stage.decode(self.agent, dumps(event))
            if line is None:
                return "unanswered"
            record = self.gate.answer_record(loads(line))
            record = self.rewriter.answer_record(record)
            out = stage.encode(self.agent, dumps(record))
        finally:
            process.client_argv = saved
            os.environ.pop("CODEX_HOME", None)
        return classify(out)


def classify(out: str) -> str:
    if not out or not out.strip():
        return "unanswered"
    try:
        answer = json.loads(out)
    except ValueError:
        return "unanswered"
    decision = (answer.get("hookSpecificOutput") or {}).get("permissionDecision") \
        if isinstance(answer, dict) else None
    return {"deny": "denied", "ask": "asked", "allow": "allowed"}.get(decision, "unanswered")


def modes() -> list:
    return [("claude", m) for m in CLAUDE_MODES] + [("codex", m) for m in CODEX_MODES]


def run(attacks: list) -> dict:
    """{(agent, mode): {attack: answer}} for every attack, in every mode."""
    results = {}
    with Sandbox() as sandbox:
        for agent, mode in modes():
            hook = Hook(agent, mode, sandbox)
            results[(agent, mode)] = {a: hook.answer(a.line) for a in attacks}
    return results


def broken_promises(results: dict) -> list:
    """(agent, mode, attack, answer) for every answer that breaks the corpus's promise."""
    found = []
    for (agent, mode), answers in results.items():
        for attack, answer in answers.items():
            if (attack.static and answer != "denied") or answer == "allowed":
                found.append((agent, mode, attack, answer))
    return found


def table(attacks: list, results: dict) -> str:
    classes = []
    for a in attacks:
        key = (a.klass, a.static)
        if key not in classes:
            classes.append(key)
    head = "| class | spellings | " + " | ".join(f"{agent} {mode}" for agent, mode in modes()) \
        + " |"
    rows = [head, "|" + "---|" * (len(modes()) + 2)]
    for klass, static in classes:
        mine = [a for a in attacks if a.klass == klass and a.static == static]
        cells = []
        for key in modes():
            counts = {c: 0 for c in COLUMNS}
            for a in mine:
                counts["tried"] += 1
                counts[results[key][a]] += 1
            cells.append("/".join(str(counts[c]) for c in COLUMNS))
        what = "static" if static else "unseen"
        rows.append(f"| {klass} | {what} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


def main(argv) -> int:
    sys.path[:0] = [os.path.join(REPO, d) for d in ("ctxcrl", "cc-lex", "cc-peel", "cc-gate",
                                                   "cc-rewrite", "cc-hook")]
    attacks = load_corpus()
    results = run(attacks)
    print("each cell: " + "/".join(COLUMNS) + "; static: must be denied in every mode; "
          "unseen (# expect: ask): must never be allowed")
    print(table(attacks, results))
    broken = broken_promises(results)
    if "--failures" in argv:
        for agent, mode, attack, answer in broken:
            print(f"{agent} {mode}: {answer}: {attack.where}: {attack.line}")
    print(f"{len(attacks)} spellings x {len(modes())} modes: {len(broken)} broken promises")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
