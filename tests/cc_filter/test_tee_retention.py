"""Tee retention by age and total size, not by count: a failing test's hint outlives the
commands that follow it, a hint always names a file that exists, and `cc-filter raw` on an
expired one says when it went."""
import os
import time

import pytest

from cc_filter import cli

from cc_filter.run import tee
from cc_filter.kit.spill import SpillBuffer

from filter_testkit import toml_filter

DAY = 86400


def raw_output(size=100):
    raw = SpillBuffer()
    raw.write(b"x" * size)
    return raw


def files(directory):
    return sorted(n for n in os.listdir(directory) if n.endswith(".log"))


def aged(directory, name, days, size=100):
    path = os.path.join(directory, name)
    with open(path, "wb") as f:
        f.write(b"y" * size)
    past = time.time() - days * DAY
    os.utime(path, (past, past))
    return path


def test_files_older_than_max_age_days_go_and_are_recorded(tmp_path):
    directory = str(tmp_path / "tee")
    os.makedirs(directory, mode=0o700)
    aged(directory, "1_old.log", 8)
    aged(directory, "2_recent.log", 6)
    new = tee.write(raw_output(), ["pytest"], tee.TeePolicy(directory=directory))
    assert files(directory) == sorted(["2_recent.log", os.path.basename(new)])
    when, why = tee.expired(directory, "1_old.log")
    assert abs(when - time.time()) < 60 and why == "older than [tee] max_age_days = 7"
    assert tee.expired(directory, "2_recent.log") is None


def test_the_oldest_go_when_the_total_is_over_max_total_size(tmp_path):
    directory = str(tmp_path / "tee")
    os.makedirs(directory, mode=0o700)
    for i, days in enumerate((5, 4, 3, 2)):
        aged(directory, f"{i}_f.log", days, size=400)
    policy = tee.TeePolicy(directory=directory, max_total_size=1024 + 500)
    new = tee.write(raw_output(500), ["x"], policy)
    # 500 (new) + 400 + 400 fit in 1524, a third 400 does not
    assert files(directory) == sorted(["2_f.log", "3_f.log", os.path.basename(new)])
    assert tee.expired(directory, "0_f.log")[1] == "over [tee] max_total_size = 1524 bytes"


def test_the_file_just_written_is_kept_even_alone_over_the_bound(tmp_path):
    directory = str(tmp_path / "tee")
    policy = tee.TeePolicy(directory=directory, max_total_size=1024, max_file_size=4096)
    for _ in range(3):
        path = tee.write(raw_output(3000), ["big"], policy)
        assert os.path.exists(path)  # the hint names it: it must be there
    assert files(directory) == [os.path.basename(path)]


def test_max_files_is_only_a_ceiling(tmp_path):
    directory = str(tmp_path / "tee")
    policy = tee.TeePolicy(directory=directory, max_files=3)
    for i in range(5):
        tee.write(raw_output(), ["c", str(i)], policy)
        time.sleep(0.01)
    assert [n.rsplit("_", 1)[1] for n in files(directory)] == ["2.log", "3.log", "4.log"]
    assert tee.TeePolicy().max_files == 10000


def test_a_whole_sweep_runs_at_most_hourly_unless_a_bound_is_passed(tmp_path, monkeypatch):
    directory = str(tmp_path / "tee")
    now = [time.time()]  # file mtimes are real: the clock only moves forward from now
    monkeypatch.setattr(tee.time, "time", lambda: now[0])
    policy = tee.TeePolicy(directory=directory, max_total_size=10_000)
    tee.write(raw_output(), ["a"], policy)  # no state yet: a sweep
    aged(directory, "1_old.log", 30)
    os.utime(os.path.join(directory, "1_old.log"), (now[0] - 30 * DAY, now[0] - 30 * DAY))
    now[0] += 60
    tee.write(raw_output(), ["b"], policy)  # a minute later: only counted
    assert "1_old.log" in files(directory)
    with open(os.path.join(directory, tee.STATE_NAME)) as f:
        assert f.read().split()[1:] == ["200", "2"]  # the two written since the sweep
    now[0] += tee.SWEEP_SECONDS
    tee.write(raw_output(), ["c"], policy)  # an hour on: a whole sweep
    assert "1_old.log" not in files(directory) and len(files(directory)) == 3
    tee.write(raw_output(9_900), ["d"], policy)  # over max_total_size: a sweep at once
    assert [n.split("_", 1)[1] for n in files(directory)] == ["c.log", "d.log"]  # 10,000 bytes


