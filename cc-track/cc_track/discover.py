"""Missed savings in Claude Code's session history (`cc-track discover`).

Reads `~/.claude/projects/*/*.jsonl` (or `$CLAUDE_CONFIG_DIR/projects/…`), pairs every Bash
`tool_use` with its `tool_result`, and asks the rest of contextcrawler what it would have
done with the command: `cc_rewrite` for the rewritten form, `cc_filter.choose.catalogue` for the
filter, `cc_peel` for the key. Commands it would have rewritten are "missed"; their estimated
saving is the result's tokens × the median savings ratio of that filter in tracking.db, or
DEFAULT_SAVINGS_RATIO when tracking.db has no runs of it yet. Commands with no filter are
counted by family (program + subcommand) so the most frequent ones can get a filter.

The session files are read by Claude Code's own transcript reader
(cc_hook/agents/claude.py `read_transcript`, the one `learn` and `session` use): every Bash
`tool_use` with the size of its `tool_result` (or of `toolUseResult.stdout/stderr` when the
result has no text); lines that are not JSON objects (malformed, truncated) are skipped and
counted.
"""
import glob
import os
import time

from ctxcrl import home
from .report import local_iso
from ctxcrl.spool import estimate_tokens, project_of

SCHEMA = "ctxcrl.discover/1"
DEFAULT_SINCE_DAYS = 30
DEFAULT_SAVINGS_RATIO = 0.60  # the project's per-filter floor (ARCHITECTURE §9), deliberately modest
TOP_ROWS = 15
#: Shell builtins that print nothing worth filtering; never listed as "no filter yet".
QUIET_PROGRAMS = frozenset({
    "cd", "export", "source", ".", "set", "unset", "true", "false", "sleep", "pushd", "popd",
    "alias", "exit", "wait", "mkdir", "touch", "chmod", "rm", "mv", "cp", "ln", "kill",
    "echo", "printf", "pwd", "which", "test", "[",
})


#: cc-filter's fallback for commands without a filter of their own (head, errors and tail of
#: any long output): a command only it would take is counted as having no filter.
FALLBACK_FILTER = "generic"

# --- reading session logs --------------------------------------------------------------------

class SessionScan:
    """The Bash calls (cc_hook.transcript.ShellCall, by tool_use id) of the session logs read,
    and how many files, lines and malformed lines there were."""
    __slots__ = ("files", "lines", "malformed", "calls")

    def __init__(self):
        self.files = self.lines = self.malformed = 0
        self.calls: dict = {}


def scan_sessions(projects_dir: str, since: float | None = None,
                  project: str | None = None) -> SessionScan:
    """Every Bash call (with its result size) in the session logs under `projects_dir`, read
    by Claude Code's own reader (cc_hook.agents.claude), limited to calls made at or after
    `since` and in a cwd inside `project` when given."""
    from cc_hook.agents import claude

    scan = SessionScan()
    pattern = os.path.join(glob.escape(projects_dir), claude.TRANSCRIPT_FILES)
    for path in sorted(glob.glob(pattern)):
        try:
            if since is not None and os.path.getmtime(path) < since:
                continue
        except OSError:
            continue
        for call in claude.read_transcript(path, scan).calls:
            if since is not None and (call.ts is None or call.ts < since):
                continue
            if project is not None and not _inside(call.cwd, project):
                continue
            scan.calls[call.id] = call
    return scan


def _inside(cwd, project: str) -> bool:
    return isinstance(cwd, str) and (cwd == project or cwd.startswith(project.rstrip("/") + "/"))


# --- what contextcrawler would have done -----------------------------------------------------

