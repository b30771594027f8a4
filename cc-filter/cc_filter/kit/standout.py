"""The lines that stand out of a long run of look-alike lines (a log, a search's matches).

When a read (`cat` of a big log) or a search (`grep -rn`) must cut, the agent's answer is in
its rare lines, not in the first ones: the one WARN among thousands of DEBUG lines, the `404`
among `200`s. `Standout` sees every line once, in bounded memory, and at the end names:

- **telling lines**: a warning, error or failure word (`WARN`, `ERROR`, `failed`, `panic`,
  `Traceback`, `timed out` …) or a non-success status (`HTTP/1.1" 503`, `status=404`), with
  `neighbours` lines before and after (a trace under its error) — only while such lines are
  a minority (a search for `error` in source code: every match would "tell", so none does);
- **rare lines**: lines unlike the others — a log is mostly repeats of a few shapes (a line's
  shape: the line without digits and hexadecimal letters, so ids, times and sizes vanish), so
  a shape seen once stands out — only while there are few of them.

Only the first `SCAN_CHARS` characters handed to it (a search's picker: fewer) are looked
through: the scan costs 10–25 ns a character in Python (a log whose every line says
`status=200` or `WARN` is the worst case), so a whole 100 MB log would take two seconds,
twenty times the copy it sits on.
Lines past the window are counted, not judged; `unscanned_from` names the first of them, so
the reader's marker can say that part was not looked through.

`looks_like_log` tells a log (timestamps, levels) from source code, which keeps the readers'
head-and-tail rule. Regexes are compiled on first use.
"""
from cc_filter.kit.lines import LazyPattern

_WORDS = (r"(?:warn(?:ing)?|error|errors|err|fatal|fail(?:s|ed|ure|ing)?|exception|panic(?:ked)?"
          r"|traceback|critical|crit|alert|emerg|denied|refused|timed out|timeout|abort(?:ed)?"
          r"|unavailable|unreachable)\b")
_HTTP = r"HTTP/\d(?:\.\d)?\"?\s+[45]\d\d\b"
_STATUS = r"(?:status|code|status_code|http_status)[=: ]+\"?[45]\d\d\b"
TELLING = LazyPattern(
    r"(?i)\b" + _WORDS + r"|(?:HTTP/\d(?:\.\d)?\"?\s+|\b(?:status|code|status_code|http_status)"
    r"[=: ]+\"?)[45]\d\d\b")
#: TELLING matched at a given place (`match(line, pos)`): where `_candidates` found one of its
#: words — the same answer as a search of the whole line, without trying every position
_TELLING_AT = LazyPattern(r"(?i)(?<!\w)" + _WORDS + "|" + _HTTP + r"|(?<!\w)" + _STATUS)
_LOG_LINE = LazyPattern(
    r"^\S{0,40}?\d{4}-\d\d-\d\d[ T]\d\d:\d\d|^\S{0,40}?\d\d:\d\d:\d\d|\[\d\d?/\w{3}/\d{4}[: ]"
    r"|\b(?:TRACE|DEBUG|INFO|NOTICE|WARN|WARNING|ERROR|FATAL|CRITICAL)\b|\blevel=\w")
#: shapes remembered (a new shape past this many is no longer counted: not rare)
MAX_SHAPES = 20_000
#: telling lines are only telling while they are at most this share of all lines
TELLING_SHARE = 0.1
#: rare lines are only rare when there are at most this many, among at least RARE_MIN_LINES
RARE_LIMIT = 20
RARE_MIN_LINES = 100
#: characters looked through for telling and rare lines (8 MiB: ~80,000 lines of a log)
SCAN_CHARS = 8 << 20
#: lines whose shapes `add_block` counts (past them rarity is off: shapes cost ~1 µs a line)
SHAPE_SCAN = 200_000
#: words one of which a telling line holds (lowercase): `add_block` looks for these with
#: str.find and runs TELLING only on the lines they are in
_TELLING_WORDS = ("warn", "err", "fatal", "fail", "exception", "panic", "traceback", "crit",
                  "alert", "emerg", "denied", "refused", "timed out", "timeout", "abort",
                  "unavailable", "unreachable", "http/", "status", "code")


def telling(text: str) -> bool:
    return TELLING.search(text) is not None


#: a shape drops digits and the letters of hexadecimal numbers: what is left of `trace=4be1c6
#: took=12ms` is `trace= too=ms` on every such line (words lose their a-f letters alike)
_SHAPE_TABLE = str.maketrans("", "", "0123456789abcdefABCDEF")
#: characters of a shape compared
SHAPE_CHARS = 100


