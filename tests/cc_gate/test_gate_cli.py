"""cc-gate as a command: records and bare commands in, answers out, exit codes, bad input."""
import json
import os
import subprocess
import sys

import pytest
from cc_gate import cli
from docopt import docopt
from settings_files import claude_settings, write_json
from stage_runner import run_main

BIN = os.path.join(os.path.dirname(sys.executable), "cc-gate")


@pytest.fixture
def claude_rules(private_home):
    write_json(private_home / ".claude/settings.json", claude_settings(
        allow=["Bash(git status)", "Bash(git add:*)", "Bash(cargo test:*)", "Bash(tail:*)"],
        ask=["Bash(rm:*)"],
        deny=["Bash(git push --force:*)"]))
    return private_home


def gate(argv, stdin=b"", capsysbinary=None):
    return run_main(cli.main, argv, stdin, capsysbinary)


def test_record_gets_decision_and_reason_and_keeps_everything_else(claude_rules, tmp_path, capsysbinary):
    line = json.dumps({"agent": "claude", "cwd": str(tmp_path), "command": "git status",
                       "input": {"command": "git status", "description": "see"}, "z": [1]})
    code, out, err = gate([], line + "\n", capsysbinary)
    assert code == 0 and err == ""
    assert out == line[:-1] + ', "decision": "allow", "reason": "allow rule Bash(git status) ' \
                              'in ~/.claude/settings.json"}\n'


def test_existing_decision_is_replaced_in_place(claude_rules, capsysbinary):
    line = '{"decision": "allow", "command": "git push --force", "reason": "old", "x": 1}'
    code, out, _ = gate([], line, capsysbinary)
    assert json.loads(out) == {"decision": "deny", "command": "git push --force",
                               "reason": "deny rule Bash(git push --force:*) in "
                                         "~/.claude/settings.json", "x": 1}
    assert list(json.loads(out)) == ["decision", "command", "reason", "x"]


ALLOW_STATUS = "cc-gate: allow: allow rule Bash(git status) in ~/.claude/settings.json\n"
DENY_PUSH = "cc-gate: deny: deny rule Bash(git push --force:*) in ~/.claude/settings.json\n"
ASK_MAKE = "cc-gate: ask: no allow rule matches: make\n"


# Output mirrors the input: the command itself for allow and ask, an empty line for deny (a
# denied command never reaches the next stage); the verdict on stderr.
@pytest.mark.parametrize("argv, stdin, code, out, err", [
    (["git status"], b"", 0, "git status\n", ALLOW_STATUS),
    (["git push --force"], b"", 2, "\n", DENY_PUSH),
    (["rm -rf x"], b"", 3, "rm -rf x\n",
     "cc-gate: ask: ask rule Bash(rm:*) in ~/.claude/settings.json\n"),
    (["make"], b"", 3, "make\n", ASK_MAKE),
    ([""], b"", 3, "\n", "cc-gate: ask: no command to allow\n"),
    ([], b"git status\n", 0, "git status\n", ALLOW_STATUS),
    ([], b"git status\nmake\n", 3, "git status\nmake\n", ALLOW_STATUS + ASK_MAKE),
    ([], b"make\ngit push --force\ngit status\n", 2, "make\n\ngit status\n",
     ASK_MAKE + DENY_PUSH + ALLOW_STATUS),
    ([], b"  git status  # see\n", 0, "  git status  # see\n", ALLOW_STATUS),
    ([], b"", 0, "", ""),
    ([], b"\n\n", 0, "\n\n", ""),
])
def test_bare_mode(claude_rules, argv, stdin, code, out, err, capsysbinary):
    assert gate(argv, stdin, capsysbinary) == (code, out, err)


def test_bare_gate_pipes_into_rewrite(claude_rules, ctxcrl_home):
    """`echo CMD | cc-gate | cc-rewrite`: the gate passes the command on, the rewrite gets it;
    a denied command reaches the rewrite as an empty line."""
    env = dict(os.environ, HOME=str(claude_rules), CTXCRL_HOME=str(ctxcrl_home))
    env.pop("CTXCRL_FILTER_BIN", None)
    env.pop("CTXCRL_DISABLED", None)
    rewrite = os.path.join(os.path.dirname(sys.executable), "cc-rewrite")
    for command, out, err in [
            ("git status", "cc-filter run git status\n", ALLOW_STATUS),
            ("git push --force", "\n", DENY_PUSH)]:
        done = subprocess.run(f"echo '{command}' | {BIN} | {rewrite}", shell=True, env=env,
                              capture_output=True, text=True, timeout=60)
        assert (done.stdout, done.stderr) == (out, err)


