"""What reads the answer after the pipe: `cc-filter run --then=tail:20 cargo test | tail -20`.

cc-rewrite rewrites the producer of a pipe whose later stages only display its output (cat,
head, tail) and tells the runner what those stages keep, as a spec: `tail:N`, `head:N`, or
several joined by commas in pipe order (`tail:50,head:5`; a plain `cat` adds nothing). The
agent then sees the consumer's cut of the answer, not the answer, so the runner judges that
cut (guard.OutputGuard.fit_consumer):

- for a `tail` the answer is laid out for it (`for_tail`, `fit_tail`): layouts best first
  — the whole answer with its markers and tee hint above it; then the hint, the names of the
  failures whose sections do not fit, the last sections and the summary; then without the
  hint — and the first whose cut keeps the raw cut's facts in fewer tokens is written;
- for a `head` the consumer's cut of the answer is compared with its cut of the raw output
  (`missing_facts`): every line of the raw cut that carries a fact (a failure, a count, a
  file:line, a test id; for a search every match) must be in the answer's cut, and that cut
  must be smaller — else the raw output goes through, as without contextcrawler (a tail's
  layouts pass the same check);
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


def _split_for_tail(text: str):
    """(markers, hint lines, the other lines, ends with a newline) of an answer."""
    ends = text.endswith("\n")
    markers, hints, kept = [], [], []
    for line in (text[:-1] if ends else text).split("\n"):
        if line and not line[0].isspace() and line.startswith("[full output: "):
            hints.append(line)
        elif line and not line[0].isspace() and lines_mod.is_omission_marker(line):
            markers.append(line)
        else:
            kept.append(line)
    return markers, hints, kept, ends


def _digest_line(line: str) -> str:
    """A failure name line as the digest repeats it: a cargo section header (`---- x panicked
    at src/lib.rs:3:5:`, `---- x stdout ----`) as cargo's own list under `failures:` names
    it, `    x` (its section has the rest); any other name line whole."""
    if line.startswith("---- "):
        return "    " + line.split(" ", 2)[1]
    return line


def for_tail(text: str, count: int):
    """The layouts of an answer for a `tail -count`, best first, as lists of lines (and
    whether the answer ended with a newline). Each ends with the answer's last k lines (k from
    all of them, at most `count`, down to 0, only ever starting at a failure's first line or a
    summary line); above them a digest: the failure names (`FAILED x`, `not ok …`, `---- x`,
    `--- FAIL: …`) whose sections start above those k lines; after them the summary lines
    (counts, `test result:`) that are above them too. First the answer's own end with the
    unindented omission markers and the tee hint (`[full output: …]`) above it (with the
    largest k: the whole answer when it fits); then with the hint alone, k from the largest
    down (the hint outweighs a section: what was left out opens from it); then with neither.
    What a layout leaves out of the answer is what the tail would not have shown: the
    sections above its cut (their names stay) and the markers and hint above that."""
    markers, hints, kept, ends = _split_for_tail(text)
    name, summary_rx = _name_pattern(), _count_pattern()
    names, summaries = [], []
    for at, line in enumerate(kept):
        plain = lines_mod.strip_ansi(line).strip()
        if summary_rx.search(plain):
            summaries.append(at)
        elif name.match(plain):
            names.append(at)
    size = len(kept)
    starts = {min(size, count), 0}
    starts.update(size - at for at in names if size - at <= count)
    starts.update(size - at for at in summaries if size - at <= count)
    for head, ks in ((markers + hints, [max(starts)]), (hints, sorted(starts, reverse=True)),
                     ([], sorted(starts, reverse=True))):
        if head is hints and not hints:
            continue
        for k in ks:
            cut_from = size - k
            shown = kept[cut_from:]
            seen = set(shown)
            digest = []
            for at in names:
                if at < cut_from:
                    line = _digest_line(lines_mod.strip_ansi(kept[at]))
                    if line not in seen:
                        seen.add(line)
                        digest.append(line)
            if any(line.startswith("    ") for line in digest):
                digest.insert(0, "failures:")
            late = [kept[at] for at in summaries if at < cut_from]
            above = kept[:cut_from] if not digest and not late else []
            yield head + above + digest + shown + late, ends


def fit_tail(text: str, stages, raw_cut: str, every_line: bool = False):
    """The first layout of `for_tail` whose cut by `stages` (a tail first) shows every fact
    of `raw_cut` in fewer tokens: (the laid-out answer, its cut), or None (then the raw
    output goes through)."""
    from ctxcrl.spool import estimate_tokens

    count = stages[0][1]
    budget = estimate_tokens(len(raw_cut))
    checked = 0
    for laid, ends in for_tail(text, count):
        tail = "\n".join(laid[-count:]) + ("\n" if ends and laid else "")
        cut = apply(stages, tail.encode("utf-8", "replace")).decode("utf-8", "replace")
        if estimate_tokens(len(cut)) >= budget:
            continue
        if not missing_facts(raw_cut, cut, every_line):
            return "\n".join(laid) + ("\n" if ends else ""), cut
        checked += 1
        if checked >= _MAX_LAYOUTS_CHECKED:
            break
    return None


#: how many layouts under the token budget `fit_tail` compares fact by fact before it gives up
_MAX_LAYOUTS_CHECKED = 32


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
    """What a fact line names: a file:line, a test id (a::b), a count, a Go package's result
    (`ok example.com/m/pkg`)."""
    return _compiled("atom", r"[\w.-]*[\w/]\.\w+:\d+|[\w./-]+/[\w.-]+:\d+"
                             r"|[\w./\[\]-]+(?:::[\w.\[\]-]+)+(?:\[[^\]\s]*\])?"
                             r"|(?i:\b\d+ (?:passed|failed|errors?|skipped|ignored|tests?"
                             r"|warnings?|deselected)\b)|^(?:ok|FAIL) [\w.-]+/[\w./-]+")


def _normal(line: str) -> str:
    line = lines_mod.strip_ansi(line).strip().strip("=-!").strip()
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


def _heading_pattern():
    """A `=`-banner (`==== warnings summary ====`), a URL, Python's warning line (`a.py:4:
    DeprecationWarning: …`, whose next, deeper indented line echoes the source it points at),
    one test's pass (`test a::b ... ok`, `t.py::test_a PASSED`, `✓ adds`), a library's file
    (site-packages, the Python, Go or Rust installation, node_modules, cargo's registry), a
    suite header (`running 4 tests`)."""
    return (_compiled("banner", r"^={3,} .*[^=\s].* ={3,}$"),
            _compiled("url", r"\b(?:https?|file)://\S+"),
            _compiled("pywarning", r"^(\s*)\S+:\d+: \w*Warning: "),
            _compiled("passed", r"^test \S+ \.\.\. ok$|^\S+ PASSED(?: \[ *\d+%\])?$"
                                r"|^[✓✔√] [^✗✖×]*$"),
            _compiled("library", r"(?:site|dist)-packages/|/lib/python\d[\d.]*/|node_modules/"
                                 r"|^/rustc/|/\.cargo/registry/|/usr/(?:local/)?lib/go[-/]"
                                 r"|/usr/local/go/"),
            _compiled("header", r"^running \d+ tests?$"))


def missing_facts(raw_cut: str, ours_cut: str, every_line: bool = False) -> list:
    """The fact lines of `raw_cut` that `ours_cut` does not show. A fact line carries a
    failure word or names a file:line, a test id or a count; each of those it names must be
    in `ours_cut` (the names, not the whole line: a filter may reword around them), and a
    failure line naming none must be there whole (compared without colours, `=`/`-`/`!` banners
    and runs of spaces; a failing source line's `> ` marker may go: `> raise E()` shown as
    `a.py:7: raise E()`). No fact: a bare heading (`failures:`), a `=` banner naming nothing
    (`==== warnings summary ====`), a word inside a URL (`-- Docs: https://…/warnings.html`),
    the source line Python echoes under a warning (the warning's path:line points at it), a
    line that reports one test passing (the counts are the facts; filters count those lines),
    a suite header (`running 4 tests`: its result line has the counts); a library's file:line
    (site-packages, the standard library, node_modules, GOROOT, /rustc/: the frames filters
    drop) is no atom, so such a frame line is a fact only by its words. A cargo suite's
    `test result: …` line is a fact whole but for its timing (a folded `(×3 suites)` shows it).
    `every_line`: each non-blank line is a fact, whole (the matches of a search)."""
    shown = "\n".join(_normal(line) for line in ours_cut.split("\n"))
    fact, atom = _fact_pattern(), _atom_pattern()
    banner, url, pywarning, passed, library, header = _heading_pattern()
    missing = []
    warned_at = None  # the indent of the Python warning line just before, if any
    for line in raw_cut.split("\n"):
        text = _normal(line)
        if not text:
            continue
        if every_line:
            if text not in shown:
                missing.append(line)
            continue
        plain = lines_mod.strip_ansi(line)
        indent = len(plain) - len(plain.lstrip())
        echo, warned_at = warned_at is not None and indent > warned_at, None
        found = pywarning.match(plain)
        if found:
            warned_at = len(found.group(1))
        if echo or passed.match(text) or header.match(text):
            continue
        if text.startswith("test result: "):  # a suite's counts: all of them, with its status
            if text.split("; finished in ", 1)[0] not in shown:
                missing.append(line)
            continue
        words = url.sub(" ", text)
        atoms = [a for a in atom.findall(words) if not library.search(a)]
        if atoms:
            if any(not _shows_atom(a, shown) for a in atoms):
                missing.append(line)
        elif banner.match(plain.strip()):
            continue
        elif fact.search(words) and not (text.endswith(":") and " " not in text):
            if text not in shown and not (text[:2] == "> " and text[2:] in shown):
                missing.append(line)
    return missing