class Integrations:
    """The other tools' libraries: cc_peel, cc_filter.choose.catalogue, cc_rewrite. Discover degrades
    gracefully when one is missing (no peel: whitespace split; no catalogue: nothing has a
    filter; no cc_rewrite: `cc-filter run ` before each plain top-level segment with a filter).
    `lookup` replaces the catalogue (tests use a fixed one)."""

    def __init__(self, transparent_prefixes=(), lookup=None):
        self.transparent_prefixes = tuple(transparent_prefixes)
        try:
            from cc_peel import peel
        except ImportError:
            peel = None
        if lookup is None:
            try:
                from cc_filter.choose.catalogue import lookup as catalogue_lookup

                def lookup(key, cwd=None):
                    return catalogue_lookup(key, cwd, warn=False)
            except ImportError:
                lookup = None
        try:
            from cc_rewrite.rewrite import Catalogue, rewrite
        except ImportError:
            Catalogue = rewrite = None
        self.peel, self.lookup = peel, lookup
        self._rewrite, self._catalogue_class = rewrite, Catalogue
        self._catalogues: dict = {}
        self._answers: dict = {}

    def describe(self) -> dict:
        return {"peel": self.peel is not None, "catalogue": self.lookup is not None,
                "rewrite": "cc_rewrite" if self._rewrite else "fallback"}

    def segments(self, command: str):
        """[(key, argv, opaque, nested)] or None when the line cannot be parsed."""
        if self.peel is None:
            words = command.split()
            return [(" ".join(words), words, None, None)] if words else []
        try:
            peeled = (self.peel(command, self.transparent_prefixes) if self.transparent_prefixes
                      else self.peel(command))
        except Exception:
            return None
        return [(s.key, s.argv, s.opaque, s.nested) for s in peeled.segments]

    def filter_for(self, key: str, cwd: str | None):
        if self.lookup is None or not key:
            return None
        if (key, cwd) not in self._answers:
            try:
                entry = self.lookup(key, cwd)
            except Exception:
                entry = None
            self._answers[(key, cwd)] = (getattr(entry, "name", None) or
                                         (entry if isinstance(entry, str) else None))
        return self._answers[(key, cwd)]

    def rewritten(self, command: str, cwd: str | None):
        """(rewritten command, filter name, key of the rewritten segment), or None when
        contextcrawler would leave the command alone."""
        if self.lookup is None:
            return None
        if self._rewrite is not None:
            catalogue = self._catalogues.get(cwd)
            if catalogue is None:
                catalogue = self._catalogues[cwd] = self._catalogue_class(
                    cwd, lambda key, _cwd=None: self._entry(key, cwd))
            try:
                result = self._rewrite(command, catalogue)
            except Exception:
                return None
            if not result.changed:
                return None
            notes = [n for n in result.notes if n.action == "rewritten"]
            # a filter of its own first: the generic fallback is no filter for the report
            note = next((n for n in notes if getattr(n, "filter", None) != FALLBACK_FILTER),
                        notes[0] if notes else None)
            return (result.text, getattr(note, "filter", None) or "?",
                    getattr(note, "key", "") or "")
        return self._rewrite_fallback(command, cwd)

    def _entry(self, key, cwd):
        name = self.filter_for(key, cwd)
        return _Named(name) if name else None

    def _rewrite_fallback(self, command: str, cwd: str | None):
        if self.peel is None:
            return None
        try:
            peeled = self.peel(command)
        except Exception:
            return None
        if peeled.whole_opaque:
            return None
        out, last, found = [], 0, None
        for seg in peeled.segments:
            if seg.opaque or seg.nested or seg.position not in ("alone", "producer"):
                continue
            name = self.filter_for(seg.key, cwd)
            if name:
                out.append(command[last:seg.core_start] + "cc-filter run ")
                last = seg.core_start
                found = found or (name, seg.key)
        if not found:
            return None
        return "".join(out) + command[last:], found[0], found[1]


class _Named:
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name