def test_record_mode_exits_0_even_on_deny(claude_rules, capsysbinary):
    code, out, _ = gate([], '{"command": "git push --force"}\n', capsysbinary)
    assert code == 0 and json.loads(out)["decision"] == "deny"


@pytest.mark.parametrize("line, warning", [
    ('{"command": "ls"', "not valid JSON"),
    ('{"cwd": "/"}', 'a record without a string "command"'),
    ("[1, 2]", "a JSON value that is not an object"),
])
def test_malformed_line_passes_unchanged_with_one_warning(claude_rules, line, warning, capsysbinary):
    code, out, err = gate([], f"{line}\n\n{{\"command\": \"git status\"}}\n", capsysbinary)
    assert code == 0
    lines = out.split("\n")
    assert lines[0] == line and lines[1] == ""
    assert json.loads(lines[2])["decision"] == "allow"
    assert err.count("\n") == 1 and err.startswith("cc-gate: passing on unchanged: " + warning)


def test_invalid_utf8_bare_line_is_answered(claude_rules, capsysbinary):
    code, out, err = gate([], b"make \xff\n", capsysbinary)
    assert (code, out) == (3, "make \udcff\n")
    assert err.startswith("cc-gate: ask: no allow rule matches: make ")


def test_cwd_of_the_record_finds_the_project_rules(private_home, tmp_path, capsysbinary):
    write_json(tmp_path / "app/.claude/settings.json", claude_settings(deny=["Bash(make deploy)"]))
    (tmp_path / "app/sub").mkdir()
    rec = {"cwd": str(tmp_path / "app/sub"), "command": "make deploy"}
    out = gate([], json.dumps(rec), capsysbinary)[1]
    assert json.loads(out)["reason"] == \
        f"deny rule Bash(make deploy) in {tmp_path}/app/.claude/settings.json"
    other = {"cwd": str(tmp_path), "command": "make deploy"}
    assert json.loads(gate([], json.dumps(other), capsysbinary)[1])["decision"] == "ask"


def test_cwd_option_for_bare_commands(private_home, tmp_path, capsysbinary):
    write_json(tmp_path / "app/.claude/settings.local.json", claude_settings(allow=["Bash(make)"]))
    # an untrusted workspace: Claude Code keeps settings.local.json's allow rules only when git
    # does not track the file (outside a repository it drops them too)
    subprocess.run(["git", "init", "-q", str(tmp_path / "app")], check=True)
    assert gate(["--cwd", str(tmp_path / "app"), "make"], b"", capsysbinary)[0] == 0
    assert gate(["--cwd", str(tmp_path), "make"], b"", capsysbinary)[0] == 3


def test_agent_from_the_record_or_the_option(private_home, tmp_path, capsysbinary):
    write_json(private_home / ".gemini/settings.json",
               {"tools": {"exclude": ["run_shell_command(git push)"]}})
    write_json(private_home / ".claude/settings.json", claude_settings(allow=["Bash(git push)"]))
    rec = json.dumps({"agent": "gemini", "cwd": str(tmp_path), "command": "git push"})
    assert json.loads(gate([], rec, capsysbinary)[1])["decision"] == "deny"
    assert json.loads(gate(["--agent=claude"], rec, capsysbinary)[1])["decision"] == "allow"
    # a record naming an agent no model answers for: never allowed, one clear line
    unknown = json.dumps({"agent": "nobody", "cwd": str(tmp_path), "command": "git push"})
    code, out, err = gate([], unknown + "\n" + unknown, capsysbinary)
    assert code == 0 and [json.loads(line)["decision"] for line in out.splitlines()] == ["ask"] * 2
    assert err.count("unknown agent 'nobody' (one of: claude, cline, codex,") == 1
    assert gate(["--agent=nobody", "ls"], b"", capsysbinary)[0] == 64


