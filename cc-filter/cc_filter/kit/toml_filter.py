"""Declarative filters: the TOML DSL of ARCHITECTURE §6.3.

`parse_filter_file(path, data)` validates one filter file (unknown keys are an error naming the
file and the key; regexes are compiled and checked for exponential backtracking) and returns a
plain, marshal-able *spec* dict — the catalogue caches specs, so `tomllib` only runs when a file
changed. `make_class(spec)` turns a spec into a `Filter` subclass.

The stages run in this order on every line, as the child produces it:
strip_ansi → replace (rules chained, `\\1` backreferences) → match_output (remembered) →
strip_lines_matching | keep_lines_matching → truncate_lines_at → head_lines/tail_lines (one
`... (N lines omitted)` marker) → max_lines (`... (N lines truncated)`) → on_empty.
Every non-blank line that strip/keep removed is counted in one last marker,
`... (N lines omitted)` (strip) or `... (N other lines omitted)` (keep), or in the filter's own
words when it sets `omitted_as` (`... (12 progress lines omitted)`); a match_output
message that replaces the output is followed by `... (N lines omitted)` for the lines it
replaced. So the runner keeps the raw output in the tee dir and points to it.

Decisions where the design is silent (see the README):
- match_output patterns and their `unless` are searched line by line (a pattern cannot span
  lines, so the whole output never has to sit in memory); a pattern containing a newline is
  rejected. The first rule (in file order) whose pattern matched some line and whose `unless`
  matched no line replaces the whole output with its message.
- on_empty is used only when the command succeeded (exit code 0): a failed command with no
  output left gets the runner's failure tail instead of a misleading "ok".
- Regexes see at most `patterns.REGEX_TEXT_LIMIT` characters of a line; `replace` leaves the
  rest of a longer line unchanged.

Speed: the runner hands over thousands of lines at once (`feed_text`). On a big block
(JOINED_MIN_CHARS), when every regex of the filter allows it (_Joined), the stages up to
strip/keep run as one regex pass over the whole block instead of one search per line (3–4×
faster on a log), with the same result.
"""
from itertools import filterfalse, repeat

from cc_filter.kit import patterns
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import ansi_pattern, has_line_longer_than, omitted, strip_ansi, truncated

SCHEMA_VERSION = 1
_TOP_KEYS = ("schema_version", "filter", "test")
_FILTER_KEYS = {
    "name": str, "description": str, "match_command": str, "strip_ansi": bool,
    "replace": list, "match_output": list, "strip_lines_matching": list,
    "keep_lines_matching": list, "truncate_lines_at": int, "head_lines": int,
    "tail_lines": int, "max_lines": int, "on_empty": str, "omitted_as": str,
}
_REPLACE_KEYS = {"pattern": str, "replacement": str}
_MATCH_OUTPUT_KEYS = {"pattern": str, "message": str, "unless": str}
_TEST_KEYS = {"name": str, "exit_code": int, "input": str, "expected": str}
_NAME_CHARS = frozenset("abcdefghijklmnopqrstuvwxyz0123456789-")


class FilterFileError(ValueError):
    """A filter file that cannot be used; the message names the file and the key."""


def _type_name(t) -> str:
    return {str: "a string", bool: "true or false", int: "an integer", list: "an array",
            dict: "a table"}[t]


def _check_table(path: str, where: str, table, allowed: dict, required=()) -> None:
    if not isinstance(table, dict):
        raise FilterFileError(f"{path}: {where} must be a table")
    for key, value in table.items():
        if key not in allowed:
            raise FilterFileError(f"{path}: unknown key {where + '.' if where else ''}{key!s}"
                                  f" (allowed: {', '.join(allowed)})")
        expected = allowed[key]
        ok = isinstance(value, expected) and not (expected is int and isinstance(value, bool))
        if not ok:
            raise FilterFileError(f"{path}: {where}.{key} must be {_type_name(expected)}")
    for key in required:
        if key not in table:
            raise FilterFileError(f"{path}: {where}.{key} is required")


def _regex(path: str, where: str, pattern: str) -> str:
    try:
        patterns.check_regex(pattern)
    except patterns.UnsafeRegex as exc:  # its message already quotes the pattern
        raise FilterFileError(f"{path}: {where}: {exc}") from None
    except Exception as exc:
        raise FilterFileError(f"{path}: {where}: bad regex {pattern!r}: {exc}") from None
    return pattern


