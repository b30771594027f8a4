"""Text shapes every git command prints, shared by the git-* filters (not a filter itself).

- `GitMessages`: blank lines and transfer progress dropped, `hint:` blocks joined into one line
  per paragraph without the advice-toggle boilerplate, ref-update lines (`   a1..b2  main ->
  main`) without their alignment padding. Everything else passes unchanged, in order.
- `is_git_noise(line)`: progress lines (`Counting objects: 100% (5/5), done.`).

Imports nothing heavy (no `re`): it runs on the `cc-filter run` path.
"""
from cc_filter.lines import strip_ansi

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
    run) stay lines of their own; advice-toggle sentences are dropped."""
    out: list[str] = []
    paragraph: list[str] = []

    def flush():
        if paragraph:
            kept = [s for s in _sentences(" ".join(paragraph)) if not s.startswith(_HINT_NOISE)]
            if kept:
                out.append("hint: " + " ".join(kept))
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
    return out


class GitMessages:
    """Streams git's messages: noise out, hints condensed, ref lines compacted."""

    __slots__ = ("hint",)

    def __init__(self):
        self.hint: list[str] = []

    def feed(self, line: str) -> list[str]:
        line = strip_ansi(line).rstrip()
        if line.startswith("hint:"):
            self.hint.append(line)
            return []
        out = self.flush()
        if not line.strip() or is_git_noise(line) or line == "remote:":
            return out
        if is_ref_line(line):
            line = compact_ref_line(line)
        out.append(line)
        return out

    def flush(self) -> list[str]:
        if not self.hint:
            return []
        block, self.hint = self.hint, []
        return condense_hint(block)