def family(argv_or_key) -> str:
    """`git log -n 5` → `git log`; `pytest -q tests/` → `pytest`; `./gradlew build` → `gradlew build`."""
    words = argv_or_key.split() if isinstance(argv_or_key, str) else list(argv_or_key)
    if not words:
        return ""
    program = os.path.basename(words[0]) or words[0]
    if len(words) > 1:
        sub = words[1]
        if sub[:1].isalpha() and all(c.isalnum() or c in "-_:" for c in sub):
            return f"{program} {sub}"
    return program


def _uses_contextcrawler(segments) -> bool:
    for key, argv, _opaque, _nested in segments:
        first = os.path.basename(argv[0]) if argv else ""
        if first == "cc-filter" or (key or "").startswith("cc-filter"):
            return True
    return False


def savings_ratios(db) -> "callable":
    """filter name → median saved/raw ratio in tracking.db (None when it has no runs)."""
    cache: dict = {}

    def ratio(name: str):
        if name not in cache:
            value = None
            if db is not None:
                try:
                    (count,) = db.execute(
                        "SELECT count(*) FROM records WHERE filter = ? AND raw_tokens > 0",
                        (name,)).fetchone()
                    if count:
                        rows = db.execute(
                            "SELECT saved_tokens * 1.0 / raw_tokens AS r FROM records "
                            "WHERE filter = ? AND raw_tokens > 0 ORDER BY r LIMIT ? OFFSET ?",
                            (name, 2 - count % 2, (count - 1) // 2)).fetchall()
                        value = sum(r for (r,) in rows) / len(rows)
                except Exception:
                    value = None
            cache[name] = value
        return cache[name]

    return ratio


def build_discover(projects_dir: str | None = None, *, since_days: float = DEFAULT_SINCE_DAYS,
                   all_projects: bool = False, cwd: str | None = None, db=None,
                   config: dict | None = None, now: float | None = None,
                   integrations: Integrations | None = None) -> dict:
    from cc_hook.agents import claude

    projects_dir = projects_dir or claude.transcript_dir()
    now = time.time() if now is None else now
    since = now - since_days * 86400 if since_days is not None else None
    project = None if all_projects else project_of(cwd or os.getcwd())
    hooks = (config or {}).get("hooks", {})
    tools = integrations or Integrations(hooks.get("transparent_prefixes") or ())
    ratio_of = savings_ratios(db)

    scan = scan_sessions(projects_dir, since, project)
    missed: dict = {}
    unfiltered: dict = {}
    already = unparsed = 0
    for call in sorted(scan.calls.values(), key=lambda c: (c.ts or 0, c.id)):
        segments = tools.segments(call.command)
        if segments is None:
            unparsed += 1
            continue
        if _uses_contextcrawler(segments):
            already += 1
            continue
        tokens = estimate_tokens(call.output_chars or 0)
        rewritten = tools.rewritten(call.command, call.cwd)
        if rewritten is not None and rewritten[1] != FALLBACK_FILTER:
            rewritten, name, key = rewritten
            fam = family(key or (segments[0][0] if segments else call.command))
            row = missed.setdefault((fam, name), {
                "family": fam, "filter": name, "commands": 0, "output_tokens": 0,
                "estimated_saved_tokens": 0, "savings_ratio": None, "ratio_source": None,
                "example": call.command, "rewritten": rewritten,
            })
            known = ratio_of(name)
            row["savings_ratio"] = round(known if known is not None else DEFAULT_SAVINGS_RATIO, 3)
            row["ratio_source"] = "tracking" if known is not None else "default"
            row["commands"] += 1
            row["output_tokens"] += tokens
            row["example"], row["rewritten"] = call.command, rewritten  # the latest one
            continue
        for key, argv, opaque, nested in segments:
            if nested or not key:
                continue
            if tools.filter_for(key, call.cwd) not in (None, FALLBACK_FILTER):
                continue  # has a filter but must stay raw here (pipe, redirect, …)
            fam = family(argv or key)
            if fam.split(" ")[0] in QUIET_PROGRAMS:
                continue
            row = unfiltered.setdefault(fam, {"family": fam, "commands": 0, "output_tokens": 0,
                                              "example": call.command})
            row["commands"] += 1
            row["output_tokens"] += tokens
            row["example"] = call.command
    for row in missed.values():
        row["estimated_saved_tokens"] = int(round(row["output_tokens"] * row["savings_ratio"]))
    missed_rows = sorted(missed.values(),
                         key=lambda r: (-r["estimated_saved_tokens"], -r["commands"], r["family"]))
    unfiltered_rows = sorted(unfiltered.values(),
                             key=lambda r: (-r["commands"], -r["output_tokens"], r["family"]))
    return {
        "schema": SCHEMA,
        "projects_dir": projects_dir,
        "since": local_iso(since) if since is not None else None,
        "scope": "all" if all_projects else "project",
        "project": project,
        "session_files": scan.files,
        "lines": scan.lines,
        "malformed_lines": scan.malformed,
        "bash_commands": len(scan.calls),
        "already_filtered": already,
        "unparsed": unparsed,
        "missed_commands": sum(r["commands"] for r in missed_rows),
        "missed_estimated_saved_tokens": sum(r["estimated_saved_tokens"] for r in missed_rows),
        "default_savings_ratio": DEFAULT_SAVINGS_RATIO,
        "missed": missed_rows,
        "unfiltered": unfiltered_rows,
        "integrations": tools.describe(),
    }


def render_discover(data: dict, style=None, limit: int = TOP_ROWS) -> str:
    from .render import Style, text_table, fmt_int, shorten

    style = style or Style()
    where = "all projects" if data["scope"] == "all" else home.short_path(data["project"] or "")
    since = f" since {data['since'][:10]}" if data["since"] else ""
    out = [style.bold(f"Claude Code sessions · {where}{since}"),
           f"{fmt_int(data['session_files'])} session files, {fmt_int(data['bash_commands'])} "
           f"Bash commands, {fmt_int(data['already_filtered'])} already through contextcrawler."]
    if data["malformed_lines"]:
        out.append(f"{fmt_int(data['malformed_lines'])} malformed or truncated log lines skipped.")
    if not data["session_files"]:
        out.append(f"No session logs found in {home.short_path(data['projects_dir'])}.")
        return "\n".join(out)
    out.append("")
    if data["missed"]:
        out.append(style.bold(
            f"Missed: {fmt_int(data['missed_commands'])} commands had a filter, "
            f"~{fmt_int(data['missed_estimated_saved_tokens'])} tokens could have been saved"))
        rows = [[r["family"], r["filter"], fmt_int(r["commands"]), fmt_int(r["output_tokens"]),
                 f"~{fmt_int(r['estimated_saved_tokens'])}",
                 f"{r['savings_ratio'] * 100:.0f} %{'' if r['ratio_source'] == 'tracking' else '*'}",
                 shorten(r["rewritten"], 50)]
                for r in data["missed"][:limit]]
        out.append(text_table(rows, ["Command", "Filter", "Runs", "Output tokens", "Could save",
                                 "Ratio", "Rewritten as"],
                          ["left", "left", "right", "right", "right", "right", "left"], style))
        if any(r["ratio_source"] == "default" for r in data["missed"][:limit]):
            out.append(style.dim(f"* no runs of this filter in tracking.db yet: assumed "
                                 f"{data['default_savings_ratio'] * 100:.0f} %"))
    else:
        out.append("No missed savings: every command with a filter went through contextcrawler.")
    out.append("")
    if data["unfiltered"]:
        out.append(style.bold("Most frequent commands without a filter"))
        rows = [[r["family"], fmt_int(r["commands"]), fmt_int(r["output_tokens"]),
                 shorten(r["example"], 50)] for r in data["unfiltered"][:limit]]
        out.append(text_table(rows, ["Command", "Runs", "Output tokens", "Example"],
                          ["left", "right", "right", "left"], style))
    else:
        out.append("No commands without a filter.")
    return "\n".join(out)
