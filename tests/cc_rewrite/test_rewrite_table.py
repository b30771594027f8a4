"""cc-rewrite, case by case: every row pins the exact command that runs (SAME = untouched).

The catalogue is the stand-in of rewrite_catalogue.py, so these rows pin cc-rewrite's logic;
test_rewrite_catalogue.py runs the same machinery on cc-filter's real catalogue.
"""
import pytest
from cc_rewrite.refusals import RewriteSettings
from cc_rewrite.rewrite import Catalogue, rewrite
from rewrite_catalogue import fake_catalogue, fake_lookup, rewrite_with

SAME = object()
R = "cc-filter run "

SIMPLE = [
    ("git status", R + "git status"),
    ("git status --short", R + "git status --short"),
    ("  git status  ", "  " + R + "git status  "),
    ("git diff HEAD~1 -- src/", R + "git diff HEAD~1 -- src/"),
    ("git log --format='%h %s' -n 5", R + "git log --format='%h %s' -n 5"),
    ("git commit -m \"fix: parser && lexer | pipes\"", R + "git commit -m \"fix: parser && lexer | pipes\""),
    ("ls -la", R + "ls -la"),
    ("ls", R + "ls"),
    ("tree -L 2", R + "tree -L 2"),
    ("find . -name '*.py'", R + "find . -name '*.py'"),
    ("grep -rn TODO src/", R + "grep -rn TODO src/"),
    ("rg 'fn main' --type rust", R + "rg 'fn main' --type rust"),
    ("pytest -q", R + "pytest -q"),
    ("cargo test", R + "cargo test"),
    ("cargo +nightly test", R + "cargo +nightly test"),
    ("npm test", R + "npm test"),
    ("go test ./...", R + "go test ./..."),
    ("make -j4", R + "make -j4"),
    ("/usr/bin/git status", R + "/usr/bin/git status"),
    ("\\git status", R + "\\git status"),
    ("\"git\" status", R + "\"git\" status"),
    ("git -C sub status", R + "git -C sub status"),
    ("git --no-pager log -5", R + "git --no-pager log -5"),
    ("git -c color.ui=never diff", R + "git -c color.ui=never diff"),
    ("git status # what changed?", R + "git status # what changed?"),
    ("git status\t--short", R + "git status\t--short"),
    ("./gradlew build", R + "./gradlew build"),
    ("vendor/bin/phpunit", R + "vendor/bin/phpunit"),
    ("echo hello", SAME),
    ("cd src", SAME),
    ("mkdir -p build", SAME),
    ("rm -rf build", SAME),
    ("python script.py", SAME),
    ("git", SAME),
    ("git rebase -i HEAD~3", SAME),
    ("gitk", SAME),
    ("lsof -i :8000", SAME),
    ("", SAME),
    ("   ", SAME),
    ("# just a comment", SAME),
    ("git commit -m \"unterminated", SAME),
    ("git status;", R + "git status;"),
]

ENV_AND_WRAPPERS = [
    ("FOO=1 pytest -q", "FOO=1 " + R + "pytest -q"),
    ("FOO=1 BAR=\"a b\" cargo test", "FOO=1 BAR=\"a b\" " + R + "cargo test"),
    ("RUST_LOG=debug  cargo test", "RUST_LOG=debug  " + R + "cargo test"),
    ("env RUST_LOG=debug cargo test", "env RUST_LOG=debug " + R + "cargo test"),
    ("timeout 60 pytest", "timeout 60 " + R + "pytest"),
    ("FOO=1 timeout 60 pytest", "FOO=1 timeout 60 " + R + "pytest"),
    ("timeout -s KILL 5 pytest -x", "timeout -s KILL 5 " + R + "pytest -x"),
    ("time cargo build", "time " + R + "cargo build"),
    ("nice -n 10 make", "nice -n 10 " + R + "make"),
    ("nohup pytest", "nohup " + R + "pytest"),
    ("command ls -la", "command " + R + "ls -la"),
    ("CI=true FOO=1 timeout 600 npm test", "CI=true FOO=1 timeout 600 " + R + "npm test"),
    ("FOO=1 echo hi", SAME),
    ("timeout 5 sleep 10", SAME),
]

