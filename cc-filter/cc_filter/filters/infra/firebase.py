"""firebase deploy / hosting:channel:deploy / emulators:exec: every error and warning, the
deployed URLs and the final state; progress counted.

Keeps: `=== Deploying to 'x'...`, every `Error: …` line and everything after it (the error's
detail: a parse error's position, a list of functions), every warning (`⚠  …`, `!  …` on
Windows), `✔  …` lines that carry a result (`functions[x(us-central1)] Successful create
operation.`, `hosting[x]: release complete`, `released rules`, `Deploy complete!`, `Script
exited …`, a `Local server:` or `Channel URL` with its address), `Project Console:`, `Hosting
URL:`, `Function URL (…):`, `Running command:` / `i  Running script:` (what ran), and every line
of another shape (a predeploy script's or an emulated script's own output). Counts: the `i  …`
progress lines and the `✔  …` steps with no result (`required API … is enabled`, `file upload
complete`, `Finished running predeploy script.`) in one `... (N progress lines omitted)`, and
npm's `> script` banners of predeploy scripts. `--debug`, `--json` and `-h` pass untouched.
Windows prints `+` for `✔` and `!` for `⚠`: both are read. Nothing is injected.
Captured with firebase-tools 15.34.2 (no account: the auth error, a firebase.json parse error,
emulators:exec); the success layouts of deploys from output published by firebase-tools'
maintainers and users (tests/fixtures/infra/firebase/*.toml name them).
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted, strip_ansi

_RESULT_WORDS = ("Successful ", "release complete", "Deploy complete!", "released ", "deployed ",
                 "Script exited", "Local server:", "Channel URL", "All emulators ready",
                 "Deleted ", "deleted ", "Wrote ")
_KEEP_PREFIXES = ("=== ", "Project Console:", "Hosting URL:", "Function URL", "Running command:",
                  "i  Running script:", "Error:")


class Firebase(Filter):
    name = "firebase"
    match_command = r"^firebase (deploy|hosting:channel:deploy|emulators:exec)(\s|$)"
    description = "firebase deploy / emulators:exec: errors, warnings, URLs, final state"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.passthrough = any(a in ("--debug", "--json", "-h", "--help") for a in argv)
        self.progress = 0
        self.banners = 0
        self.in_error = False

    def _markers(self):
        out = []
        if self.progress:
            out.append(omitted(self.progress, "progress lines"))
            self.progress = 0
        if self.banners:
            out.append(omitted(self.banners, "npm script banner lines"))
            self.banners = 0
        return out

    def _drop_progress(self):
        out = self._markers() if self.banners else []  # each run of dropped lines in its place
        self.progress += 1
        return out

    def feed(self, line: str):
        if self.passthrough:
            return (line,)
        line = strip_ansi(line).rstrip()
        stripped = line.strip()
        if not stripped:
            return ()
        if self.in_error:
            return (line,)
        glyph, _, rest = stripped.partition("  ")
        if stripped.startswith(_KEEP_PREFIXES):
            if stripped.startswith("Error:"):
                self.in_error = True
            return self._markers() + [line]
        if glyph in ("⚠", "!"):
            return self._markers() + [line]
        if glyph in ("✔", "+"):
            if any(word in rest for word in _RESULT_WORDS):
                return self._markers() + [line]
            return self._drop_progress()
        if glyph == "i" and rest:
            return self._drop_progress()
        if stripped.startswith("> ") and not line.startswith(" "):
            out = self._markers() if self.progress else []
            self.banners += 1
            return out
        return self._markers() + [line]

    def finish(self, exit_code: int):
        return self._markers()
