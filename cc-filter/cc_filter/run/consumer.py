"""What reads the answer after the pipe: `cc-filter run --then=tail:20 cargo test | tail -20`.

cc-rewrite rewrites the producer of a pipe whose later stages only display its output (cat,
head, tail) and tells the runner what those stages keep, as a spec: `tail:N`, `head:N`, or
several joined by commas in pipe order (`tail:50,head:5`; a plain `cat` adds nothing). The
agent then sees the consumer's cut of the answer, not the answer, so the runner judges that
cut (guard.OutputGuard.fit_consumer):

- for a `tail` the answer is laid out for it (`for_tail`): the markers that count what was
  left out and the tee hint go above the filter's lines, so the last lines are the summary
  and the failure names;
- then the consumer's cut of the answer is compared with its cut of the raw output
  (`keeps_facts`): every line of the raw cut that carries a fact (a failure, a count, a
  file:line, a test id; for a search every match) must be in the answer's cut, and that cut
  must be smaller — else the raw output goes through, as without contextcrawler;
- tracking counts what reached the agent after the pipe (both cuts).

Imports nothing heavy at module level (`re` only when facts are compared).
"""
from cc_filter.kit import lines as lines_mod

_KINDS = ("head", "tail")
#: Largest N a spec may carry (a bigger one is refused: nothing to gain past it).
MAX_COUNT = 1_000_000
_BLOCK = 1 << 16


def parse(spec: str):
    """`tail:20,head:5` → (("tail", 20), ("head", 5)); None when it is not a spec."""
    if not isinstance(spec, str) or not spec:
        return None
    stages = []
    for part in spec.split(","):
        kind, _, count = part.partition(":")
        if kind not in _KINDS or not count.isdigit() or not 0 < int(count) <= MAX_COUNT:
            return None
        stages.append((kind, int(count)))
    return tuple(stages)


def spec_text(stages) -> str:
    return ",".join(f"{kind}:{count}" for kind, count in stages)


def _take(data: bytes, kind: str, count: int) -> bytes:
    parts = data.splitlines(keepends=True)
    return b"".join(parts[:count] if kind == "head" else parts[-count:])


def apply(stages, data: bytes) -> bytes:
    """What the consumer prints when fed `data` (head/tail by lines, as coreutils do)."""
    for kind, count in stages:
        data = _take(data, kind, count)
    return data


def apply_buffer(stages, buf) -> bytes:
    """`apply` on a SpillBuffer (or HeadTailBuffer), reading only what the first stage needs."""
    kind, count = stages[0]
    size = len(buf)
    if kind == "head":
        taken = []
        newlines = 0
        for chunk in buf.chunks(_BLOCK):
            taken.append(chunk)
            newlines += chunk.count(b"\n")
            if newlines >= count:
                break
        data = b"".join(taken)
    else:
        end = size
        taken = []
        newlines = 0
        while end > 0:
            start = max(0, end - _BLOCK)
            chunk = buf.read_range(start, end - start)
            taken.append(chunk)
            newlines += chunk.count(b"\n")
            end = start
            if newlines > count:
                break
        data = b"".join(reversed(taken))
    return apply(stages, data)


def for_tail(text: str) -> str:
    """The answer laid out for a `tail`: its unindented omission markers and the tee hint
    (`[full output: …]`) above the other lines, which keep their order; then, last, the
    failure names (`FAILED x`, `not ok`, `---- x panicked`, …) and the summary lines (counts,
    `test result:`) gathered from those lines again, so the tail's cut holds them."""
    ends = text.endswith("\n")
    moved, kept = [], []
    for line in (text[:-1] if ends else text).split("\n"):
        if line and not line[0].isspace() and (lines_mod.is_omission_marker(line)
                                                or line.startswith("[full output: ")):
            moved.append(line)
        else:
            kept.append(line)
    names, summary = [], []
    name, count = _name_pattern(), _count_pattern()
    for line in kept:
        plain = lines_mod.strip_ansi(line).strip()
        if count.search(plain):
            summary.append(line)
        elif name.match(plain) and line not in names:
            names.append(line)
    digest = names + summary
    if digest and kept[-len(digest):] != digest:
        kept += digest
    if not moved and not (digest and kept[-len(digest):] == digest and len(kept) > len(digest)):
        return text
    return "\n".join(moved + kept) + ("\n" if ends else "")


_patterns: dict = {}


def _compiled(name: str, pattern: str):
    found = _patterns.get(name)
    if found is None:
        import re

        found = _patterns[name] = re.compile(pattern)
    return found


def _name_pattern():
    """A line naming a failure, from its first word."""
    return _compiled("name", r"(?:FAILED|FAIL|ERROR|ERRORS|not ok|[✗✖×]|---- \S+|--- FAIL)\b"
                             r"|\S+ panicked at |error(?:\[\w+\])?: ")


def _count_pattern():
    """A summary line: counts of tests, or a runner's result line."""
    return _compiled("count", r"(?i)\b\d+ (?:passed|failed|errors?|skipped|ignored|tests?"
                              r"|passing|failing|pending|deselected)\b|^test result:|^Tests?:")


def _fact_pattern():
    return _compiled("fact", r"(?i)fail|error|panic|traceback|exception|fatal|\bwarn|not ok"
                             r"|[✗✖×]|assert|\bexit (?:code|status)")


def _atom_pattern():
    """What a fact line names: a file:line, a test id (a::b), a count."""
    return _compiled("atom", r"[\w.-]*[\w/]\.\w+:\d+|[\w./-]+/[\w.-]+:\d+"
                             r"|[\w./\[\]-]+::[\w.\[\]-]+"
                             r"|(?i:\b\d+ (?:passed|failed|errors?|skipped|ignored|tests?"
                             r"|warnings?|deselected)\b)")


def _normal(line: str) -> str:
    line = lines_mod.strip_ansi(line).strip().strip("=-").strip()
    return " ".join(line.split())


def _shows_atom(atom: str, shown: str) -> bool:
    """Is `atom` in `shown` — a path:line also as its tail from a `/` on (`/tmp/p/tests/a.py:4`
    shown as `tests/a.py:4`: the filter made it relative to where the command ran)?"""
    if atom in shown:
        return True
    at = atom.find("/")
    while at >= 0 and ":" in atom[at + 1:]:
        if atom[at + 1:] in shown:
            return True
        at = atom.find("/", at + 1)
    return False


def missing_facts(raw_cut: str, ours_cut: str, every_line: bool = False) -> list:
    """The fact lines of `raw_cut` that `ours_cut` does not show. A fact line carries a
    failure word or names a file:line, a test id or a count; each of those it names must be
    in `ours_cut` (the names, not the whole line: a filter may reword around them), and a
    failure line naming none must be there whole (compared without colours, `=`/`-` banners
    and runs of spaces). A bare heading (`failures:`) is no fact. `every_line`: each non-blank
    line is a fact, whole (the matches of a search)."""
    shown = "\n".join(_normal(line) for line in ours_cut.split("\n"))
    fact, atom = _fact_pattern(), _atom_pattern()
    missing = []
    for line in raw_cut.split("\n"):
        text = _normal(line)
        if not text:
            continue
        if every_line:
            if text not in shown:
                missing.append(line)
            continue
        atoms = atom.findall(text)
        if atoms:
            if any(not _shows_atom(a, shown) for a in atoms):
                missing.append(line)
        elif fact.search(text) and not (text.endswith(":") and " " not in text):
            if text not in shown:
                missing.append(line)
    return missing