RUNNERS = [
    ("uv run pytest", R + "uv run pytest"),
    ("uv run pytest -k login", R + "uv run pytest -k login"),
    ("python -m pytest -q", R + "python -m pytest -q"),
    ("python3 -m pytest tests/", R + "python3 -m pytest tests/"),
    ("uv run python -m pytest -q", R + "uv run python -m pytest -q"),
    ("npx vitest run", R + "npx vitest run"),
    ("npx tsc --noEmit", R + "npx tsc --noEmit"),
    ("poetry run pytest -x", R + "poetry run pytest -x"),
    ("pdm run pytest", R + "pdm run pytest"),
    ("pnpm exec vitest", R + "pnpm exec vitest"),
    ("bunx tsc --noEmit", R + "bunx tsc --noEmit"),
    ("uv run ruff check .", R + "uv run ruff check ."),
    ("FOO=1 uv run pytest", "FOO=1 " + R + "uv run pytest"),
    ("timeout 300 uv run pytest -q", "timeout 300 " + R + "uv run pytest -q"),
    ("uv run python script.py", SAME),
    ("npx prettier --check .", SAME),
]

REDIRECTS = [
    ("cargo test 2>&1", R + "cargo test 2>&1"),
    ("pytest -q 2>&1", R + "pytest -q 2>&1"),
    ("git status >&2", R + "git status >&2"),
    ("git status 2>&-", R + "git status 2>&-"),
    ("FOO=1 cargo test 2>&1", "FOO=1 " + R + "cargo test 2>&1"),
    ("git diff > x.patch", SAME),
    ("git diff >x.patch", SAME),
    ("ls 2>/dev/null", SAME),
    ("git status > /dev/null", SAME),
    ("pytest &> log.txt", SAME),
    ("pytest >> log.txt 2>&1", SAME),
    ("pytest 2>&1 > log.txt", SAME),
    ("grep x < input.txt", SAME),
    ("grep x <<< \"$text\"", SAME),
    ("cargo build 2> errors.txt", SAME),
    ("git log >| out", SAME),
    ("git diff > x.patch && git status", "git diff > x.patch && " + R + "git status"),
]

COMPOUND = [
    ("git add . && git status", R + "git add . && " + R + "git status"),
    ("git status; git diff", R + "git status; " + R + "git diff"),
    ("git status;git diff", R + "git status;" + R + "git diff"),
    ("cd src && pytest -q", "cd src && " + R + "pytest -q"),
    ("make || cargo build", R + "make || " + R + "cargo build"),
    ("git status & git diff", R + "git status & " + R + "git diff"),
    ("pytest &", R + "pytest &"),
    ("git status && echo done", R + "git status && echo done"),
    ("mkdir -p build && cd build && make", "mkdir -p build && cd build && " + R + "make"),
    ("git add . && cargo test 2>&1 | tail -20",
     R + "git add . && " + R + "--then=tail:20 cargo test 2>&1 | tail -20"),
    ("git stash && git pull --rebase && git stash pop",
     R + "git stash && " + R + "git pull --rebase && " + R + "git stash pop"),
    ("ruff check . && mypy src", R + "ruff check . && " + R + "mypy src"),
    ("! git diff --quiet", "! " + R + "git diff --quiet"),
    ("git status && echo $(date)", R + "git status && echo $(date)"),
    ("git status && (cd x && ls)", R + "git status && (cd x && ls)"),
    ("git status && if true; then ls; fi", R + "git status && if true; then ls; fi"),
    ("CTXCRL_DISABLED=1 git status && git diff", "CTXCRL_DISABLED=1 git status && " + R + "git diff"),
    ("echo CTXCRL_DISABLED=1 && git status", "echo CTXCRL_DISABLED=1 && " + R + "git status"),
]

