"""cc_gate.process: the running client's command line, found up the parent chain."""
import os
import subprocess
import sys

from cc_gate import process


def test_the_chain_is_walked_once_per_question(monkeypatch):
    """The gate asks about the client several times per command (its flags, its version):
    /proc is read once per (names, start), and each caller gets its own argv list."""
    chain = {40: (30, ["sh", "-c", "hook"]), 30: (20, ["node", "/opt/bin/claude", "-p"]),
             20: (1, ["bash"])}
    reads = []

    def parent_and_argv(pid):
        reads.append(pid)
        return chain.get(pid, (None, None))

    monkeypatch.setattr(process, "_parent_and_argv", parent_and_argv)
    monkeypatch.setattr(process, "_FOUND", {})
    first = process.client_process(("claude",), 40)
    assert first == (30, ["node", "/opt/bin/claude", "-p"]) and reads == [40, 30]
    first[1].append("changed by a caller")
    assert process.client_argv(("claude",), 40) == ["node", "/opt/bin/claude", "-p"]
    assert process.client_process(("gemini",), 40) is None
    assert reads == [40, 30, 40, 30, 20]


def test_a_real_ancestor_is_found():
    """A child of `sh -c`, itself started by this test's python: that python is found by its
    program name, two hops up."""
    code = ("import sys\n"
            "from cc_gate import process\n"
            "found = process.client_process(('python3', 'python', 'pytest', 'py.test'))\n"
            "print(found is not None and found[0] == int(sys.argv[1]))")
    done = subprocess.run(["/bin/sh", "-c", f'"{sys.executable}" -c "$0" "$1"; :', code,
                           str(os.getpid())], capture_output=True, text=True, timeout=30)
    assert done.stdout.strip() == "True", done.stderr
