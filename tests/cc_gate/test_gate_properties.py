"""No spelling of a denied command escapes the deny, wherever it sits in a compound (hypothesis).

The second half generates commands hidden inside others (git aliases and config entries,
GIT_* variables, trap actions, source of generated text, startup and prompt variables), runs
each with real bash (bash_oracle: it must really push) and checks the gate denies it.

Spellings: env prefixes, transparent wrappers and launchers, `\\git`, `/usr/bin/git`, quoted
words, git global options, extra blanks. Places: alone, after `;` `&&` `||` `&` `|` or a
newline, inside `$(…)`, backticks, `<(…)`, `( )`, `{ }`, if/for/while bodies, `bash -c '…'`.
"""
from cc_gate.decision import decide
from cc_gate.rules import ALLOW, ASK, DENY
from cc_gate.rules import RuleSet
from hypothesis import given
from hypothesis import strategies as st

RULES = RuleSet()
RULES.add(DENY, ["Bash(git push --force:*)", "Bash(rm -rf:*)"], ("Bash",), "~/.claude/settings.json")
RULES.add(ALLOW, ["Bash"], ("Bash",), "~/.claude/settings.json")  # allow-all must not help

env = st.sampled_from(["", "FOO=1 ", "A=1 B='x y' ", "env ", "env A=1 ", "env -i ", "GIT_TRACE=1 "])
wrapper = st.sampled_from(["", "timeout 5 ", "timeout -s KILL 9 ", "time ", "nice -n 5 ",
                           "nohup ", "command ", "exec ", "sudo ", "sudo -u dev ", "stdbuf -o0 ",
                           "xargs ", "watch ", "nice ", "noglob "])
git = st.sampled_from(["git", "\\git", "/usr/bin/git", "/usr/local/bin/git", "'git'", '"git"',
                       "g''it", "g\\it"])
global_opt = st.sampled_from(["", " -C repo", " --no-pager", " -c a.b=c", " --git-dir=.git",
                              " -C 'my repo' --no-pager"])
blank = st.sampled_from([" ", "  ", "\t"])
tail = st.sampled_from(["", " origin", " origin main", " 2>&1", " > /dev/null", " >log"])
force = st.sampled_from(["--force", "'--force'", '"--force"', "--\\force"])


@st.composite
def denied_push(draw):
    b = draw(blank)
    return (draw(env) + draw(wrapper) + draw(git) + draw(global_opt) + b + "push" + b +
            draw(force) + draw(tail))


@st.composite
def denied_rm(draw):
    return draw(env) + draw(wrapper) + draw(st.sampled_from(["rm", "/bin/rm", "\\rm"])) + \
        " -rf " + draw(st.sampled_from(["build", "/", "'a b'"]))


places = st.sampled_from([
    "{}", "true; {}", "true && {}", "false || {}", "{} &", "true & {}", "true\n{}",
    "echo $({})", "echo \"$({})\"", "echo `{}`", "cat <({})", "({})", "{{ {}; }}",
    "if true; then {}; fi", "for x in a; do {}; done", "while true; do {}; done",
    "true | {}", "{} | cat", "ls && ({} || true)", "f() {{ {}; }}", "bash -c '{}'",
    "sh -c \"true; {}\"", "eval '{}'", "echo ok; {} # trailing comment",
])


@given(places, denied_push())
def test_no_spelling_of_git_push_force_escapes_the_deny(place, spelling):
    if place in ("bash -c '{}'", "eval '{}'") and "'" in spelling:
        return  # nesting single quotes would end the outer string: quoting is out of scope
    if place == "sh -c \"true; {}\"" and '"' in spelling:
        return
    command = place.format(spelling)
    verdict = decide(command, RULES)
    assert verdict.decision == DENY, (command, verdict)


@given(places, denied_rm())
def test_no_spelling_of_rm_rf_escapes_the_deny(place, spelling):
    if "'" in place and "'" in spelling:
        return
    command = place.format(spelling)
    assert decide(command, RULES).decision == DENY, command