MULTILINE = [
    ("git status\ngit diff --stat\nls", R + "git status\n" + R + "git diff --stat\n" + R + "ls"),
    ("cd app\npytest -q\n", "cd app\n" + R + "pytest -q\n"),
    ("# check the tree\ngit status", "# check the tree\n" + R + "git status"),
    ("git status\r\ngit diff", R + "git status\r\n" + R + "git diff"),
    ("git add -A \\\n  && git status", R + "git add -A \\\n  && " + R + "git status"),
    ("git status \\\n  --short", R + "git status \\\n  --short"),
    ("git status\n\ngit log -3", R + "git status\n\n" + R + "git log -3"),
    ("git status\nif true; then ls; fi", SAME),
    ("for f in a b; do\n  git diff $f\ndone", SAME),
    ("git status\n(cd x && ls)", SAME),
    ("git status\n{ ls; }", SAME),
    ("git status\nf() { ls; }", SAME),
]

PIPES = [
    ("git log | head -20", R + "--then=head:20 git log | head -20"),
    ("git log | head -n 20", R + "--then=head:20 git log | head -n 20"),
    ("git log | head", R + "--then=head:10 git log | head"),
    ("cargo test 2>&1 | tail -20", R + "--then=tail:20 cargo test 2>&1 | tail -20"),
    ("cargo test |& tail -5", R + "--then=tail:5 cargo test |& tail -5"),
    ("git diff | cat", R + "git diff | cat"),
    ("git log | head -5 | cat", R + "--then=head:5 git log | head -5 | cat"),
    ("find . -name '*.py' | head -20", R + "--then=head:20 find . -name '*.py' | head -20"),
    ("cat a.txt | head -5", R + "--then=head:5 cat a.txt | head -5"),
    ("git log | tail -n 3", R + "--then=tail:3 git log | tail -n 3"),
    ("git log | grep fix", "git log | " + R + "grep fix"),
    ("git log | rg fix", "git log | " + R + "rg fix"),
    ("git log | grep fix | head -5", "git log | " + R + "--then=head:5 grep fix | head -5"),
    ("cat file.txt | grep x", "cat file.txt | " + R + "grep x"),
    ("ps aux | grep python", "ps aux | " + R + "grep python"),
    ("echo x | grep x", "echo x | " + R + "grep x"),
    ("git log | grep -c fix", "git log | " + R + "grep -c fix"),
    ("tail -f app.log | grep ERROR", "tail -f app.log | " + R + "grep ERROR"),
    ("ls | wc -l", SAME),
    ("ls | sort", SAME),
    ("git log --oneline | awk '{print $1}'", SAME),
    ("git log | sed -n 1,5p", SAME),
    ("curl -s localhost:8000 | jq .", SAME),
    ("find . -name '*.py' | xargs wc -l", SAME),
    ("git diff | grep -v x | wc -l", SAME),
    ("ls -la | less", SAME),
    ("git status | tee status.txt", SAME),
    ("git log | tail -f", SAME),
    ("cargo test | tail -n +3", SAME),  # an offset, not a count: its cut cannot be judged
    ("git log | head -c 100", SAME),
    ("git log | cat -n", SAME),
    ("git log | head -n -5", SAME),
    ("cargo test 2>&1 | tail -50 | head -5", R + "--then=tail:50,head:5 cargo test 2>&1 | tail -50 | head -5"),
    ("git log | tail --follow", SAME),
    ("git log | head > top.txt", SAME),
    ("git log | grep $(whoami)", SAME),
    ("git log | cc-filter git-log", SAME),
    ("git log | grep fix | sort", SAME),
    ("git log | sort | head", SAME),
    ("git diff | wc -l && git status", "git diff | wc -l && " + R + "git status"),
    # pipes into or out of compound commands
    ("git log | (wc -l)", SAME),
    ("git log | { head; }", SAME),
    ("git log | while read l; do echo $l; done", SAME),
    ("git log | grep x | (wc -l)", SAME),
    ("(git log) | grep x", "(git log) | " + R + "grep x"),
    ("(echo) | git log | head", SAME),
    ("(echo) | git log", SAME),
    ("{ ls; } | grep x | head -3", "{ ls; } | " + R + "--then=head:3 grep x | head -3"),
]