def parse_filter_file(path: str, data: dict, expected_name: str | None = None) -> dict:
    """Validate a parsed TOML filter file; returns its spec (plain dicts, lists, strings)."""
    if not isinstance(data, dict):
        raise FilterFileError(f"{path}: not a TOML table")
    for key in data:
        if key not in _TOP_KEYS:
            raise FilterFileError(f"{path}: unknown key {key} (allowed: {', '.join(_TOP_KEYS)})")
    version = data.get("schema_version")
    if version != SCHEMA_VERSION:
        raise FilterFileError(f"{path}: schema_version must be {SCHEMA_VERSION} (got {version!r})")
    table = data.get("filter")
    if table is None:
        raise FilterFileError(f"{path}: missing [filter] table")
    _check_table(path, "filter", table, _FILTER_KEYS, required=("name", "match_command"))
    name = table["name"]
    if not name or set(name) - _NAME_CHARS or name[0] == "-":
        raise FilterFileError(f"{path}: filter.name {name!r} must be lowercase letters, "
                              "digits and -")
    if expected_name is not None and name != expected_name:
        raise FilterFileError(f"{path}: filter.name {name!r} must match the file name "
                              f"({expected_name!r})")
    match = table["match_command"]
    if not match.startswith("^"):
        raise FilterFileError(f"{path}: filter.match_command must be anchored with ^ "
                              f"(got {match!r})")
    _regex(path, "filter.match_command", match)
    if "strip_lines_matching" in table and "keep_lines_matching" in table:
        raise FilterFileError(f"{path}: filter.strip_lines_matching and filter.keep_lines_matching "
                              "cannot both be set")
    spec = {
        "name": name, "description": table.get("description", ""), "match_command": match,
        "strip_ansi": table.get("strip_ansi", False), "replace": [], "match_output": [],
        "strip": None, "keep": None, "truncate": None, "head": None, "tail": None, "max": None,
        "on_empty": table.get("on_empty"), "omitted_as": table.get("omitted_as"), "tests": [],
    }
    kind = spec["omitted_as"]
    if kind is not None and (not kind.strip() or any(c in kind for c in "()\n")):
        raise FilterFileError(f"{path}: filter.omitted_as must name what strip/keep drop, in "
                              f"the plural, without parentheses (got {kind!r})")
    for i, rule in enumerate(table.get("replace", [])):
        where = f"filter.replace[{i}]"
        _check_table(path, where, rule, _REPLACE_KEYS, required=("pattern", "replacement"))
        _regex(path, where + ".pattern", rule["pattern"])
        try:
            import re

            re.compile(rule["pattern"]).sub(rule["replacement"], "")
        except Exception as exc:
            raise FilterFileError(f"{path}: {where}.replacement: {exc}") from None
        spec["replace"].append((rule["pattern"], rule["replacement"]))
    for i, rule in enumerate(table.get("match_output", [])):
        where = f"filter.match_output[{i}]"
        _check_table(path, where, rule, _MATCH_OUTPUT_KEYS, required=("pattern", "message"))
        for key in ("pattern", "unless"):
            if key in rule:
                if "\n" in rule[key] or "\\n" in rule[key]:
                    raise FilterFileError(f"{path}: {where}.{key}: patterns are matched line by "
                                          "line and cannot contain a newline")
                _regex(path, f"{where}.{key}", rule[key])
        spec["match_output"].append((rule["pattern"], rule["message"], rule.get("unless")))
    for key, slot in (("strip_lines_matching", "strip"), ("keep_lines_matching", "keep")):
        if key in table:
            items = table[key]
            for i, pattern in enumerate(items):
                if not isinstance(pattern, str):
                    raise FilterFileError(f"{path}: filter.{key}[{i}] must be a string")
                _regex(path, f"filter.{key}[{i}]", pattern)
            spec[slot] = list(items)
    for key, slot in (("truncate_lines_at", "truncate"), ("head_lines", "head"),
                      ("tail_lines", "tail"), ("max_lines", "max")):
        if key in table:
            value = table[key]
            if value < (1 if key != "truncate_lines_at" else 8):
                raise FilterFileError(f"{path}: filter.{key} must be at least "
                                      f"{1 if key != 'truncate_lines_at' else 8}")
            spec[slot] = value
    tests = data.get("test", [])
    if not isinstance(tests, list):
        raise FilterFileError(f"{path}: test must be an array of tables ([[test]])")
    for i, case in enumerate(tests):
        where = f"test[{i}]"
        _check_table(path, where, case, _TEST_KEYS, required=("name", "input", "expected"))
        spec["tests"].append((case["name"], case.get("exit_code", 0), case["input"],
                              case["expected"]))
    return spec