def shapes_of(text: str) -> str:
    """`text` (one line or many) with each line made its shape: without digits and the letters
    of hexadecimal numbers, so ids, times, sizes and counts vanish. One `str.translate`."""
    return text.translate(_SHAPE_TABLE)


def shape(text: str) -> str:
    """A line's shape (`shapes_of`), blanks collapsed, at most SHAPE_CHARS characters."""
    return " ".join(shapes_of(text).split())[:SHAPE_CHARS]


def looks_like_log(lines) -> bool:
    """Do most of these (the first) non-blank lines start like log lines (a timestamp, a level)?"""
    sample = [line for line in lines if line.strip()][:50]
    if len(sample) < 5:
        return False
    hits = sum(1 for line in sample if _LOG_LINE.search(line[:120]))
    return hits >= 0.6 * len(sample)


#: the status words, found only where a non-success code follows them (in the lowered text;
#: `_telling_at` still checks what comes before): a log says `status=200` on every line, and
#: a regex that begins with its literal word skips those in C, where a loop over every
#: `status` would judge each line in Python
_STATUS_WORDS = {
    "http/": LazyPattern(r"http/\d(?:\.\d)?\"?\s+[45]\d\d\b"),
    "status": LazyPattern(r"status(?:_code)?[=: ]+\"?[45]\d\d\b"),
    "code": LazyPattern(r"code[=: ]+\"?[45]\d\d\b"),
}
#: each telling word with its letters, and all their letters: a word one of whose letters the
#: text lacks is not looked for (a letter is found at memchr speed, a word is not)
_WORD_LETTERS = tuple((word, frozenset(word)) for word in _TELLING_WORDS)
_LETTERS = tuple(sorted(set("".join(_TELLING_WORDS))))


def _telling_at(line: str, at: int) -> bool:
    """Does TELLING match `line` at `at` (a candidate word's place)? `http_status=503`: its
    candidate word `status` is five characters in."""
    match = _TELLING_AT.compiled.match
    if match(line, at) is not None:
        return True
    return at >= 5 and line[at - 5:at].lower() == "http_" and match(line, at - 5) is not None


def _candidates(text: str, low: str | None = None) -> list:
    """Sorted positions in `text` (lowered: `low`) of the words a telling line holds."""
    if low is None:
        low = text.lower()
    present = {letter for letter in _LETTERS if letter in low}
    found = []
    for word, letters in _WORD_LETTERS:
        if not letters <= present:
            continue
        status = _STATUS_WORDS.get(word)
        if status is not None:
            found.extend(hit.start() for hit in status.compiled.finditer(low))
            continue
        at = low.find(word)
        while at >= 0:
            found.append(at)
            at = low.find(word, at + 1)
    found.sort()
    return found