FAIL_CLOSED = [
    ("cat <<EOF\nhi\nEOF", SAME),
    ("git status && cat <<'EOF' > f\nhi\nEOF", SAME),
    ("git commit -F - <<EOF\nmsg\nEOF", SAME),
    ("echo $((1+2)) && git status", SAME),
    ("git status $(echo --short)", SAME),
    ("git log `cat ref`", SAME),
    ("git diff \"$(git merge-base HEAD main)\"", SAME),
    ("echo $(git status)", SAME),
    ("diff <(git show HEAD:a) a", SAME),
    ("git diff <(cat a) b", SAME),
    ("if true; then git status; fi", SAME),
    ("for f in a b; do git diff $f; done", SAME),
    ("while read l; do ls $l; done < x", SAME),
    ("until git fetch; do sleep 1; done", SAME),
    ("case $x in a) git status;; esac", SAME),
    ("(cd sub && git status)", SAME),
    ("{ git status; git diff; }", SAME),
    ("f() { git status; }", SAME),
    ("sudo git status", SAME),
    ("sudo -u dev ls -la", SAME),
    ("ssh host git status", SAME),
    ("mosh host", SAME),
    ("docker exec ctr ls", SAME),
    ("docker compose exec web pytest", SAME),
    ("kubectl exec pod -- ls", SAME),
    ("xargs git add", SAME),
    ("ls | xargs rm", SAME),
    ("watch git status", SAME),
    ("watch -n 1 ls", SAME),
    ("bash -c 'git status'", SAME),
    ("sh -c \"ls -la\"", SAME),
    ("bash -lc 'pytest'", SAME),
    ("eval git status", SAME),
    ("cc-filter run git status", SAME),
    ("cc-filter git-status", SAME),
    ("FOO=1 cc-filter run pytest", SAME),
    ("timeout 5 cc-filter run pytest", SAME),
    ("git status | cc-filter git-status", SAME),
    ("CTXCRL_DISABLED=1 git status", SAME),
    ("CTXCRL_DISABLED=0 git status", SAME),
    ("FOO=1 CTXCRL_DISABLED=1 git status", SAME),
    ("env CTXCRL_DISABLED=1 git status", SAME),
    ("FOO=\"x CTXCRL_DISABLED=1\" git status", "FOO=\"x CTXCRL_DISABLED=1\" " + R + "git status"),
    ("FOO='CTXCRL_DISABLED=1' git status", "FOO='CTXCRL_DISABLED=1' " + R + "git status"),
    ("git status CTXCRL_DISABLED=1", R + "git status CTXCRL_DISABLED=1"),
    ("gh pr list --json number,title", SAME),
    ("gh pr list --json=number", SAME),
    ("gh pr view 3 --jq .title", SAME),
    ("gh pr list --template '{{.title}}'", SAME),
    ("gh api repos/o/r -q .name", SAME),
    ("gh api repos/o/r --jq .name", SAME),
    ("gh pr list", R + "gh pr list"),
    ("gh pr view 3", R + "gh pr view 3"),
    ("gh api repos/o/r", R + "gh api repos/o/r"),
]

