"""pip install: what was installed, replaced or already there, every conflict and error.

Dropped: `Collecting …`, `Downloading …`/`Using cached …`, progress bars (pip ≥ 24 redraws them
with erase-line escapes even without a terminal; the text after the last erase is what the
line says), `Installing collected packages: …` (the `Successfully installed` line names the
same packages with their versions), the uninstall chatter (condensed into one
`replaced: urllib3 2.8.0, …` line), `Requirement already satisfied` for dependencies
(`… (from requests)`), wheel-building progress, the `To fix this you could try to:` advice
and its numbered list, `[notice]` lines, blank lines. The drops are counted at the end:
`... (N already-satisfied dependency lines omitted)`, `... (N download/progress/build lines
omitted)` (blank lines are not counted), so the runner tees the raw output and says so.
Kept: `Successfully installed …`, `already satisfied: requests 2.32.3` for what was asked,
every `ERROR:`/`WARNING:`/`DEPRECATION:` line, the `The conflict is caused by:` block, the
resolver's `x 1.0 requires y<2, but you have y 3.0 which is incompatible.` lines, build
failures with their output, and any line this filter does not know.

Nothing is injected (`-q` would hide the answer). Tested with pip 23.2.1 (Python 3.11's
bundled pip: progress bars after `\\r`) and pip 26.3 (rich progress with erase-line escapes).
"""
from cc_filter.filter import Filter
from cc_filter.lines import omitted, strip_ansi

_ERASE_LINE = "\x1b[2K"
_NOISE = (
    "Collecting ", "Downloading ", "Using cached ", "Installing collected packages:",
    "Attempting uninstall:", "Uninstalling ", "Successfully uninstalled ", "Preparing metadata",
    "Getting requirements to build", "Installing build dependencies", "Building wheels for",
    "Building wheel for ", "Created wheel for ", "Stored in directory:", "Successfully built ",
    "Obtaining ", "Processing ", "Checking if build backend supports", "Looking in indexes:",
    "Looking in links:", "[notice] ", "Running setup.py develop", "Downloading/unpacking",
    "Installing backend dependencies",
)
_ADVICE = ("To fix this you could try to:", "1. loosen the range", "2. remove package versions")


def _clean(line: str) -> str:
    if _ERASE_LINE in line:
        parts = [p for p in line.split(_ERASE_LINE) if strip_ansi(p).strip()]
        line = parts[-1] if parts else ""
    return strip_ansi(line)


def _is_progress(text: str) -> bool:
    return "━" in text or text.startswith(("|", "[?25")) or (
        "eta " in text and ("kB" in text or "MB" in text))


class PipInstall(Filter):
    name = "pip-install"
    match_command = r"^pip3?(\.\d+)? install(\s|$)"
    description = "pip install: installed versions, conflicts and errors; progress dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.replaced: list[str] = []
        self.progress = 0  # download/progress/build chatter dropped
        self.deps = 0      # `Requirement already satisfied: … (from …)` dropped

    def feed(self, line: str):
        text = _clean(line)
        stripped = text.strip()
        if not stripped:
            return ()
        if _is_progress(stripped) or stripped.startswith(_NOISE) \
                or stripped.startswith(_ADVICE):
            self.progress += 1
            return ()
        if stripped.startswith("Found existing installation: "):
            self.replaced.append(stripped[len("Found existing installation: "):])
            return ()
        if stripped.startswith("Requirement already satisfied: "):
            rest = stripped[len("Requirement already satisfied: "):]
            if " (from " in rest:
                self.deps += 1
                return ()
            name, _, tail = rest.partition(" in ")
            version = tail.rpartition(" (")[2].rstrip(")") if tail.endswith(")") else ""
            return (f"already satisfied: {name} {version}".rstrip(),)
        if stripped.startswith("Successfully installed ") and self.replaced:
            replaced, self.replaced = self.replaced, []
            return (f"replaced: {', '.join(replaced)}", stripped)
        return (text.rstrip(),)

    def finish(self, exit_code: int):
        out = [f"replaced: {', '.join(self.replaced)}"] if self.replaced else []
        if self.deps:
            out.append(omitted(self.deps, "already-satisfied dependency lines"))
        if self.progress:
            out.append(omitted(self.progress, "download/progress/build lines"))
        return out
