"""The tee directory: raw output kept on disk when the agent was shown less (ARCHITECTURE §6.2 rule 7).

A tee file is written when output was dropped (a cap or an omission marker) or when a command
failed with more than `[tee] min_size` bytes of output (mode "failures", the default); mode
"always" keeps every filtered run's raw output, "never" (or `enabled = false`) none. Files are
0600 in a 0700 directory, named `<unix time>_<command words>.log`, each at most
`max_file_size` bytes (default 16 MiB; the middle of a larger output is cut, head and tail
kept, and both the file and the hint say so), and only the newest `max_files` are kept. The agent
gets one last line: `[full output: ~/…/tee/<file>]`.

Besides, every filtered run that showed the agent less than its raw output leaves that raw
output in `tee/last.raw` (replaced by the next such run, not rotated, same size bound), so
`cc-filter raw` can always print what the last run dropped, hint or not.

Writing a tee file must never break a command: every error is swallowed (no hint then).
"""
import os
import time

from ctxcrl import home

MODES = ("failures", "always", "never")
NOT_WRITABLE = (1, 13, 30)  # EPERM, EACCES, EROFS: a sandbox, not a full disk
#: The default bound of one tee file: the raw output of real failing runs fits (a failing
#: `go test ./...` of a mid-sized module prints over 1 MB).
MAX_FILE_SIZE = 16 * 1024 * 1024
#: The raw output of the last filtered run that dropped anything (`cc-filter raw`).
LAST_NAME = "last.raw"
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.")


class TeePolicy:
    """The `[tee]` settings, validated once."""

    __slots__ = ("enabled", "mode", "min_size", "max_files", "max_file_size", "directory")

    def __init__(self, enabled=True, mode="failures", min_size=500, max_files=20,
                 max_file_size=MAX_FILE_SIZE, directory=None):
        self.enabled = bool(enabled)
        self.mode = mode if mode in MODES else "failures"
        self.min_size = _int(min_size, 500)
        self.max_files = max(1, _int(max_files, 20))
        self.max_file_size = max(1024, _int(max_file_size, MAX_FILE_SIZE))
        self.directory = directory

    @classmethod
    def from_config(cls, section: dict | None = None) -> "TeePolicy":
        if section is None:
            from ctxcrl import config

            section = config.section("tee")
        return cls(**{k: section[k] for k in ("enabled", "mode", "min_size", "max_files",
                                              "max_file_size") if k in section})

    def wants(self, *, dropped: bool, failed: bool, raw_size: int, changed: bool) -> bool:
        """Should this run's raw output be kept?"""
        if not self.enabled or self.mode == "never" or raw_size == 0:
            return False
        if self.mode == "always":
            return changed
        return dropped or (failed and raw_size > self.min_size)

    def dir(self) -> str:
        return self.directory or home.tee_dir()


def _int(value, default: int) -> int:
    ok = isinstance(value, int) and not isinstance(value, bool) and value >= 0
    return value if ok else default


def file_name(argv: list[str], now: float | None = None) -> str:
    words = []
    for word in argv[:3]:
        word = os.path.basename(word) if not words else word
        clean = "".join(c if c in _SAFE else "_" for c in word).strip("_.")
        if clean:
            words.append(clean[:24])
    stem = "_".join(words) or "output"
    return f"{int(now if now is not None else time.time())}_{stem}"


def write(raw, argv: list[str], policy: TeePolicy) -> str | None:
    """Write `raw` (a SpillBuffer) to a new tee file; returns its path, or None on any error.
    `cut_bytes(raw, policy)` tells whether (and how much of) its middle was left out.
    When the tee directory cannot be written (an agent's sandbox), the file goes to the
    fallback directory in $TMPDIR instead, which is said once on stderr."""
    try:
        return _write_in(_private_dir(policy.dir()), raw, argv, policy)
    except OSError as exc:
        if exc.errno not in NOT_WRITABLE:
            return None
    except Exception:
        return None
    try:
        fallback = home.fallback_dir()
        if fallback is None:
            return None
        path = _write_in(_private_dir(os.path.join(fallback, "tee")), raw, argv, policy)
        home.announce_fallback(fallback)
        return path
    except Exception:
        return None


