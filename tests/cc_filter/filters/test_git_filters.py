"""The git-* filters beyond their fixture cases: diff equivalence with `git diff -U0` on random
edits, status/log/show/push/pull/branch shapes, the user's flags respected, nothing injected, and
an agent's typical git session through the real `cc-filter run`."""
import os
import random
import shutil
import subprocess
import sys

import pytest

from cc_filter.filters.git import (git_add, git_branch, git_commit, git_diff, git_fetch, git_log,
                                   git_pull, git_push, git_show, git_stash, git_status)
from cc_filter.filters.git._git_text import condense_hint
from cc_filter.kit.lines import is_omission_marker

GIT_FILTERS = [git_add.GitAdd, git_branch.GitBranch, git_commit.GitCommit, git_diff.GitDiff,
               git_fetch.GitFetch, git_log.GitLog, git_pull.GitPull, git_push.GitPush,
               git_show.GitShow, git_stash.GitStash, git_status.GitStatus]
needs_git = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def run(cls, argv, text, exit_code=0):
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    f = cls(argv)
    return list(f.run(lines, exit_code)), f


def git_env(home):
    env = {k: v for k, v in os.environ.items() if not k.startswith("GIT_")}
    env.update(HOME=str(home), GIT_CONFIG_NOSYSTEM="1", LANG="C.UTF-8", LC_ALL="C.UTF-8",
               GIT_AUTHOR_NAME="Ada", GIT_AUTHOR_EMAIL="ada@example.invalid",
               GIT_COMMITTER_NAME="Ada", GIT_COMMITTER_EMAIL="ada@example.invalid")
    return env


def sh(cmd, cwd, env):
    return subprocess.run(["bash", "-c", cmd], cwd=cwd, env=env, capture_output=True, text=True,
                          check=True).stdout


# -- every git filter -----------------------------------------------------------------------
@pytest.mark.parametrize("cls", GIT_FILTERS, ids=lambda c: c.name)
def test_injects_nothing(cls):
    argv = ["git", cls.name.split("-", 1)[1], "-n", "5"]
    assert cls.inject(list(argv)) == argv


@pytest.mark.parametrize("cls", GIT_FILTERS, ids=lambda c: c.name)
def test_match_command_is_anchored_on_the_subcommand(cls):
    import re

    pattern = re.compile(cls.match_command)
    sub = cls.name.split("-", 1)[1]
    assert pattern.match(f"git {sub}") and pattern.match(f"git {sub} -x")
    assert not pattern.match(f"git {sub}x") and not pattern.match(f"xgit {sub}")


# -- git diff ---------------------------------------------------------------------------------
def _u0_body(text):
    return [l for l in text.splitlines() if not l.startswith(("diff --git", "index ", "--- ", "+++ ",
                                                              "new file", "deleted file"))]


@needs_git
def test_diff_equals_git_diff_U0_on_random_edits(tmp_path):
    """Line numbers, counts, changed lines and (when shown) the function context are exactly
    what `git diff -U0` prints, whatever the edits."""
    env = git_env(tmp_path)
    repo = tmp_path / "repo"
    repo.mkdir()
    base = ["def f%d(x):" % i if i % 5 == 0 else "    x += %d" % i for i in range(300)]
    (repo / "a.py").write_text("\n".join(base) + "\n")
    sh("git init -q && git add -A && git commit -qm init", repo, env)
    for seed in range(25):
        rnd = random.Random(seed)
        lines = list(base)
        for _ in range(rnd.randint(1, 8)):
            i = rnd.randrange(len(lines))
            op = rnd.choice("dimr")
            if op == "d":
                del lines[i:i + rnd.randint(1, 4)]
            elif op == "i":
                lines[i:i] = [f"new {seed} {k}" for k in range(rnd.randint(1, 3))]
            elif op == "m":
                lines[i] = "changed " + lines[i]
            else:
                lines[i:i + 2] = [f"def repl_{seed}():", "    pass"]
        (repo / "a.py").write_text("\n".join(lines) + ("" if seed % 3 else "\n"))
        raw = sh("git diff", repo, env)
        expected = _u0_body(sh("git diff -U0", repo, env))
        got, _ = run(git_diff.GitDiff, ["git", "diff"], raw)
        got = [l for l in got if not l.startswith(("diff ", "... ("))]  # file lines, counts
        assert [l.split(" @@")[0] for l in got] == [l.split(" @@")[0] for l in expected], seed
        for g, e in zip(got, expected, strict=True):
            if g.startswith("@@") and g != e:
                assert g == e.split(" @@")[0] + " @@", (seed, g, e)  # only a repeated context dropped


