"""ps: one row per process, column padding dropped, very long command lines cut.

Every process and every column value stays (PID, user, CPU, memory, state, command); the
alignment padding goes, and a command line longer than `COMMAND_LIMIT` characters is cut with
`…` (the full listing stays in the tee file). Error and usage text pass unchanged. Nothing is
injected. Tested with procps-ng 4.0.2 (`ps aux`, `ps -ef`).
"""
from cc_filter.kit.filter import Filter

COMMAND_LIMIT = 160


class Ps(Filter):
    name = "ps"
    match_command = r"^ps(\s|$)"
    description = "ps: compact rows, very long command lines cut"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.columns = 0  # fields before COMMAND/CMD in the header

    def feed(self, line: str):
        words = line.split()
        if not words:
            return ()
        if not self.columns and words[-1] in ("COMMAND", "CMD", "ARGS"):
            self.columns = len(words) - 1
            return (" ".join(words),)
        if self.columns and len(words) > self.columns and words[0] not in ("error:", "Usage:"):
            head = line.split(None, self.columns)
            command = head[-1] if len(head) > self.columns else ""
            if len(command) > COMMAND_LIMIT:
                command = command[:COMMAND_LIMIT] + "…"
                self.dropped = True
            return (" ".join(head[:self.columns] + [command]),)
        return (line,)
