"""cc-rewrite as a command: records and bare commands in, answers out, exit codes, bad input."""
import json
import os
import subprocess
import sys

import pytest
from cc_rewrite import cli
from docopt import docopt
from rewrite_catalogue import fake_lookup

sys.path.insert(0, os.path.join(os.path.dirname(os.path.dirname(__file__)), "cc_gate"))
from stage_runner import run_main  # noqa: E402

BIN = os.path.join(os.path.dirname(sys.executable), "cc-rewrite")
R = "cc-filter run "


@pytest.fixture(autouse=True)
def stand_in_catalogue(monkeypatch):
    import cc_filter.choose.catalogue

    monkeypatch.setattr(cc_filter.choose.catalogue, "lookup", fake_lookup)
    # As in an activated venv: `cc-filter` on the PATH (records are only rewritten then).
    monkeypatch.setenv("PATH", os.path.dirname(BIN) + os.pathsep + os.environ.get("PATH", ""))


def rewrite(argv, stdin=b"", capsys=None):
    return run_main(cli.main, argv, stdin, capsys)


@pytest.mark.parametrize("argv, stdin, code, out", [
    (["git status"], b"", 0, R + "git status\n"),
    (["echo hi"], b"", 1, "echo hi\n"),
    ([""], b"", 1, "\n"),
    ([], b"git status\n", 0, R + "git status\n"),
    ([], b"echo a\necho b\n", 1, "echo a\necho b\n"),
    ([], b"echo a\nls -la\n", 0, "echo a\n" + R + "ls -la\n"),
    ([], b"git status && ls | wc -l\n", 0, R + "git status && ls | wc -l\n"),
    ([], b"\n\ngit diff\n", 0, "\n\n" + R + "git diff\n"),
    ([], b"", 0, ""),
    ([], b"git status", 0, R + "git status\n"),
    ([], b"ls \xff\n", 0, R + "ls \udcff\n"),  # bytes that are not UTF-8 come back as they were
])
def test_bare_mode(argv, stdin, code, out, capsysbinary):
    assert rewrite(argv, stdin, capsysbinary)[:2] == (code, out)


def test_record_gets_rewritten_and_keeps_everything_else(capsysbinary):
    rec = {"agent": "claude", "cwd": "/tmp", "command": "git add . && cargo test 2>&1 | tail -20",
           "input": {"command": "git add . && cargo test 2>&1 | tail -20", "timeout": 60},
           "decision": "allow", "reason": "allow rules"}
    code, out, err = rewrite([], json.dumps(rec) + "\n", capsysbinary)
    assert code == 0 and err == ""
    assert out == json.dumps(dict(rec, rewritten=R + "git add . && " + R +
                                  "--then=tail:20 cargo test 2>&1 | tail -20")) + "\n"


@pytest.mark.parametrize("rec, expected", [
    ({"command": "echo hi"}, {"command": "echo hi"}),
    ({"command": "echo hi", "rewritten": "stale"}, {"command": "echo hi"}),
    ({"command": "git status", "decision": "deny", "reason": "deny rule x"},
     {"command": "git status", "decision": "deny", "reason": "deny rule x"}),
    ({"command": "git status", "rewritten": R + "git status", "decision": "deny"},
     {"command": "git status", "decision": "deny"}),
    ({"command": "git status", "decision": "allow"},
     {"command": "git status", "decision": "allow", "rewritten": R + "git status"}),
    # the agent would ask: its own prompt must judge the original, so no rewrite
    ({"command": "git status", "decision": "ask", "reason": "no allow rule matches"},
     {"command": "git status", "decision": "ask", "reason": "no allow rule matches"}),
    ({"command": "git status", "rewritten": R + "git status", "decision": "ask"},
     {"command": "git status", "decision": "ask"}),
    ({"rewritten": "old", "command": "ls"}, {"rewritten": R + "ls", "command": "ls"}),
    # the agent surely asks the user (the gate's mark): rewritten, the hook asks about that
    ({"command": "pytest -q", "decision": "ask", "prompts": True},
     {"command": "pytest -q", "decision": "ask", "prompts": True,
      "rewritten": R + "pytest -q"}),
    ({"command": "pytest -q", "decision": "ask", "prompts": "yes"},
     {"command": "pytest -q", "decision": "ask", "prompts": "yes"}),
    ({"command": "pytest -q", "decision": "deny", "prompts": True},
     {"command": "pytest -q", "decision": "deny", "prompts": True}),
])
def test_record_cases(rec, expected, capsysbinary):
    code, out, _ = rewrite([], json.dumps(rec), capsysbinary)
    assert code == 0 and out == json.dumps(expected) + "\n"