def test_malformed_settings_warn_once_per_run(private_home, tmp_path, capsysbinary):
    write_json(private_home / ".claude/settings.json", '{"permissions": ')
    records = "".join(json.dumps({"cwd": str(tmp_path), "command": c}) + "\n"
                      for c in ("ls", "pwd", "git status"))
    code, out, err = gate([], records, capsysbinary)
    assert code == 0 and len(out.splitlines()) == 3
    assert err.splitlines() == [
        "cc-gate: skipping ~/.claude/settings.json: malformed JSON (not JSON at offset 16)"]


def test_list_rules(claude_rules, capsysbinary):
    code, out, _ = gate(["--list-rules"], b"", capsysbinary)
    assert code == 0
    assert out.splitlines() == [
        "deny\tBash(git push --force:*)\t~/.claude/settings.json",
        "ask\tBash(rm:*)\t~/.claude/settings.json",
        "allow\tBash(git status)\t~/.claude/settings.json",
        "allow\tBash(git add:*)\t~/.claude/settings.json",
        "allow\tBash(cargo test:*)\t~/.claude/settings.json",
        "allow\tBash(tail:*)\t~/.claude/settings.json",
    ]
    code, out, _ = gate(["--list-rules", "--agent", "cursor"], b"", capsysbinary)
    assert out == "no rules for cursor (files read: none)\n"


@pytest.mark.parametrize("argv", [["--agent", "vim", "ls"], ["--bogus"], ["a", "b"], ["--agent"]])
def test_usage_errors_exit_64(argv, capsysbinary):
    code, out, err = gate(argv, b"", capsysbinary)
    assert code == 64 and out == "" and "Traceback" not in err and err


def test_help(capsysbinary):
    code, out, _ = gate(["--help"], b"", capsysbinary)
    assert code == 0 and out.startswith("cc-gate: allow, ask or deny") and "Usage:" in out


@pytest.mark.parametrize("argv", [
    [], ["git status"], [""], ["--agent=cursor"], ["--agent", "gemini", "ls -la"],
    ["--cwd", "/x", "y"], ["--cwd=/x"], ["--agent=codex", "--cwd=/tmp", "git push"],
    ["ls", "--agent", "copilot"], ["git status", "--cwd=/a"],
])
def test_fast_path_agrees_with_docopt(argv):
    fast = cli.parse_fast(argv)
    assert fast is not None
    assert fast == dict(docopt(cli.__doc__, argv=argv, default_help=False))


@pytest.mark.parametrize("argv", [["-h"], ["--help"], ["--list-rules"], ["--ag=x"], ["--", "-x"],
                                  ["a", "b"], ["--agent", "x", "--agent", "y"], ["-"]])
def test_other_forms_go_to_docopt(argv):
    assert cli.parse_fast(argv) is None


def test_console_script_never_prints_a_traceback(tmp_path):
    env = dict(os.environ, HOME=str(tmp_path), CTXCRL_HOME=str(tmp_path / "c"))
    (tmp_path / ".claude").mkdir()
    (tmp_path / ".claude/settings.json").write_bytes(b"\x00\xff garbage")
    stdin = b'{"command": "git status"}\n{"bad\n\xff\xfe\nls\n{"command": null}\n'
    proc = subprocess.run([BIN], input=stdin, capture_output=True, env=env, timeout=30)
    assert proc.returncode == 3  # the bare lines ask
    assert b"Traceback" not in proc.stderr
    out = proc.stdout.split(b"\n")
    assert json.loads(out[0])["decision"] == "ask"
    assert out[1] == b'{"bad' and out[4] == b'{"command": null}'


def test_an_internal_error_asks_and_never_allows(claude_rules, monkeypatch, capsysbinary):
    import cc_gate.agents.claude

    def broken(*args, **kwargs):
        raise IndexError("peel bug")

    monkeypatch.setattr(cc_gate.agents.claude, "decide", broken)
    code, out, err = gate(["git status"], b"", capsysbinary)
    assert (code, out) == (3, "git status\n")
    assert err == ("cc-gate: internal error IndexError('peel bug')\n"
                   "cc-gate: ask: internal error (IndexError): never auto-allowed\n")
    code, out, _ = gate([], '{"command": "git status", "x": 1}', capsysbinary)
    assert out == '{"command": "git status", "x": 1, "decision": "ask", ' \
                  '"reason": "internal error (IndexError): never auto-allowed"}\n'


