"""What a shell on the line may read on stdin (`hidden.stdin_scripts`, which the gate's search
for hidden commands and its nested-script check both use), against what bash really feeds:
a quoted heredoc's body and a here-string's value, for generated text (hypothesis)."""
import shutil
import subprocess

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from cc_gate.hidden import stdin_scripts
from cc_peel.peeling import peel

BASH = shutil.which("bash")
pytestmark = pytest.mark.skipif(BASH is None, reason="bash is not installed")
#: printable text without the quote that would end it, NUL or a carriage return
line = st.text(st.characters(min_codepoint=32, max_codepoint=0x24f, blacklist_characters="'"),
               max_size=30)


def bash_feeds(command: str) -> str:
    done = subprocess.run([BASH, "--norc", "--noprofile", "-c", command], capture_output=True,
                          timeout=20, env={"PATH": "/usr/bin:/bin", "LC_ALL": "C.UTF-8"})
    assert done.returncode == 0, (command, done.stderr)
    return done.stdout.decode("utf-8")


@settings(max_examples=40, deadline=None)
@given(line)
def test_a_here_string_is_its_value(text):
    command = f"cat <<< '{text}'"
    assert stdin_scripts(peel(command).tokens) == [text]
    assert bash_feeds(command) == text + "\n"


@settings(max_examples=40, deadline=None)
@given(st.lists(line.filter(lambda s: s.strip() != "END"), min_size=1, max_size=4))
def test_a_quoted_heredoc_is_its_body(lines):
    body = "".join(f"{text}\n" for text in lines)
    command = f"cat <<'END'\n{body}END\n"
    assert stdin_scripts(peel(command).tokens) == [body]
    assert bash_feeds(command) == body


@pytest.mark.parametrize("command, fed", [
    ("cat <<< ''", [""]),  # bash feeds an empty line: the script is empty, not `''`
    ("cat <<< \"\"", [""]),
    ("true <<< 'a' | cat <<'E'\nb\nE\n", ["a", "b\n"]),  # every one, in order
    ("cat <<< $'git\\npush'", ["git\npush"]),
])
def test_each_stdin_text_in_order(command, fed):
    assert stdin_scripts(peel(command).tokens) == fed
