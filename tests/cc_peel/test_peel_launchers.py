"""cc_peel.launchers: what each launcher runs, and env -S split as GNU env splits it.

The split is compared with the real `env -S STRING printf '[%s]'` where GNU env is installed.
"""
import shutil
import subprocess

import pytest

from cc_peel.launchers import launched, split_string

# argv → (argvs it runs, scripts it runs, unsure?)
TABLE = [
    (["prlimit", "--nofile=1024", "git", "push"], [["git", "push"]], [], False),
    (["prlimit", "-n1024", "--nproc=9", "git", "push"], [["git", "push"]], [], False),
    (["prlimit", "--pid", "1"], [], [], False),
    (["prlimit", "--bogus", "git", "push"], [["git", "push"]], [], True),
    (["setpriv", "--reuid", "0", "--clear-groups", "git", "push"], [["git", "push"]], [], False),
    (["timeout", "-k", "1", "5", "git", "push"], [["git", "push"]], [], False),
    (["timeout", "--signal=KILL", "5s", "git"], [["git"]], [], False),
    (["nice", "-5", "git", "push"], [["git", "push"]], [], False),
    (["nice", "-n5", "git"], [["git"]], [], False),
    (["ionice", "-c", "2", "-n", "0", "git"], [["git"]], [], False),
    (["chrt", "-o", "0", "git", "push"], [["git", "push"]], [], False),
    (["taskset", "-c", "0", "git", "push"], [["git", "push"]], [], False),
    (["stdbuf", "-oL", "-e", "0", "git"], [["git"]], [], False),
    (["chroot", "--userspec=0:0", "/", "git", "push"], [["git", "push"]], [], False),
    (["sudo", "-u", "dev", "-E", "A=1", "git", "push"], [["git", "push"]], [], False),
    (["sudo", "--preserve-env=PATH", "git"], [["git"]], [], False),
    (["command", "-v", "git"], [], [], False),
    (["exec", "-a", "name", "git", "push"], [["git", "push"]], [], False),
    (["flock", "-w", "5", ".lock", "git", "push"], [["git", "push"]], [], False),
    (["flock", ".lock", "-c", "git push"], [], ["git push"], False),
    (["script", "-qec", "git push", "/dev/null"], [], ["git push"], False),
    (["script", "-q", "/dev/null", "--command=git push"], [], ["git push"], False),
    (["su", "root", "-c", "git push"], [], ["git push"], False),
    (["runuser", "-u", "root", "--", "git", "push"], [["git", "push"]], [], False),
    (["watch", "-n", "1", "git", "push"], [["git", "push"]], ["git push"], False),
    (["watch", "-x", "git", "push"], [["git", "push"]], [], False),
    (["sg", "root", "-c", "git push"], [["git push"]], ["git push"], False),
    (["npx", "--call=git push"], [], ["git push"], False),
    (["npm", "exec", "-c", "git push"], [], ["git push"], False),
    (["npm", "test"], [], [], False),
    (["parallel", "git", ":::", "push", "pull"], [["git"]], ["git push", "git pull"], False),
    (["parallel", ":::", "git push"], [], ["git push"], False),
    (["parallel", "git {1} {2}", ":::", "push", ":::", "origin"], [["git {1} {2}"]],
     ["git push origin"], False),
    (["busybox", "env", "git"], [["env", "git"]], [], False),
    (["valgrind", "--tool=none", "git", "push"], [["git", "push"]], [], False),
    (["env", "-iS", "git push", "origin"], [["git", "push", "origin"]], [], False),
    (["env", "-iu", "HOME", "-C", "/", "--split-s=git push"], [["git", "push"]], [], False),
    (["env", "-S", "-i A=1 git\\_push"], [["git", "push"]], [], False),
    (["env", "-Z", "git"], [["git"]], [], True),
    (["env", "-S", "'unterminated"], [], [], True),
]


@pytest.mark.parametrize("argv, argvs, scripts, unsure", TABLE)
def test_what_each_launcher_runs(argv, argvs, scripts, unsure):
    launch = launched(argv)
    assert launch is not None
    assert launch.argvs == argvs and launch.scripts == scripts, launch
    assert bool(launch.unsure) == unsure, launch


def test_xargs_and_parallel_use_a_known_input():
    assert launched(["xargs", "git"], "push\n").argvs == [["git", "push"]]
    assert launched(["xargs", "-I{}", "git", "{}"], "push\n").argvs == [["git", "push"]]
    assert launched(["xargs", "-n1", "git"], "push").argvs == [["git", "push"]]
    assert launched(["parallel", "git"], "push\n").scripts == ["git push"]


def test_a_program_that_is_no_launcher():
    assert launched(["git", "push"]) is None
    assert launched([]) is None


SPLITS = [
    "git push", "  git   push  ", "git\tpush", "'git' 'push'", '"git" push', '"g"it pu"sh"',
    "git\\_push", '"a\\_b" c', "git push # comment", "git push\\c rest", "a 'b\\'c' d",
    "a \"b\\\"c\" d", "a\\tb", "#all comment", "a #b", "'a b'", "a\\\\b", "a\\$b",
    "'\\n' \"\\n\"", "", "x ''", 'x ""',
]
ENV = shutil.which("env")


def _gnu_env() -> bool:
    if ENV is None:
        return False
    out = subprocess.run([ENV, "--version"], capture_output=True, text=True).stdout
    return "GNU coreutils" in out


@pytest.mark.skipif(not _gnu_env(), reason="GNU env is not installed")
@pytest.mark.parametrize("text", SPLITS)
def test_split_string_is_what_gnu_env_makes(text):
    proc = subprocess.run([ENV, "-S", "printf [%s] " + text], capture_output=True, text=True)
    words = split_string(text)
    printed = "".join(f"[{w}]" for w in words) if words else "[]"
    assert proc.stdout == printed, (text, words, proc.stdout)


def test_split_string_refuses_what_env_refuses():
    for text in ("'open", '"open', "a\\", "a\\q", "$HOME", '"\\c"'):
        with pytest.raises(ValueError):
            split_string(text)
    assert split_string("git ${X}push") == ["git", "${X}push"]