READ_FORMS = [
    ("cat a.txt", R + "cat a.txt"),
    ("cat 'my file.txt'", R + "cat 'my file.txt'"),
    ("cat src/main.py 2>&1", R + "cat src/main.py 2>&1"),
    ("head -n 20 a.py", R + "head -n 20 a.py"),
    ("head -20 a.py", R + "head -20 a.py"),
    ("head -n20 a.py", R + "head -n20 a.py"),
    ("head --lines=5 a.py", R + "head --lines=5 a.py"),
    ("head a.py", R + "head a.py"),
    ("tail -n 50 log.txt", R + "tail -n 50 log.txt"),
    ("tail -100 log.txt", R + "tail -100 log.txt"),
    ("tail log.txt", R + "tail log.txt"),
    ("cat a b", SAME),
    ("cat -n a", SAME),
    ("cat -A a", SAME),
    ("cat -v a", SAME),
    ("cat", SAME),
    ("cat -", SAME),
    ("head -c 100 a", SAME),
    ("head -n -5 a", SAME),
    ("head a b", SAME),
    ("tail -f log", SAME),
    ("tail -F log", SAME),
    ("tail --follow=name log", SAME),
    ("tail -n +5 a", SAME),
    ("tail -q a b", SAME),
    ("tail -fn 20 log", SAME),
    ("sed -n '10,80p' a.py", R + "sed -n '10,80p' a.py"),
    ("sed -n 5p a.py", R + "sed -n 5p a.py"),
    ("sed -i 's/a/b/' a.py", SAME),
    ("sed 's/a/b/' a.py", SAME),
    ("sed -n '/def /p' a.py", SAME),
    ("sed -n '1,5p' a b", SAME),
    ("git log | sed -n 1,5p", SAME),
]

# Listing the environment (env / printenv running no command): always through the env filter,
# which masks secret values — in a pipe too, whatever reads it (then the only rewritten stage).
ENV_LISTINGS = [
    ("env", R + "env"),
    ("printenv", R + "printenv"),
    ("printenv HOME PATH", R + "printenv HOME PATH"),
    ("/usr/bin/env", R + "/usr/bin/env"),
    ("command env", "command " + R + "env"),
    ("FOO=1 env", "FOO=1 " + R + "env"),
    ("env -u AWS_PROFILE", R + "env -u AWS_PROFILE"),
    ("env --unset=AWS_PROFILE -i", R + "env --unset=AWS_PROFILE -i"),
    ("env FOO=1 BAR=", R + "env FOO=1 BAR="),
    ("env -- FOO=1", R + "env -- FOO=1"),
    ("env FOO=1 git status", "env FOO=1 " + R + "git status"),
    ("env -i PATH=/usr/bin make", "env -i PATH=/usr/bin " + R + "make"),
    ("env FOO=1 frobnicate", SAME),
    ("env -0", SAME),
    ("env --null -u X", SAME),
    ("printenv -0", SAME),
    ("printenv --null HOME", SAME),
    ("env -S 'git status'", SAME),
    ("env FOO='a b'", SAME),  # the key `env FOO=a b` is not a listing to the catalogue
    ("sudo env", SAME),
    ("CTXCRL_DISABLED=1 env", SAME),
    ("echo $(env)", SAME),
    ("(env | grep TOKEN)", SAME),
    ("env > env.txt", SAME),
    ("env &>/dev/null", SAME),
    ("env < in.txt", SAME),
    ("env 2>/dev/null", R + "env 2>/dev/null"),
    ("env 2>>err.log | grep x", R + "env 2>>err.log | grep x"),
    ("env | grep -i token", R + "env | grep -i token"),
    ("env | grep -i -e token -e secret", R + "env | grep -i -e token -e secret"),
    ("env | rg TOKEN", R + "env | rg TOKEN"),
    ("printenv | sort", R + "printenv | sort"),
    ("env | wc -l", R + "env | wc -l"),
    ("env | sort | head -20", R + "env | sort | head -20"),
    ("env | head", R + "env | head"),
    ("env | grep PATH | head -3", R + "env | grep PATH | head -3"),
    ("env | cut -d= -f1 | sort", R + "env | cut -d= -f1 | sort"),
    ("env | awk -F= '{print $1}'", R + "env | awk -F= '{print $1}'"),
    ("env 2>&1 | grep TOKEN", R + "env 2>&1 | grep TOKEN"),
    ("env |& grep TOKEN", R + "env |& grep TOKEN"),
    ("env | tee env.txt", R + "env | tee env.txt"),
    ("env | (wc -l)", R + "env | (wc -l)"),
    ("env | while read l; do echo $l; done", R + "env | while read l; do echo $l; done"),
    ("ls | env | grep x", "ls | " + R + "env | grep x"),
    ("env | sort > env.txt", SAME),
    ("env | grep x | sort > f", SAME),
    ("env | grep TOKEN >> found.txt", SAME),
    ("env | grep x 2>/dev/null", R + "env | grep x 2>/dev/null"),
    ("env -0 | grep -z TOKEN", "env -0 | " + R + "grep -z TOKEN"),
    ("git status && env | grep x", R + "git status && " + R + "env | grep x"),
    ("env | grep x; git log | grep y", R + "env | grep x; git log | " + R + "grep y"),
]

