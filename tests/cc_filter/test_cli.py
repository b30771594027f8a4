"""The command line: docopt is the single source of truth, the fast paths agree with it."""
import os

import pytest

from cc_filter import cli

from filter_testkit import TEST_FILTERS, cc_filter, toml_filter


# -- fast paths == docopt ------------------------------------------------------------------------
RUN_ARGVS = [
    ["run", "true"],
    ["run", "git", "log", "-n", "5"],
    ["run", "git", "status", "--porcelain"],
    ["run", "--filter=git-status", "git", "status"],
    ["run", "--filter", "git-status", "git", "status"],
    ["run", "--", "ls", "-la"],
    ["run", "--filter=x", "--", "--weird-program", "-v"],
    ["run", "ls", "--", "-x"],
    ["run", "sh", "-c", "echo hi --filter=x"],
    ["run", "cargo", "test", "--", "--nocapture"],
    ["run", "--then=tail:20", "cargo", "test"],
    ["run", "--then", "head:5", "--filter=grep", "grep", "-rn", "x"],
    ["run", "--then=tail:50,head:5", "--", "pytest", "-q"],
]


@pytest.mark.parametrize("argv", RUN_ARGVS, ids=" ".join)
def test_run_fast_path_equals_docopt(argv):
    fast = cli.parse_run(argv)
    args = cli.parse(argv)
    assert args["run"] is True
    assert fast == (args["--filter"], args["<argv>"], args["--then"])


@pytest.mark.parametrize("argv", [["run"], ["run", "--filter=x"], ["run", "-x", "ls"],
                                  ["run", "--then=", "ls"], ["run", "--then=tail:5"],
                                  ["run", "--help"], ["list"], ["git-status"]])
def test_run_fast_path_defers_to_docopt(argv):
    assert cli.parse_run(argv) is None


PIPE_ARGVS = [["git-status"], ["git-status", "--exit-code=3"], ["git-status", "--exit-code", "1"],
              ["pytest", "--exit-code=-1"]]


@pytest.mark.parametrize("argv", PIPE_ARGVS, ids=" ".join)
def test_pipe_fast_path_equals_docopt(argv):
    args = cli.parse(argv)
    assert cli.parse_pipe(argv) == (args["<name>"], int(args["--exit-code"]))


@pytest.mark.parametrize("argv", [["list"], ["git-status", "extra"], ["x", "--exit-code=a"],
                                  ["--help"], []])
def test_pipe_fast_path_defers_to_docopt(argv):
    assert cli.parse_pipe(argv) is None


# -- usage -----------------------------------------------------------------------------------------
@pytest.mark.parametrize("argv", [[], ["run"], ["list", "extra"], ["show"], ["untrust"],
                                  ["git-status", "--bogus"], ["test", "--nope"]])
def test_bad_usage_exits_64_with_usage(capsys, argv):
    assert cli.main(argv) == 64
    err = capsys.readouterr().err
    assert "Usage:" in err and "cc-filter run" in err


def test_bad_exit_code_value(capsys):
    assert cli.main(["demo", "--exit-code=abc"]) == 64
    assert "--exit-code must be an integer" in capsys.readouterr().err


def test_help_is_the_usage_docstring(capsys):
    assert cli.main(["--help"]) == 0
    assert capsys.readouterr().out.strip() == cli.__doc__.strip()
    assert cli.main(["--version"]) == 0
    assert capsys.readouterr().out.strip() == f"cc-filter {cli.VERSION}"


def test_usage_names_every_design_form():
    for form in ("cc-filter run [--filter=NAME] [--] <argv>...", "cc-filter <name> [--exit-code=N]",
                 "cc-filter list", "cc-filter which", "cc-filter show <name>",
                 "cc-filter test [<name>] [--require-all]", "cc-filter trust [<path>] [--yes]",
                 "cc-filter untrust <path>"):
        assert form in cli.__doc__


