"""curl: the body exactly as received; the progress meter and connection chatter dropped.

Dropped: the progress meter curl writes to stderr when its output is not a terminal (the
`% Total % Received …` header, its `Dload Upload …` line and every redraw, also when a verbose
line was glued to it), and, with `-v`, the `*` connection lines (`* Trying …`, `* Connected …`,
TLS handshake details), the request headers after the request line, and the `{ [93 bytes
data]` markers. Kept: the body byte for byte (JSON stays intact: it is never re-indented or
cut), with `-v` the request line (`> GET /api HTTP/1.1`), the response status and headers,
`*` lines that report a problem, and every `curl: (N) …` error. When only the meter was
printed (`-o file`), one line says what was received. With `-v`, routine response headers (`Date`,
`Server`, `Last-Modified`, `ETag`, `Connection` …) are dropped too. Every dropped line is
counted at the end, after the body (which stays intact): `... (3 progress lines omitted)`
(the meter; a row glued to a verbose line counts once, as meter) and, with `-v`,
`... (N verbose lines omitted)` (the `*`, request header, routine response header,
`{ [N bytes data]` and header-end lines). Nothing is injected (`-s`
would also hide errors unless paired with `-S`). Tested with curl 7.88.1.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted

_PROBLEM_WORDS = ("error", "fail", "refused", "could not", "couldn't", "unable", "timed out",
                  "timeout", "denied", "problem", "unknown", "invalid", "not ")
_VERBOSE_FLAGS = ("-v", "--verbose", "--trace-ascii", "--trace")
#: response headers `-v` shows that an agent debugging a request does not act on (lower case)
_ROUTINE_HEADERS = ("date", "server", "last-modified", "etag", "accept-ranges", "connection",
                    "keep-alive", "via", "age", "x-powered-by")


def _is_time(word: str) -> bool:
    return ":" in word and all(c.isdigit() or c in ":-" for c in word)


def meter_end(line: str) -> int:
    """Where a progress-meter row ends in `line` (0 when the line does not start with one).
    A row is 12 fields: % total, % received, % xferd, two speeds, three times, a speed."""
    fields = 0
    i, n = 0, len(line)
    while i < n and fields < 12:
        while i < n and line[i] == " ":
            i += 1
        start = i
        while i < n and line[i] != " ":
            i += 1
        word = line[start:i]
        if not word:
            break
        if fields in (8, 9, 10):
            if not _is_time(word):
                return 0
        elif not word[:1].isdigit() or word.strip("0123456789.kKMGTPB"):
            return 0
        fields += 1
    if fields < 12:
        # the last field (current speed) may be glued to verbose text: `0*   Trying …`
        return 0
    return i


class Curl(Filter):
    name = "curl"
    match_command = r"^curl(\s|$)"
    description = "curl: body kept intact; progress meter and connection chatter dropped"

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.verbose = any(w in _VERBOSE_FLAGS or (w.startswith("-") and not w.startswith("--")
                                                   and "v" in w[1:] and len(w) <= 4)
                           for w in argv[1:])
        self.in_body = False
        self.meter_header = False
        self.last_row: list[str] | None = None
        self.shown = False
        self.meter_lines = 0    # raw lines that were (or began with) a progress-meter row
        self.verbose_lines = 0  # `-v` chatter dropped (not counting lines already counted as meter)

    def _meter(self, line: str) -> str | None:
        """The line without a progress-meter part; None when nothing else is on it."""
        stripped = line.lstrip()
        if stripped.startswith("% Total") and "% Received" in stripped:
            self.meter_header = True
            self.meter_lines += 1
            return None
        if self.meter_header and stripped.startswith("Dload") and "Upload" in stripped:
            self.meter_lines += 1
            return None
        if not self.meter_header:
            return line
        end = meter_end(line)
        if end:
            self.last_row = line[:end].split()
        if not end:
            # a row whose last field runs into verbose text: `… --:--:--     0*   Trying`
            for marker in ("* ", "< ", "> ", "{ ", "} "):
                cut = line.find(marker)
                if cut > 0 and meter_end(line[:cut]) == cut:
                    self.meter_lines += 1
                    return line[cut:]
            return line
        self.meter_lines += 1
        rest = line[end:]
        return rest if rest.strip() else None

    def feed(self, line: str):
        before = self.meter_lines
        text = self._meter(line)
        if text is None:
            return ()
        out = (text,) if not self.verbose else self._verbose_line(text)
        if not out and self.meter_lines == before:
            self.verbose_lines += 1
        self.shown = self.shown or bool(out)
        return out

    def finish(self, exit_code: int):
        out = []
        # `-o file`: nothing but the meter was printed; say what was transferred
        if not self.shown and self.last_row and exit_code == 0:
            row = self.last_row
            spent = f" in {row[9]}" if row[9] != "--:--:--" else ""
            out.append(f"received {row[3]} of {row[1]} ({row[2]}%){spent}")
        if self.meter_lines:
            out.append(omitted(self.meter_lines, "progress lines"))
        if self.verbose_lines:
            out.append(omitted(self.verbose_lines, "verbose lines"))
        return out

    def _verbose_line(self, text: str):
        head = text[:2]
        if self.in_body:
            if text.startswith(("* Connection #", "* Closing connection")):
                self.in_body = False
                return ()
            if text.startswith(("{ [", "} [")) and text.endswith("data]"):
                return ()
            return (text,)
        if head == "* " or text == "*":
            lower = text.lower()
            return (text,) if any(w in lower for w in _PROBLEM_WORDS) else ()
        if head == "> " or text == ">":
            words = text[2:].split()
            if len(words) == 3 and words[2].startswith("HTTP/"):
                return (text,)  # the request line
            return ()
        if head == "< " or text == "<":
            if not text[2:].strip():
                self.in_body = True  # end of the response headers
                return ()
            if text[2:].split(":", 1)[0].strip().lower() in _ROUTINE_HEADERS:
                return ()
            return (text,)
        if text.startswith(("{ [", "} [")) and text.endswith("data]"):
            return ()
        return (text,)