ROWS = SIMPLE + ENV_AND_WRAPPERS + RUNNERS + REDIRECTS + COMPOUND + MULTILINE + PIPES + \
    FAIL_CLOSED + READ_FORMS + ENV_LISTINGS


@pytest.mark.parametrize("command, expected", ROWS, ids=[repr(r[0])[:60] for r in ROWS])
def test_rewrite(command, expected):
    want = command if expected is SAME else expected
    assert rewrite_with(command) == want


def test_table_size():
    assert len(ROWS) >= 150


# [hooks] exclude_commands: whole-word prefixes, or a regex when it starts with ^
EXCLUDES = ["git log", "^cargo (build|check)", "npm run lint", "^ls\\b.*-R"]
EXCLUDED = [
    ("git log -5", SAME),
    ("git log", SAME),
    ("git --no-pager log", SAME),
    ("FOO=1 git log", SAME),
    ("git status && git log", R + "git status && git log"),
    ("cargo build --release", SAME),
    ("cargo check", SAME),
    ("cargo test", R + "cargo test"),
    ("npm run lint", SAME),
    ("npm run lint -- --fix", SAME),
    ("npm run lintfix", R + "npm run lintfix"),
    ("npm run build", R + "npm run build"),
    ("ls -la -R", SAME),
    ("ls -la", R + "ls -la"),
]


@pytest.mark.parametrize("command, expected", EXCLUDED)
def test_exclude_commands(command, expected):
    want = command if expected is SAME else expected
    assert rewrite_with(command, exclude_commands=EXCLUDES) == want


def test_bad_exclude_regex_is_ignored_with_one_warning(capsys):
    settings = RewriteSettings(exclude_commands=["^git (", "git diff"])
    assert rewrite("git status", fake_catalogue(), settings).text == R + "git status"
    assert rewrite("git status", fake_catalogue(), settings).text == R + "git status"
    assert rewrite("git diff", fake_catalogue(), settings).text == "git diff"
    assert capsys.readouterr().err.count("ignoring exclude_commands regex") == 1


@pytest.mark.parametrize("program, command, expected", [
    ("/opt/ctx/bin/cc-filter", "git status", "/opt/ctx/bin/cc-filter run git status"),
    ("/opt/my tools/cc-filter", "git status", "'/opt/my tools/cc-filter' run git status"),
    ("/opt/ctx/bin/cc-filter", "/opt/ctx/bin/cc-filter run git status",
     "/opt/ctx/bin/cc-filter run git status"),
    ("/opt/ctx/bin/cc-filter", "cc-filter run git status", "cc-filter run git status"),
])
def test_filter_program(program, command, expected):
    from cc_rewrite.refusals import quote_word

    assert rewrite_with(command, filter_program=quote_word(program)) == expected


@pytest.mark.parametrize("source", ["env", "config"])
def test_filter_program_from_env_or_config(source, ctxcrl_home, monkeypatch):
    if source == "env":
        monkeypatch.setenv("CTXCRL_FILTER_BIN", "/usr/local/bin/cc-filter")
    else:
        (ctxcrl_home / "config.toml").write_text('[hooks]\nfilter_bin = "/usr/local/bin/cc-filter"\n')
    settings = RewriteSettings.from_config()
    assert settings.filter_program == "/usr/local/bin/cc-filter"
    assert rewrite("ls", fake_catalogue(), settings).text == "/usr/local/bin/cc-filter run ls"


