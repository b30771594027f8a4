"""rustc / cargo diagnostics, shared by the cargo-build, cargo-install and cargo-test filters.

`RustDiagnostics.feed(line)` takes every line of cargo's human output and returns True when the
line belonged to a diagnostic or to cargo's build chatter (and was consumed), False when the
caller should handle it. Errors are rendered as soon as they end: one line
`path:line:col: error[E0308]: message`, then one indented line, the primary label when it adds
to the message, else the first top-level `help:` (a lint denied by `-D warnings` stays one
line). Warnings are held and rendered by `finish()` after the errors, one line each with their
lint name (`[unused_variables]`, `[clippy::needless_return]`) and, indented under it, their
`help:` suggestions (top-level, `= help:` and the excerpt's own `^^^ help: …`; not the
"for further information visit" link); cargo's summary lines
(`could not compile …`, `generated N warnings`, `Finished …`) come last, verbatim (less the
"(run `cargo fix …` to apply N suggestions)" hint).
Dropped, and counted in one marker per kind before the summary lines (principle 2):
`Compiling` / `Checking` / `Fresh` / `Blocking` … progress (one marker naming the verbs seen:
`... (37 Compiling lines omitted)`, `... (3 Installing/Locking/Compiling lines omitted)`);
the `-->` lines, source excerpts and `^^^` markers, `= note:` / `= help:` lines, the helps
not shown, "Some errors have detailed explanations" and "For more information about this
error" hints and cargo's `(run `cargo fix …`)` tail, all as `excerpt and note lines` (a
diagnostic's location, label and helps are on its headline); duplicate diagnostics (lib and
lib-test builds report the same warning twice) as `lines of repeated diagnostics`.
`machine_format(argv)` tells when the user asked for JSON messages or a listing (passed
through), and `CargoMessages` is the base of the filters whose whole output is diagnostics plus
cargo's own lines (cargo-build, cargo-install).
Imports nothing heavy; `re` is never needed.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._tally import Tally
from cc_filter.kit.lines import omitted, strip_ansi

_PROGRESS = ("Compiling ", "Checking ", "Fresh ", "Blocking ", "Updating ", "Downloading ",
             "Downloaded ", "Locking ", "Adding ", "Documenting ", "Packaging ", "Verifying ",
             "Archiving ", "Unpacking ", "Building ", "Removed ", "Packaged ", "Scraping ",
             "Installing ", "Replacing ", "Dirty ", "Waiting ")
_SUMMARY_TEXT = ("could not compile", "build failed", "aborting due to", "test failed, to rerun",
                 "Could not compile")
_HINTS = ("Some errors have detailed explanations", "For more information about this error",
          "For more information about an error")
# Primary labels that only restate the message ("cannot find value `x` in this scope").
_RESTATING_LABELS = ("not found in this scope", "not found in this crate", "not found in `")
_BODY_LIMIT = 3
_LINE_LIMIT = 300


def _header(line: str):
    """(severity, code, message) of a diagnostic's first line, else None."""
    for severity in ("error", "warning"):
        if line.startswith(severity):
            rest = line[len(severity):]
            code = ""
            if rest.startswith("["):
                end = rest.find("]")
                if end < 0:
                    return None
                code, rest = rest[:end + 1], rest[end + 1:]
            if rest.startswith(": "):
                return severity, code, rest[2:]
    return None


def _is_summary(severity: str, message: str) -> bool:
    if message.startswith(_SUMMARY_TEXT) or message.endswith(("targets failed:", "target failed:")):
        return True
    # warning: `ledger-report` (lib) generated 6 warnings (run `cargo fix …` to apply …)
    return message.startswith("`") and " generated " in message and " warning" in message


def _label(line: str) -> str | None:
    """The primary label of an excerpt line: `   |     ^^^^^ value moved here` → text."""
    bar = line.find("|")
    if bar < 0:
        return None
    marks = line[bar + 1:]
    at = marks.find("^")
    if at < 0 or marks[:at].strip(" -|"):
        return None
    text = marks[at:].lstrip("^").strip()
    return text or None


def _lint(note: str) -> str | None:
    """`#[warn(unused_variables)]` / `-D clippy::needless-return` in a `= note:` line."""
    for opener in ("#[warn(", "#[deny(", "#[forbid("):
        at = note.find(opener)
        if at >= 0:
            end = note.find(")]", at)
            if end > 0:
                return note[at + len(opener):end]
    at = note.find("`-D ")
    if at < 0:
        at = note.find("`-W ")
    if at >= 0:
        end = note.find("`", at + 1)
        if end > 0:
            return note[at + 4:end]
    return None