def _write_in(directory: str, raw, argv: list[str], policy: TeePolicy) -> str:
    stem = file_name(argv)
    path = os.path.join(directory, stem + ".log")
    n = 1
    while True:
        try:
            fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
            break
        except FileExistsError:
            n += 1
            path = os.path.join(directory, f"{stem}~{n}.log")
    try:
        _write_bounded(fd, raw, policy.max_file_size)
    except BaseException:
        os.unlink(path)  # a partial copy (disk full) would point the agent at a lie
        raise
    finally:
        os.close(fd)
    rotate(directory, policy.max_files)
    return path


def write_last(raw, policy: TeePolicy, same_as: str | None = None) -> str | None:
    """Replace `tee/last.raw` with `raw` (written aside, then renamed: a concurrent
    `cc-filter raw` reads a whole file), or with a hard link to `same_as`, the tee file just
    written with the same bytes; its path, or None on any error."""
    if not policy.enabled or policy.mode == "never" or len(raw) == 0:
        return None
    try:
        directory = _private_dir(policy.dir())
        path = os.path.join(directory, LAST_NAME)
        part = f"{path}.{os.getpid()}"
        if same_as is not None:
            try:
                os.link(same_as, part)
                os.replace(part, path)
                return path
            except OSError:
                try:
                    os.unlink(part)
                except OSError:
                    pass
        fd = os.open(part, os.O_WRONLY | os.O_CREAT | os.O_TRUNC, 0o600)
        try:
            _write_bounded(fd, raw, policy.max_file_size)
        except BaseException:
            os.close(fd)
            os.unlink(part)
            raise
        os.close(fd)
        os.replace(part, path)
        return path
    except Exception:
        return None


def last_path(policy: TeePolicy | None = None) -> str:
    return os.path.join((policy or TeePolicy()).dir(), LAST_NAME)


def cut_bytes(raw, policy: TeePolicy) -> int:
    """How many bytes of `raw` a tee file leaves out (0: it is whole)."""
    size = len(raw)
    return size - policy.max_file_size if size > policy.max_file_size else 0


def _private_dir(directory: str) -> str:
    """Create the tee directory 0700, or tighten our own existing one to 0700 — but never a
    shared sticky directory such as /tmp that CTXCRL_TEE_DIR might name."""
    home.ensure_private_dir(directory)
    try:
        st = os.stat(directory)
        if st.st_uid == os.getuid() and not st.st_mode & 0o1000 and st.st_mode & 0o077:
            os.chmod(directory, 0o700)
    except OSError:
        pass
    return directory


def _write_bounded(fd: int, raw, limit: int) -> None:
    size = len(raw)
    if size <= limit:
        for chunk in raw.chunks():
            _write_all(fd, chunk)
        return
    marker = f"\n[ctxcrl: {size - limit} bytes cut from the middle of this output]\n".encode()
    half = max(0, (limit - len(marker)) // 2)
    _write_all(fd, raw.read_range(0, half))
    _write_all(fd, marker)
    _write_all(fd, raw.read_range(size - half, half))


def _write_all(fd: int, data: bytes) -> None:
    view = memoryview(data)
    while view:
        written = os.write(fd, view)
        view = view[written:]


def rotate(directory: str, max_files: int) -> None:
    """Keep the newest `max_files` tee files (by mtime, then name)."""
    entries = []
    with os.scandir(directory) as it:
        for entry in it:
            if entry.name.endswith(".log") and entry.is_file(follow_symlinks=False):
                try:
                    entries.append((entry.stat(follow_symlinks=False).st_mtime_ns, entry.name))
                except OSError:
                    pass
    entries.sort(reverse=True)
    for _, name in entries[max_files:]:
        try:
            os.unlink(os.path.join(directory, name))
        except OSError:
            pass


def hint(path: str, cut: int = 0) -> str:
    """The agent's last line; a file whose middle was cut says so after the bracket (readers
    take the path up to the first `]`)."""
    text = f"[full output: {home.short_path(path)}]"
    if cut:
        text += f" ({cut} bytes cut from its middle: over [tee] max_file_size)"
    return text