class Standout:
    """Give it every line (`add(index, text, payload)`, or whole blocks with `add_block`), then
    ask `picks()`. `limit` bounds the telling lines kept (with their neighbours); `payload` is
    what `picks` gives back (the text as shown, a match's file …), default the text."""

    def __init__(self, limit: int = 40, neighbours: int = 1, scan_chars: int | None = None):
        self.limit = limit
        self.neighbours = neighbours
        #: the window: characters looked through (default SCAN_CHARS)
        self.scan_chars = SCAN_CHARS if scan_chars is None else scan_chars
        self.count = 0
        self.scanned = 0  # lines looked through (the first ones, up to the window)
        self.scanned_chars = 0
        #: the index of the first line past the window (counted, not looked through), if any
        self.unscanned_from: int | None = None
        self.telling_count = 0
        self.telling: dict = {}  # index -> payload (telling lines and their neighbours)
        self.counts: dict = {}  # shape -> how many lines have it (None once past MAX_SHAPES)
        self.first: dict = {}  # shape -> (index, payload) of its first line
        self._recent: list = []  # the last `neighbours` (index, payload)
        self._after = 0  # lines still to keep after the last telling one

    def _past_window(self, index: int, lines: int, chars: int) -> bool:
        """Count `lines` lines (from `index`, `chars` characters); True when they lie past the
        window (counted only), else they are looked through."""
        self.count += lines
        if self.scanned_chars >= self.scan_chars:
            if self.unscanned_from is None:
                self.unscanned_from = index
                self._recent, self._after = [], 0
            return True
        self.scanned += lines
        self.scanned_chars += chars
        return False

    def past_window(self) -> bool:
        """Is the window behind? Then lines need not be handed over: `count_past` them."""
        return self.scanned_chars >= self.scan_chars

    def count_past(self, index: int, lines: int) -> None:
        """Count `lines` lines from `index` that lie past the window (`past_window()`)."""
        self._past_window(index, lines, 0)

    def add(self, index: int, text: str, payload=None) -> None:
        payload = text if payload is None else payload
        if self._past_window(index, 1, len(text) + 1):
            return
        if self._after:
            self._after -= 1
            self.telling.setdefault(index, payload)
        if TELLING.search(text) is not None:
            self._tell(index, payload)
        if self.neighbours:
            self._recent.append((index, payload))
            if len(self._recent) > self.neighbours:
                del self._recent[0]
        if self.counts is not None:
            self._count(shape(text), index, payload)

    def _tell(self, index: int, payload) -> None:
        self.telling_count += 1
        if self.telling_count <= self.limit:
            for i, p in self._recent:
                self.telling.setdefault(i, p)
            self.telling[index] = payload
            self._after = self.neighbours

    def _count(self, key: str, index: int, payload) -> None:
        counts = self.counts
        found = counts.get(key)
        if found is not None:
            counts[key] = found + 1
            return
        if len(counts) >= MAX_SHAPES:  # lines of ever new shapes: none is rare
            self.counts = None
            self.first = {}
            return
        counts[key] = 1
        self.first[key] = (index, payload)

    def add_block(self, first: int, lines: list, payloads: list | None = None) -> None:
        """`add` of lines[0] as index `first`, lines[1] as `first`+1 … (payloads[i] for each,
        default the lines), at C speed: `str.find` for the telling words, one `translate`
        for the shapes."""
        if not lines:
            return
        if payloads is not None:
            self._add_block(first, lines, payloads)
            return
        self._add_block(first, lines, lines)

    def _add_block(self, first: int, texts: list, lines: list) -> None:
        text = "\n".join(texts)
        if self._past_window(first, len(lines), len(text) + 1):
            return
        after = self._after
        for i in range(min(after, len(lines))):
            self.telling.setdefault(first + i, lines[i])
        self._after = max(0, after - len(lines))
        line_no, pos, last, line_start = 0, 0, -1, 0
        before = self._recent  # the previous block's last lines
        low = text.lower()
        exact = len(low) == len(text)  # else a lowered place is not the text's: whole lines
        for hit in _candidates(text, low):
            newlines = text.count("\n", pos, hit)
            if newlines:
                line_no += newlines
                line_start = text.rfind("\n", 0, hit) + 1
            pos = hit
            if line_no == last:
                continue
            if exact:
                if not _telling_at(texts[line_no], hit - line_start):
                    continue  # another word of this line may tell
            elif TELLING.search(texts[line_no]) is None:
                last = line_no
                continue
            last = line_no
            start = max(0, line_no - self.neighbours)
            recent = before + [(first + j, lines[j]) for j in range(start, line_no)]
            self._recent = recent[len(recent) - self.neighbours:] if self.neighbours else []
            self._tell(first + line_no, lines[line_no])
            for j in range(line_no + 1, min(len(lines), line_no + 1 + self._after)):
                self.telling.setdefault(first + j, lines[j])
            self._after = max(0, line_no + self._after - (len(lines) - 1))
        if self.neighbours:
            recent = before + [(first + j, lines[j])
                               for j in range(max(0, len(lines) - self.neighbours), len(lines))]
            self._recent = recent[len(recent) - self.neighbours:]
        if self.counts is None:
            return
        if self.scanned > SHAPE_SCAN:  # rarity is not worth its cost past this many lines
            self.counts, self.first = None, {}
            return
        keys = shapes_of(text).split("\n")
        counts, firsts = self.counts, self.first
        for j, key in enumerate(keys):
            key = " ".join(key.split())[:SHAPE_CHARS]
            found = counts.get(key)
            if found is not None:
                counts[key] = found + 1
            elif len(counts) >= MAX_SHAPES:
                self.counts, self.first = None, {}
                return
            else:
                counts[key] = 1
                firsts[key] = (first + j, lines[j])

    def telling_counts(self) -> bool:
        return 0 < self.telling_count <= max(self.limit, TELLING_SHARE * self.scanned)

    def rare(self) -> dict:
        """index -> payload of the lines whose shape no other line has (when few are)."""
        if self.scanned < RARE_MIN_LINES or self.counts is None:
            return {}
        once = [key for key, n in self.counts.items() if n == 1]
        if len(once) > RARE_LIMIT:
            return {}
        return dict(self.first[key] for key in once)

    def picks(self) -> list:
        """[(index, payload)] in index order: the telling lines (and neighbours), then the rare."""
        chosen = dict(self.telling) if self.telling_counts() else {}
        for i, p in self.rare().items():
            chosen.setdefault(i, p)
        return sorted(chosen.items(), key=lambda item: item[0])