_HELP_LIMIT = 3  # `help:` suggestions shown under one warning
DETAIL = "excerpt and note lines"  # one kind for every detail line: each marker costs tokens
REPEATED = "lines of repeated diagnostics"
HINTS = DETAIL


class _Diagnostic:
    __slots__ = ("severity", "code", "message", "location", "label", "helps", "lint", "body",
                 "lines", "dropped", "plain")

    def __init__(self, severity: str, code: str, message: str):
        self.severity = severity
        self.code = code
        self.message = message
        self.location = ""
        self.label: str | None = None
        self.helps: list[str] = []
        self.lint: str | None = None
        self.body: list[str] = []  # plain lines of a diagnostic without a location (linker)
        self.lines = 1  # raw lines read, the header included
        self.dropped = 0  # raw lines that will not be shown as printed
        self.plain: dict[str, int] = {}  # help → its top-level `help: …` raw lines

    def add_help(self, text: str, plain: bool = False) -> None:
        """A suggestion; `plain`: its raw line is a top-level `help: …` (shown as printed when
        the help is shown), else the raw line is an excerpt or `= help:` line, counted."""
        text = text.strip()
        if text not in self.helps and len(self.helps) < _HELP_LIMIT:
            self.helps.append(text)
        elif text not in self.helps:
            self.dropped += plain
            return
        if plain:
            self.plain[text] = self.plain.get(text, 0) + 1

    def _count_helps(self, shown: list[str]) -> None:
        """Top-level `help:` lines not shown as printed: of a help not shown, or repeated."""
        for text, n in self.plain.items():
            self.dropped += n - 1 if text in shown else n

    def key(self) -> tuple:
        return (self.severity, self.code, self.message, self.location)

    def render(self) -> list[str]:
        head = f"{self.severity}{self.code}: {self.message}"
        if self.location:
            head = f"{self.location}: {head}"
        if self.lint:
            head += f" [{self.lint}]"
        if self.severity == "warning" or (self.lint and not self.code):
            # a lint (or a lint denied by -D warnings): its name and its `help:` suggestions
            self._count_helps(self.helps[:_HELP_LIMIT])
            return [head] + [f"  {h}" for h in self.helps[:_HELP_LIMIT]]
        lines = [head]
        # One line of elaboration: the primary label (`expected `i64`, found `Option<i64>``)
        # when it adds to the message, else rustc's first `help:` suggestion.
        if self.label and self.label not in self.message and not self.label.startswith(
                _RESTATING_LABELS):
            lines.append(f"  {self.label}")
            self._count_helps([])
        elif self.helps:
            lines.append(f"  {self.helps[0]}")
            self._count_helps(self.helps[:1])
        else:
            self._count_helps([])
        lines.extend(f"  {b[:_LINE_LIMIT]}" for b in self.body[:_BODY_LIMIT])
        self.dropped += max(0, len(self.body) - _BODY_LIMIT) + sum(
            len(b) > _LINE_LIMIT for b in self.body[:_BODY_LIMIT])
        return lines


