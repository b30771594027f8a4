"""du: totals exact; a long listing shows its largest entries first.

Up to `LIMIT` entries, du's lines pass unchanged (the sizes are the answer). A longer listing
(`du -h .` over a tree with node_modules) keeps every total — the lines for the paths the user
named, `.` by default, and the `total` line of `-c` — and the `LIMIT` largest other entries,
largest first, then `+N smaller entries`; the raw listing stays in the tee file. Sizes are
compared in bytes whatever the unit (`-h` K/M/G, `-k` blocks). Error lines stay. Nothing is
injected. Tested with GNU du 9.1.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import cap

LIMIT = 20
_UNITS = {"": 1, "B": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40, "P": 1 << 50}


def size_of(text: str) -> float | None:
    """`1.2M` → bytes; `4096` → 4096 (a plain number, whatever unit the user chose)."""
    text = text.strip().replace(",", ".")
    unit = text[-1:] if text[-1:].isalpha() else ""
    number = text[:-1] if unit else text
    try:
        return float(number) * _UNITS[unit.upper()]
    except (ValueError, KeyError):
        return None


def _operands(argv: list[str]) -> set[str]:
    names = {w for w in argv[1:] if not w.startswith("-")}
    return {n.rstrip("/") or "/" for n in names} or {"."}


class Du(Filter):
    name = "du"
    match_command = r"^du(\s|$)"
    description = "du: totals kept, long listings cut to the largest entries"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.operands = _operands(argv)
        self.entries: list[tuple[float, str]] = []
        self.totals: list[str] = []
        self.other: list[str] = []
        self.order: list[str] = []

    def feed(self, line: str):
        size, tab, path = line.partition("\t")
        value = size_of(size) if tab else None
        if value is None:
            self.other.append(line)
            return ()
        self.order.append(line)
        if path.rstrip("/") in self.operands or path == "total":
            self.totals.append(line)
        else:
            self.entries.append((value, line))
        return ()

    def finish(self, exit_code: int):
        if len(self.order) <= LIMIT + len(self.totals):
            return self.order + self.other
        largest = [line for _, line in sorted(self.entries, key=lambda e: -e[0])]
        out = [f"largest {LIMIT} of {len(self.entries)} entries:"]
        out += cap(largest, LIMIT, "smaller entries")
        return out + self.totals + self.other
