"""env / printenv: no secret value ever reaches the output (a security requirement)."""
import os

import pytest

from cc_filter.run import guard
from cc_filter.filters.system.env import MASK, Env, mask_url_password, secret_name, secret_value

FIXTURES = os.path.join(os.path.dirname(__file__), "..", "..", "fixtures", "system", "env")
SECRETS = ["ghp_FAKEfakeFAKEfake0123456789abcdefABCD", "AKIAFAKEFAKEFAKEFAKE",
           "fAkE/sEcReT+kEy/0123456789abcdefghijklmnop", "s3cr3t-passw0rd",
           "sk-proj-FAKEfakeFAKEfake0123456789abcdefghijklmnopqrstuv",
           "npm_FAKEfakeFAKEfake0123456789abcdefgh", "whsec_FAKEfakeFAKEfake0123456789abcdef",
           "MIIBVAIBADANBgkqhkiG9w0BAQEFAASCAT4wggE6AgEAAkEAFAKEFAKEFAKEFAKE",
           "abcdefFAKEFAKE0123456789=", "0123456789abcdef0123456789abcdef"]


def run(argv, text, exit_code=0):
    return "\n".join(Env(argv).run(text.split("\n"), exit_code))


@pytest.mark.parametrize("case", ["developer-shell", "printenv", "printenv-secret"])
def test_no_secret_survives_the_runner(case):
    raw = open(os.path.join(FIXTURES, case + ".out"), "rb").read()
    argv = ["printenv", "GITHUB_TOKEN"] if case == "printenv-secret" else [case.split("-")[0]]
    argv = ["env"] if case == "developer-shell" else argv
    outcome = guard.apply(Env(argv), raw, 0, argv=argv)
    text = outcome.text()
    outcome.close()
    assert outcome.mode == "filtered"
    for secret in SECRETS:
        assert secret not in text


@pytest.mark.parametrize("line, expected", [
    ("GITHUB_TOKEN=ghp_abcdefghijklmnopqrstuvwxyz0123456789", f"GITHUB_TOKEN={MASK}"),
    ("db_password=hunter2", f"db_password={MASK}"),
    ("MY_API_KEY=x", f"MY_API_KEY={MASK}"),
    ("Session_Cookie=abc", f"Session_Cookie={MASK}"),
    ("INNOCENT=ghp_abcdefghijklmnopqrstuvwxyz0123456789", f"INNOCENT={MASK}"),  # by value
    ("BUILD_ID=Zx9kQ2mN8pL4vR7tY1wE3sD6fG0hJ5aB", f"BUILD_ID={MASK}"),  # high-entropy value
    ("JWT=eyJhbGciOiJIUzI1NiJ9.e30.abc", f"JWT={MASK}"),
    ("DATABASE_URL=postgres://app:pw@db:5432/app", f"DATABASE_URL=postgres://app:{MASK}@db:5432/app"),
    ("HOME=/home/dev", "HOME=/home/dev"),
    ("PWD=/srv/app", "PWD=/srv/app"),
    ("PATH=/usr/local/bin:/usr/bin:/bin", "PATH=/usr/local/bin:/usr/bin:/bin"),
    ("GIT_COMMIT=3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39", "GIT_COMMIT=3f2a9c1d8e7b6a5f4e3d2c1b0a9f8e7d6c5b4a39"),
])
def test_masking_table(line, expected):
    assert run(["env"], line) == expected


def test_multi_line_private_key_is_masked_on_every_line():
    text = "KEY_PEM=-----BEGIN RSA PRIVATE KEY-----\nMIIEabc=\nQUJDRA=\n-----END RSA PRIVATE KEY-----\nUSER=dev"
    assert run(["env"], text) == f"KEY_PEM={MASK}\n{MASK}\n{MASK}\n{MASK}\nUSER=dev"


def test_pem_block_under_an_innocent_name_is_masked():
    text = "CERT_DATA_X=ok\nBLOB=-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXk=\n-----END OPENSSH PRIVATE KEY-----"
    out = run(["env"], text)
    assert "b3BlbnNzaC1rZXk" not in out and "OPENSSH" not in out
    assert out.split("\n")[1:] == [f"BLOB={MASK}", MASK, MASK]  # every line of the block kept, masked


def test_printenv_of_a_secret_name_masks_the_bare_value():
    assert run(["printenv", "HOME", "AWS_SECRET_ACCESS_KEY"], "/home/dev\nabc") == f"{MASK}\n{MASK}"


