"""cargo install: what was installed or replaced, and every warning and error.

Kept: `Installed package …` / `Replaced package …` (name, version, executables), `Ignored
package …` (already installed), cargo's `error: …` lines, and compile diagnostics in the
cargo-build shape (`src/main.rs:2:22: error[E0308]: mismatched types` plus its label — see
`_rustc.py`). Dropped: `Updating`/`Downloading`/`Compiling`/`Locking`/`Finished` progress, the
`Installing <path>` lines (the summary names the executable), source excerpts, the
artifact-reuse hint (and the `intermediate artifacts can be found at …` tail of the
`failed to compile` line); all counted, before the summary (`... (3 Installing/Locking/Compiling
lines omitted)`, `... (15 excerpt and note lines omitted)`, see `_rustc.py`). Passes
everything through for `--list` and JSON message formats.
Nothing is injected. Tested with cargo 1.95 (local `--path` installs; the registry is not
reachable here, and its progress lines are the same `Downloading`/`Downloaded` ones).
"""
from cc_filter.filters.rust._rustc import HINTS, CargoMessages

_HINTS = ("To reuse those artifacts with a future compilation",)


class CargoInstall(CargoMessages):
    name = "cargo-install"
    match_command = r"^cargo install(\s|$)"
    description = "cargo install: installed packages and errors; build progress dropped"

    def edit(self, line: str) -> str | None:
        if line.startswith(_HINTS):
            self.diagnostics.tally.add(HINTS)
            return None
        if line.startswith("error: failed to compile `") and ", intermediate artifacts" in line:
            self.diagnostics.tally.add(HINTS)  # the line, less its artifacts path
            return line.split(", intermediate artifacts", 1)[0]
        return line

    def other(self, line: str) -> str:
        return line.strip()  # `  Installed package …`: cargo's right-aligned status words