@pytest.mark.parametrize("line, warning", [
    ('{"command": "ls"', "not valid JSON"),
    ('{"command": ["ls"]}', 'a record without a string "command"'),
])
def test_malformed_line_passes_unchanged_with_one_warning(line, warning, capsysbinary):
    code, out, err = rewrite([], f"{line}\n\nls\n", capsysbinary)
    assert out == f"{line}\n\n{R}ls\n" and code == 0
    assert err.startswith(f"cc-rewrite: passing on unchanged: {warning}")
    assert err.count("\n") == 1


def test_explain(capsysbinary):
    code, out, _ = rewrite(["--explain", "git status && ls | wc -l"], b"", capsysbinary)
    assert code == 0
    assert out == (R + "git status && ls | wc -l\n"
                   "git status\trewritten (filter git-status)\n"
                   "ls\traw: feeds wc (compacted input would change its answer)\n"
                   "wc -l\traw: no filter for 'wc -l'\n")


@pytest.mark.parametrize("command, lines", [
    ("echo $((1+2)) && git status", [
        "echo $((1+2)) && git status",
        "(whole command)\traw: has arithmetic $((…)) or ((…))",
        "echo $((1+2))\traw: whole command untouched",
        "git status\traw: whole command untouched"]),
    ("sudo git status; CTXCRL_DISABLED=1 ls; git diff > x", [
        "sudo git status; CTXCRL_DISABLED=1 ls; git diff > x",
        "sudo git status\traw: sudo runs another command",
        "CTXCRL_DISABLED=1 ls\traw: CTXCRL_DISABLED is set",
        "git diff > x\traw: redirects to a file (/dev/null too)"]),
    ("git log | grep fix | head -3", [
        "git log | " + R + "--then=head:3 grep fix | head -3",
        "git log\traw: feeds grep (compacted input would change its answer)",
        "grep fix\trewritten (filter grep), read by head -3",
        "head -3\traw: displays the pipe's output"]),
    ("cat a b; tail -f x", [
        "cat a b; tail -f x",
        "cat a b\traw: cat of several files",
        "tail -f x\traw: tail -f: an option the read filter does not understand"]),
    ("git commit -m \"oops", [
        "git commit -m \"oops",
        "(whole command)\traw: cannot parse (unterminated double quote)"]),
])
def test_explain_reasons(command, lines, capsysbinary):
    out = rewrite(["--explain", command], b"", capsysbinary)[1]
    assert out.splitlines() == lines


def test_explain_records(capsysbinary):
    stdin = (json.dumps({"command": "git status", "decision": "deny"}) + "\n" +
             json.dumps({"command": "ls"}) + "\n")
    code, out, _ = rewrite(["--explain"], stdin, capsysbinary)
    assert code == 0
    assert out.splitlines() == ["git status", "(whole command)\traw: denied by the gate",
                                R + "ls", "ls\trewritten (filter ls)"]


@pytest.mark.parametrize("argv", [["--bogus"], ["a", "b"], ["--cwd"], ["--explain", "--explain"]])
def test_usage_errors_exit_64(argv, capsysbinary):
    code, out, err = rewrite(argv, b"", capsysbinary)
    assert code == 64 and out == "" and "Traceback" not in err