@given(st.text(max_size=60))
def test_any_text_gets_a_verdict(text):
    assert decide(text, RULES).decision in (ALLOW, ASK, DENY)


# ---------------------------------------------------------------------------------------------
# Static spellings, generated and checked by real bash (tests/cc_gate/bash_oracle.py): brace
# expansion, git's exec path, env -S, launchers and shells fed a script; every one is what bash
# runs as `git push`, and the gate denies it, in Claude's bypassPermissions mode too.

import pytest  # noqa: E402
from hypothesis import settings  # noqa: E402

from bash_oracle import BASH, BashOracle  # noqa: E402
from cc_gate.agents import claude  # noqa: E402

STATIC_RULES = RuleSet()
STATIC_RULES.add(DENY, ["Bash(git push:*)"], ("Bash",), "~/.claude/settings.json")
STATIC_RULES.add(ALLOW, ["Bash(git:*)"], ("Bash",), "~/.claude/settings.json")

plain_core = st.sampled_from(["git push", "git push origin", "git -C . push", "\\git push",
                              "/usr/bin/git push", "/usr/lib/git-core/git push"])
exec_path_core = st.sampled_from([
    "/usr/lib/git-core/git-push", "PATH=/usr/lib/git-core git-push",
    "/usr/lib/git-core//git-push", "$(git --exec-path)/git-push", "/usr/lib/git-core/git-pu\\sh",
    "env PATH=/usr/lib/git-core:/usr/bin git-push"])
brace_core = st.sampled_from([
    "git pu{sh,}", "git pu{sh,ll}", "{git,push}", "{git,push,origin}", "git {push,}",
    "git {p..p}ush", "git p{u..u}{s..s}h", "git pu{s{h,},}", "git {push,{1..3}}",
    "git {push,{01..02}}", "git 'pu'{sh,}", "git p{u,}sh", "{git,push} origin"])
launcher = st.sampled_from([
    "", "prlimit ", "prlimit --nofile=1024 ", "prlimit -n1024 ", "setpriv ",
    "setpriv --no-new-privs ", "nohup -- ", "nohup ", "timeout 5 ", "timeout -k 1 5 ",
    "nice -n 5 ", "nice -5 ", "ionice -c2 ", "stdbuf -oL ", "setsid -w ", "chrt -o 0 ",
    "taskset -c 0 ", "command ", "exec ", "env -i ", "env -u HOME ", "unshare ",
    "flock .lock ", "strace -o /dev/null ", "time ", "command -p ", "builtin exec ",
    "chroot / ", "runuser -u root -- "])
env_split = st.sampled_from(["env -S '{}'", "env -S'{}'", "env --split-string='{}'",
                             "env -iS '{}'", "env -C . -S '{}'", "env -S \"{}\""])
shell_fed = st.sampled_from(["echo '{}' | sh", "sh <<< '{}'", "script -qec '{}' /dev/null",
                             "npx -c '{}'", "su -c '{}'", "parallel ::: '{}'", "dash -c '{}'"])
#: only bash expands braces (sh is dash here)
bash_fed = st.sampled_from(["printf '{}\\n' | bash", "bash -c '{}'", "bash <(echo '{}')",
                            "bash <<< '{}'", "echo '{}' | bash -s"])


@st.composite
def static_spelling(draw):
    kind = draw(st.sampled_from(["plain", "exec-path", "braces", "env-split", "shell-fed",
                                 "bash-fed"]))
    if kind == "env-split":
        core = draw(env_split).format(draw(plain_core).replace("\\git", "git"))
    elif kind == "shell-fed":
        core = draw(shell_fed).format(draw(plain_core))
    elif kind == "bash-fed":
        core = draw(bash_fed).format(draw(st.one_of(plain_core, brace_core)).replace("'", ""))
    else:
        core = draw({"plain": plain_core, "exec-path": exec_path_core, "braces": brace_core}[kind])
    prefix = draw(launcher)
    if kind == "shell-fed" and prefix.startswith(("env -", "chroot", "runuser")):
        prefix = ""  # parallel, npx need HOME; su and runuser reset the environment
    if core.startswith("PATH=") and prefix:
        core = "env " + core  # an assignment after a launcher is a word, not an assignment
    return prefix + core


