"""The top-level README's fenced examples, read and run the way a user types them.

A `console` block is a session: each `$ command` runs in one bash (so `cd` and `export`
carry on), in a fresh HOME, from a fresh empty folder, and what follows it up to the next `$`
is its output (stdout and stderr, as a terminal shows them). `...` in an expected line
matches any text there (a path that depends on where the tools are installed). A `sh` block
is a list of commands that must each succeed (`pip install` and the test command are what
set the run up, so they are not repeated). Run as a script, it prints what each session
really gives, to paste into the README after a change.
"""
import os
import re
import shutil
import subprocess
import sys

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
README = os.path.join(REPO, "README.md")
BIN = os.path.dirname(sys.executable)
MARK = "@@ctxcrl-example-{}@@"
SETUP = ("pip install", "python -m pytest")
"""Pieces of a `sh` block that set the run up (install, the test suite itself)."""


class Block:
    def __init__(self, lang: str, lines: list[str], line_no: int):
        self.lang = lang
        self.lines = lines
        self.line_no = line_no

    @property
    def steps(self) -> list[tuple[str, list[str]]]:
        """(command, expected output lines) of a console block."""
        steps: list = []
        for line in self.lines:
            if line.startswith("$ "):
                steps.append((line[2:], []))
            elif steps:
                steps[-1][1].append(line)
        return [(cmd, _trim(out)) for cmd, out in steps]

    def __repr__(self):
        return f"README.md:{self.line_no} ({self.lang})"


def _trim(lines):
    while lines and not lines[-1].strip():
        lines = lines[:-1]
    return lines


def blocks(path: str = README) -> list[Block]:
    found, current, lang, start = [], None, "", 0
    with open(path, encoding="utf-8") as f:
        for number, line in enumerate(f, 1):
            line = line.rstrip("\n")
            if line.startswith("```") and current is None:
                lang, current, start = line[3:].strip(), [], number
            elif line.startswith("```"):
                found.append(Block(lang, current, start))
                current = None
            elif current is not None:
                current.append(line)
    return found


def session_env(home: str) -> dict:
    return {"HOME": home, "PATH": f"{BIN}:/usr/local/bin:/usr/bin:/bin", "LANG": "C.UTF-8",
            "TZ": "UTC", "SHELL": shutil.which("bash") or "/bin/bash", "USER": "dev",
            "GIT_AUTHOR_NAME": "Dev", "GIT_AUTHOR_EMAIL": "dev@example.com",
            "GIT_COMMITTER_NAME": "Dev", "GIT_COMMITTER_EMAIL": "dev@example.com",
            "GIT_AUTHOR_DATE": "2026-01-05T10:00:00Z",
            "GIT_COMMITTER_DATE": "2026-01-05T10:00:00Z"}


def run_session(block: Block, root: str) -> list[str]:
    """Each command's output (one string per `$` line), run in one bash in `root`."""
    home = os.path.join(root, "home")
    work = os.path.join(home, "work")  # a project under the home folder, as a user's would be
    os.makedirs(work, exist_ok=True)
    subprocess.run(["git", "init", "-q", work], check=True, env=session_env(home))
    script = "".join(f"printf '\\n{MARK.format(i)}\\n'\n{{ {cmd}\n}} 2>&1\n"
                     for i, (cmd, _) in enumerate(block.steps))
    done = subprocess.run(["bash", "--noprofile", "--norc", "-c", script], cwd=work,
                          env=session_env(home), stdin=subprocess.DEVNULL,
                          capture_output=True, text=True, timeout=300)
    parts = re.split(r"\n?" + re.escape(MARK).replace(r"\{\}", r"\d+") + r"\n",
                     "\n" + done.stdout)
    return [p.rstrip("\n") for p in parts[1:]]


def matches(expected: list[str], actual: str) -> bool:
    lines = actual.splitlines() if actual else []
    if len(lines) != len(expected):
        return False
    for want, got in zip(expected, lines):
        pattern = ".*".join(re.escape(piece) for piece in want.split("..."))
        if not re.fullmatch(pattern, got):
            return False
    return True


def sh_commands(block: Block) -> list[str]:
    """The commands of a `sh` block, split at `&&`, comments dropped, setup pieces out."""
    commands = []
    for line in block.lines:
        line = line.split("  #", 1)[0].strip()
        for piece in (p.strip() for p in line.split(" && ")):
            if piece and not piece.startswith(SETUP):
                commands.append(piece)
    return commands


if __name__ == "__main__":
    import tempfile

    for block in blocks():
        if block.lang != "console":
            continue
        with tempfile.TemporaryDirectory() as root:
            outputs = run_session(block, root)
        print(f"```console  # {block!r}")
        for (cmd, _), out in zip(block.steps, outputs):
            print(f"$ {cmd}")
            if out:
                print(out)
        print("```\n")
