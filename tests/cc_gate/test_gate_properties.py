"""No spelling of a denied command escapes the deny, wherever it sits in a compound (hypothesis).

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
