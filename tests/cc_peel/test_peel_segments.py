"""cc_peel.peel: one row per layer or construct, with the exact segments expected.

Each expected segment gives the fields that differ from a plain command; the others must be
exactly: separator "", env "", env_vars [], wrappers "", core == text, argv == core split on
spaces, key == " ".join(argv), redirects [], file_redirect False, position "alone",
opaque None, nested None. Offsets are checked against the input for every segment.
"""
import pytest

from cc_peel import Segment, peel

CASES = [
    # plain commands and separators
    ("git status", [dict(text="git status")], None),
    ("", [], None),
    ("  # just a comment", [], None),
    ("git status && ls -la", [dict(text="git status", separator="&&"), dict(text="ls -la")],
     None),
    ("a || b; c & d", [dict(text="a", separator="||"), dict(text="b", separator=";"),
                       dict(text="c", separator="&"), dict(text="d")], None),
    ("a\nb\n", [dict(text="a", separator="\n"), dict(text="b", separator="\n")], None),
    ("a\r\nb", [dict(text="a", separator="\r\n"), dict(text="b")], None),
    ("git add . && git commit -m 'x y' # done",
     [dict(text="git add .", separator="&&"),
      dict(text="git commit -m 'x y'", argv=["git", "commit", "-m", "x y"],
           key="git commit -m x y")], None),
    ("echo 'a && b' | grep \"c;d\"",
     [dict(text="echo 'a && b'", argv=["echo", "a && b"], key="echo a && b", separator="|",
           position="producer"),
      dict(text='grep "c;d"', argv=["grep", "c;d"], key="grep c;d", position="final")], None),
    # pipelines
    ("a | b | c", [dict(text="a", separator="|", position="producer"),
                   dict(text="b", separator="|", position="middle"),
                   dict(text="c", position="final")], None),
    ("a |& b && c", [dict(text="a", separator="|&", position="producer"),
                     dict(text="b", separator="&&", position="final"), dict(text="c")], None),
    ("git log | head -5; ls", [dict(text="git log", separator="|", position="producer"),
                               dict(text="head -5", separator=";", position="final"),
                               dict(text="ls")], None),
    # env assignments
    ("FOO=1 git status", [dict(text="FOO=1 git status", env="FOO=1 ", env_vars=[("FOO", "1")],
                               core="git status")], None),
    ('FOO=1 BAR="a b" make', [dict(text='FOO=1 BAR="a b" make', env='FOO=1 BAR="a b" ',
                                   env_vars=[("FOO", "1"), ("BAR", "a b")], core="make")],
     None),
    ("A='x \"y\"' B= ls", [dict(text="A='x \"y\"' B= ls", env="A='x \"y\"' B= ",
                                env_vars=[("A", 'x "y"'), ("B", "")], core="ls")], None),
    ("PATH+=:/x ls", [dict(text="PATH+=:/x ls", env="PATH+=:/x ", env_vars=[("PATH", ":/x")],
                           core="ls")], None),
    ("env A=1 B=2 git status", [dict(text="env A=1 B=2 git status", env="env A=1 B=2 ",
                                     env_vars=[("A", "1"), ("B", "2")], core="git status")],
     None),
    ("env -i PATH=/bin ls", [dict(text="env -i PATH=/bin ls", env="env -i PATH=/bin ",
                                  env_vars=[("PATH", "/bin")], core="ls")], None),
    ("env", [dict(text="env")], None),
    ("FOO=1", [dict(text="FOO=1", env="FOO=1", env_vars=[("FOO", "1")], core="", argv=[],
                    key="", opaque="no_command")], None),
    ("x=1; echo $x", [dict(text="x=1", env="x=1", env_vars=[("x", "1")], core="", argv=[],
                           key="", opaque="no_command", separator=";"),
                      dict(text="echo $x")], None),
    ("CTXCRL_DISABLED=1 git status",
     [dict(text="CTXCRL_DISABLED=1 git status", env="CTXCRL_DISABLED=1 ",
           env_vars=[("CTXCRL_DISABLED", "1")], core="git status", opaque="disabled")], None),
    ("ls FOO=1", [dict(text="ls FOO=1")], None),
    # transparent wrappers
    ("timeout -s KILL 5 pytest", [dict(text="timeout -s KILL 5 pytest",
                                       wrappers="timeout -s KILL 5 ", core="pytest")], None),
    ("timeout --signal=KILL 5s pytest -x",
     [dict(text="timeout --signal=KILL 5s pytest -x", wrappers="timeout --signal=KILL 5s ",
           core="pytest -x")], None),
    ("timeout 5", [dict(text="timeout 5")], None),
    ("time cargo build", [dict(text="time cargo build", wrappers="time ", core="cargo build")],
     None),
    ("time -p cargo build", [dict(text="time -p cargo build", wrappers="time -p ",
                                  core="cargo build")], None),
    ("nice -n 10 make", [dict(text="nice -n 10 make", wrappers="nice -n 10 ", core="make")],
     None),
    ("nice -5 make", [dict(text="nice -5 make", wrappers="nice -5 ", core="make")], None),
    ("nohup ./server &", [dict(text="nohup ./server", wrappers="nohup ", core="./server",
                               key="server", separator="&")], None),
    ("command git status", [dict(text="command git status", wrappers="command ",
                                 core="git status")], None),
    ("command -v git", [dict(text="command -v git")], None),
    ("exec git log", [dict(text="exec git log", wrappers="exec ", core="git log")], None),
    ("exec 2>&1", [dict(text="exec 2>&1", core="exec", redirects=["2>&1"])], None),
    ("noglob nocorrect git log", [dict(text="noglob nocorrect git log",
                                       wrappers="noglob nocorrect ", core="git log")], None),
    ("FOO=1 env BAR=2 timeout 5 nice git status",
     [dict(text="FOO=1 env BAR=2 timeout 5 nice git status", env="FOO=1 env BAR=2 ",
           env_vars=[("FOO", "1"), ("BAR", "2")], wrappers="timeout 5 nice ",
           core="git status")], None),
    # program names
    ("/usr/bin/grep -n x f", [dict(text="/usr/bin/grep -n x f", key="grep -n x f")], None),
    ("\\git status", [dict(text="\\git status", argv=["git", "status"])], None),
    ("'git' status", [dict(text="'git' status", argv=["git", "status"])], None),
    ("./node_modules/.bin/eslint .", [dict(text="./node_modules/.bin/eslint .",
                                           key="eslint .")], None),
    ("vendor/bin/phpunit", [dict(text="vendor/bin/phpunit", key="phpunit")], None),
    # git global options
    ("git -C dir -c k=v --no-pager log -n 5",
     [dict(text="git -C dir -c k=v --no-pager log -n 5", key="git log -n 5")], None),
    ("/usr/bin/git -C x --no-pager log -n 5",
     [dict(text="/usr/bin/git -C x --no-pager log -n 5", key="git log -n 5")], None),
    ("git --git-dir=.git --work-tree . -P status",
     [dict(text="git --git-dir=.git --work-tree . -P status", key="git status")], None),
    ("git --paginate --bare diff", [dict(text="git --paginate --bare diff", key="git diff")],
     None),
    ("git log -C x", [dict(text="git log -C x")], None),
    # runners: the key is the tool inside, the core keeps the runner
    ("uv run pytest -q", [dict(text="uv run pytest -q", key="pytest -q")], None),
    ("uv run python -m pytest -q", [dict(text="uv run python -m pytest -q", key="pytest -q")],
     None),
    ("uv run --with x -m pytest", [dict(text="uv run --with x -m pytest", key="pytest")], None),
    ("uvx ruff@0.5 check", [dict(text="uvx ruff@0.5 check", key="ruff check")], None),
    ("python3 -m pytest -x", [dict(text="python3 -m pytest -x", key="pytest -x")], None),
    ("python -u -m pip install x", [dict(text="python -u -m pip install x",
                                         key="pip install x")], None),
    ("python3.11 -m mypy .", [dict(text="python3.11 -m mypy .", key="mypy .")], None),
    ("python script.py", [dict(text="python script.py")], None),
    ("poetry run pytest", [dict(text="poetry run pytest", key="pytest")], None),
    ("pdm run mypy .", [dict(text="pdm run mypy .", key="mypy .")], None),
    ("npx vitest run", [dict(text="npx vitest run", key="vitest run")], None),
    ("npx -y @biomejs/biome@1.2 check", [dict(text="npx -y @biomejs/biome@1.2 check",
                                              key="biome check")], None),
    ("pnpm exec vitest", [dict(text="pnpm exec vitest", key="vitest")], None),
    ("pnpm dlx create-vite", [dict(text="pnpm dlx create-vite", key="create-vite")], None),
    ("bunx eslint .", [dict(text="bunx eslint .", key="eslint .")], None),
    ("yarn dlx prettier --check .", [dict(text="yarn dlx prettier --check .",
                                          key="prettier --check .")], None),
    ("npm exec -- jest", [dict(text="npm exec -- jest", key="jest")], None),
    ("./gradlew test", [dict(text="./gradlew test", key="gradle test")], None),
    ("./mvnw -q verify", [dict(text="./mvnw -q verify", key="mvn -q verify")], None),
    ("bundle exec rspec", [dict(text="bundle exec rspec", key="rspec")], None),
    ("cargo +nightly test", [dict(text="cargo +nightly test", key="cargo test")], None),
    ("timeout 60 uv run pytest 2>&1", [dict(text="timeout 60 uv run pytest 2>&1",
                                           wrappers="timeout 60 ", core="uv run pytest",
                                           key="pytest", redirects=["2>&1"])], None),
    # redirects
    ("git status 2>&1", [dict(text="git status 2>&1", core="git status",
                              redirects=["2>&1"])], None),
    ("make 2>&1 | tail", [dict(text="make 2>&1", core="make", redirects=["2>&1"],
                               separator="|", position="producer"),
                          dict(text="tail", position="final")], None),
    ("git diff > x.patch", [dict(text="git diff > x.patch", core="git diff",
                                 redirects=[">", "x.patch"], file_redirect=True,
                                 opaque="file_redirect")], None),
    ("ls 2>/dev/null", [dict(text="ls 2>/dev/null", core="ls", redirects=["2>/dev/null"],
                             file_redirect=True, opaque="file_redirect")], None),
    ("cmd >> log 2>&1", [dict(text="cmd >> log 2>&1", core="cmd",
                              redirects=[">>", "log", "2>&1"], file_redirect=True,
                              opaque="file_redirect")], None),
    ("cmd &> out", [dict(text="cmd &> out", core="cmd", redirects=["&>", "out"],
                         file_redirect=True, opaque="file_redirect")], None),
    ("cmd >&2", [dict(text="cmd >&2", core="cmd", redirects=[">&2"])], None),
    ("cmd >& out", [dict(text="cmd >& out", core="cmd", redirects=[">&", "out"],
                         file_redirect=True, opaque="file_redirect")], None),
    ("wc -l < file.txt", [dict(text="wc -l < file.txt", core="wc -l",
                               redirects=["<", "file.txt"])], None),
    ("grep x <<< \"$y\"", [dict(text='grep x <<< "$y"', core="grep x",
                                redirects=["<<<", '"$y"'])], None),
    ("echo a > out b", [dict(text="echo a > out b", argv=["echo", "a", "b"], key="echo a b",
                             file_redirect=True, opaque="file_redirect")], None),
    ("2>/dev/null ls", [dict(text="2>/dev/null ls", argv=["ls"], key="ls",
                             file_redirect=True, opaque="file_redirect")], None),
    # substitutions: the outer command is opaque, the inner ones are segments too
    ("echo $(git push --force)",
     [dict(text="echo $(git push --force)", argv=["echo", "$(git push --force)"],
           key="echo $(git push --force)", opaque="substitution"),
      dict(text="git push --force", opaque="in_substitution", nested="substitution")], None),
    ('git commit -m "$(git log -1)"',
     [dict(text='git commit -m "$(git log -1)"', argv=["git", "commit", "-m", "$(git log -1)"],
           key="git commit -m $(git log -1)", opaque="substitution"),
      dict(text="git log -1", opaque="in_substitution", nested="substitution")], None),
    ("echo `date`", [dict(text="echo `date`", argv=["echo", "`date`"], key="echo `date`",
                          opaque="substitution"),
                     dict(text="date", opaque="in_substitution", nested="substitution")], None),
    ("diff <(ls a) <(ls b)",
     [dict(text="diff <(ls a) <(ls b)", argv=["diff", "<(ls a)", "<(ls b)"],
           key="diff <(ls a) <(ls b)", opaque="substitution"),
      dict(text="ls a", opaque="in_substitution", nested="substitution"),
      dict(text="ls b", opaque="in_substitution", nested="substitution")], None),
    ("X=$(git rev-parse HEAD) make",
     [dict(text="X=$(git rev-parse HEAD) make", env="X=$(git rev-parse HEAD) ",
           env_vars=[("X", "$(git rev-parse HEAD)")], core="make", opaque="substitution"),
      dict(text="git rev-parse HEAD", opaque="in_substitution", nested="substitution")], None),
    ("echo $(a | b)", [dict(text="echo $(a | b)", argv=["echo", "$(a | b)"],
                            key="echo $(a | b)", opaque="substitution"),
                       dict(text="a", separator="|", position="producer",
                            opaque="in_substitution", nested="substitution"),
                       dict(text="b", position="final", opaque="in_substitution",
                            nested="substitution")], None),
    ("echo $((1 + 2))", [dict(text="echo $((1 + 2))", argv=["echo", "$((1 + 2))"],
                              key="echo $((1 + 2))", opaque="arithmetic")], "arithmetic"),
    # groups and control structures
    ("(cd x && make) | tail", [dict(text="cd x", separator="&&", opaque="in_group",
                                    nested="group"),
                               dict(text="make", opaque="in_group", nested="group"),
                               dict(text="tail", position="final")], None),
    ("{ git push; }", [dict(text="git push", separator=";", opaque="in_group",
                            nested="group")], None),
    ("if true; then git push; fi", [dict(text="true", separator=";", opaque="in_control",
                                         nested="control"),
                                    dict(text="git push", separator=";", opaque="in_control",
                                         nested="control")], None),
    ("if a; then b; else c; fi && d",
     [dict(text="a", separator=";", opaque="in_control", nested="control"),
      dict(text="b", separator=";", opaque="in_control", nested="control"),
      dict(text="c", separator=";", opaque="in_control", nested="control"),
      dict(text="d")], None),
    ("for f in $(ls); do echo $f; done",
     [dict(text="ls", opaque="in_substitution", nested="substitution"),
      dict(text="echo $f", separator=";", opaque="in_control", nested="control")], None),
    ("while read l; do echo $l; done < f",
     [dict(text="read l", separator=";", opaque="in_control", nested="control"),
      dict(text="echo $l", separator=";", opaque="in_control", nested="control")], None),
    ("case $x in a|b) ls;; *) pwd;; esac",
     [dict(text="ls", separator=";;", opaque="in_control", nested="control"),
      dict(text="pwd", separator=";;", opaque="in_control", nested="control")], None),
    ("f() { git push; }; f", [dict(text="git push", separator=";", opaque="in_control",
                                   nested="control"),
                              dict(text="f")], None),
    ("function g { ls; }", [dict(text="ls", separator=";", opaque="in_control",
                                 nested="control")], None),
    ("echo $( (git push) )", [dict(text="echo $( (git push) )", argv=["echo", "$( (git push) )"],
                                   key="echo $( (git push) )", opaque="substitution"),
                              dict(text="git push", opaque="in_group", nested="group")], None),
    ("((i++)) && ls", [dict(text="ls")], "arithmetic"),
    ("[[ -f x && y < z ]] && echo hi",
     [dict(text="[[ -f x && y < z ]]", separator="&&"), dict(text="echo hi")], None),
    ("! git diff --quiet", [dict(text="git diff --quiet")], None),
    ("if a\nthen b\nfi", [dict(text="a", separator="\n", opaque="in_control", nested="control"),
                          dict(text="b", separator="\n", opaque="in_control",
                               nested="control")], "block"),
    ("(a)\nb", [dict(text="a", opaque="in_group", nested="group"), dict(text="b")], "block"),
    # heredocs
    ("cat <<EOF\nhello\nEOF\nls",
     [dict(text="cat <<EOF", core="cat", redirects=["<<EOF"], opaque="heredoc",
           separator="\n"),
      dict(text="ls")], "heredoc"),
    ("cat <<'EOF' > f.txt\n$(x)\nEOF",
     [dict(text="cat <<'EOF' > f.txt", core="cat", redirects=["<<'EOF'", ">", "f.txt"],
           file_redirect=True, opaque="heredoc", separator="\n")], "heredoc"),
    ("cat <<EOF\nhi $(rm x)\nEOF\n",
     [dict(text="cat <<EOF", core="cat", redirects=["<<EOF"], opaque="heredoc",
           separator="\n"),
      dict(text="rm x", opaque="in_substitution", nested="substitution")], "heredoc"),
    # commands that run other commands
    ("sudo rm -rf /", [dict(text="sudo rm -rf /", opaque="delegates:sudo")], None),
    ("ssh host ls", [dict(text="ssh host ls", opaque="delegates:ssh")], None),
    ("bash -c 'git push'", [dict(text="bash -c 'git push'", argv=["bash", "-c", "git push"],
                                 key="bash -c git push", opaque="delegates:bash -c")], None),
    ("sh -ec x", [dict(text="sh -ec x", opaque="delegates:sh -c")], None),
    ("docker exec -it c ls", [dict(text="docker exec -it c ls",
                                   opaque="delegates:docker exec")], None),
    ("docker compose exec web ls", [dict(text="docker compose exec web ls",
                                         opaque="delegates:docker exec")], None),
    ("kubectl exec pod -- ls", [dict(text="kubectl exec pod -- ls",
                                     opaque="delegates:kubectl exec")], None),
    ("ls | xargs rm", [dict(text="ls", separator="|", position="producer"),
                       dict(text="xargs rm", position="final", opaque="delegates:xargs")],
     None),
    ("watch -n1 ls", [dict(text="watch -n1 ls", opaque="delegates:watch")], None),
    ('eval "$x"', [dict(text='eval "$x"', argv=["eval", "$x"], key="eval $x",
                        opaque="delegates:eval")], None),
    ("uv run bash -c x", [dict(text="uv run bash -c x", key="bash -c x",
                               opaque="delegates:bash -c")], None),
    ("cc-filter run git status", [dict(text="cc-filter run git status",
                                       opaque="already_filtered")], None),
    ("docker ps", [dict(text="docker ps")], None),
    ("bash script.sh", [dict(text="bash script.sh")], None),
    # line continuations, unicode
    ("git log \\\n  --oneline", [dict(text="git log \\\n  --oneline", argv=["git", "log",
                                                                            "--oneline"],
                                      key="git log --oneline")], None),
    ("grep 'café' naïve.txt", [dict(text="grep 'café' naïve.txt",
                                    argv=["grep", "café", "naïve.txt"],
                                    key="grep café naïve.txt")], None),
]