def test_python_dash_m_works():
    result = cc_filter("--version")
    assert (result.returncode, result.stdout) == (0, f"cc-filter {cli.VERSION}\n".encode())


def test_unknown_filter_name_exits_64(capfd):
    assert cli.main(["no-such-filter-xyz"]) == 64
    assert "no filter named 'no-such-filter-xyz'" in capfd.readouterr().err


# -- catalogue commands ------------------------------------------------------------------------
def test_list_which_show(capsys, builtin_dir, user_filters):
    (builtin_dir / "b.toml").write_text(toml_filter("b", "^tool(\\s|$)", description="built in"))
    (builtin_dir / "u.toml").write_text(toml_filter("u", "^tool(\\s|$)", description="theirs"))
    user_filters.write("u", toml_filter("u", "^tool(\\s|$)", description="mine"))
    (builtin_dir / "broken.toml").write_text("nope")
    assert cli.main(["list", "--verbose"]) == 0
    out = capsys.readouterr().out
    assert "u " in out and "user" in out and "mine" in out and "b " in out
    assert "theirs" not in out  # shadowed by the user's u: hidden without --all
    assert "1 broken filter file(s) hidden" in out
    assert cli.main(["list", "--all"]) == 0
    out = capsys.readouterr().out
    assert "shadowed" in out and "broken" in out and "invalid TOML" in out

    assert cli.main(["which", "tool", "-x", "file"]) == 0
    out = capsys.readouterr().out
    assert "key:     tool -x file" in out
    assert "filter:  u" in out and "user toml filter, pattern ^tool(\\s|$)" in out
    assert "also:    b (built-in, ^tool(\\s|$)): shadowed" in out
    assert cli.main(["which", "/usr/bin/tool -x"]) == 0
    assert "key:     tool -x" in capsys.readouterr().out
    assert cli.main(["which", "nothing-here"]) == 1
    assert "none" in capsys.readouterr().out

    assert cli.main(["show", "u"]) == 0
    out = capsys.readouterr().out
    assert "tier:          user" in out and 'name = "u"' in out and "shadows:" in out
    assert cli.main(["show", "zzz"]) == 64


# -- cc-filter test -------------------------------------------------------------------------------
def _fixture_case(root, filter_name, case, command, raw, exit_code=0, **checks):
    folder = root / filter_name
    folder.mkdir(parents=True, exist_ok=True)
    body = [f"command = {command!r}", f"exit_code = {exit_code}", 'source = "captured"']
    for key, value in checks.items():
        body.append(f"{key} = {value!r}" if not isinstance(value, list)
                    else f"{key} = [{', '.join(repr(v) for v in value)}]")
    (folder / f"{case}.toml").write_text("\n".join(body) + "\n")
    (folder / f"{case}.out").write_bytes(raw)


def test_test_command_runs_inline_and_fixture_cases(capsys, builtin_dir, tmp_path):
    with open(os.path.join(TEST_FILTERS, "demo-make.toml")) as f:
        (builtin_dir / "demo-make.toml").write_text(f.read())
    (builtin_dir / "lonely.toml").write_text(toml_filter("lonely", "^lonely"))
    fixtures = tmp_path / "fixtures"
    raw = b"".join(b"make[1]: Entering directory '/x'\ncc -c f%d.c\n" % i for i in range(15))
    _fixture_case(fixtures, "demo-make", "build", "demo-make all", raw,
                  contains=["cc -c f0.c"], not_contains=["Entering"])
    assert cli.main(["test", "--fixtures", str(fixtures)]) == 0
    out = capsys.readouterr().out
    assert "ok   demo-make: 1 fixture case(s), 4 inline case(s)" in out
    assert cli.main(["test", "--require-all", f"--fixtures={fixtures}"]) == 1
    out = capsys.readouterr().out
    assert "FAIL lonely: 0 fixture case(s)" in out and "no test case" in out
    assert cli.main(["test", "demo-make", "--require-all", f"--fixtures={fixtures}"]) == 0
    capsys.readouterr()

    _fixture_case(fixtures, "demo-make", "wrong", "demo-make all", raw, contains=["not there"])
    assert cli.main(["test", "demo-make", f"--fixtures={fixtures}"]) == 1
    assert "output lacks 'not there'" in capsys.readouterr().out
    assert cli.main(["test", "zzz", f"--fixtures={fixtures}"]) == 64


