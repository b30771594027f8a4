"""cargo build / check / clippy (and rustc): errors first, then warnings, then cargo's summary.

Every `error[E…]` keeps its code, message and `path:line:col` on one line, followed by its
primary label and `help:` lines; every warning becomes one line with its lint name; cargo's
`warning: … generated N warnings`, `error: could not compile …` and `Finished …` lines stay
verbatim. Compile progress (`Compiling foo v0.1.0 (…)`), source excerpts, `^^^` markers,
`= note:` / `= help:` lines and duplicate diagnostics go, counted in a marker per kind before
cargo's summary (`... (19 Compiling lines omitted)`, `... (30 excerpt and note lines
omitted)`; see `_rustc.py`).
Passes everything through for `--message-format=json…` and for listings (`--help`, `-V`).
Injects nothing. Tested with cargo / rustc / clippy 1.95.0 (build, check, clippy, clippy
`-- -D warnings`, --release, --color=always); the human format has been stable since 1.40.
"""
from cc_filter.filters.rust._rustc import CargoMessages


class CargoBuild(CargoMessages):
    name = "cargo-build"
    match_command = r"^(cargo (build|b|check|c|clippy|rustc|fix)|rustc|clippy-driver)(\s|$)"
    description = "cargo build/check/clippy: errors with code and location, warnings one line each"
