"""The lines that stand out of a long run of look-alike lines (a log, a search's matches).

When a read (`cat` of a big log) or a search (`grep -rn`) must cut, the agent's answer is in
its rare lines, not in the first ones: the one WARN among thousands of DEBUG lines, the `404`
among `200`s. `Standout` sees every line once, in bounded memory, and at the end names:

- **telling lines**: a warning, error or failure word (`WARN`, `ERROR`, `failed`, `panic`,
  `Traceback`, `timed out` …) or a non-success status (`HTTP/1.1" 503`, `status=404`), with
  `neighbours` lines before and after (a trace under its error) — only while such lines are
  a minority (a search for `error` in source code: every match would "tell", so none does);
- **rare lines**: lines unlike the others — a log is mostly repeats of a few shapes (a line's
  shape: its words without digits, ids and values), so a shape seen once stands out — only
  while there are few of them.

`looks_like_log` tells a log (timestamps, levels) from source code, which keeps the readers'
head-and-tail rule. Regexes are compiled on first use.
"""
from cc_filter.lines import LazyPattern

TELLING = LazyPattern(
    r"(?i)\b(?:warn(?:ing)?|error|errors|err|fatal|fail(?:s|ed|ure|ing)?|exception|panic(?:ked)?"
    r"|traceback|critical|crit|alert|emerg|denied|refused|timed out|timeout|abort(?:ed)?"
    r"|unavailable|unreachable)\b"
    r"|(?:HTTP/\d(?:\.\d)?\"?\s+|\b(?:status|code|status_code|http_status)[=: ]+\"?)[45]\d\d\b")
_LOG_LINE = LazyPattern(
    r"^\S{0,40}?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|^\S{0,40}?\d\d:\d\d:\d\d|\[\d\d?/\w{3}/\d{4}[: ]"
    r"|\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b|\blevel=\w")
_DIGITS = str.maketrans("123456789", "000000000")
#: shapes remembered (a new shape past this many is no longer counted: not rare)
MAX_SHAPES = 20_000
#: telling lines are only telling while they are at most this share of all lines
TELLING_SHARE = 0.1
#: rare lines are only rare when there are at most this many, among at least RARE_MIN_LINES
RARE_LIMIT = 20
RARE_MIN_LINES = 100


def telling(text: str) -> bool:
    return TELLING.search(text) is not None


def shape(text: str) -> str:
    """A line's shape: its first words without digits, ids and values (`trace=ab12` → `trace=`)."""
    words = []
    for word in text.translate(_DIGITS).split()[:16]:
        if "=" in word:
            word = word.split("=", 1)[0] + "="
        if "0" in word or len(word) > 24:
            continue
        words.append(word)
        if len(words) == 8:
            break
    return " ".join(words)


def looks_like_log(lines) -> bool:
    """Do most of these (the first) non-blank lines start like log lines (a timestamp, a level)?"""
    sample = [line for line in lines if line.strip()][:50]
    if len(sample) < 5:
        return False
    hits = sum(1 for line in sample if _LOG_LINE.search(line[:120]))
    return hits >= 0.6 * len(sample)


class Standout:
    """Give it every line (`add(index, text, payload)`), then ask `picks()`. `limit` bounds the
    telling lines kept (with their neighbours); `payload` is what `picks` gives back (the text
    as shown, a match's file …), default the text."""

    def __init__(self, limit: int = 40, neighbours: int = 1):
        self.limit = limit
        self.neighbours = neighbours
        self.count = 0
        self.telling_count = 0
        self.telling: dict = {}  # index -> payload (telling lines and their neighbours)
        self.shapes: dict = {}  # shape -> [count, index, payload]
        self._recent: list = []  # the last `neighbours` (index, payload)
        self._after = 0  # lines still to keep after the last telling one

    def add(self, index: int, text: str, payload=None) -> None:
        payload = text if payload is None else payload
        self.count += 1
        if self._after:
            self._after -= 1
            self.telling.setdefault(index, payload)
        if TELLING.search(text) is not None:
            self.telling_count += 1
            if self.telling_count <= self.limit:
                for i, p in self._recent:
                    self.telling.setdefault(i, p)
                self.telling[index] = payload
                self._after = self.neighbours
        if self.neighbours:
            self._recent.append((index, payload))
            if len(self._recent) > self.neighbours:
                del self._recent[0]
        key = shape(text)
        found = self.shapes.get(key)
        if found is not None:
            found[0] += 1
        elif len(self.shapes) < MAX_SHAPES:
            self.shapes[key] = [1, index, payload]

    def telling_counts(self) -> bool:
        return 0 < self.telling_count <= max(self.limit, TELLING_SHARE * self.count)

    def rare(self) -> dict:
        """index -> payload of the lines whose shape no other line has (when few are)."""
        if self.count < RARE_MIN_LINES:
            return {}
        once = {i: p for n, i, p in self.shapes.values() if n == 1}
        return once if len(once) <= RARE_LIMIT else {}

    def picks(self) -> list:
        """[(index, payload)] in index order: the telling lines (and neighbours), then the rare."""
        chosen = dict(self.telling) if self.telling_counts() else {}
        for i, p in self.rare().items():
            chosen.setdefault(i, p)
        return sorted(chosen.items(), key=lambda item: item[0])