@pytest.mark.parametrize("config, decision", [
    ('[hooks]\ntransparent_prefixes = ["myenv run"]\n', "deny"),
    ('[hooks]\ntransparent_prefixes = "myenv run"\n', "deny"),
    ('[hooks]\ntransparent_prefixes = 3\n', "allow"),
    ('hooks = 3\n', "allow"),
])
def test_transparent_prefixes_from_config(config, decision, ctxcrl_home, private_home,
                                          capsysbinary):
    write_json(private_home / ".claude/settings.json",
               claude_settings(deny=["Bash(git push:*)"], allow=["Bash(myenv:*)"]))
    (ctxcrl_home / "config.toml").write_text(config)
    code, out, err = gate(["myenv run git push"], b"", capsysbinary)
    assert err.startswith(f"cc-gate: {decision}: ") and "Traceback" not in err
    assert code == cli.EXIT_BY_DECISION[decision]
    assert out == ("\n" if decision == "deny" else "myenv run git push\n")


HEAVY = ("re", "json", "docopt", "subprocess", "pathlib", "tomllib", "hashlib", "shlex",
         "tempfile", "dataclasses", "typing", "inspect", "enum", "signal", "sqlite3")


@pytest.mark.parametrize("argv, stdin", [
    (["--agent", "claude"], '{"agent": "claude", "cwd": "/", "command": "git status && ls"}\n'),
    (["git status"], ""),
])
def test_the_stage_imports_nothing_heavy(claude_rules, argv, stdin):
    """cc-gate runs on every agent command: no re, json, docopt, … on its path (ARCHITECTURE §9)."""
    code = ("import sys\n"
            "from cc_gate import cli\n"
            f"code = cli.main({argv!r})\n"
            f"heavy = [m for m in {HEAVY!r} if m in sys.modules]\n"
            "sys.stderr.write(f'PROBE {code} {heavy}\\n')\n")
    env = dict(os.environ, HOME=str(claude_rules))
    done = subprocess.run([sys.executable, "-c", code], input=stdin.encode(), env=env,
                          capture_output=True, timeout=30)
    probe = [line for line in done.stderr.decode().splitlines() if line.startswith("PROBE")]
    assert probe == ["PROBE 0 []"], done.stderr


def test_rules_loaded_before_stdin_warn_only_when_used(private_home, tmp_path, monkeypatch,
                                                       capsysbinary):
    """Record mode loads the current directory's rules before reading stdin (while the hook's
    decode stage still runs); their warnings come out when a record uses them, once."""
    project = tmp_path / "project"  # not around HOME: a HOME inside the project allows nothing
    project.mkdir()
    tmp_path = project
    write_json(tmp_path / ".claude/settings.json", '{"permissions": ')
    monkeypatch.chdir(tmp_path)
    assert gate([], b"", capsysbinary) == (0, "", "")
    records = "".join(json.dumps({"cwd": str(tmp_path), "command": c}) + "\n"
                      for c in ("ls", "pwd"))
    code, out, err = gate([], records, capsysbinary)
    assert code == 0 and len(out.splitlines()) == 2
    assert len(err.splitlines()) == 1 and "skipping" in err and "malformed JSON" in err


def test_claudes_tables_are_read_before_stdin(private_home, tmp_path, monkeypatch):
    """The gate stage's prepare (before its input arrives, while decode still works) also
    loads what Claude Code's model reads for nearly every command: the running client's
    version and its read-only tables, so judging the record finds them loaded."""
    from cc_gate.agents import claude_builtin
    from cc_gate.stage import Gate

    monkeypatch.setattr(claude_builtin, "_LOADED", {})
    monkeypatch.delenv("AI_AGENT", raising=False)
    monkeypatch.chdir(tmp_path)
    gate = Gate(agent="claude")
    gate.prepare()
    assert list(claude_builtin._LOADED) == [claude_builtin.NEWEST]
    rules = gate.rules_for("claude", str(tmp_path), quiet=True)
    assert "client_version" in rules.extra
    loaded = claude_builtin._LOADED[claude_builtin.NEWEST]
    assert gate.judge("git log --oneline -n 3").decision == "allow"  # a built-in read-only one
    assert claude_builtin._LOADED == {claude_builtin.NEWEST: loaded}  # the same, not read again
