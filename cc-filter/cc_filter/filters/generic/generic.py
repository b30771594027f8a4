"""The fallback for a command with no filter of its own (issue 15; which commands get it:
cc_filter/fallback.py). Output of up to THRESHOLD lines is passed through untouched. A longer
one is cleaned (ANSI, control codes, redraws), its repeated and near-identical lines counted,
and cut to its head, every line naming an error, warning or failure with its neighbours, and
its tail (filters/_long_output.py); the runner keeps the raw output in the tee file.
"""
from cc_filter.filter import Filter
from cc_filter.filters._long_output import LongOutput, clean

THRESHOLD = 200


class Generic(Filter):
    name = "generic"
    # Never matched as a pattern: the catalogue gives this filter to a command that no other
    # filter matches, when cc_filter.fallback allows it.
    match_command = r"^"
    description = ("Fallback for commands without a filter: over 200 lines, keeps the head, "
                   "the error lines and the tail")

    def __init__(self, argv):
        super().__init__(argv)
        self.buffer: list[str] | None = []
        self.cut = LongOutput(head=40, tail=60, context=2)

    def feed(self, line):
        if self.buffer is not None:
            self.buffer.append(line)
            if len(self.buffer) <= THRESHOLD:
                return ()
            buffered, self.buffer = self.buffer, None
            self.dropped = True
            out = []
            for raw in buffered:
                out.extend(self.cut.push(clean(raw)))
            return out
        return self.cut.push(clean(line))

    def finish(self, exit_code):
        if self.buffer is not None:  # short: untouched
            buffered, self.buffer = self.buffer, None
            return buffered
        return self.cut.finish()
