"""Tee files: names, policy decisions, rotation."""
import os
import time

import pytest

from cc_filter import tee
from cc_filter.spill import SpillBuffer


def test_file_name_is_time_and_command_words():
    assert tee.file_name(["/usr/bin/cargo", "test", "--release", "x"], now=1732960000) == \
        "1732960000_cargo_test_--release"
    assert tee.file_name(["sh", "-c", "a; b | c"], now=1) == "1_sh_-c_a__b___c"
    assert tee.file_name([], now=1) == "1_output"


@pytest.mark.parametrize("mode,dropped,failed,size,changed,expected", [
    ("failures", True, False, 10, True, True),
    ("failures", False, True, 501, True, True),
    ("failures", False, True, 500, True, False),
    ("failures", False, False, 10_000, True, False),
    ("always", False, False, 10, True, True),
    ("always", False, False, 10, False, False),
    ("never", True, True, 10_000, True, False),
    ("failures", True, True, 0, True, False),
])
def test_policy(mode, dropped, failed, size, changed, expected):
    policy = tee.TeePolicy(mode=mode, min_size=500)
    assert policy.wants(dropped=dropped, failed=failed, raw_size=size, changed=changed) is expected


def test_disabled_and_bad_values():
    assert not tee.TeePolicy(enabled=False).wants(dropped=True, failed=True, raw_size=9, changed=True)
    policy = tee.TeePolicy(mode="sometimes", min_size=-3, max_files="x")
    assert (policy.mode, policy.min_size, policy.max_files) == ("failures", 500, 20)


def test_write_rotate_and_bound(tmp_path):
    policy = tee.TeePolicy(max_files=2, max_file_size=2048, directory=str(tmp_path / "tee"))
    raw = SpillBuffer()
    raw.write(b"head\n" + b"m" * 10_000 + b"\ntail\n")
    paths = []
    for i in range(3):
        paths.append(tee.write(raw, ["tool", str(i)], policy))
        time.sleep(0.01)
    assert sorted(os.listdir(tmp_path / "tee")) == sorted(os.path.basename(p) for p in paths[1:])
    with open(paths[-1], "rb") as f:
        data = f.read()
    assert len(data) <= 2048 and data.startswith(b"head\n") and data.endswith(b"\ntail\n")
    assert b"bytes cut from the middle" in data
    assert os.stat(paths[-1]).st_mode & 0o777 == 0o600


def test_write_failure_returns_none(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    raw = SpillBuffer()
    raw.write(b"x")
    assert tee.write(raw, ["x"], tee.TeePolicy(directory=str(blocker / "tee"))) is None


def test_same_second_names_do_not_collide(tmp_path):
    policy = tee.TeePolicy(directory=str(tmp_path))
    raw = SpillBuffer()
    raw.write(b"x")
    a = tee.write(raw, ["same"], policy)
    b = tee.write(raw, ["same"], policy)
    assert a != b and os.path.exists(a) and os.path.exists(b)


def test_existing_directory_is_tightened_but_not_a_sticky_one(tmp_path):
    raw = SpillBuffer()
    raw.write(b"x")
    loose = tmp_path / "loose"
    loose.mkdir(mode=0o755)
    loose.chmod(0o755)
    tee.write(raw, ["x"], tee.TeePolicy(directory=str(loose)))
    assert os.stat(loose).st_mode & 0o777 == 0o700
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    path = tee.write(raw, ["x"], tee.TeePolicy(directory=str(shared)))
    assert os.stat(shared).st_mode & 0o7777 == 0o1777
    assert os.stat(path).st_mode & 0o777 == 0o600


def test_a_tee_file_that_cannot_be_written_whole_is_removed(tmp_path, monkeypatch):
    """Disk full half way: no partial file stays behind for a hint to point at."""
    raw = SpillBuffer()
    raw.write(b"x" * 5000)
    real_write = os.write

    def full_disk(fd, data):
        real_write(fd, bytes(data[:100]))
        raise OSError(28, "No space left on device")

    monkeypatch.setattr(tee.os, "write", full_disk)
    directory = tmp_path / "tee"
    assert tee.write(raw, ["cargo", "test"], tee.TeePolicy(directory=str(directory))) is None
    assert list(directory.iterdir()) == []