def test_help(capsysbinary):
    code, out, _ = rewrite(["-h"], b"", capsysbinary)
    assert code == 0 and out.startswith("cc-rewrite: run each command") and "Usage:" in out


@pytest.mark.parametrize("argv", [
    [], ["git status"], [""], ["--explain"], ["--explain", "ls"], ["ls", "--explain"],
    ["--cwd", "/x", "y"], ["--cwd=/x"], ["--explain", "--cwd=/tmp", "git push"],
])
def test_fast_path_agrees_with_docopt(argv):
    fast = cli.parse_fast(argv)
    assert fast is not None
    assert fast == dict(docopt(cli.__doc__, argv=argv, default_help=False))


@pytest.mark.parametrize("argv", [["-h"], ["--help"], ["--exp"], ["--", "-x"], ["a", "b"],
                                  ["--cwd", "x", "--cwd", "y"], ["-"]])
def test_other_forms_go_to_docopt(argv):
    assert cli.parse_fast(argv) is None


def test_console_script_never_prints_a_traceback(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path), CTXCRL_HOME=str(tmp_path / "c"))
    (tmp_path / "c").mkdir()
    (tmp_path / "c/config.toml").write_text("[hooks\nexclude_commands = 3")
    stdin = b'{"command": "echo"}\n{"bad\n\xff\xfe\n{"command": null}\n((((\n"unterminated\n'
    proc = subprocess.run([BIN], input=stdin, capture_output=True, env=env, timeout=30)
    assert proc.returncode == 1
    assert b"Traceback" not in proc.stderr
    assert proc.stdout == stdin


def test_an_internal_error_hands_the_command_back(monkeypatch, capsysbinary):
    import cc_rewrite.rewrite

    def broken(*args, **kwargs):
        raise IndexError("peel bug")

    monkeypatch.setattr(cc_rewrite.rewrite, "rewrite", broken)
    code, out, err = rewrite(["git status"], b"", capsysbinary)
    assert (code, out) == (1, "git status\n")
    assert "internal error IndexError('peel bug')" in err
    line = '{"command": "git status", "x": 1}'
    code, out, err = rewrite([], line + "\n", capsysbinary)
    assert (code, out) == (0, line + "\n") and "passing record on unchanged" in err


def test_a_broken_catalogue_leaves_commands_raw(monkeypatch, capsysbinary):
    import cc_filter.choose.catalogue
    import cc_rewrite.rewrite

    def broken(key, cwd=None):
        raise OSError("index unreadable")

    monkeypatch.setattr(cc_filter.choose.catalogue, "lookup", broken)
    monkeypatch.setattr(cc_rewrite.rewrite, "_warned", set())  # warned once per process
    code, out, err = rewrite(["git status && ls"], b"", capsysbinary)
    assert (code, out) == (1, "git status && ls\n")
    assert err.count("cc-rewrite: filter catalogue failed, leaving commands raw: "
                     "OSError('index unreadable')\n") == 1


HEAVY = ("re", "json", "docopt", "subprocess", "pathlib", "tomllib", "hashlib", "shlex",
         "tempfile", "dataclasses", "typing", "inspect", "enum", "signal", "sqlite3", "cc_gate")


@pytest.mark.parametrize("argv, stdin", [
    ([], '{"agent": "claude", "cwd": "/", "command": "git status && pytest -q | tail"}\n'),
    (["git status && ls -la"], ""),
])
def test_the_stage_imports_nothing_heavy(argv, stdin):
    """cc-rewrite runs on every agent command: no re, json, docopt, … on its path (ARCHITECTURE §9),
    and not cc-gate either (the record codec is cc_peel's). The real catalogue, warm."""
    code = ("import sys\n"
            "from cc_rewrite import cli\n"
            f"code = cli.main({argv!r})\n"
            f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
            "sys.stderr.write(f'PROBE {code} {heavy}\\n')\n")
    for _ in range(2):  # the first run may build the filter index
        done = subprocess.run([sys.executable, "-c", code], input=stdin.encode(),
                              capture_output=True, timeout=60)
    probe = [line for line in done.stderr.decode().splitlines() if line.startswith("PROBE")]
    assert probe == ["PROBE 0 []"], done.stderr


