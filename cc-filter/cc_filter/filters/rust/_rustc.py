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
Dropped: `Compiling` / `Checking` / `Fresh` / `Blocking` … progress, source excerpts and
`^^^` markers, `= note:` / `= help:` lines, "Some errors have detailed explanations" and "For
more information about this error" hints, duplicate diagnostics (lib and lib-test builds
report the same warning twice).
`machine_format(argv)` tells when the user asked for JSON messages or a listing (passed
through), and `CargoMessages` is the base of the filters whose whole output is diagnostics plus
cargo's own lines (cargo-build, cargo-install).
Imports nothing heavy; `re` is never needed.
"""
from cc_filter.filter import Filter
from cc_filter.lines import strip_ansi

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


class _Diagnostic:
    __slots__ = ("severity", "code", "message", "location", "label", "helps", "lint", "body")

    def __init__(self, severity: str, code: str, message: str):
        self.severity = severity
        self.code = code
        self.message = message
        self.location = ""
        self.label: str | None = None
        self.helps: list[str] = []
        self.lint: str | None = None
        self.body: list[str] = []  # plain lines of a diagnostic without a location (linker)

    def add_help(self, text: str) -> None:
        text = text.strip()
        if text not in self.helps and len(self.helps) < _HELP_LIMIT:
            self.helps.append(text)

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
            return [head] + [f"  {h}" for h in self.helps[:_HELP_LIMIT]]
        lines = [head]
        # One line of elaboration: the primary label (`expected `i64`, found `Option<i64>``)
        # when it adds to the message, else rustc's first `help:` suggestion.
        if self.label and self.label not in self.message and not self.label.startswith(
                _RESTATING_LABELS):
            lines.append(f"  {self.label}")
        elif self.helps:
            lines.append(f"  {self.helps[0]}")
        lines.extend(f"  {b[:_LINE_LIMIT]}" for b in self.body[:_BODY_LIMIT])
        return lines


class RustDiagnostics:
    """Streaming reader of cargo / rustc human diagnostics (see the module docstring)."""

    def __init__(self):
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
                self.summary.append(line[:at] if at > 0 and line.endswith(")") else line)
                self.in_summary_list = line.endswith("failed:")
                return True
            self.current = _Diagnostic(severity, code, message)
            return True
        if stripped.startswith(_PROGRESS) and line.startswith(" ") and not stripped.startswith(
                "Finished"):
            return True
        if stripped.startswith("Finished ") and line.startswith(" "):
            self._close()
            self.summary.append(stripped)
            return True
        if line.startswith(_HINTS):
            self._close()
            return True
        current = self.current
        if current is None:
            return False
        if not stripped:
            self._close()
            return True
        if stripped.startswith("--> ") or stripped.startswith("::: "):
            if not current.location and stripped.startswith("--> "):
                current.location = stripped[4:]
            return True
        if stripped.startswith("= "):
            note = stripped[2:]
            if current.lint is None and note.startswith("note:"):
                current.lint = _lint(note)
            elif note.startswith("help: ") and current.severity == "warning" and not \
                    note.startswith("help: for further information visit"):
                current.add_help(note)
            return True
        if line.startswith(("help: ", "note: ")):
            if line.startswith("help: "):
                current.add_help(line)
            return True
        if "|" in line and line.split("|", 1)[0].strip().isdigit() or stripped.startswith("|") \
                or stripped == "...":
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
        return True  # anything else inside a diagnostic is part of its excerpt

    def _close(self) -> None:
        current, self.current = self.current, None
        if current is None:
            return
        key = current.key()
        if key in self.seen:
            return
        self.seen.add(key)
        if current.severity == "error":
            self.ready.extend(current.render())
        else:
            self.warnings.append(current)

    def drain(self) -> list[str]:
        """Errors completed so far (shown as they happen)."""
        ready, self.ready = self.ready, []
        return ready

    def finish(self) -> list[str]:
        """Remaining errors, then the warnings, then cargo's summary lines."""
        self._close()
        lines = self.drain()
        for warning in self.warnings:
            lines.extend(warning.render())
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
