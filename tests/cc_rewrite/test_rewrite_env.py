"""Environment listings (`env`, `printenv` running no command): always through the env filter,
in a pipe too (a security exception to ARCHITECTURE §5's pipe rule, cc-rewrite/README.md). The rows
themselves are in test_rewrite_table.py (ENV_LISTINGS); here: the listing test agrees with
cc-filter's real routing, and a rewritten pipe answers as the raw one, up to masked values."""
import os
import subprocess
import sys

import pytest
from cc_peel import key_of
from cc_rewrite.refusals import RewriteSettings, lists_environment
from cc_rewrite.rewrite import Catalogue, rewrite

BIN = os.path.dirname(sys.executable)

LISTINGS = [
    ["env"], ["/usr/bin/env"], ["printenv"], ["printenv", "HOME"], ["printenv", "A", "B_2"],
    ["env", "-i"], ["env", "-"], ["env", "--ignore-environment"], ["env", "-u", "X"],
    ["env", "-uX"], ["env", "--unset=X"], ["env", "--unset", "X"], ["env", "--"],
    ["env", "FOO=1"], ["env", "FOO="], ["env", "-i", "-u", "X", "A=1", "--", "B=2"],
]
NOT_LISTINGS = [
    ["env", "git", "status"], ["env", "FOO=1", "make"], ["env", "-0"], ["env", "--null"],
    ["env", "-u"], ["env", "-u", "1X"], ["env", "-S", "ls"], ["env", "-C", "/tmp", "ls"],
    ["env", "-v"], ["env", "--", "ls"], ["env", "=x"], ["printenv", "-0"],
    ["printenv", "--null", "HOME"], ["printenv", "--help"], ["printenv", "A-B"], ["envsubst"],
    ["sudo", "env"], [],
]


@pytest.mark.parametrize("argv", LISTINGS, ids=" ".join)
def test_listings_are_routed_to_the_env_filter(argv):
    from cc_filter.choose.catalogue import lookup

    assert lists_environment(argv)
    entry = lookup(key_of(argv))
    assert entry is not None and entry.name == "env", (key_of(argv), entry)


@pytest.mark.parametrize("argv", NOT_LISTINGS, ids=lambda a: " ".join(a) or "empty")
def test_other_forms_are_not_listings(argv):
    assert not lists_environment(argv)


SECRETS = {"GITHUB_TOKEN": "ghp_16C7e42F292c6912E7710c838347Ae178B4a",
           "MY_APP_SECRET": "s3cr3t-value-that-must-not-leak",
           "DATABASE_URL": "postgres://app:hunter2hunter2@db:5432/app",
           "LS_COLORS": "rs=0:di=01;34:ln=01;36:mh=00:pi=40;33:so=01;35:do=01;35:" * 4,
           "PLAIN_VALUE": "hello world", "EMPTY": ""}


def _bash(command, cwd):
    env = {"PATH": BIN + os.pathsep + "/usr/bin:/bin", "HOME": str(cwd), "LANG": "C.UTF-8",
           "CTXCRL_HOME": os.environ["CTXCRL_HOME"], **SECRETS}
    done = subprocess.run(["bash", "-c", command], cwd=cwd, env=env, capture_output=True,
                          text=True, timeout=60)
    return done.returncode, done.stdout


@pytest.mark.parametrize("command, same", [
    ("env | wc -l", True),
    ("env | sort | cut -d= -f1", True),
    ("env | grep -c =", True),
    ("printenv | awk -F= '{print $1}' | sort", True),
    ("env | grep -i -e path -e home | sort", True),
    ("env | grep -i -e token -e secret", False),
    ("env | grep -i colors", False),
])
def test_a_rewritten_pipe_answers_as_the_raw_one_up_to_masked_values(tmp_path, command, same):
    """Through the real cc-filter: one line per variable, names in order, plain values kept;
    only the lines of secrets and colour tables differ, and no secret value gets through."""
    rewritten = rewrite(command, Catalogue(str(tmp_path)), RewriteSettings()).text
    assert rewritten == "cc-filter run " + command
    raw_code, raw = _bash(command, tmp_path)
    code, filtered = _bash(rewritten, tmp_path)
    assert code == raw_code
    assert (filtered == raw) is same, (raw, filtered)
    assert len(filtered.splitlines()) == len(raw.splitlines())
    for value in ("ghp_16C7e42F292c6912E7710c838347Ae178B4a", "s3cr3t-value-that-must-not-leak",
                  "hunter2hunter2"):
        assert value not in filtered