def test_bare_commands_pipe_through_the_gate(tmp_path):
    """`echo 'make -j4' | cc-gate | cc-rewrite`: the gate passes a bare command on as it is."""
    gate = os.path.join(os.path.dirname(sys.executable), "cc-gate")
    env = dict(os.environ, HOME=str(tmp_path))  # no agent settings: the gate asks
    done = subprocess.run(f"echo 'make -j4' | {gate} | {BIN}", shell=True, capture_output=True,
                          text=True, env=env, timeout=60)
    assert done.stdout == "cc-filter run make -j4\n"
    assert done.stderr == "cc-gate: ask: no allow rule matches: make -j4\n"


def test_records_are_not_rewritten_when_cc_filter_cannot_be_found(monkeypatch, tmp_path,
                                                                    capsysbinary):
    """The hook's record: the agent's shell would not find `cc-filter` (no filter_bin known):
    the command stays as it was. A bare command (typed by hand) still shows the rewrite."""
    monkeypatch.setenv("PATH", str(tmp_path))
    rec = {"command": "git status", "decision": "allow"}
    code, out, err = rewrite([], json.dumps(rec) + "\n", capsysbinary)
    assert (code, json.loads(out), err) == (0, rec, "")
    assert rewrite(["git status"], b"", capsysbinary)[:2] == (0, R + "git status\n")
    code, out, _ = rewrite(["--explain"], json.dumps(rec) + "\n", capsysbinary)
    assert out.splitlines()[:2] == [
        "git status", ("(whole command)\traw: cc-filter cannot be found: cc-filter is not on the "
                       "PATH (set [hooks] filter_bin or CTXCRL_FILTER_BIN to its absolute path)")]


def test_records_use_ctxcrl_filter_bin_even_with_a_broken_config(monkeypatch, tmp_path,
                                                                 ctxcrl_home, capsysbinary):
    """What the hook script does since hook version 3: it exports CTXCRL_FILTER_BIN, so a
    config.toml broken after install cannot make cc-rewrite fall back to a bare `cc-filter`."""
    (ctxcrl_home / "config.toml").write_text('[hooks]\nfilter_bin = "/x/cc-filter"\n[tee\n')
    monkeypatch.setenv("PATH", str(tmp_path))
    filter_bin = os.path.join(os.path.dirname(BIN), "cc-filter")
    monkeypatch.setenv("CTXCRL_FILTER_BIN", filter_bin)
    monkeypatch.setenv("CTXCRL_QUIET_CONFIG", "1")
    code, out, err = rewrite([], b'{"command": "git status"}\n', capsysbinary)
    assert (code, err) == (0, "")
    assert json.loads(out)["rewritten"] == f"{filter_bin} run git status"


def test_catalogue_read_before_stdin_fails_quietly(monkeypatch, capsysbinary):
    """Record mode reads the filter index before stdin (Rewriter.prepare, while the hook's
    upstream stages still run): when that fails, the records are answered as ever."""
    import cc_filter.choose.catalogue

    calls = []

    def unreadable(cwd=None):
        calls.append(cwd)
        raise OSError("index unreadable")

    monkeypatch.setattr(cc_filter.choose.catalogue, "all_entries", unreadable)
    rec = json.dumps({"agent": "claude", "cwd": "/", "command": "git status"})
    code, out, err = rewrite([], rec + "\n", capsysbinary)
    assert calls and (code, err) == (0, "")
    assert json.loads(out)["rewritten"].endswith("cc-filter run git status")