def load_file(path: str, expected_name: str | None = None) -> dict:
    """Read, parse and validate one TOML filter file."""
    import tomllib

    try:
        with open(path, "rb") as f:
            data = tomllib.load(f)
    except tomllib.TOMLDecodeError as exc:
        raise FilterFileError(f"{path}: invalid TOML: {exc}") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise FilterFileError(f"{path}: cannot read: {exc}") from None
    return parse_filter_file(path, data, expected_name)


def make_class(spec: dict, source: str = "") -> type:
    """A Filter subclass running `spec`."""
    return type(
        "TomlFilter_" + spec["name"].replace("-", "_"), (TomlFilter,),
        {"name": spec["name"], "match_command": spec["match_command"],
         "description": spec["description"], "on_empty": spec["on_empty"], "spec": spec,
         "source": source, "_compiled": None},
    )


#: A block this long (in characters) gets the whole-text stages (_Joined) when the filter allows
#: them. Building them parses and compiles every pattern twice (~1 ms); a smaller block — most
#: commands' whole output — runs line by line, which costs it less than that.
JOINED_MIN_CHARS = 64 * 1024


class _Compiled:
    __slots__ = ("replace", "match_output", "line_test", "keep", "spec", "rules", "_joined")

    def __init__(self, spec: dict):
        rules = spec["strip"] if spec["strip"] is not None else spec["keep"]
        self.keep = spec["keep"] is not None
        self.spec, self.rules = spec, rules
        self.line_test = None
        self._joined = False  # never: see joined()
        self.replace = self.match_output = ()
        if not (rules or spec["replace"] or spec["match_output"]):
            return  # no regex at all: do not even import re
        import re

        self.replace = [(re.compile(p), r) for p, r in spec["replace"]]
        self.match_output = [(re.compile(p), m, re.compile(u) if u else None)
                             for p, m, u in spec["match_output"]]
        backrefs = rules and any(re.search(r"\\[1-9]|\(\?P=", p) for p in rules)
        if rules:
            combined = "|".join(f"(?:{p})" for p in rules)
            try:
                if backrefs:
                    raise re.error("backreference")  # group numbers shift when combined
                self.line_test = re.compile(combined).search
            except re.error:
                searches = [re.compile(p).search for p in rules]
                self.line_test = lambda line: any(s(line) for s in searches)
        if not backrefs:
            self._joined = None  # not built yet

    def joined(self):
        """(the _Joined form, its ASCII form, whether a pattern uses `\\s`/`\\S`), or None when
        some regex must see one line at a time. Built on the first big block (JOINED_MIN_CHARS)."""
        if self._joined is None:
            import re

            spec, rules = self.spec, self.rules
            plain = _Joined.of(spec, rules, self.keep, re, ascii=False)
            used = [p for p, _r in spec["replace"]] + list(rules or ()) + [
                x for p, _m, u in spec["match_output"] for x in (p, u) if x]
            self._joined = plain is not None and (
                plain, _Joined.of(spec, rules, self.keep, re, ascii=True),
                any("\\s" in p or "\\S" in p for p in used))
        return self._joined or None


