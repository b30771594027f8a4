"""ninja: the cmake filter's rules (c/cmake.py) — `FAILED:` targets, compiler diagnostics and
`ninja: build stopped` kept, `[3/14] Building …` progress and echoed commands counted."""
from cc_filter.filters.c.cmake import Cmake


class Ninja(Cmake):
    name = "ninja"
    match_command = r"^(ninja|samu)(\s|$)"
    description = "ninja: failed targets and diagnostics kept, progress counted"
