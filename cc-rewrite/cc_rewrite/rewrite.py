"""Rewriting a command line so each segment that has a filter runs through `cc-filter run`.

Owns the decision, per segment, to insert `cc-filter run ` at the start of the core command
(ARCHITECTURE §5) and the assembly of the result. Every byte outside the insertions is kept, so
deleting them gives back the input exactly. Anything doubtful stays raw (fail closed), and
every "why not" is recorded for `--explain`.

Which commands have a filter is asked of cc-filter's catalogue only; this module knows the
shapes that must never be rewritten, not the commands that can.

Also the pipeline stage (`Rewriter`): records in, records with "rewritten" out.

Runs on every agent command: imports only the cheap cc_lex and cc_peel (the peeler and the
command-record module), before stdin is read, so they load while the upstream stage is still
working; cc-filter's catalogue when the first segment is looked up.
"""
from cc_lex.lexer import LexError
from cc_peel import record
from cc_peel.peeling import peel

from .refusals import (
    ENV_PROGRAMS,
    GREP_PROGRAMS,
    RewriteSettings,
    TokenIndex,
    consumer_spec,
    display_only_reason,
    lists_environment,
    program_of,
    segment_refusal,
    whole_refusal,
    writes_stdout_to_file,
)

REWRITTEN = "rewritten"
RAW = "raw"
#: cc-rewrite's exit code in bare mode (ARCHITECTURE §3): 0 rewritten, 1 unchanged.
EXIT_REWRITTEN = 0
EXIT_UNCHANGED = 1


class SegmentNote:
    """What happened to one segment: `action` is rewritten|raw, `why` says why (for raw)."""

    __slots__ = ("text", "key", "action", "why", "filter", "then")

    def __init__(self, text: str, key: str, action: str, why: str, filter_name: str = ""):
        self.text = text
        self.key = key
        self.action = action
        self.why = why
        self.filter = filter_name
        self.then = ""  # what reads its answer after the pipe (`tail:20`), for --then

    def __repr__(self):
        return f"SegmentNote({self.text!r}, {self.action!r}, {self.why!r})"

    def line(self) -> str:
        if self.action == REWRITTEN:
            detail = f"rewritten (filter {self.filter})" if self.filter else "rewritten"
            if self.then:
                detail += f", read by {self.then.replace(':', ' -').replace(',', ' | ')}"
        else:
            detail = f"raw: {self.why}"
        return f"{self.text}\t{detail}"


class Rewrite:
    """The result for one command: `text` is the command to run, `changed` whether it differs."""

    __slots__ = ("command", "text", "notes", "whole")

    def __init__(self, command: str, text: str, notes: list, whole: str | None = None):
        self.command = command
        self.text = text
        self.notes = notes
        self.whole = whole  # why the whole command stays untouched, or None

    @property
    def changed(self) -> bool:
        return self.text != self.command

    def __repr__(self):
        return f"Rewrite({self.text!r})"

    def explain(self) -> list:
        lines = [self.text]
        if self.whole:
            lines.append(f"(whole command)\traw: {self.whole}")
        lines.extend(note.line() for note in self.notes)
        return lines


class Catalogue:
    """Which keys have a filter: cc-filter's catalogue, asked lazily, answers cached."""

    __slots__ = ("cwd", "_lookup", "_answers")

    def __init__(self, cwd: str | None = None, lookup=None):
        self.cwd = cwd
        self._lookup = lookup
        self._answers: dict = {}

    def prepare(self) -> None:
        """Read the filter index and folders for this cwd now (see Rewriter.prepare)."""
        if self._lookup is None:
            from cc_filter.choose.catalogue import all_entries

            self._catalogue_lookup()
            all_entries(self.cwd)  # cached by cc_filter.choose.catalogue for the lookups to come

    def _catalogue_lookup(self):
        if self._lookup is None:
            from cc_filter.choose.catalogue import lookup

            self._lookup = lookup
        return self._lookup

    def filter_for(self, key: str) -> str | None:
        """The name of the filter for `key`, or None."""
        if key in self._answers:
            return self._answers[key]
        lookup = self._catalogue_lookup()
        try:
            entry = lookup(key, self.cwd)
        except Exception as exc:  # a broken catalogue leaves commands raw, never breaks them
            _warn_once(f"filter catalogue failed, leaving commands raw: {exc!r}")
            entry = None
        name = None
        if entry is not None:
            name = getattr(entry, "name", None) or (entry if isinstance(entry, str) else "?")
            if getattr(entry, "tier", None) == "built-in" and name == FALLBACK_FILTER:
                from cc_filter.choose.fallback import program_found

                if not program_found(key.split(" ", 1)[0], self.cwd):
                    name = None  # a shell function or alias: cc-filter could not run it
        self._answers[key] = name
        return name


