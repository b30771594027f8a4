"""docker build/pull/push/ps/images: results and errors; layer and step progress dropped.

Tested with the Docker 28.2 client (its errors without an engine are captured; build, pull, ps
and images fixtures follow the documented output layouts). Kept: every build step header
(`#7 [3/5] RUN pip install …`), the output of steps that print something, every ERROR and
`failed to solve` line with the Dockerfile line that failed (`4 | >>> RUN …`), image digests
and tags, `Status:` lines, table rows unchanged (a `docker ps` row may have empty cells: its
padding is what places them). Image digests are cut to 12 hex digits (`@sha256:2b0079146a74…`),
the per-line timestamps of step output go (`#8 1.021 ERROR: …` → `#8 ERROR: …`).

The closing `ERROR: failed to solve: process "/bin/sh -c <command>" did not complete
successfully: exit code: 1` names the step instead when `<command>` is that of a `RUN` step
shown above (`ERROR: failed to solve: #8 [4/5] exit code: 1`): the command is on the step's
header and on the Dockerfile line that failed, three times was enough.

Dropped, and counted at the end, one marker per kind:
- `build progress lines`: BuildKit's DONE/CACHED/transferring/resolve/exporting/writing
  lines (its `#10 naming to <image:tag> done` stays: it says what was built), its `[internal] load …` and `[auth]` steps, `#0 building with …`;
- `layer progress lines`: a pull's or push's per-layer lines (`a258b2a6b59a: Pulling fs layer`,
  `Waiting`, `Download complete`, `Pull complete` …) and a build's `#N sha256:… 1MB / 3MB`;
- `error recap lines`: the failed step's `#N ERROR: process … did not complete successfully`
  line (the closing `failed to solve` line says it), the `------` block that repeats the
  failed step's output (each line is already shown once under its `#N` step) and the
  Dockerfile lines around the one that failed (`3 |     COPY …`).
Lines whose digest was cut are counted too (`... (1 image digest truncated)`). Blank lines go
uncounted. Nothing is injected.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi, truncated

_BUILD = "build progress lines"
_LAYER = "layer progress lines"
_RECAP = "error recap lines"
_CONTEXT = _RECAP  # the Dockerfile lines around the failed one

_DIGEST = LazyPattern(r"@sha256:([0-9a-f]{12})[0-9a-f]{52}")
_STEP_TIME = LazyPattern(r"^(#\d+) \d+\.\d+ ")
_RUN_STEP = LazyPattern(r"(#\d+ \[[^]]+\]) RUN (.+)$")
_FAILED = LazyPattern(r'ERROR: failed to solve: process "/bin/sh -c (.+)" did not complete '
                      r"successfully: (exit code: \d+)$")
#: (pattern, kind) of the lines dropped, tried in order on the line after the two rewrites
_DROP = [(LazyPattern(p), kind) for p, kind in (
    (r"#\d+ (?:DONE|CACHED) [0-9.]+s$", _BUILD),
    (r"#\d+ CACHED$", _BUILD),
    (r"#\d+ sha256:[0-9a-f]+ [0-9.]+[kMG]?B / [0-9.]+[kMG]?B", _LAYER),
    (r"#\d+ (?:transferring|resolve|extracting|exporting layers|exporting manifest"
     r"|exporting config|exporting attestation|writing image|unpacking to) ", _BUILD),
    (r"#\d+ load (?:build definition|metadata|\.dockerignore)", _BUILD),
    (r"#\d+ \[internal\] load ", _BUILD),
    (r"#\d+ \[auth\] ", _BUILD),
    (r"#0 building with ", _BUILD),
    (r"#\d+ exporting layers$", _BUILD),
    (r"#\d+ ERROR: process \".*\" did not complete successfully: exit code: \d+$", _RECAP),
    (r"-{6,}$", _RECAP),
    (r" > \[[^]]+\] .*:$", _RECAP),
    (r"\d+\.\d+ ", _RECAP),
    (r" +\d+ \| {4}", _CONTEXT),
    (r" +\d+ \|$", _CONTEXT),
    (r"[0-9a-f]{12}: (?:Pulling fs layer|Waiting|Downloading|Verifying Checksum|Download complete"
     r"|Extracting|Pull complete|Already exists|Preparing|Pushing|Pushed|Layer already exists"
     r"|Mounted from)", _LAYER),
)]


class Docker(Filter):
    name = "docker"
    match_command = (r"^docker (build|buildx build|pull|push|ps|images|image (ls|pull|push|build)"
                     r"|container ls|compose (build|pull|push|ps|up))(\s|$)")
    description = ("docker build/pull/push/ps/images: results and errors; layer and step "
                   "progress dropped")

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.counts: dict[str, int] = {}  # kind → dropped lines, in first-seen order
        self.digests = 0
        self.run_steps: dict[str, str] = {}  # RUN command → its step (`#8 [4/5]`)

    def feed(self, line: str):
        line = strip_ansi(line)
        if not line.strip():
            return ()
        if "@sha256:" in line:
            line, cut = _DIGEST.compiled.subn(r"@sha256:\1…", line)
        else:
            cut = 0
        if line.startswith("#"):
            line = _STEP_TIME.sub(r"\1 ", line, 1)
        for pattern, kind in _DROP:
            if pattern.match(line):
                self.counts[kind] = self.counts.get(kind, 0) + 1
                return ()
        if cut:
            self.digests += 1
        if line.startswith("#"):
            step = _RUN_STEP.match(line)
            if step:
                self.run_steps.setdefault(step.group(2), step.group(1))
        elif line.startswith("ERROR: failed to solve: process"):
            failed = _FAILED.match(line)
            if failed and failed.group(1) in self.run_steps:
                return (f"ERROR: failed to solve: {self.run_steps[failed.group(1)]} "
                        f"{failed.group(2)}",)
        return (line,)

    def finish(self, exit_code: int):
        out = [omitted(n, kind) for kind, n in self.counts.items()]
        if self.digests:
            out.append(truncated(self.digests, "image digests"))
        return out
