"""Text shapes every git command prints, shared by the git-* filters (not a filter itself).

- `GitMessages`: blank lines and transfer progress dropped, `hint:` blocks joined into one line
  per paragraph without the advice-toggle boilerplate (the hint lines it drops counted:
  `... (N hint lines omitted)`), ref-update lines (`   a1..b2  main ->
  main`) without their alignment padding. Everything else passes unchanged, in order.
- `GitMessageFilter`: the base of the filters that read git's messages that way (git-fetch,
  git-push, git-add, git-branch, git-pull).
- `HintBlock`: a run of `hint:` lines held until it is complete, then condensed.
- `is_git_noise(line)`: progress lines (`Counting objects: 100% (5/5), done.`).

Imports nothing heavy (no `re`): it runs on the `cc-filter run` path.
"""
from cc_filter.kit.filter import Filter
from cc_filter.kit.lines import omitted, strip_ansi

_PROGRESS = (
    "Enumerating objects:", "Counting objects:", "Compressing objects:", "Writing objects:",
    "Receiving objects:", "Resolving deltas:", "Unpacking objects:", "Delta compression using",
    "Total ", "Checking connectivity", "Updating files:", "Checking out files:",
    "Filtering content:",
)
# Sentences of a hint that only explain how to silence or look up the hint.
_HINT_NOISE = ("See ", "Turn this message off", "Disable this message", "\"git config advice.",
               "This is usually caused by", "You can do so by running",
               "You can replace \"git config\"")


def is_git_noise(line: str) -> bool:
    text = line[8:] if line.startswith("remote: ") else line
    return text.startswith(_PROGRESS)


def compact_ref_line(line: str) -> str:
    """` ! [rejected]        main -> main (fetch first)` → `! [rejected] main -> main (fetch
    first)`: the alignment padding of push/fetch ref lines goes, every word stays."""
    return " ".join(line.split())


def is_ref_line(line: str) -> bool:
    """A push/fetch ref update: ` <flag> <summary> <from> -> <to>` (flag: space + - * ! = t)."""
    return len(line) > 3 and line[0] == " " and line[1] in " +-*!=t" and line[2] == " " and " -> " in line


def _sentences(text: str) -> list[str]:
    out: list[str] = []
    start = 0
    i = 0
    n = len(text)
    while i < n:
        if text[i] in ".!?" and (i + 1 == n or text[i + 1] == " "):
            # "e.g." is no sentence end
            if not text[max(0, i - 3):i + 1].endswith(("e.g.", "i.e.")):
                out.append(text[start:i + 1].strip())
                start = i + 1
        i += 1
    rest = text[start:].strip()
    if rest:
        out.append(rest)
    return out


def condense_hint(block: list[str]) -> list[str]:
    """A run of `hint:` lines → one `hint:` line per paragraph; indented lines (commands to
    run) stay lines of their own; advice-toggle sentences are dropped, and the hint lines they
    took out with them (a line not wholly in a kept sentence) are counted at the end of the
    block: `... (2 hint lines omitted)`."""
    out: list[str] = []
    paragraph: list[str] = []
    dropped = 0

    def flush():
        nonlocal dropped
        if paragraph:
            kept = [s for s in _sentences(" ".join(paragraph)) if not s.startswith(_HINT_NOISE)]
            joined = " ".join(" ".join(kept).split())
            if kept:
                out.append("hint: " + joined)
            dropped += sum(1 for line in paragraph if " ".join(line.split()) not in joined)
            paragraph.clear()

    for line in block:
        text = line[5:]
        if text.startswith(" "):
            text = text[1:]
        if not text.strip():
            flush()
        elif text.startswith("  "):
            flush()
            out.append("hint:   " + text.strip())
        else:
            paragraph.append(text.strip())
    flush()
    if dropped:
        out.append(omitted(dropped, "hint lines"))
    return out


class HintBlock:
    """`hold(line)` keeps a `hint:` line (True) and refuses any other (False); `flush()` gives
    the run held so far, condensed (`condense_hint`), and starts a new one."""

    __slots__ = ("lines",)

    def __init__(self):
        self.lines: list[str] = []

    def hold(self, line: str) -> bool:
        if line.startswith("hint:"):
            self.lines.append(line)
            return True
        return False

    def flush(self) -> list[str]:
        if not self.lines:
            return []
        block, self.lines = self.lines, []
        return condense_hint(block)


class GitMessages:
    """Streams git's messages: noise out, hints condensed, ref lines compacted."""

    __slots__ = ("hints",)

    def __init__(self):
        self.hints = HintBlock()

    def feed(self, line: str) -> list[str]:
        line = strip_ansi(line).rstrip()
        if self.hints.hold(line):
            return []
        out = self.hints.flush()
        if not line.strip() or is_git_noise(line) or line == "remote:":
            return out
        if is_ref_line(line):
            line = compact_ref_line(line)
        out.append(line)
        return out

    def flush(self) -> list[str]:
        return self.hints.flush()


class GitMessageFilter(Filter):
    """Base of the filters over git's messages: each line goes through `GitMessages`, what it
    keeps goes through `take(lines)` (default: shown as it is); at the end the last held hint
    is taken too, then `summary()` follows."""

    def __init__(self, argv: list[str]):
        super().__init__(argv)
        self.messages = GitMessages()

    def take(self, lines: list[str]) -> list[str]:
        return lines

    def summary(self) -> list[str]:
        return []

    def feed(self, line):
        return self.take(self.messages.feed(line))

    def finish(self, exit_code):
        return self.take(self.messages.flush()) + self.summary()