FALLBACK_FILTER = "generic"  # cc-filter's fallback for commands without a filter of their own


_warned: set = set()


def _warn_once(message: str) -> None:
    if message not in _warned:
        _warned.add(message)
        record.warn("cc-rewrite", message)


def rewrite(command: str, catalogue: Catalogue | None = None,
            settings: RewriteSettings | None = None, require_filter: bool = False) -> "Rewrite":
    """Rewrite `command` (an unparsable one comes back unchanged, with the reason).

    `require_filter`: leave the command unchanged when the cc-filter program cannot be found
    (`RewriteSettings.filter_available`) — for a rewrite another shell will run (records)."""
    settings = settings or RewriteSettings.from_config()
    if settings.disabled:
        return Rewrite(command, command, [], "CTXCRL_DISABLED is set in the environment")
    catalogue = catalogue or Catalogue()
    try:
        peeled = (peel(command, settings.transparent_prefixes) if settings.transparent_prefixes
                  else peel(command))
    except LexError as exc:
        return Rewrite(command, command, [], f"cannot parse ({_message(exc)})")
    except RecursionError:
        return Rewrite(command, command, [], "nested too deeply to parse")
    tokens = peeled.tokens
    segments = peeled.segments
    whole = whole_refusal(peeled, tokens, segments)
    if whole:
        notes = [SegmentNote(s.text, s.key, RAW, "whole command untouched") for s in segments]
        return Rewrite(command, command, notes, whole)

    notes = []
    verdicts = {}
    listings = set()  # ids of rewritable env/printenv listings (the pipe rules keep them)
    index = TokenIndex(tokens)
    for seg in segments:
        why = segment_refusal(seg, command, index, settings)
        note = SegmentNote(seg.text, seg.key, RAW, why or "")
        if why is None:
            name = catalogue.filter_for(seg.key) if seg.key else None
            if name is None:
                note.why = f"no filter for {seg.key!r}" if seg.key else "no command"
            else:
                note.action = REWRITTEN
                note.filter = name
                if program_of(seg) in ENV_PROGRAMS and lists_environment(seg.argv):
                    listings.add(id(seg))
        notes.append(note)
        verdicts[id(seg)] = note

    _apply_pipe_rules(segments, verdicts, listings, index)

    positions = [(seg.core_start, note.then) for seg, note in zip(segments, notes)
                 if note.action == REWRITTEN]
    if not positions:
        return Rewrite(command, command, notes)
    missing = settings.filter_available(catalogue.cwd) if require_filter else None
    if missing:  # a rewrite the agent's shell could not run would break the command
        for note in notes:
            if note.action == REWRITTEN:
                note.action, note.filter, note.why = RAW, "", "cc-filter cannot be found"
        return Rewrite(command, command, notes, f"cc-filter cannot be found: {missing}")
    insert = settings.filter_program + " run "
    parts = []
    last = 0
    for pos, then in sorted(positions):
        parts.append(command[last:pos])
        parts.append(f"{insert}--then={then} " if then else insert)
        last = pos
    parts.append(command[last:])
    return Rewrite(command, "".join(parts), notes)


def _message(exc) -> str:
    return getattr(exc, "message", None) or (str(exc.args[0]) if exc.args else repr(exc))


def pipelines(segments) -> list:
    """Top-level segments grouped into pipelines (lists of 1+ stages), in order."""
    groups = []
    current = []
    for seg in segments:
        if seg.nested is not None:
            continue
        current.append(seg)
        if seg.separator not in ("|", "|&"):
            groups.append(current)
            current = []
    if current:
        groups.append(current)
    return groups