DEFAULTS = dict(separator="", env="", env_vars=[], wrappers="", redirects=[],
                file_redirect=False, position="alone", opaque=None, nested=None)


@pytest.mark.parametrize("text, expected, whole", CASES, ids=[repr(c[0])[:40] for c in CASES])
def test_peel(text, expected, whole):
    peeled = peel(text)
    assert peeled.whole_opaque == whole
    got = [segment.to_dict() for segment in peeled.segments]
    want = []
    for fields in expected:
        row = dict(DEFAULTS)
        row.update(fields)
        row.setdefault("core", row["text"])
        row.setdefault("argv", row["core"].split(" "))
        row.setdefault("key", " ".join(row["argv"]))
        row["env_vars"] = [tuple(pair) for pair in row["env_vars"]]
        want.append(row)
    strip = ("start", "end", "core_start", "core_end")
    assert [{k: v for k, v in seg.items() if k not in strip} for seg in got] == want
    for segment in peeled.segments:
        assert segment.text == text[segment.start:segment.end]
        assert segment.core == text[segment.core_start:segment.core_end]
        assert segment.start + len(segment.env) + len(segment.wrappers) == segment.core_start
        assert text[segment.start:segment.core_start] == segment.env + segment.wrappers
        assert segment.start <= segment.core_start <= segment.core_end <= segment.end


