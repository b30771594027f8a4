"""`Tally`: the lines a filter drops, counted per kind, for its `... (N <kind> omitted)` markers
(principle 2: every omission is visible). Kinds keep the order they were first counted in."""
from cc_filter.kit.lines import omitted


class Tally:
    __slots__ = ("counts",)

    def __init__(self):
        self.counts: dict[str, int] = {}

    def add(self, kind: str, n: int = 1) -> None:
        if n:
            self.counts[kind] = self.counts.get(kind, 0) + n

    def __getitem__(self, kind: str) -> int:
        return self.counts.get(kind, 0)

    def __bool__(self) -> bool:
        return bool(self.counts)

    def markers(self) -> list[str]:
        """One marker per kind, in order; the tally is emptied."""
        lines = [omitted(n, kind) for kind, n in self.counts.items()]
        self.counts = {}
        return lines