RENAME_MODE_BINARY = """\
diff --git a/old.py b/new.py
similarity index 90%
rename from old.py
rename to new.py
index 1111111..2222222 100644
--- a/old.py
+++ b/new.py
@@ -1,3 +1,3 @@
 a
-b
+B
 c
diff --git a/run.sh b/run.sh
old mode 100644
new mode 100755
diff --git a/gone.txt b/gone.txt
deleted file mode 100644
index 3333333..0000000
--- a/gone.txt
+++ /dev/null
@@ -1,2 +0,0 @@
-one
-two
diff --git a/img.png b/img.png
index 4444444..5555555 100644
Binary files a/img.png and b/img.png differ
"""


def test_diff_file_headers_say_what_git_said():
    out, _ = run(git_diff.GitDiff, ["git", "diff"], RENAME_MODE_BINARY)
    assert out == [
        "diff old.py -> new.py (renamed 90%)", "@@ -2 +2 @@ a", "-b", "+B",
        "diff run.sh (mode 100644 -> 100755)",
        "diff gone.txt (deleted)", "@@ -1,2 +0,0 @@", "-one", "-two",
        "diff img.png (binary)",
        "... (2 context lines omitted)", "... (7 index/---/+++ lines omitted)",
    ]


def test_diff_long_change_is_capped_and_marked():
    body = "".join(f"-old {i}\n" for i in range(100)) + "".join(f"+new {i}\n" for i in range(100))
    raw = "diff --git a/t b/t\n--- a/t\n+++ b/t\n@@ -1,100 +1,100 @@\n" + body
    out, f = run(git_diff.GitDiff, ["git", "diff"], raw)
    markers = [l for l in out if is_omission_marker(l)]
    assert markers == ["... (80 removed lines omitted)", "... (80 added lines omitted)",
                       "... (2 index/---/+++ lines omitted)"]
    assert "-old 0" in out and "-old 99" in out and "+new 0" in out and "+new 99" in out
    assert f.dropped


def test_diff_with_users_context_keeps_git_hunks():
    raw = "diff --git a/t b/t\n--- a/t\n+++ b/t\n@@ -1,3 +1,3 @@ ctx\n a\n-b\n+B\n c\n"
    out, _ = run(git_diff.GitDiff, ["git", "diff", "-U1"], raw)
    assert out == ["diff t", "@@ -1,3 +1,3 @@ ctx", " a", "-b", "+B", " c",
                   "... (2 index/---/+++ lines omitted)"]


@pytest.mark.parametrize("flag", ["--word-diff", "--word-diff=plain", "--color-words"])
def test_word_diffs_pass_through(flag):
    raw = "diff --git a/t b/t\n@@ -1 +1 @@\n[-a-]{+b+}\n"
    out, _ = run(git_diff.GitDiff, ["git", "diff", flag], raw)
    assert out == raw.splitlines()


def test_diff_no_newline_marker_stays_with_its_line():
    raw = ("diff --git a/t b/t\n--- a/t\n+++ b/t\n@@ -1 +1 @@\n-a\n\\ No newline at end of file\n"
           "+b\n\\ No newline at end of file\n")
    out, _ = run(git_diff.GitDiff, ["git", "diff"], raw)
    assert out == ["diff t", "@@ -1 +1 @@", "-a", "\\ No newline at end of file", "+b",
                   "\\ No newline at end of file", "... (2 index/---/+++ lines omitted)"]


