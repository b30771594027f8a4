"""pip install / wheel / download: what was installed, built, replaced or already there, every
conflict and error.

Dropped: `Collecting …`, `Downloading …`/`Using cached …`, progress bars (pip ≥ 24 redraws them
with erase-line escapes even without a terminal; the text after the last erase is what the
line says), `Installing collected packages: …` (the `Successfully installed` line names the
same packages with their versions), the uninstall chatter (condensed into one
`replaced: urllib3 2.8.0, …` line), `Requirement already satisfied` for dependencies
(`… (from requests)`), wheel-building progress (every `…: started` / `…: finished with status 'done'` step; one that
finished with an error stays), the `To fix this you could try to:` advice
and its numbered list, `[notice]` lines, blank lines. The drops are counted at the end:
`... (N already-satisfied dependency lines omitted)`, `... (N download/progress/build lines
omitted)` (blank lines are not counted), so the runner tees the raw output and says so.
Kept: `Successfully installed …` (`pip wheel`: `Created wheel for x: filename=…` without its
size and hash, `Successfully built x`, `Saved ./wheels/x.whl`), a `(from versions: …)` list cut
to its oldest 3 and newest 6 around `… 211 more versions …`, `already satisfied: requests 2.32.3` for what was asked,
every `ERROR:`/`WARNING:`/`DEPRECATION:` line, the `The conflict is caused by:` block, the
resolver's `x 1.0 requires y<2, but you have y 3.0 which is incompatible.` lines, build
failures with their output, and any line this filter does not know.

Nothing is injected (`-q` would hide the answer). Tested with pip 23.2.1 (Python 3.11's
bundled pip: progress bars after `\\r`) and pip 26.3 (rich progress with erase-line escapes).
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted, strip_ansi

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
        "eta " in text and ("kB" in text or "MB" in text)) or text.endswith(
        (": started", ": finished with status 'done'"))  # a build step (its error stays)


_VERSIONS = "(from versions: "
_VERSIONS_HEAD = 3
_VERSIONS_TAIL = 6


def cut_versions(text: str) -> str:
    """`… (from versions: 0.2.0, 0.2.1, …220 versions…, 2.34.2)` keeps the oldest 3 and the
    newest 6 around a count: the agent needs the range and the latest, not every release."""
    at = text.find(_VERSIONS)
    end = text.rfind(")")
    if at < 0 or end < at:
        return text
    versions = text[at + len(_VERSIONS):end].split(", ")
    if len(versions) <= _VERSIONS_HEAD + _VERSIONS_TAIL + 2:
        return text
    cut = len(versions) - _VERSIONS_HEAD - _VERSIONS_TAIL
    shown = versions[:_VERSIONS_HEAD] + [f"… {cut} more versions …"] + versions[-_VERSIONS_TAIL:]
    return text[:at + len(_VERSIONS)] + ", ".join(shown) + text[end:]


class PipInstall(Filter):
    name = "pip-install"
    match_command = r"^pip3?(\.\d+)? (install|wheel|download)(\s|$)"
    description = "pip install/wheel/download: installed or built versions, conflicts and errors; progress dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        # pip wheel / download: what was built and saved is the answer
        self.builds = any(a in ("wheel", "download") for a in argv[1:3])
        self.replaced: list[str] = []
        self.progress = 0  # download/progress/build chatter dropped
        self.deps = 0      # `Requirement already satisfied: … (from …)` dropped

    def feed(self, line: str):
        text = _clean(line)
        stripped = text.strip()
        if not stripped:
            return ()
        if self.builds and stripped.startswith(("Successfully built ", "Created wheel for ")):
            # `Created wheel for x: filename=x-1.0-py3-none-any.whl size=… sha256=…`: the file
            return (stripped.split(" size=", 1)[0],)
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
        if _VERSIONS in stripped:
            return (cut_versions(text.rstrip()),)
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
