"""moon run / moon check: what each task printed, every failure block, the `Tasks:` summary.

moon prints two status lines per task, `▮▮▮▮ web:build (a181ebb4)` when it starts and
`▮▮▮▮ web:build (105ms, a181ebb4)` (or `(cached, …)`) when it ends; a failed task is named
again by its `× Task ui:build failed to run.` block. The status lines and the
` Time: 267ms ❯❯❯❯ to the moon` line are dropped and counted in one marker at the end
(`... (N task status and timing lines omitted)`), with the empty `│` lines of the failure
boxes. When the run failed, the output of the tasks that passed is dropped too and counted
(`... (N output lines of passing tasks omitted)`), as test runners drop passing tests: the
answer is the failing task. Kept: every `project:task | …` output line of a successful run,
and of a failed task, as moon printed it (the prefix says which task printed it),
`[ WARN …]` / `[ERROR …]` log lines, the error code (`task_runner::run_failed`) and the lines
of its box, the `Tasks: 3 completed (3 cached)` summary, and any line this filter does not
know.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

# `▮▮▮▮ target (hash)`, `(105ms, hash)`, `(cached, hash)`, `(cached, 1ms, hash)`, `(skipped)`
_STATUS = LazyPattern(r"^[▮▪]{4} \S+ \((?:[\w.]+, )*[0-9a-f]{6,}\)$|^[▮▪]{4} \S+ \(\w+\)$")
_TIME = LazyPattern(r"^\s*Time: \S+( ❯+ to the moon)?$")
_EMPTY_BOX = LazyPattern(r"^\s*│\s*$")
_OUTPUT = LazyPattern(r"^\s*(\S+:\S+) \| ")
_FAILED = LazyPattern(r"^\s*× Task (\S+) failed")


class Moon(Filter):
    name = "moon"
    match_command = r"^moon (run|check)(\s|$)"
    description = "moon run / check: task output, failures and the summary; status lines dropped"

    def __init__(self, argv):
        super().__init__(argv)
        self.status = 0
        self.lines: list[tuple[str | None, str]] = []  # (the task that printed it, the line)
        self.failed: set[str] = set()

    def feed(self, line):
        text = strip_ansi(line).rstrip()
        if not text.strip():
            return ()
        if _STATUS.match(text) or _TIME.match(text) or _EMPTY_BOX.match(text):
            self.status += 1
            return ()
        failed = _FAILED.match(text)
        if failed:
            self.failed.add(failed.group(1))
        task = _OUTPUT.match(text)
        self.lines.append((task.group(1) if task else None, text))
        return ()

    def finish(self, exit_code):
        passing = 0
        for task, text in self.lines:
            if exit_code != 0 and task is not None and task not in self.failed:
                passing += 1
            else:
                yield text
        if passing:
            yield omitted(passing, "output lines of passing tasks")
        if self.status:
            yield omitted(self.status, "task status and timing lines")
