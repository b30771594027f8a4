"""df: one row per filesystem, column padding dropped; pseudo filesystems out of a full listing.

Every number of every row stays. With no path operands (a full listing), rows of memory and
kernel pseudo filesystems (`tmpfs`, `devtmpfs`, `udev`, `shm`, `none`, `cgroup`, `proc`,
`sysfs`, `efivarfs`, `overlay` on `/run/…`) go, counted at the end (`... (3 tmpfs/pseudo
filesystem rows omitted)`: the runner keeps the full listing in the tee file); when the user
names paths, every row they asked for stays. Nothing is injected. Tested with GNU df 9.1.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted

_PSEUDO = frozenset({"tmpfs", "devtmpfs", "udev", "shm", "none", "cgroup", "cgroup2", "proc",
                     "sysfs", "efivarfs", "devpts", "mqueue", "securityfs", "pstore", "bpf",
                     "tracefs", "debugfs", "configfs", "fusectl", "ramfs", "run"})


class Df(Filter):
    name = "df"
    match_command = r"^df(\s|$)"
    description = "df: compact rows; pseudo filesystems dropped from full listings"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.full_listing = not any(not w.startswith("-") for w in argv[1:])
        self.pseudo = 0

    def feed(self, line: str):
        words = line.split()
        if not words:
            return ()
        if self.full_listing and words[0] in _PSEUDO:
            self.pseudo += 1
            return ()
        if words[:1] == ["Filesystem"] and words[-2:] == ["Mounted", "on"]:
            return (" ".join(words[:-2] + ["Mounted-on"]),)
        return (" ".join(words),)

    def finish(self, exit_code: int):
        if self.pseudo:
            return (omitted(self.pseudo, "tmpfs/pseudo filesystem rows"),)
        return ()