@pytest.fixture(scope="module")
def oracle():
    if BASH is None:
        pytest.skip("bash is not installed")
    found = BashOracle()
    if found.mounts is None:
        found.close()
        pytest.skip("no private mount namespace for the stubs at absolute paths")
    yield found
    found.close()


@settings(max_examples=25, deadline=None)
@given(static_spelling())
def test_a_static_spelling_bash_runs_as_git_push_is_denied(oracle, spelling):
    assert oracle.saw(spelling, "git push", timeout=30), (spelling, oracle.run(spelling))
    for mode in ("default", "bypassPermissions"):
        record = {"command": spelling, "event": {"permission_mode": mode}}
        verdict = claude.decide(spelling, STATIC_RULES, record)
        assert verdict.decision == DENY, (spelling, mode, verdict)
# -- hidden commands (cc_gate/hidden.py), checked against real bash (bash_oracle) -------------
# Each generated line really runs `git push` (the oracle must see it happen), and the gate
# must deny it: git aliases and config entries, GIT_* variables, trap actions, source of
# generated text, startup and prompt variables, each in a few places of a compound.

import bash_oracle  # noqa: E402
import shell_strategies  # noqa: E402
import pytest  # noqa: E402
from hypothesis import HealthCheck, settings  # noqa: E402

PUSH_RULES = RuleSet()
PUSH_RULES.add(DENY, ["Bash(git push:*)"], ("Bash",), "~/.claude/settings.json")
PUSH_RULES.add(ALLOW, ["Bash"], ("Bash",), "~/.claude/settings.json")
hidden_places = shell_strategies.places
oracle_settings = settings(max_examples=12, deadline=None,
                           suppress_health_check=[HealthCheck.too_slow])
needs_oracle = pytest.mark.skipif(not bash_oracle.available(), reason="bash or git missing")
git_program = st.sampled_from(["git", "\\git", "/usr/bin/git", "command git", "env git"])
push_text = st.sampled_from(["git push", "git status; git push", "git push origin",
                             "command git push"])


def _quoted(text: str, style: str) -> str:
    if style == "'":
        return f"'{text}'"
    if style == '"':
        return f'"{text}"'
    return "$'" + text + "'"


@st.composite
def hidden_git(draw):
    g = draw(git_program)
    name = draw(st.sampled_from(["x", "X", "up"]))
    use = name.lower() if draw(st.booleans()) else name
    cmd = draw(push_text)
    quote = draw(st.sampled_from(["'", '"']))
    kind = draw(st.sampled_from(["alias", "shell-alias", "chain", "config-env", "env-count",
                                 "parameters", "config-write", "fsmonitor", "pager", "editor",
                                 "editor-var"]))
    if kind == "alias":
        return f"{g} -c alias.{name}=push {use}"
    if kind == "shell-alias":
        return f"{g} -c alias.{name}={_quoted('!' + cmd, quote)} {use}"
    if kind == "chain":
        return f"{g} -c alias.{name}=y -c alias.y=push {use}"
    if kind == "config-env":
        return f"V=push {g} --config-env=alias.{name}=V {use}"
    if kind == "env-count":
        return (f"GIT_CONFIG_COUNT=1 GIT_CONFIG_KEY_0=alias.{name} GIT_CONFIG_VALUE_0=push "
                f"{g} {use}")
    if kind == "parameters":
        return f"GIT_CONFIG_PARAMETERS=\"'alias.{name}'='push'\" {g} {use}"
    if kind == "config-write":
        scope = draw(st.sampled_from(["", "--global ", "--local "]))
        return f"{g} config {scope}alias.{name} push; {g} {use}"
    if kind == "fsmonitor":  # (a git status in the hook would start the hook again)
        cmd = draw(st.sampled_from(["git push", "command git push", "git push origin"]))
        return f"{g} -c core.fsmonitor={_quoted(cmd + ';:', quote)} status"
    if kind == "pager":
        key = draw(st.sampled_from(["core.pager", "pager.log"]))
        return f"{g} -c {key}={_quoted(cmd + ';:', quote)} log"
    if kind == "editor":
        return f"{g} -c core.editor={_quoted(cmd + ';:', quote)} commit --allow-empty"
    var = draw(st.sampled_from(["GIT_EDITOR", "EDITOR", "VISUAL"]))
    return f"{var}={_quoted(cmd + ';:', quote)} {g} commit --allow-empty"