def test_printenv_of_plain_names_keeps_values():
    assert run(["printenv", "HOME"], "/home/dev") == "/home/dev"


def test_colour_tables_are_shortened():
    assert run(["env"], "LS_COLORS=" + "di=01;34:" * 20) == "LS_COLORS=<180 chars>"


@pytest.mark.parametrize("name, secret", [("AWS_SECRET_ACCESS_KEY", True), ("XDG_SESSION_TYPE", False),
                                          ("OLDPWD", False), ("NPM_TOKEN", True), ("EDITOR", False)])
def test_secret_names(name, secret):
    assert secret_name(name) is secret


@pytest.mark.parametrize("value, secret", [("sk-live-0123456789abcdef", True), ("/usr/bin", False),
                                           ("hello world", False), ("AIzaSyA-1234567890abcdef", True)])
def test_secret_values(value, secret):
    assert secret_value(value) is secret


def test_url_password():
    assert mask_url_password("redis://:pw@cache:6379/0") == f"redis://:{MASK}@cache:6379/0"
    assert mask_url_password("https://example.invalid/a:b@c") == "https://example.invalid/a:b@c"


def test_declares_that_it_redacts():
    assert Env.redacts is True


def test_short_secret_never_reaches_the_output_through_the_runner():
    raw = b"PIN=1234\n"
    outcome = guard.apply(Env(["env"]), raw, 0, argv=["env"])
    text = outcome.text()
    outcome.close()
    assert "1234" not in text
    assert text == f"PIN={MASK}\n"  # the variable itself is still shown


class _BrokenEnv(Env):
    def feed(self, line):
        raise RuntimeError("bug")


def test_a_redacting_filter_that_raises_withholds_instead_of_printing_raw():
    outcome = guard.apply(_BrokenEnv(["env"]), b"AWS_SECRET_ACCESS_KEY=abc123secret\n", 0, argv=["env"])
    text = outcome.text()
    outcome.close()
    assert "abc123secret" not in text
    assert "withheld" in text and "CTXCRL_DISABLED=1" in text


def test_a_failing_env_run_writes_no_raw_tee_and_no_raw_tail(tmp_path):
    from cc_filter.run import tee

    policy = tee.TeePolicy.from_config()
    raw = b"".join(b"SECRET_TOKEN_%d=tok-%040d\n" % (i, i) for i in range(40))
    outcome = guard.apply(Env(["printenv"]), raw, 1, argv=["printenv"], tee_policy=policy)
    text = outcome.text()
    outcome.close()
    assert "tok-" not in text
    assert outcome.tee_path is None


@pytest.mark.parametrize("case", ["developer-shell", "printenv"])
def test_one_line_out_per_line_in_with_every_name_kept(case):
    """cc-rewrite rewrites `env` whatever reads it (`env | grep`, `| sort`, `| wc -l`): what
    follows must get a line per variable, in order, names intact — only values replaced."""
    with open(os.path.join(FIXTURES, case + ".out"), "rb") as f:
        raw = f.read()
    argv = [case.split("-")[0] if case == "printenv" else "env"]
    outcome = guard.apply(Env(argv), raw, 0, argv=argv)
    text = outcome.text()
    outcome.close()
    raw_lines = raw.decode().splitlines()
    lines = text.splitlines()
    assert len(lines) == len(raw_lines)
    replaced = 0
    for before, after in zip(raw_lines, lines, strict=True):
        if after in (before, MASK):  # kept, or a line of a multi-line secret (a PEM body)
            replaced += after != before
            continue
        name, _, value = before.partition("=")
        assert after.startswith(name + "=") and (
            after[len(name) + 1:] in (MASK, f"<{len(value)} chars>") or MASK in after), after
        replaced += 1
    assert 0 < replaced < len(lines) / 2


def test_the_extended_listing_forms_are_routed_and_masked():
    import re

    routed = re.compile(Env.match_command)
    for key in ("env", "printenv", "printenv HOME", "env -u X", "env -i", "env --unset=X",
                "env FOO=1 BAR=", "env -- FOO=1"):
        assert routed.search(key), key
    for key in ("env -0", "env FOO=1 make", "env git status", "printenv -0", "envsubst",
                "env -S ls", "env FOO=a b"):
        assert not routed.search(key), key
    assert run(["env", "-u", "HOME", "FOO=1"], "FOO=1\nAPI_KEY=abc") == f"FOO=1\nAPI_KEY={MASK}"
