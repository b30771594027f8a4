"""Tee files survive an agent's sandbox: when the tee directory cannot be written (Codex's
workspace-write sandbox keeps the data dir read-only), the file goes to a private directory in
$TMPDIR, the hint names it, and stderr says so once."""
import errno
import os

import pytest

from cc_filter.run import tee
from cc_filter.kit.spill import SpillBuffer
from ctxcrl import home


@pytest.fixture
def read_only_data_dir(monkeypatch, tmp_path):
    """The data directory refuses writes as a read-only bind mount does (EROFS), even as root."""
    data = home.data_dir()
    real = home.ensure_private_dir

    def refuse(path):
        if os.path.abspath(path).startswith(os.path.abspath(data)):
            raise OSError(errno.EROFS, "Read-only file system", path)
        return real(path)

    monkeypatch.setattr(home, "ensure_private_dir", refuse)
    monkeypatch.setenv("TMPDIR", str(tmp_path / "tmp"))
    (tmp_path / "tmp").mkdir()
    return tmp_path / "tmp" / f"ctxcrl-{os.getuid()}"


def raw_output():
    raw = SpillBuffer()
    raw.write(b"FAILED test_x\n" * 100)
    return raw


def test_tee_falls_back_to_tmpdir_and_says_so_once(read_only_data_dir, capfd):
    first = tee.write(raw_output(), ["pytest"], tee.TeePolicy())
    second = tee.write(raw_output(), ["pytest"], tee.TeePolicy())
    assert os.path.dirname(first) == str(read_only_data_dir / "tee") == os.path.dirname(second)
    with open(first, "rb") as f:
        assert f.read() == b"FAILED test_x\n" * 100
    assert os.stat(read_only_data_dir).st_mode & 0o777 == 0o700
    assert tee.hint(first) == f"[full output: {first}]"
    err = capfd.readouterr().err
    assert err.count("is not writable here") == 1 and str(read_only_data_dir) in err


def test_a_fallback_dir_that_is_not_private_is_never_used(read_only_data_dir, capfd):
    read_only_data_dir.mkdir(mode=0o755)
    os.chmod(read_only_data_dir, 0o755)  # open to others: someone may have planted it
    assert tee.write(raw_output(), ["pytest"], tee.TeePolicy()) is None
    assert capfd.readouterr().err == ""


def test_a_full_disk_is_not_a_sandbox(monkeypatch, tmp_path):
    def full(path):
        raise OSError(errno.ENOSPC, "No space left on device", path)

    monkeypatch.setattr(home, "ensure_private_dir", full)
    monkeypatch.setenv("TMPDIR", str(tmp_path))
    assert tee.write(raw_output(), ["pytest"], tee.TeePolicy()) is None
    assert not (tmp_path / f"ctxcrl-{os.getuid()}").exists()
