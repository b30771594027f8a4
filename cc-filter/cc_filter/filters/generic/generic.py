"""The fallback for a command with no filter of its own (issue 15; which commands get it:
cc_filter/choose/fallback.py). Output of up to THRESHOLD lines is passed through untouched. A longer
one is cleaned (ANSI, control codes, redraws), its repeated and near-identical lines counted,
and cut to its head, every line naming an error, warning or failure with its neighbours, and
its tail (filters/_long_output.py); the runner keeps the raw output in the tee file. A long
unified diff is cut file by file instead (generic/_diff_cut.py): every file's header and a
fair share of its hunks, never whole files dropped from the middle.
"""
from cc_filter.kit.filter import Filter
from cc_filter.filters._long_output import LongOutput, clean
from cc_filter.filters.generic._diff_cut import DiffCut, looks_like_diff

THRESHOLD = 200


class Generic(Filter):
    name = "generic"
    # Never matched as a pattern: the catalogue gives this filter to a command that no other
    # filter matches, when cc_filter.choose.fallback allows it.
    match_command = r"^"
    description = ("Fallback for commands without a filter: over 200 lines, keeps the head, "
                   "the error lines and the tail")

    def __init__(self, argv):
        super().__init__(argv)
        self.buffer: list[str] | None = []
        self.cut = LongOutput(head=40, tail=60, context=2)
        self.diff: DiffCut | None = None

    def feed(self, line):
        if self.buffer is not None:
            self.buffer.append(line)
            if len(self.buffer) <= THRESHOLD:
                return ()
            buffered, self.buffer = self.buffer, None
            self.dropped = True
            if looks_like_diff(buffered):
                self.diff = DiffCut()
                for raw in buffered:
                    self.diff.push(clean(raw))
                return ()
            out = []
            for raw in buffered:
                out.extend(self.cut.push(clean(raw)))
            return out
        if self.diff is not None:
            self.diff.push(clean(line))
            return ()
        return self.cut.push(clean(line))

    def finish(self, exit_code):
        if self.buffer is not None:  # short: untouched
            buffered, self.buffer = self.buffer, None
            return buffered
        if self.diff is not None:
            return self.diff.finish()
        return self.cut.finish()
