"""Tee files: names, policy decisions, rotation."""
import os
import time

import pytest

from cc_filter.run import tee
from cc_filter.kit.spill import SpillBuffer


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
    assert (policy.mode, policy.min_size, policy.max_files) == ("failures", 500, 10000)


def test_write_rotate_and_bound(tmp_path):
    policy = tee.TeePolicy(max_files=2, max_file_size=2048, directory=str(tmp_path / "tee"))
    raw = SpillBuffer()
    raw.write(b"head\n" + b"m" * 10_000 + b"\ntail\n")
    paths = []
    for i in range(3):
        paths.append(tee.write(raw, ["tool", str(i)], policy))
        time.sleep(0.01)
    assert sorted(os.listdir(tmp_path / "tee")) == sorted(
        [os.path.basename(p) for p in paths[1:]] + [tee.EXPIRED_NAME, tee.STATE_NAME])
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
    assert os.stat(shared).st_mode & 0o7777 == 0o1777  # not ours to tighten, so not used:
    assert os.path.dirname(path) != str(shared)  # the private fallback (test_tee_security)
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


def test_default_max_file_size_keeps_a_real_failing_run():
    """A failing `go test ./...` of a real module printed 1.28 MB: the default keeps it whole."""
    assert tee.TeePolicy().max_file_size >= 16 * 1024 * 1024
    from ctxcrl import config

    assert config.DEFAULTS["tee"]["max_file_size"] == tee.TeePolicy().max_file_size


def test_a_cut_tee_file_says_so_in_its_hint(tmp_path):
    policy = tee.TeePolicy(max_file_size=2048, directory=str(tmp_path))
    raw = SpillBuffer()
    raw.write(b"x" * 5000)
    assert tee.cut_bytes(raw, policy) == 5000 - 2048
    hint = tee.hint(str(tmp_path / "1_x.log"), tee.cut_bytes(raw, policy))
    assert hint.startswith(f"[full output: {tmp_path}/1_x.log] (2952 bytes cut")
    assert tee.hint("/x/1_x.log") == "[full output: /x/1_x.log]"


def test_last_raw_is_replaced_and_linked_to_the_tee_file(tmp_path):
    policy = tee.TeePolicy(directory=str(tmp_path / "tee"))
    first, second = SpillBuffer(), SpillBuffer()
    first.write(b"first run\n")
    second.write(b"second run\n")
    last = tee.write_last(first, policy)
    assert open(last, "rb").read() == b"first run\n" and os.stat(last).st_mode & 0o777 == 0o600
    path = tee.write(second, ["tool"], policy)
    assert tee.write_last(second, policy, same_as=path) == last
    assert open(last, "rb").read() == b"second run\n" and os.path.samefile(last, path)
    assert sorted(os.listdir(tmp_path / "tee")) == sorted(
        [os.path.basename(path), "last.raw", tee.STATE_NAME])
    assert tee.write_last(first, tee.TeePolicy(mode="never", directory=str(tmp_path))) is None


def test_head_tail_buffer_fills_its_head_then_keeps_the_tail():
    """Streaming starts at 1 MB while max_file_size/2 is 8 MiB: the head keeps filling up to
    its half, then only the tail moves (a bug once left the tee file unwritable)."""
    from cc_filter.kit.spill import HeadTailBuffer

    source = SpillBuffer()
    source.write(b"a" * 100)
    buf = HeadTailBuffer(source, keep=2000)
    data = b"".join(bytes([48 + i % 10]) * 97 for i in range(200))
    for at in range(0, len(data), 333):
        buf.write(data[at:at + 333])
    whole = b"a" * 100 + data
    assert len(buf) == len(whole)
    assert buf.read_range(0, 1000) == whole[:1000]
    assert buf.read_range(len(whole) - 1000, 1000) == whole[-1000:]
    with pytest.raises(ValueError):
        list(buf.chunks())
    small = SpillBuffer()
    small.write(b"abc")
    kept = HeadTailBuffer(small, keep=2000)
    kept.write(b"def")
    assert kept.getvalue() == b"abcdef"
