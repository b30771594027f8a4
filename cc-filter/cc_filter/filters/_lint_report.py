"""Lint findings printed compactly, shared by the linter filters (not a filter itself).

`Findings` keeps every finding one by one, on its own line, with its whole path as the tool
printed it (relative to the working directory when it lies under it), so the agent can copy
`src/lib/cart.js:4:3` into its next command: `src/lib/cart.js:4:3 Unexpected var, use let or
const instead (no-var)`. What goes is the column padding and the per-file headers; a message
repeated at several places keeps its first wording and later places say `(no-var, as above)`
(`(no-var, as at src/a.js:4:3)` when another message of that rule came between).
Errors carry no label; other severities are named (`warning: …`, `info: …`). With
`render(headings=True)` a run of several severities lists each under its own heading
(`errors:` then `warnings:`), so errors are named as plainly as warnings.

Imports nothing heavy (no `re`): linters run through `cc-filter run` on every fix loop.
"""
from cc_filter.filters._paths import common_parent, relative


class Repeats:
    """What a repeated finding says instead of its message: `as above` when that is
    unambiguous (its rule was shown with only this message so far, or the line just above is
    the same finding), else `as at <place>`, where its message was shown. A key is
    `(severity, rule, message)`; keys with the same severity and rule are one rule's messages.
    Shared by `Findings` and the mypy filter (a key there may also be a message template)."""

    __slots__ = ("places", "wordings", "previous")

    def __init__(self):
        self.places: dict[tuple, str] = {}   # key → where its message was shown
        self.wordings: dict[tuple, int] = {}  # (severity, rule) → messages shown so far
        self.previous: tuple = ()            # the keys of the line shown last

    def __contains__(self, key: tuple) -> bool:
        return key in self.places

    def shown(self, place: str, *keys: tuple) -> None:
        """A message shown in full at `place` (its keys: the message, maybe its template)."""
        for key in keys:
            self.places.setdefault(key, place)
        group = keys[0][:2]
        self.wordings[group] = self.wordings.get(group, 0) + 1
        self.previous = keys

    def other(self) -> None:
        """A line that is no finding came between."""
        self.previous = ()

    def again(self, key: tuple) -> str:
        """`as above` or `as at <place>` for a repeat of `key` (shown before)."""
        above = self.wordings[key[:2]] == 1 or key in self.previous
        self.previous = (key,)
        return "as above" if above else f"as at {self.places[key]}"


class Findings:
    """Findings of one lint run, gathered as the tool prints them (file by file)."""

    __slots__ = ("groups", "paths", "counts", "default_severity")

    def __init__(self, default_severity: str = "error"):
        # (severity, rule, message) -> {path: [positions]}, both in first-seen order
        self.groups: dict[tuple, dict[str, list[str]]] = {}
        self.paths: dict[str, None] = {}
        self.counts: dict[str, int] = {}
        self.default_severity = default_severity

    def __len__(self) -> int:
        return sum(self.counts.values())

    def add(self, path: str, line, col, severity: str, message: str, rule: str | None) -> None:
        position = f"{line}:{col}" if col not in (None, "") else f"{line}"
        by_file = self.groups.setdefault((severity, rule or "", message), {})
        by_file.setdefault(path, []).append(position)
        self.paths[path] = None
        self.counts[severity] = self.counts.get(severity, 0) + 1

    def summary(self, noun: str = "problem") -> str:
        """`25 problems (20 errors, 5 warnings) in 5 files`."""
        total = len(self)
        parts = []
        order = {"error": 0, "warning": 1, "info": 2, "style": 3}
        for severity, count in sorted(self.counts.items(), key=lambda kv: order.get(kv[0], 9)):
            parts.append(f"{count} {severity}{'' if count == 1 or severity in ('info', 'style') else 's'}")
        files = len(self.paths)
        return (f"{total} {noun}{'' if total == 1 else 's'} ({', '.join(parts)}) "
                f"in {files} file{'' if files == 1 else 's'}")

    def render(self, headings: bool = False) -> list[str]:
        """One line per finding, in the order the tool printed them:
        `path:line:col message (rule)`; the same message and rule again (a repeated finding)
        → `path:line:col (rule, as above)`, or `(rule, as at path:line:col)` when the rule has
        been shown above with more than one message and the line just above is another one
        (then "above" would not say which)."""
        shown = {path: relative(path) for path in self.paths}
        order = {path: i for i, path in enumerate(self.paths)}
        rows = [(path, position, key) for key, by_file in self.groups.items()
                for path, positions in by_file.items() for position in positions]
        rows.sort(key=lambda r: (order[r[0]], _position_key(r[1])))
        grouped = headings and len(self.counts) > 1
        if grouped:  # `errors:` … then `warnings:` …: each finding under its severity
            rank = {"error": 0, "warning": 1, "info": 2, "style": 3}
            rows.sort(key=lambda r: rank.get(r[2][0], 9))  # stable: file order kept within
        repeats, out = Repeats(), []
        heading = None
        for path, position, key in rows:
            severity, rule, message = key
            if grouped and severity != heading:
                heading = severity
                out.append(f"{severity}s:" if severity not in ("info", "style") else f"{severity}:")
            label = "" if grouped or severity == self.default_severity else f"{severity}: "
            place = f"{shown[path]}:{position}"
            if rule and key in repeats:
                out.append(f"{place} {label}({rule}, {repeats.again(key)})")
                continue
            repeats.shown(place, key)
            out.append(f"{place} {label}{message} ({rule})" if rule else f"{place} {label}{message}")
        return out

    def render_grouped(self) -> list[str]:
        """The older, denser form (yamllint and shellcheck still use it; positions after the
        first of a group carry no path): one line per distinct finding: `path:line:col message (rule)`, or, when the same
        message comes at several places, `message (rule): a.js:1:1 3:3, b.js:1:1`. Paths under
        the working directory are relative to it; a directory all files share is named once
        (`in src/`), a single file once, as the first line."""
        shown = {path: relative(path) for path in self.paths}
        if len(shown) == 1:  # one file: named once, findings by position only
            out = list(shown.values())
            shown = {path: "" for path in shown}
            cut = 0
        else:
            parent = common_parent([p.rpartition("/")[0] + "/" for p in shown.values()])
            out = [f"in {parent}"] if parent else []
            cut = len(parent)
        for (severity, rule, message), by_file in self.groups.items():
            label = "" if severity == self.default_severity else f"{severity}: "
            text = f"{label}{message} ({rule})" if rule else f"{label}{message}"
            places = ", ".join(f"{shown[p][cut:]}:{' '.join(pos)}".lstrip(":")
                               for p, pos in by_file.items())
            if len(by_file) == 1 and len(next(iter(by_file.values()))) == 1:
                out.append(f"{places} {text}")
            else:
                out.append(f"{text}: {places}")
        return out


def _position_key(position: str) -> tuple:
    """`12:5` → (12, 5), for sorting a file's findings by place."""
    out = []
    for part in position.split(":"):
        out.append(int(part) if part.isdigit() else 0)
    return tuple(out)