class _Joined:
    """The stages before truncate_lines_at as whole-text regexes, for filters whose every regex
    allows it (see patterns.line_start_body): the runner hands over thousands of lines at once,
    and one pass that jumps from newline to newline costs a fraction of a search per line.
    They run on "\\n" + the lines joined by newlines:
    - replace: `\\n(?:body)` → "\\n" + replacement (rules anchored with `^` only);
    - match_output / unless: the pattern compiled with re.M, searched from position 1;
    - strip / keep: one sub removing `\\n` + each dropped line (anchored rules only).
    The ASCII form (`ascii=True`) compiles its ASCII patterns with re.A, for blocks where that
    means the same: text.isascii(), and, when a pattern uses `\\s`/`\\S`, no \\x1c-\\x1f in the
    text (Unicode counts those as spaces, re.A does not). `\\d`, `\\w`, `\\b` then cost a table
    lookup instead of a Unicode database call (a third faster on timestamps). A non-ASCII
    pattern keeps Unicode rules (under (?i), `ſ` matches `s`)."""

    __slots__ = ("replace", "match_output", "drop", "drops_blank")

    @classmethod
    def of(cls, spec: dict, rules, keep: bool, re, ascii: bool):
        """The joined form of `spec`, or None when some regex must see one line at a time."""
        from cc_filter.kit.patterns import line_local, line_start_body

        def compiled(pattern: str, *sources: str):
            if ascii and all(x.isascii() for x in sources):
                try:
                    return re.compile(pattern, re.M | re.A)
                except re.error:  # an inline (?u)
                    pass
            return re.compile(pattern, re.M)

        joined = cls()
        joined.replace = []
        for pattern, replacement in spec["replace"]:
            body = line_start_body(pattern)
            if body is None or not _line_local_replacement(replacement, re):
                return None
            joined.replace.append((compiled(f"\\n(?:{body})", pattern), "\n" + replacement))
        joined.match_output = []
        for pattern, message, unless in spec["match_output"]:
            if not line_local(pattern) or unless and not line_local(unless):
                return None
            joined.match_output.append((compiled(pattern, pattern), message,
                                        compiled(unless, unless) if unless else None))
        joined.drop = None
        joined.drops_blank = False
        if rules:
            bodies = [line_start_body(p) for p in rules]
            if None in bodies:
                return None
            either = "|".join(f"(?:{b})" for b in bodies)
            joined.drop = compiled(f"\\n(?!{either})[^\\n]*" if keep
                                   else f"\\n(?:{either})[^\\n]*", *rules)
            # blank lines are not counted as dropped: find them only if a rule can drop one
            joined.drops_blank = any(joined.drop.fullmatch(x) for x in ("\n", "\n ", "\n\t"))
        return joined


def _has_info_separator(text: str) -> bool:
    """\\x1c-\\x1f: whitespace to Unicode `\\s`, not to re.A's."""
    return "\x1c" in text or "\x1d" in text or "\x1e" in text or "\x1f" in text


def _line_local_replacement(replacement: str, re) -> bool:
    """Can the expanded replacement hold no newline, nor the whole match (which, joined,
    starts with the newline before the line)? Escapes that can make one are refused."""
    return ("\n" not in replacement and "\\g<0>" not in replacement
            and not re.search(r"\\(n|0|[0-7]{3})", replacement))