class RustDiagnostics:
    """Streaming reader of cargo / rustc human diagnostics (see the module docstring). The
    lines it drops are counted in `tally` (the caller's own, when it passes one)."""

    def __init__(self, tally: Tally | None = None):
        self.tally = Tally() if tally is None else tally
        self.progress: dict[str, int] = {}  # verb → its progress lines dropped
        self.current: _Diagnostic | None = None
        self.seen: set[tuple] = set()
        self.warnings: list[_Diagnostic] = []
        self.summary: list[str] = []
        self.ready: list[str] = []  # rendered errors waiting to be taken by `drain()`
        self.in_summary_list = False  # the indented lines under `error: 2 targets failed:`

    def feed(self, line: str) -> bool:
        stripped = line.strip()
        if self.in_summary_list:
            if line.startswith("    ") and stripped:
                self.summary.append(line)
                return True
            self.in_summary_list = False
        head = _header(line)
        if head is not None:
            self._close()
            severity, code, message = head
            if not code and _is_summary(severity, message):
                # drop cargo's "(run `cargo fix …` to apply N suggestions)" hint, keep the count
                at = line.find(" (run `cargo ")
                if at > 0 and line.endswith(")"):
                    self.summary.append(line[:at])
                    self.tally.add(HINTS)  # the line, less its `cargo fix` hint
                else:
                    self.summary.append(line)
                self.in_summary_list = line.endswith("failed:")
                return True
            self.current = _Diagnostic(severity, code, message)
            return True
        if stripped.startswith(_PROGRESS) and line.startswith(" ") and not stripped.startswith(
                "Finished"):
            verb = stripped.split(" ", 1)[0]
            self.progress[verb] = self.progress.get(verb, 0) + 1
            return True
        if stripped.startswith("Finished ") and line.startswith(" "):
            self._close()
            self.summary.append(stripped)
            return True
        if line.startswith(_HINTS):
            self._close()
            self.tally.add(HINTS)
            return True
        current = self.current
        if current is None:
            return False
        if not stripped:
            self._close()
            return True
        current.lines += 1
        if stripped.startswith("--> ") or stripped.startswith("::: "):
            if not current.location and stripped.startswith("--> "):
                current.location = stripped[4:]
            current.dropped += 1
            return True
        if stripped.startswith("= "):
            current.dropped += 1
            note = stripped[2:]
            if current.lint is None and note.startswith("note:"):
                current.lint = _lint(note)
            elif note.startswith("help: ") and current.severity == "warning" and not \
                    note.startswith("help: for further information visit"):
                current.add_help(note)
            return True
        if line.startswith(("help: ", "note: ")):
            if line.startswith("help: "):
                current.add_help(line, plain=True)
            else:
                current.dropped += 1
            return True
        if "|" in line and line.split("|", 1)[0].strip().isdigit() or stripped.startswith("|") \
                or stripped == "...":
            current.dropped += 1
            if current.label is None:
                current.label = _label(line)
            if current.severity == "warning":
                # an excerpt's own suggestion: `^^^^ help: prefix it with an underscore: `_x``
                at = line.find("help: ", line.find("|") + 1)
                if at > 0:
                    current.add_help(line[at:])
            return True
        if not current.location:
            current.body.append(stripped)
            return True
        current.dropped += 1
        return True  # anything else inside a diagnostic is part of its excerpt

    def _close(self) -> None:
        current, self.current = self.current, None
        if current is None:
            return
        key = current.key()
        if key in self.seen:
            self.tally.add(REPEATED, current.lines)
            return
        self.seen.add(key)
        if current.severity == "error":
            self.ready.extend(current.render())
            self.tally.add(DETAIL, current.dropped)
        else:
            self.warnings.append(current)

    def markers(self) -> list[str]:
        """The progress marker, then one marker per kind of the tally (both emptied)."""
        lines = [omitted(sum(self.progress.values()), "/".join(self.progress) + " lines")
                 ] if self.progress else []
        self.progress = {}
        return lines + self.tally.markers()

    def drain(self) -> list[str]:
        """Errors completed so far (shown as they happen)."""
        ready, self.ready = self.ready, []
        return ready

    def finish(self, markers: bool = True) -> list[str]:
        """Remaining errors, then the warnings, then (`markers`) one marker per kind of line
        dropped, then cargo's summary lines."""
        self._close()
        lines = self.drain()
        for warning in self.warnings:
            lines.extend(warning.render())
            self.tally.add(DETAIL, warning.dropped)
        if markers:
            lines.extend(self.markers())
        lines.extend(self.summary)
        self.warnings, self.summary = [], []
        return lines


def machine_format(argv: list[str]) -> bool:
    """True when the user asked cargo for JSON messages or a listing: pass it through."""
    for i, arg in enumerate(argv):
        if arg.startswith("--message-format=json") or (
                arg == "--message-format" and i + 1 < len(argv) and argv[i + 1].startswith("json")):
            return True
        if arg in ("--help", "-h", "-V", "--version", "--list"):
            return True
        if arg == "--format" and i + 1 < len(argv) and argv[i + 1] in ("json", "junit", "terse"):
            return True
    return False


class CargoMessages(Filter):
    """Base of cargo-build and cargo-install: every line, ANSI colours removed, goes through
    `RustDiagnostics` (errors shown as they end, warnings and cargo's summary at the end); a
    line that is none of theirs is shown as `other(line)` returns it (blank lines dropped).
    `edit(line)` sees each line first and may change it or drop it (None). JSON messages and
    listings pass through unchanged (`machine_format`)."""

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = machine_format(argv)
        self.diagnostics = RustDiagnostics()

    def edit(self, line: str) -> str | None:
        return line

    def other(self, line: str) -> str:
        return line

    def feed(self, line: str):
        line = strip_ansi(line).rstrip()
        if self.passthrough:
            yield line
            return
        line = self.edit(line)
        if line is None:
            return
        if not self.diagnostics.feed(line) and line.strip():
            yield self.other(line)
        yield from self.diagnostics.drain()

    def finish(self, exit_code: int):
        yield from self.diagnostics.finish()