def _apply_pipe_rules(segments, verdicts, listings=frozenset(), index=None) -> None:
    """One stage per pipeline may be rewritten: the last one whose output is not merely
    displayed by what follows — the producer, or a final grep/rg (its producer then raw).

    The exception (a security rule, cc-rewrite/README.md): a stage listing the environment
    (`env`, `printenv`: `listings`) is rewritten whatever reads it, and then nothing else in
    its pipeline is — the env filter keeps one line per variable, in order, replacing only
    secret values (and colour tables), so what reads it answers as it would on the raw
    listing, while raw values would reach the agent through grep, sort, a loop… Not when the
    pipeline's output goes to a file (`env | sort > env.txt`): the agent sees nothing, and
    the file must be the real one."""
    for stages in pipelines(segments):
        listing = any(id(seg) in listings for seg in stages)
        if listing and index is not None and writes_stdout_to_file(index, stages[-1]):
            for seg in stages:  # then the usual rules below decide for the other stages
                if id(seg) in listings:
                    note = verdicts[id(seg)]
                    note.action, note.filter = RAW, ""
                    note.why = "the pipe's output goes to a file: it gets the real listing"
        elif listing:
            for seg in stages:
                note = verdicts[id(seg)]
                if id(seg) not in listings and note.action == REWRITTEN:
                    note.action, note.filter = RAW, ""
                    note.why = ("the pipe's environment listing is rewritten (secrets masked):"
                                " one rewritten stage per pipe")
            continue
        fed = stages[0].position not in ("alone", "producer")  # a ( )/{ }/loop feeds it
        feeds = stages[-1].position not in ("alone", "final")  # it feeds a ( )/{ }/loop
        if feeds:
            for seg in stages:
                note = verdicts[id(seg)]
                if note.action == REWRITTEN:
                    note.action, note.filter = RAW, ""
                    note.why = "feeds a compound command (its answer could change)"
            continue
        if len(stages) < 2 and not fed:
            continue
        k = 0
        for i in range(len(stages) - 1, 0, -1):
            if display_only_reason(stages[i]) is not None:
                k = i
                break
        for i, seg in enumerate(stages):
            note = verdicts[id(seg)]
            if i > k:
                note.action, note.filter, note.why = RAW, "", "displays the pipe's output"
                continue
            if note.action != REWRITTEN:
                continue
            if i == k and ((k == 0 and not fed) or program_of(seg) in GREP_PROGRAMS):
                spec = consumer_spec(stages[k + 1:])
                if spec is None:
                    note.action, note.filter = RAW, ""
                    note.why = ("what reads it after the pipe cannot be judged (only cat and "
                                "head/tail -N are): its compacted answer could lose a fact")
                else:
                    note.then = spec
                continue
            note.action = RAW
            note.filter = ""
            if i < k:
                note.why = (f"feeds {program_of(stages[k]) or 'a command'} "
                            "(compacted input would change its answer)")
            else:
                note.why = "reads a pipe: only a final grep/rg is rewritten after a pipe"


# ---------------------------------------------------------------------------------------------
# the pipeline stage: records in, records with "rewritten" out

class Rewriter:
    """Answers records and bare commands for one `cc-rewrite` invocation."""

    def __init__(self, cwd=None, explain: bool = False, settings=None, lookup=None):
        self.cwd = cwd
        self.explain = explain
        self._settings = settings
        self._lookup = lookup
        self._catalogues: dict = {}

    @property
    def settings(self) -> RewriteSettings:
        if self._settings is None:
            self._settings = RewriteSettings.from_config()
        return self._settings

    def catalogue(self, cwd: str) -> Catalogue:
        found = self._catalogues.get(cwd)
        if found is None:
            found = self._catalogues[cwd] = Catalogue(cwd, self._lookup)
        return found

    def rewrite(self, command: str, rec=None) -> Rewrite:
        """Records (the hook, the OpenCode plugin) are run by the agent's shell: their rewrites
        need a cc-filter that can be found. A bare command is shown to whoever typed it."""
        return rewrite(command, self.catalogue(record.cwd_of(rec, self.cwd)), self.settings,
                       require_filter=rec is not None)

    def answer_record(self, rec: dict):
        # Permission parity: a record is rewritten only when the gate found that the agent
        # would run the original without asking ("allow"), or that it surely asks the user
        # about it (`"prompts": true`: the hook then asks about the rewritten command itself,
        # Claude Code). On any other "ask" the agent's own flow must judge the original
        # command, so it stays untouched (and so unfiltered).
        decision = rec.get("decision")
        if decision is not None and decision != "allow" and not (
                decision == "ask" and rec.get("prompts") is True):
            rec.pop("rewritten", None)
            if self.explain:
                why = "denied by the gate" if decision == "deny" else \
                    "the agent would ask: its own flow decides on the original"
                return f"{rec['command']}\n(whole command)\traw: {why}"
            return rec
        result = self.rewrite(rec["command"], rec)
        if self.explain:
            return "\n".join(result.explain())
        if result.changed:
            rec["rewritten"] = result.text
        else:
            rec.pop("rewritten", None)
        return rec

    def answer_bare(self, command: str):
        try:
            result = self.rewrite(command)
        except Exception as exc:  # a bug must never lose the command: hand it back as it was
            record.warn("cc-rewrite", f"leaving the command unchanged: internal error {exc!r}")
            return command, False
        text = "\n".join(result.explain()) if self.explain else result.text
        return text, result.changed

    def prepare(self) -> None:
        """Before stdin is read (record.run_stage): the settings, and the filter catalogue of
        the current directory, where the agent runs its hook (nearly always the records' cwd)."""
        if self.settings.disabled:
            return
        self.catalogue(record.cwd_of(None, self.cwd)).prepare()

    def run(self, command_arg) -> int:
        results = record.run_stage("cc-rewrite", command_arg, self.answer_record,
                                   self.answer_bare, self.prepare)
        if not results:
            return EXIT_REWRITTEN  # record mode (or nothing but empty lines)
        return EXIT_REWRITTEN if any(results) else EXIT_UNCHANGED