# -- git status -------------------------------------------------------------------------------
STATUS_CASES = [
    ("detached and clean", "HEAD detached from 1a2b3c4\nnothing to commit, working tree clean\n",
     ["HEAD detached from 1a2b3c4", "nothing to commit, working tree clean"]),
    ("gone upstream", "On branch x\nYour branch is based on 'origin/x', but the upstream is gone.\n"
     "  (use \"git branch --unset-upstream\" to fixup)\n\nnothing to commit, working tree clean\n",
     ["On branch x, based on 'origin/x', but the upstream is gone",
      "nothing to commit, working tree clean", "... (1 advice line omitted)"]),
    ("all conflicts fixed", "On branch main\nAll conflicts fixed but you are still merging.\n"
     "  (use \"git commit\" to conclude merge)\n\nChanges to be committed:\n\tmodified:   a.py\n\n",
     ["On branch main", "All conflicts fixed but you are still merging.", "  next: git commit",
      "staged:", "  M a.py"]),
    ("no commits yet", "On branch main\n\nNo commits yet\n\nnothing to commit (create/copy files "
     "and use \"git add\" to track)\n", ["On branch main", "No commits yet", "nothing to commit"]),
    ("submodule and typechange", "On branch main\nChanges not staged for commit:\n"
     "\tmodified:   lib (new commits)\n\ttypechange: link\n\n",
     ["On branch main", "unstaged:", "  M lib (new commits)", "  T link"]),
]


@pytest.mark.parametrize("name,raw,expected", STATUS_CASES, ids=[c[0] for c in STATUS_CASES])
def test_status_shapes(name, raw, expected):
    out, _ = run(git_status.GitStatus, ["git", "status"], raw)
    assert out == expected


def test_status_caps_a_huge_section_and_says_so():
    raw = "On branch main\nUntracked files:\n" + "".join(f"\tf{i}.txt\n" for i in range(100))
    out, f = run(git_status.GitStatus, ["git", "status"], raw)
    assert "  f0.txt" in out and f"  f{git_status.SECTION_LIMIT - 1}.txt" in out
    assert out[-1] == f"  +{100 - git_status.SECTION_LIMIT} more files" and f.dropped


@pytest.mark.parametrize("argv", [["git", "status", "-s"], ["git", "status", "-sb"],
                                  ["git", "status", "--porcelain=v2"], ["git", "status", "--short"]])
def test_status_short_forms_pass_through(argv):
    raw = "## main...origin/main\n M a.py\n?? b\n"
    assert run(git_status.GitStatus, argv, raw)[0] == raw.splitlines()


# -- git log / show -----------------------------------------------------------------------------
def _commits(n, merge_every=0):
    out = []
    for i in range(n):
        out.append(f"commit {i:040x}")
        if merge_every and i % merge_every == 0:
            out.append("Merge: aaaaaaa bbbbbbb")
        out += ["Author: A B <a@b.c>", "Date:   Sat Mar 2 16:00:00 2024 +0000", "",
                f"    Subject {i}", ""]
    return "\n".join(out) + "\n"


def test_log_caps_only_when_the_user_gave_no_limit():
    raw = _commits(git_log.LOG_LIMIT + 50)
    out, f = run(git_log.GitLog, ["git", "log"], raw)
    # each hidden commit: its commit, Author, Date and subject lines; the shown ones' Author and
    # Date lines are cut to the name and the day
    assert out[-2:] == [f"... ({2 * git_log.LOG_LIMIT} Author/Date lines: e-mail, time truncated)",
                        "... (200 lines of 50 more commits omitted)"] and f.dropped
    assert len(out) == git_log.LOG_LIMIT + 2
    for argv in (["git", "log", "-n", "300"], ["git", "log", "-300"], ["git", "log", "--max-count=300"],
                 ["git", "log", "--since=2024-01-01"]):
        out, f = run(git_log.GitLog, argv, raw)
        assert len(out) == git_log.LOG_LIMIT + 51, argv  # every commit, and the Author/Date count
        assert out[-1] == f"... ({2 * (git_log.LOG_LIMIT + 50)} Author/Date lines: e-mail, time truncated)"


def test_log_merge_and_body():
    raw = ("commit " + "ab" * 20 + " (HEAD -> main, origin/main)\nMerge: 1111111 2222222\n"
           "Author: Grace Hopper <g@h.i>\nDate:   Tue Jan 9 08:00:00 2024 +0100\n\n    Merge x\n    \n"
           + "".join(f"    body {i}\n" for i in range(6)))
    out, f = run(git_log.GitLog, ["git", "log"], raw)
    assert out[0] == "abababa (HEAD -> main, origin/main) 2024-01-09 Grace Hopper: Merge x (merge 1111111 2222222)"
    assert out[1:] == ["  body 0", "  body 1", "  body 2", "  body 3", "  +2 more lines",
                       "... (2 Author/Date lines: e-mail, time truncated)"] and f.dropped