def test_transparent_prefixes_from_config():
    peeled = peel("mise exec -- pytest -q", transparent_prefixes=["mise exec --"])
    (segment,) = peeled.segments
    assert (segment.wrappers, segment.core, segment.key) == ("mise exec -- ", "pytest -q",
                                                             "pytest -q")


def test_transparent_prefix_needs_a_command_after_it():
    (segment,) = peel("mise exec --", transparent_prefixes=["mise exec --"]).segments
    assert segment.wrappers == "" and segment.core == "mise exec --"


def test_segment_to_json():
    (segment,) = peel("FOO=1 git status 2>&1").segments
    assert segment.to_json() == (
        '{"text": "FOO=1 git status 2>&1", "start": 0, "end": 21, "separator": "", '
        '"env": "FOO=1 ", "env_vars": [["FOO", "1"]], "wrappers": "", "core_start": 6, '
        '"core_end": 16, "core": "git status", "argv": ["git", "status"], '
        '"key": "git status", "redirects": ["2>&1"], "file_redirect": false, '
        '"position": "alone", "opaque": null, "nested": null}')


def test_segments_are_plain_records():
    (segment,) = peel("ls").segments
    assert isinstance(segment, Segment)
    assert segment == peel("ls").segments[0]


def test_deep_groups_are_refused_not_a_crash():
    from cc_lex import LexError

    assert [s.text for s in peel("( " * 150 + "ls" + " )" * 150).segments] == ["ls"]
    with pytest.raises(LexError) as caught:
        peel("( " * 300 + "ls" + " )" * 300)
    assert caught.value.message == "groups and substitutions nested too deeply"