def test_exclude_commands_from_config(ctxcrl_home):
    (ctxcrl_home / "config.toml").write_text('[hooks]\nexclude_commands = ["git status"]\n')
    settings = RewriteSettings.from_config()
    assert rewrite("git status && ls", fake_catalogue(), settings).text == "git status && " + R + "ls"


def test_ctxcrl_disabled_in_the_environment_rewrites_nothing(monkeypatch):
    monkeypatch.setenv("CTXCRL_DISABLED", "1")
    result = rewrite("git status && ls", fake_catalogue(), RewriteSettings.from_config())
    assert result.text == "git status && ls"
    assert result.explain() == ["git status && ls",
                                "(whole command)\traw: CTXCRL_DISABLED is set in the environment"]


# A rewrite another shell runs (records: the hook, the OpenCode plugin) needs a cc-filter that
# can be found: else the command is left as it was (`cc-filter: command not found` would break
# every rewritten command).

def _executable(path):
    path.write_text("#!/bin/sh\n")
    path.chmod(0o755)
    return str(path)


@pytest.mark.parametrize("where", ["path", "absolute", "relative"])
def test_a_filter_program_that_can_be_found_is_written(tmp_path, monkeypatch, where):
    (tmp_path / "bin").mkdir()
    found = _executable(tmp_path / "bin" / "cc-filter")
    program = {"path": "cc-filter", "absolute": found, "relative": "bin/cc-filter"}[where]
    monkeypatch.setenv("PATH", f"/nonexistent:{tmp_path / 'bin'}")
    settings = RewriteSettings(filter_program=program)
    result = rewrite("git status", fake_catalogue_at(tmp_path), settings, require_filter=True)
    assert result.text == f"{program} run git status"


@pytest.mark.parametrize("program, why", [
    ("cc-filter", ("cc-filter is not on the PATH (set [hooks] filter_bin or CTXCRL_FILTER_BIN "
                   "to its absolute path)")),
    ("/nonexistent/cc-filter", "/nonexistent/cc-filter is not an executable file"),
    ("not-executable", ("not-executable is not on the PATH (set [hooks] filter_bin or "
                        "CTXCRL_FILTER_BIN to its absolute path)")),
])
def test_a_filter_program_that_cannot_be_found_leaves_the_command_unchanged(
        tmp_path, monkeypatch, program, why):
    (tmp_path / "not-executable").write_text("#!/bin/sh\n")
    (tmp_path / "cc-filter").mkdir()  # a folder is not a program
    monkeypatch.setenv("PATH", str(tmp_path))
    settings = RewriteSettings(filter_program=program)
    result = rewrite("git status && ls", fake_catalogue_at(tmp_path), settings,
                     require_filter=True)
    assert result.text == "git status && ls"
    assert result.explain() == ["git status && ls",
                                f"(whole command)\traw: cc-filter cannot be found: {why}",
                                "git status\traw: cc-filter cannot be found",
                                "ls\traw: cc-filter cannot be found"]
    # Without require_filter (bare commands, discover): what the rewrite would be.
    assert rewrite("ls", fake_catalogue_at(tmp_path), settings).text == f"{program} run ls"


def test_the_filter_program_is_only_looked_for_when_something_is_rewritten(monkeypatch):
    settings = RewriteSettings()
    monkeypatch.setattr(settings.__class__, "filter_available",
                        lambda self, cwd=None: pytest.fail("looked for cc-filter"))
    assert rewrite("echo hi | wc -l", fake_catalogue(), settings, require_filter=True).text == \
        "echo hi | wc -l"


def fake_catalogue_at(cwd):
    return Catalogue(str(cwd), fake_lookup)
