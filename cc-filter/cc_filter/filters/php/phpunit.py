"""PHPUnit: each failure or error with its test, message, the changed lines of its diff and its
`file:line`; the totals (`FAILURES! Tests: 8, Assertions: 8, Failures: 6.` / `OK (8 tests…)`).

The failure report is said once it is complete: a folder all locations share is named once
(`in /srv/app/tests/`, then `MoneyTest.php:24`), the test class once for a run of its failures
(`MoneyTest::`, then `1) testSplit: …`), and a failure with the message of the one
before it (a data provider's rows) in one line, its location only when it differs:
`4) MoneyTest::testFormatMany with data set #1 (5, '0.05 EUR'): -'0.05 EUR' +'0,05 EUR'`.
A short failure (a message, a few changed lines) is one line too. An array diff pairs its entries: `0..6 => 51 → 52` (keys 0 to 6 were 51
and are 52). Dropped: `There were 6
failures:` (the totals say it), the banner, the progress line, `Time: … Memory: …`, blank lines, the
diff's `--- Expected` / `+++ Actual` / `@@ @@` headers and unchanged context lines; counted
after the totals: `... (3 header/progress lines omitted)` (banner, progress, `Time:`,
`Runtime:`, `Configuration:`, `There were N failures:`), with what the failures drop when they
drop anything: `... (53 header, diff and repeated lines omitted)` (also the diff headers and
unchanged lines, the message and location a one-line failure shares with the one before it,
the entries a key range stands for beyond its first pair)."""
from cc_filter.kit.filter import Filter
from cc_filter.filters._paths import common_parent
from cc_filter.kit.lines import LazyPattern, omitted, strip_ansi

_HEADER = LazyPattern(r"^\d+\) \S")
_DROP = LazyPattern(r"^(There (was|were) \d+ (failures?|errors?|warnings?|risky tests?):$|"
                    r"PHPUnit \d[\d.]* by Sebastian Bergmann|Time: [\d:.]+, Memory: |"
                    r"Runtime: |Configuration: |[.FEWSIRD]+ +\d+ / \d+ \(\s*\d+%\)$)")
_DIFF_HEADER = ("--- Expected", "+++ Actual", "@@ @@")
_LOCATION = LazyPattern(r"^/?\S+\.php:\d+$")


class Phpunit(Filter):
    name = "phpunit"
    match_command = r"^(phpunit|vendor/bin/phpunit|\./vendor/bin/phpunit|bin/phpunit)(\s|$)"
    description = "PHPUnit: failures with message, changed lines and file:line; the totals"

    def __init__(self, argv):
        super().__init__(argv)
        self.block: list[str] | None = None
        self.failures: list[list[str]] = []
        self.noise = 0  # banner, progress, timing, `There were N failures:` lines dropped
        self.cut = 0  # diff headers and context, repeated messages/locations, folded entries

    def feed(self, line):
        line = strip_ansi(line).rstrip()
        if not line.strip():
            return
        if _DROP.match(line):
            self.noise += 1
            return
        if _HEADER.match(line):
            self._close()
            self.block = [line]
            return
        if line.startswith(("FAILURES!", "ERRORS!", "OK (", "Tests: ", "OK, but")):
            self._close()
            yield from self._report()
            if line in ("FAILURES!", "ERRORS!"):  # the `Tests: …, Failures: N.` line says it
                return
        if self.block is not None:
            if line in _DIFF_HEADER or (line.startswith(" ") and self._in_diff()):
                self.cut += 1
                return
            self.block.append(line)
            return
        yield line

    def _in_diff(self) -> bool:
        return any(x.startswith(("-", "+")) for x in self.block[1:]) or any(
            x == "Failed asserting that two arrays are identical." for x in self.block)

    def _close(self):
        block, self.block = self.block, None
        if block is not None:
            self.failures.append(block)

    def _report(self):
        failures, self.failures = self.failures, []
        locations = {}
        for block in failures:
            location = next((x for x in reversed(block[1:]) if _LOCATION.match(x)), "")
            locations[id(block)] = location
        parent = common_parent([loc.rpartition("/")[0] + "/" for loc in locations.values()
                                if "/" in loc]) if len(failures) > 1 else ""
        if parent:
            yield f"in {parent}"
        previous_message = previous_location = previous_class = None
        for block in failures:
            header, body = block[0], block[1:]
            number, _, test = header.partition(") ")
            test_class, sep, method = test.partition("::")
            if sep:  # the test class said once for a run of its failures
                if test_class != previous_class:
                    yield f"{test_class}::"
                    previous_class = test_class
                header = f"{number}) {method}"
            location = locations[id(block)]
            shown = location[len(parent):] if parent and location.startswith(parent) else location
            message = body[0] if body else ""
            raw_changes = [x for x in body[1:] if x != location]
            changes = _paired(raw_changes)
            if changes is not raw_changes:  # entries paired: a key range beyond its first pair
                self.cut += len(raw_changes) - 2 * len(changes)
            body = [message] + changes + ([location] if location else [])
            if message == previous_message and len(changes) <= 4:
                where = "" if location == previous_location else f" ({shown})"
                self.cut += bool(message) + (bool(location) and not where)  # as the one before
                yield f"{header}: {' '.join(changes)}{where}"
            elif len(changes) <= 4 and all(len(x) < 80 for x in changes):
                where = f" ({shown})" if location else ""
                yield f"{header}: {' '.join([message] + changes)}{where}"
            else:
                yield header
                yield from (shown if x == location else x for x in body)
            previous_message, previous_location = message, location

    def finish(self, exit_code):
        self._close()
        yield from self._report()
        if self.cut:  # one marker: the answer is a line per failure
            yield omitted(self.cut + self.noise, "header, diff and repeated lines")
        elif self.noise:
            yield omitted(self.noise, "header/progress lines")


_ENTRY = LazyPattern(r"^[-+]\s*(\S+) => (.*)$")


def _paired(changes: list[str]) -> list[str]:
    """An array diff's removed and added entries side by side, `K => expected → actual`, and a
    run of consecutive integer keys with the same change as one line, `0..6 => 51 → 52`; any
    other diff as it is."""
    removed = [_ENTRY.match(x) for x in changes if x.startswith("-")]
    added = [_ENTRY.match(x) for x in changes if x.startswith("+")]
    if (not removed or len(removed) != len(added) or len(removed) + len(added) != len(changes)
            or not all(removed) or not all(added)
            or [m.group(1) for m in removed] != [m.group(1) for m in added]):
        return changes
    rows = [(r.group(1), r.group(2), a.group(2)) for r, a in zip(removed, added)]
    out, i = [], 0
    while i < len(rows):
        key, old, new = rows[i]
        j = i
        while (j + 1 < len(rows) and rows[j + 1][1:] == (old, new) and rows[j][0].isdigit()
               and rows[j + 1][0].isdigit() and int(rows[j + 1][0]) == int(rows[j][0]) + 1):
            j += 1
        keys = key if j == i else f"{key}..{rows[j][0]}"
        out.append(f"{keys} => {old} → {new}")
        i = j + 1
    return out