@pytest.mark.parametrize("argv", [["git", "log", "--oneline"], ["git", "log", "--format=%H %s"],
                                  ["git", "log", "--pretty=fuller"], ["git", "log", "--graph"]])
def test_log_users_format_passes_through(argv):
    raw = _commits(3)
    assert run(git_log.GitLog, argv, raw)[0] == raw.splitlines()


def test_short_date_keeps_other_formats():
    assert git_log.short_date("Sat Mar 2 16:00:00 2024 +0000") == "2024-03-02"
    assert git_log.short_date("2024-03-02 16:00:00 +0000") == "2024-03-02 16:00:00 +0000"
    assert git_log.short_date("3 days ago") == "3 days ago"


@pytest.mark.parametrize("argv,passes", [
    (["git", "show", "HEAD:README.md"], True), (["git", "show", "v1:src/a.py"], True),
    (["git", "show", ":/Merge branch"], False), (["git", "show", "--stat"], True),
    (["git", "show", "--name-status", "HEAD~1"], True), (["git", "show", "HEAD"], False),
])
def test_show_passthrough_forms(argv, passes):
    assert git_show.GitShow(argv).passthrough is passes


# -- messages: push, pull, fetch, branch, add, commit ------------------------------------------
def test_hint_condensing_keeps_commands_and_drops_toggles():
    block = ["hint: Updates were rejected because the tip of your current branch is behind",
             "hint: its remote counterpart. Integrate the remote changes (e.g.",
             "hint: 'git pull ...') before pushing again.",
             "hint: See the 'Note about fast-forwards' in 'git push --help' for details.",
             "hint:", "hint:   git config pull.rebase false  # merge",
             "hint: Turn this message off by running", 'hint: "git config advice.x false"']
    assert condense_hint(block) == [
        "hint: Updates were rejected because the tip of your current branch is behind its remote "
        "counterpart. Integrate the remote changes (e.g. 'git pull ...') before pushing again.",
        "hint:   git config pull.rebase false  # merge",
        "... (3 hint lines omitted)"]  # the See line, the Turn-this-off sentence's two lines


def test_push_drops_progress_keeps_refs_and_remote_messages():
    raw = ("Enumerating objects: 5, done.\nCounting objects: 100% (5/5), done.\n"
           "Writing objects: 100% (3/3), 300 bytes | 300.00 KiB/s, done.\n"
           "Total 3 (delta 1), reused 0 (delta 0), pack-reused 0\nremote: \n"
           "remote: Create a pull request for 'x' on the forge by visiting:\nremote:      https://forge.invalid/pr/new/x\n"
           "remote: \nTo forge.invalid:me/repo.git\n * [new branch]      x -> x\n")
    out, _ = run(git_push.GitPush, ["git", "push"], raw)
    assert out == ["remote: Create a pull request for 'x' on the forge by visiting:",
                   "remote:      https://forge.invalid/pr/new/x", "To forge.invalid:me/repo.git",
                   "* [new branch] x -> x"]


def test_pull_merge_keeps_every_file_and_drops_auto_merging():
    raw = ("From ../remote\n   1111111..2222222  main       -> origin/main\nAuto-merging a.py\n"
           "Merge made by the 'ort' strategy.\n a.py | 2 +-\n b.py | 4 ++++\n"
           " 2 files changed, 5 insertions(+), 1 deletion(-)\n create mode 100644 b.py\n")
    out, _ = run(git_pull.GitPull, ["git", "pull"], raw)
    assert out == ["From ../remote", "1111111..2222222 main -> origin/main",
                   "Merge made by the 'ort' strategy.", "  a.py | 2 +-", "  b.py | 4 ++++",
                   "2 files changed, 5 insertions(+), 1 deletion(-)",
                   "... (1 Auto-merging line omitted)", "... (1 create/delete mode line omitted)"]


def test_fetch_and_push_confirm_when_silent():
    assert git_push.GitPush.on_empty and git_fetch.GitFetch.on_empty


def test_branch_groups_remotes_per_remote():
    raw = "* main\n  x\n  remotes/origin/HEAD -> origin/main\n  remotes/origin/main\n  remotes/up/dev\n"
    out, _ = run(git_branch.GitBranch, ["git", "branch", "-a"], raw)
    assert out == ["* main", "  x", "  remotes/origin/HEAD -> origin/main",
                   "  remotes/origin: main", "  remotes/up: dev"]