@pytest.mark.parametrize("value, expected", [
    (5000, 5000), ("500MB", 500_000_000), ("2 GiB", 2 * 1024 ** 3), ("1.5k", 1500),
    ("lots", tee.MAX_TOTAL_SIZE), (-5, tee.MAX_TOTAL_SIZE), (True, tee.MAX_TOTAL_SIZE),
    ("12 parsecs", tee.MAX_TOTAL_SIZE),
])
def test_max_total_size_values(value, expected):
    assert tee.TeePolicy(max_total_size=value).max_total_size == expected


def test_the_config_keys_are_read(ctxcrl_home):
    (ctxcrl_home / "config.toml").write_text(
        '[tee]\nmax_age_days = 2\nmax_total_size = "50MB"\nmax_files = 99\n')
    import ctxcrl.config

    ctxcrl.config._loaded = None
    policy = tee.TeePolicy.from_config()
    assert (policy.max_age_days, policy.max_total_size, policy.max_files) == (2, 50_000_000, 99)
    ctxcrl.config._loaded = None
    (ctxcrl_home / "config.toml").write_text('[tee]\nmax_age_days = "soon"\n')
    assert tee.TeePolicy.from_config().max_age_days == 7


def test_expired_tsv_stays_bounded(tmp_path):
    directory = str(tmp_path)
    for start in range(0, 3 * tee.EXPIRED_KEEP, 500):
        tee._record_expired(directory, [(f"{i}_x.log", "why") for i in range(start, start + 500)],
                            time.time())
    with open(os.path.join(directory, tee.EXPIRED_NAME)) as f:
        lines = f.read().splitlines()
    assert tee.EXPIRED_KEEP // 2 <= len(lines) <= tee.EXPIRED_KEEP
    assert lines[-1].startswith(f"{3 * tee.EXPIRED_KEEP - 1}_x.log\t")
    assert tee.expired(directory, f"{3 * tee.EXPIRED_KEEP - 1}_x.log") is not None


def test_cc_filter_raw_on_an_expired_file_says_when(capfd, ctxcrl_home):
    directory = os.path.join(str(ctxcrl_home), "tee")
    os.makedirs(directory, mode=0o700)
    aged(directory, "1700000000_pytest.log", 30)
    tee.write(raw_output(), ["x"], tee.TeePolicy(directory=directory))
    capfd.readouterr()
    assert cli.main(["raw", os.path.join(directory, "1700000000_pytest.log")]) == 1
    err = capfd.readouterr().err
    assert err.startswith(f"cc-filter: {directory}/1700000000_pytest.log expired on "
                          f"{time.strftime('%Y-%m-%d')}")
    assert "(older than [tee] max_age_days = 7)" in err
    assert cli.main(["raw", "never-there.log"]) == 1
    assert "no kept output 'never-there.log'" in capfd.readouterr().err


def test_a_tee_hint_from_100_filtered_commands_ago_still_opens(capfd, ctxcrl_home,
                                                               user_filters, demo_bin):
    """The acceptance case of the issue: a failing test's hint, then 100 more filtered
    commands that each leave a tee file (over the old count of 20), and the hint opens."""
    user_filters.write("demo-head", toml_filter("demo-head", "^demo-head", head_lines=2))
    demo_bin.tool("demo-head", 'i=0; while [ $i -lt 50 ]; do echo "$1 line $i"; i=$((i+1)); '
                               'done\n[ "$1" = failing ] && { echo "FAILED test_x"; exit 1; }\n'
                               "exit 0\n")
    assert cli.main(["run", "demo-head", "failing"]) == 1
    hint = capfd.readouterr().out.rstrip("\n").splitlines()[-1]
    assert hint.startswith("[full output: ")
    path = os.path.expanduser(hint[len("[full output: "):hint.index("]")])
    for i in range(100):
        assert cli.main(["run", "demo-head", f"run{i}"]) == 0
    capfd.readouterr()
    assert len(files(os.path.dirname(path))) == 101
    assert cli.main(["raw", path]) == 0
    out = capfd.readouterr().out
    assert out.startswith("failing line 0\n") and out.endswith("FAILED test_x\n")