# -- trust commands ------------------------------------------------------------------------------
def test_trust_shows_file_and_risks_then_records(capsys, tmp_path, monkeypatch, builtin_dir):
    filters = tmp_path / "proj" / ".ctxcrl" / "filters"
    filters.mkdir(parents=True)
    monkeypatch.chdir(tmp_path / "proj")
    (filters / "p.toml").write_text(
        "schema_version = 1\n[filter]\nname = 'p'\nmatch_command = '^tool'\n"
        "replace = [{ pattern = 'FAILED', replacement = 'passed' }]\n")
    assert cli.main(["which", "tool"]) == 1
    capsys.readouterr()
    from cc_filter import commands

    monkeypatch.setattr(commands, "_can_ask", lambda: False)
    assert cli.main(["trust"]) == 1  # no terminal to ask on: only with --yes
    assert "--yes" in capsys.readouterr().err
    assert cli.main(["which", "tool"]) == 1
    capsys.readouterr()
    assert cli.main(["trust", "--yes"]) == 0
    out = capsys.readouterr().out
    import hashlib

    assert "sha256 " + hashlib.sha256((filters / "p.toml").read_bytes()).hexdigest() in out
    assert "replacement = 'passed'" in out  # the file itself
    assert "replace: 'FAILED' -> 'passed'" in out  # its risky rule
    assert "trusted " in out
    assert cli.main(["which", "tool"]) == 0
    assert "filter:  p" in capsys.readouterr().out
    assert cli.main(["untrust", str(filters / "p.toml")]) == 0
    assert cli.main(["untrust", str(filters / "p.toml")]) == 1
    assert cli.main(["trust", str(tmp_path / "missing.toml")]) == 1


def test_readme_embeds_the_real_usage():
    repo = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    with open(os.path.join(repo, "cc-filter", "README.md")) as f:
        readme = f.read()
    assert cli._usage().strip() in readme


def test_raw_prints_the_last_compacted_runs_raw_output(capfd, ctxcrl_home, tmp_path):
    """A successful run that dropped lines (ls -la of a big folder) can be read back whole."""
    from cc_filter import cli

    (tmp_path / "d").mkdir()
    for i in range(60):
        (tmp_path / "d" / f"file_{i:02}.txt").write_text("x")
    assert cli.main(["raw"]) == 1
    assert "no raw output kept yet" in capfd.readouterr().err
    assert cli.main(["run", "ls", "-la", str(tmp_path / "d")]) == 0
    shown = capfd.readouterr().out
    assert cli.main(["raw"]) == 0
    raw = capfd.readouterr().out
    assert len(raw) > len(shown) and raw.count("file_") == 60 and "total " in raw
    assert cli.main(["raw", "nosuch.log"]) == 1
    assert "no kept output 'nosuch.log'" in capfd.readouterr().err


def test_raw_never_keeps_what_a_redacting_filter_withheld(capfd, ctxcrl_home, monkeypatch):
    """env masks secrets: its raw output must not reach `cc-filter raw` either."""
    from cc_filter import cli

    monkeypatch.setenv("DEMO_API_TOKEN", "s3cret-value-123")
    for i in range(30):
        monkeypatch.setenv(f"DEMO_VAR_{i}", "x" * 40)
    assert cli.main(["run", "env"]) == 0
    assert "s3cret-value-123" not in capfd.readouterr().out
    assert cli.main(["raw"]) == 1
    assert "s3cret-value-123" not in capfd.readouterr().out