def test_add_keeps_errors_and_caps_verbose_lists():
    raw = "".join(f"add 'f{i}'\n" for i in range(100)) + "warning: in the working copy of 'x', LF will be replaced by CRLF\n"
    out, f = run(git_add.GitAdd, ["git", "add", "-v", "."], raw)
    assert out[0] == "add 'f0'" and out[-1] == f"+{100 - git_add.LIST_LIMIT} more files" and f.dropped
    assert out[-2].startswith("warning: in the working copy of 'x'")


def test_commit_amend_and_hook_output():
    raw = ("[main 1a2b3c4] Fix it\n Date: Sat Mar 2 16:00:00 2024 +0000\n"
           " 1 file changed, 1 insertion(+)\n")
    out, _ = run(git_commit.GitCommit, ["git", "commit", "--amend", "--no-edit"], raw)
    assert out == ["[main 1a2b3c4] Fix it", "Date: Sat Mar 2 16:00:00 2024 +0000",
                   "1 file changed, 1 insertion(+)"]


# -- an agent's typical git session, through the real runner -------------------------------------
@needs_git
def test_typical_git_session_through_cc_filter_run(tmp_path):
    """status, diff, add, commit, push, log: every file, hunk and result the raw output showed
    is still there, in far fewer tokens."""
    env = git_env(tmp_path)
    env.update(CTXCRL_HOME=str(tmp_path / "ctxcrl"), GIT_AUTHOR_DATE="1709283600 +0000",
               GIT_COMMITTER_DATE="1709283600 +0000")

    def make(where):
        """The same project twice (fixed dates: same hashes), one for each way of running."""
        where.mkdir()
        repo = where / "proj"
        repo.mkdir()
        sh("git init -q --bare ../remote.git && git init -q -b main && git remote add origin ../remote.git",
           repo, env)
        for name in ("api", "models", "views"):
            body = "".join(f"def {name}_{i}(request):\n    return handle(request, {i})\n\n\n" for i in range(40))
            (repo / f"{name}.py").write_text(body)
        sh("git add -A && git commit -qm init && git push -qu origin main", repo, env)
        for i in range(12):
            (repo / f"note{i}.txt").write_text("n\n")
            sh(f"git add note{i}.txt && git commit -qm 'Add note {i}' -m 'Why: note {i} matters.'", repo, env)
        for name, at in (("api", 5), ("models", 17), ("views", 33)):
            text = (repo / f"{name}.py").read_text()
            (repo / f"{name}.py").write_text(text.replace(f"handle(request, {at})", f"handle(request, {at}, strict=True)"))
        (repo / "new.py").write_text("print('new')\n")
        return repo

    steps = ["git status", "git diff", "git add -A", "git commit -m Strict", "git push", "git log"]
    raw_repo, filtered_repo = make(tmp_path / "raw"), make(tmp_path / "filtered")
    session = {}
    for step in steps:
        raw = subprocess.run(step.split(), cwd=raw_repo, env=env, capture_output=True, text=True)
        filtered = subprocess.run([sys.executable, "-m", "cc_filter", "run", *step.split()],
                                  cwd=filtered_repo, env=env, capture_output=True, text=True)
        assert filtered.returncode == raw.returncode, (step, filtered.stdout, filtered.stderr)
        session[step.split()[1]] = (raw, filtered)
    status = session["status"][1].stdout
    for fact in ("api.py", "models.py", "views.py", "new.py", "ahead of 'origin/main' by 12 commits"):
        assert fact in status
    diff = session["diff"][1].stdout
    for fact in ("diff api.py", "@@ -22 +22 @@", "+    return handle(request, 5, strict=True)",
                 "diff models.py", "@@ -70 +70 @@", "diff views.py", "@@ -134 +134 @@"):
        assert fact in diff, fact
    commit = session["commit"][1].stdout
    assert "[main " in commit and "] Strict" in commit and "create new.py" in commit
    assert "main -> main" in session["push"][1].stdout + session["push"][1].stderr
    log = session["log"][1].stdout
    assert all(f"Add note {i}" in log for i in range(12)) and "Strict" in log and "init" in log
    raw_chars = sum(len(r.stdout) + len(r.stderr) for r, _ in session.values())
    out_chars = sum(len(f.stdout) + len(f.stderr) for _, f in session.values())
    assert out_chars < 0.5 * raw_chars, (out_chars, raw_chars)