class TomlFilter(Filter):
    """Runs a spec's stages; see the module docstring for the order."""

    spec: dict = {}
    source = ""
    _compiled = None

    def __init__(self, argv: list[str] | None = None):
        super().__init__(list(argv or []))
        cls = type(self)
        if cls._compiled is None:
            cls._compiled = _Compiled(self.spec)
        self.c = cls._compiled
        spec = self.spec
        self.head = spec["head"]
        self.tail = spec["tail"]
        self.max = spec["max"]
        self.truncate = spec["truncate"]
        self.hold = bool(spec["match_output"])
        self.matched = [False] * len(self.c.match_output)
        self.unless_hit = [False] * len(self.c.match_output)
        self.seen = 0  # lines that reached the head/tail stage
        self.emitted = 0  # lines out of the head/tail stage (max_lines counts these)
        self.cut = 0  # lines max_lines dropped
        self.tail_buf: list[str] = []
        self.held = None
        self.nonblank = False  # a non-blank line came out (on_empty is not needed)
        self.dropped = False
        self.stripped = 0  # non-blank lines strip/keep removed

    def feed(self, line: str):
        return self.feed_lines([line])

    def feed_text(self, text: str) -> list[str]:
        """Lines joined by newlines (the runner's fast path: one regex pass per stage)."""
        if self.spec["strip_ansi"]:
            if "\r" in text:
                text = strip_ansi(text)
            elif "\x1b" in text:
                text = ansi_pattern().sub("", text)  # the pattern never matches a newline
        if has_line_longer_than(text, patterns.REGEX_TEXT_LIMIT):
            return self._stages(text.split("\n"), False)
        joined = self.c.joined() if len(text) >= JOINED_MIN_CHARS else None
        if joined is not None:
            return self._joined_stages(text, *joined)
        return self._stages(text.split("\n"), True)

    def feed_lines(self, lines: list[str]) -> list[str]:
        if self.spec["strip_ansi"]:
            sub = ansi_pattern().sub
            lines = [(strip_ansi(x) if "\r" in x else sub("", x)) if "\x1b" in x or "\r" in x
                     else x for x in lines]
        return self._stages(lines, not lines or max(map(len, lines)) <= patterns.REGEX_TEXT_LIMIT)

    def _stages(self, lines: list[str], short: bool) -> list[str]:
        """The stages after strip_ansi. `short`: no line is longer than REGEX_TEXT_LIMIT, so
        regexes run through map/filter (the loop stays in C); otherwise a slower path shows
        them only a bounded prefix of each line."""
        if not lines:
            return []
        c = self.c
        limit = patterns.REGEX_TEXT_LIMIT
        for rx, repl in c.replace:
            if short:
                lines = list(map(rx.sub, repeat(repl), lines))
            else:
                sub = rx.sub
                lines = [sub(repl, x) if len(x) <= limit else sub(repl, x[:limit]) + x[limit:]
                         for x in lines]
        if c.match_output:
            seen = lines if short else [x if len(x) <= limit else x[:limit] for x in lines]
            self._match_output(c.match_output, lambda rx: any(map(rx.search, seen)))
        test = c.line_test
        if test is not None:
            if not short:
                probe = test
                test = lambda x: probe(x if len(x) <= limit else x[:limit])  # noqa: E731
            kept = list(filter(test, lines) if c.keep else filterfalse(test, lines))
            if len(kept) < len(lines):
                self.stripped += _nonblank(lines) - _nonblank(kept)
            lines = kept
        return self._shape(lines)

    def _joined_stages(self, text: str, plain, ascii_form, spaces: bool) -> list[str]:
        """_stages on lines joined by newlines, none longer than REGEX_TEXT_LIMIT (_Joined)."""
        ascii = text.isascii() and not (spaces and _has_info_separator(text))
        joined = ascii_form if ascii else plain
        text = "\n" + text
        for rx, repl in joined.replace:
            text = rx.sub(repl, text)
        if joined.match_output:
            self._match_output(joined.match_output, lambda rx: rx.search(text, 1) is not None)
        if joined.drop is not None:
            kept, gone = joined.drop.subn("", text)  # each match: "\n" + a removed line
            if gone:
                self.stripped += gone
                if joined.drops_blank:
                    blank = _blank_lines()
                    self.stripped -= len(blank.findall(text)) - len(blank.findall(kept))
            text = kept
            if not text:
                return []  # every line dropped
        return self._shape(*self._showable(text[1:]))

    def _showable(self, text: str) -> tuple[list[str], int]:
        """The lines of `text` that head_lines/tail_lines can still show, and how many lines
        it has: the middle of a long output is counted, never split into lines."""
        head, tail = self.head, self.tail
        if head is None and tail is None:
            lines = text.split("\n")
            return lines, len(lines)
        count = text.count("\n") + 1
        first = []
        if head is not None and self.seen < head:
            first = text.split("\n", head - self.seen)[:head - self.seen]
        last = min(count - len(first), tail or 0)
        return (first + text.rsplit("\n", last)[-last:] if last else first), count

    def _match_output(self, rules, found) -> None:
        """Notes which rules' pattern and `unless` matched; `found(rx)`: does rx match?"""
        for i, (rx, _message, unless) in enumerate(rules):
            if not self.matched[i] and found(rx):
                self.matched[i] = True
            if unless is not None and not self.unless_hit[i] and found(unless):
                self.unless_hit[i] = True

    def _shape(self, lines: list[str], count: int | None = None) -> list[str]:
        """truncate_lines_at → head/tail → max_lines; held back while match_output may still
        replace the whole output. `count`: how many lines `lines` stands for (_showable)."""
        n = self.truncate
        if n is not None and lines and max(map(len, lines)) > n:
            self.dropped = True
            lines = [x if len(x) <= n else x[:n] + "…" for x in lines]
        out = self._head_tail(lines, len(lines) if count is None else count)
        if self.max is not None:
            out = self._max(out)
        if out:
            if not self.nonblank and any(x.strip() for x in out):
                self.nonblank = True
            if self.hold:
                self._hold(out)
                return []
        return out

    def _head_tail(self, lines: list[str], count: int) -> list[str]:
        head, tail = self.head, self.tail
        if head is None and tail is None:
            self.seen += count
            return lines
        out: list[str] = []
        start = 0
        if head is not None and self.seen < head:
            start = min(len(lines), head - self.seen)
            out = lines[:start]
        self.seen += count
        if tail is not None:
            rest = lines[start:]
            if rest:
                self.tail_buf.extend(rest[-tail:])
                if len(self.tail_buf) > 2 * tail:
                    del self.tail_buf[:-tail]
        return out

    def _head_tail_finish(self) -> list[str]:
        head, tail = self.head, self.tail
        if head is None and tail is None:
            return []
        rest = self.seen - min(self.seen, head or 0)  # lines after the head part
        kept = self.tail_buf[len(self.tail_buf) - min(rest, tail):] if tail and rest else []
        missing = rest - len(kept)
        if missing <= 0:
            return kept
        self.dropped = True
        return [omitted(missing)] + kept if tail else kept + [omitted(missing)]

    def _max(self, lines: list[str]) -> list[str]:
        room = self.max - self.emitted
        if room >= len(lines):
            self.emitted += len(lines)
            return lines
        keep = max(0, room)
        self.emitted += keep
        self.cut += len(lines) - keep
        return lines[:keep]

    def _replaced(self, message: str, tail: list[str]) -> list[str]:
        """A match_output message instead of the output: the lines it replaces are counted
        (those held back, the tail, and what the markers of the tail already counted)."""
        replaced = _nonblank(self._released())
        for line in tail:
            counted = _marker_count(line)
            replaced += counted if counted is not None else (1 if line.strip() else 0)
        self.held = None
        out = message.rstrip("\n").split("\n")
        if replaced:
            self.dropped = True
            out.append(omitted(replaced))
        return out

    def _hold(self, lines: list[str]) -> None:
        if self.held is None:
            from cc_filter.kit.spill import SpillBuffer

            self.held = SpillBuffer()
        self.held.write(("\n".join(lines) + "\n").encode("utf-8", "surrogatepass"))

    def _released(self):
        if self.held is None:
            return
        rest = b""
        for chunk in self.held.chunks():
            data = rest + chunk
            nl = data.rfind(b"\n")
            if nl < 0:
                rest = data
                continue
            yield from data[:nl].decode("utf-8", "surrogatepass").split("\n")
            rest = data[nl + 1:]
        self.held.close()

    def finish(self, exit_code: int):
        tail = self._head_tail_finish()
        if self.max is not None:
            tail = self._max(tail)
        if self.cut:
            self.dropped = True
            tail.append(truncated(self.cut))
        if not self.nonblank and any(x.strip() for x in tail):
            self.nonblank = True
        if self.stripped:
            self.dropped = True
            kind = self.spec.get("omitted_as") or ("other lines" if self.c.keep else "lines")
            tail.append(omitted(self.stripped, kind))
        for i, (_rx, message, _unless) in enumerate(self.c.match_output):
            if self.matched[i] and not self.unless_hit[i]:
                return self._replaced(message, tail)
        if not self.nonblank and exit_code == 0 and self.spec["on_empty"]:
            if self.held is not None:
                self.held.close()
                self.held = None
            return [self.spec["on_empty"]] + tail  # tail: at most the markers
        if self.held is not None:
            return _chain(self._released(), tail)
        return tail


_BLANK = None


def _blank_lines():
    """A regex finding the blank lines of "\n"-joined text ("\n" + only white space)."""
    global _BLANK
    if _BLANK is None:
        import re

        _BLANK = re.compile(r"\n[^\S\n]*(?=\n|$)")
    return _BLANK


def _nonblank(lines) -> int:
    return sum(1 for x in lines if x and not x.isspace())


def _marker_count(line: str) -> int | None:
    """N of an `... (N … omitted)` / `... (N … truncated)` marker line, else None."""
    if line.startswith("... (") and line.endswith((" omitted)", " truncated)")):
        number = line[5:].split(" ", 1)[0]
        if number.isdigit():
            return int(number)
    return None


def _chain(first, second):
    yield from first
    yield from second