@st.composite
def hidden_trap(draw):
    action = _quoted(draw(push_text), draw(st.sampled_from(["'", '"', "$'"])))
    signal, trigger = draw(st.sampled_from([("EXIT", ""), ("0", ""), ("DEBUG", "; :"),
                                            ("ERR", "; false"),
                                            ("INT", "; kill -INT $BASHPID"),
                                            ("TERM", "; kill $BASHPID")]))
    prefix = draw(st.sampled_from(["", "builtin ", "command "]))
    dashes = draw(st.sampled_from(["", "-- "]))
    return f"{prefix}trap {dashes}{action} {signal}{trigger}"


@st.composite
def hidden_source(draw):
    cmd = draw(st.sampled_from([".", "source", "builtin source", "command ."]))
    text = _quoted(draw(push_text), draw(st.sampled_from(["'", '"'])))
    form = draw(st.sampled_from(["{c} /dev/stdin <<< {t}", "{c} /dev/fd/0 <<< {t}",
                                 "echo {t} | {c} /dev/stdin", "printf '%s\\n' {t} | {c} /dev/stdin",
                                 "{c} <(echo {t})", "{c} <(printf '%s\\n' {t})"]))
    return form.replace("{c}", cmd).replace("{t}", text)


@st.composite
def hidden_startup(draw):
    sub = _quoted("$(" + draw(push_text) + ")", "'")
    text = _quoted(draw(push_text), "'")
    return draw(st.sampled_from([
        f"PS4={sub}; set -x; :", f"set -x; PS4={sub} :", f"set -o xtrace; PS4={sub}; true",
        f"PROMPT_COMMAND={text} bash -i", f"PS0={sub} bash -i <<< ':'",
        f"bash --rcfile <(echo {text}) -i", f"bash --init-file /dev/stdin -i <<< {text}",
        f"BASH_ENV=/dev/stdin bash -c : <<< {text}", f"BASH_ENV=<(echo {text}) bash -c :",
        f"ENV=<(echo {text}) sh -i",
    ]))


def _runs_push_and_is_denied(place: str, spelling: str) -> None:
    command = place.replace("@", spelling)
    run = bash_oracle.run(command)
    assert run.ran("git push"), ("the generator made a line that pushes nothing", command,
                                 run.output[-300:])
    verdict = decide(command, PUSH_RULES)
    assert verdict.decision == DENY, (command, verdict)


@needs_oracle
@oracle_settings
@given(hidden_places, hidden_git())
def test_git_config_and_aliases_that_push_are_denied(place, spelling):
    _runs_push_and_is_denied(place, spelling)


@needs_oracle
@oracle_settings
@given(hidden_places, hidden_trap())
def test_trap_actions_that_push_are_denied(place, spelling):
    _runs_push_and_is_denied(place, spelling)


@needs_oracle
@oracle_settings
@given(hidden_places, hidden_source())
def test_sourced_text_that_pushes_is_denied(place, spelling):
    _runs_push_and_is_denied(place, spelling)


@needs_oracle
@oracle_settings
@given(hidden_places, hidden_startup())
def test_startup_and_prompt_code_that_pushes_is_denied(place, spelling):
    _runs_push_and_is_denied(place, spelling)
