"""The tee directory: raw output kept on disk when the agent was shown less (ARCHITECTURE §6.2 rule 7).

A tee file is written when output was dropped (a cap or an omission marker) or when a command
failed with more than `[tee] min_size` bytes of output (mode "failures", the default); mode
"always" keeps every filtered run's raw output, "never" (or `enabled = false`) none. Files are
0600 in a 0700 directory, named `<unix time>_<command words>.log`, each at most
`max_file_size` bytes (default 16 MiB; the middle of a larger output is cut, head and tail
kept, and both the file and the hint say so). The agent gets one last line:
`[full output: ~/…/tee/<file>]`.

Retention is by age and total size, not by count (`sweep`): files older
than `max_age_days` (default 7) go, then the oldest until all of them hold at most
`max_total_size` bytes (default 500 MB; an integer of bytes, or "500MB", "2GiB" …); `max_files`
(default 10000) is only a ceiling against a flood of tiny files. The file just written is never
removed, so a hint always names a file that exists. A whole sweep (a stat of every file) runs
at most every SWEEP_SECONDS; in between, `tee/.sweep` keeps the total and count of the last
sweep plus what was written since, and a sweep runs at once when they pass a bound
(`retain`), so a tee write costs a few small file operations, not a scan of thousands. Each removed name is recorded in
`tee/expired.tsv` (name, when, why; the newest EXPIRED_KEEP names), so `cc-filter raw` on an
expired hint says it expired and when, instead of "no such file".

Besides, every filtered run that showed the agent less than its raw output leaves that raw
output in `tee/last.raw` (replaced by the next such run, not rotated, same size bound), so
`cc-filter raw` can always print what the last run dropped, hint or not.

Writing a tee file must never break a command: every error is swallowed (no hint then).

The tee directory holds what a command printed, so nobody else may steer or read it. Every
file is opened O_CREAT|O_EXCL|O_NOFOLLOW, 0600 (a name someone planted, a symlink included,
is never written through), and before each write every component of the directory's path is
checked with lstat, following no link (`unsafe_reason`): a symbolic link (bar a root-owned
one directly under `/`, as macOS's /var and /tmp), a directory owned by another user, or one
others may write to (bar a root-owned sticky one such as /tmp) makes it unsafe. Then the file
goes to the private fallback directory in $TMPDIR, or, when that cannot be had either, no tee
file is written; either is said in one stderr line (once per directory and reason). The
command's output and exit code are never touched by any of it.
"""
import stat
import time

from ctxcrl import lean_os as os
from ctxcrl import home

MODES = ("failures", "always", "never")
NOT_WRITABLE = (1, 13, 30)  # EPERM, EACCES, EROFS: a sandbox, not a full disk
#: The default bound of one tee file: the raw output of real failing runs fits (a failing
#: `go test ./...` of a mid-sized module prints over 1 MB).
MAX_FILE_SIZE = 16 * 1024 * 1024
#: The raw output of the last filtered run that dropped anything (`cc-filter raw`).
LAST_NAME = "last.raw"
_SAFE = frozenset("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789-.")
#: How every tee file is opened: a new file only, never through a symbolic link.
OPEN_FLAGS = os.O_WRONLY | os.O_CREAT | os.O_EXCL | getattr(os, "O_NOFOLLOW", 0)
_MAX_NAME_TRIES = 100
MAX_AGE_DAYS = 7
MAX_TOTAL_SIZE = 500 * 1000 * 1000
MAX_FILES = 10000
EXPIRED_NAME = "expired.tsv"
STATE_NAME = ".sweep"
SWEEP_SECONDS = 3600
#: Names kept in expired.tsv (a few hundred KB at most); older ones are forgotten.
EXPIRED_KEEP = 2000
_UNITS = {"": 1, "b": 1, "k": 1000, "kb": 1000, "kib": 1024, "m": 1000 ** 2, "mb": 1000 ** 2,
          "mib": 1024 ** 2, "g": 1000 ** 3, "gb": 1000 ** 3, "gib": 1024 ** 3}


class UnsafeDirectory(OSError):
    """A tee directory others could steer or read (`unsafe_reason` says how)."""


class TeePolicy:
    """The `[tee]` settings, validated once."""

    __slots__ = ("enabled", "mode", "min_size", "max_files", "max_file_size", "max_age_days",
                 "max_total_size", "directory")

    def __init__(self, enabled=True, mode="failures", min_size=500, max_files=MAX_FILES,
                 max_file_size=MAX_FILE_SIZE, max_age_days=MAX_AGE_DAYS,
                 max_total_size=MAX_TOTAL_SIZE, directory=None):
        self.enabled = bool(enabled)
        self.mode = mode if mode in MODES else "failures"
        self.min_size = _int(min_size, 500)
        self.max_files = max(1, _int(max_files, MAX_FILES))
        self.max_file_size = max(1024, _int(max_file_size, MAX_FILE_SIZE))
        age = max_age_days
        ok_age = isinstance(age, (int, float)) and not isinstance(age, bool) and age > 0
        self.max_age_days = age if ok_age else MAX_AGE_DAYS
        self.max_total_size = max(1024, size_bytes(max_total_size, MAX_TOTAL_SIZE))
        self.directory = directory

    @classmethod
    def from_config(cls, section: dict | None = None) -> "TeePolicy":
        if section is None:
            from ctxcrl import config

            section = config.section("tee")
        return cls(**{k: section[k] for k in ("enabled", "mode", "min_size", "max_files",
                                              "max_file_size", "max_age_days",
                                              "max_total_size") if k in section})

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


def size_bytes(value, default: int) -> int:
    """A size from config.toml: bytes as an integer, or a string such as "500MB", "2 GiB"."""
    if isinstance(value, str):
        text = value.strip().lower().replace(" ", "")
        digits = text.rstrip("abcdefghijklmnopqrstuvwxyz")
        unit = _UNITS.get(text[len(digits):])
        try:
            number = float(digits)
        except ValueError:
            return default
        return int(number * unit) if unit and number >= 0 else default
    return _int(value, default)


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
    unsafe = None
    try:
        return _write_in(_private_dir(policy.dir()), raw, argv, policy)
    except UnsafeDirectory as exc:
        unsafe = exc
    except OSError as exc:
        if exc.errno not in NOT_WRITABLE:
            return None
    except Exception:
        return None
    try:
        fallback = home.fallback_dir()
        if fallback is None:
            if unsafe is not None:
                _say_unsafe(policy.dir(), str(unsafe), None)
            return None
        path = _write_in(_private_dir(os.path.join(fallback, "tee")), raw, argv, policy)
        if unsafe is not None:
            _say_unsafe(policy.dir(), str(unsafe), fallback)
        else:
            home.announce_fallback(fallback)
        return path
    except Exception:
        if unsafe is not None:
            _say_unsafe(policy.dir(), str(unsafe), None)
        return None


def _say_unsafe(directory: str, reason: str, fallback: str | None) -> None:
    """One stderr line, once per unsafe directory and reason (a marker in the fallback
    directory remembers it; without one, the line comes every time: still one line)."""
    where = (f"tee files go to {fallback}/tee instead" if fallback
             else "no tee file is written")
    line = f"ctxcrl: not using tee directory {home.short_path(directory)}: {reason}; {where}\n"
    if fallback:
        import zlib

        marker = os.path.join(fallback, f".unsafe-{zlib.crc32(line.encode()):08x}")
        try:
            os.close(os.open(marker, OPEN_FLAGS, 0o600))
        except OSError:
            return
    try:
        os.write(2, line.encode())
    except OSError:
        pass


def _write_in(directory: str, raw, argv: list[str], policy: TeePolicy) -> str:
    stem = file_name(argv)
    path = os.path.join(directory, stem + ".log")
    n = 1
    while True:
        try:
            fd = os.open(path, OPEN_FLAGS, 0o600)
            break
        except FileExistsError:
            n += 1
            if n > _MAX_NAME_TRIES:
                raise
            path = os.path.join(directory, f"{stem}~{n}.log")
    try:
        _write_bounded(fd, raw, policy.max_file_size)
    except BaseException:
        os.unlink(path)  # a partial copy (disk full) would point the agent at a lie
        raise
    finally:
        os.close(fd)
    retain(directory, policy, os.path.basename(path), len(raw) - cut_bytes(raw, policy))
    return path


def retain(directory: str, policy: TeePolicy, name: str, size: int,
           now: float | None = None) -> list[str]:
    """After writing the tee file `name` of `size` bytes: sweep when the last sweep is over
    SWEEP_SECONDS old (or unknown), or the total or count since would pass a bound; else only
    count the new file in `.sweep`. Returns the names removed."""
    now = time.time() if now is None else now
    state = os.path.join(directory, STATE_NAME)
    try:
        with open(state, "rb") as f:
            last, total, count = (float(x) for x in f.read().split())
    except (OSError, ValueError):
        last = total = count = None
    if (last is not None and 0 <= now - last < SWEEP_SECONDS
            and total + size <= policy.max_total_size and count + 1 <= policy.max_files):
        _save_state(state, last, total + size, count + 1)
        return []
    gone, total, count = _sweep(directory, policy, name, now)
    _save_state(state, now, total, count)
    return gone


def _save_state(path: str, last: float, total: float, count: float) -> None:
    part = f"{path}.{os.getpid()}"
    try:
        try:
            fd = os.open(part, OPEN_FLAGS, 0o600)
        except FileExistsError:
            os.unlink(part)
            fd = os.open(part, OPEN_FLAGS, 0o600)
        try:
            _write_all(fd, f"{last:.0f} {total:.0f} {count:.0f}\n".encode())
        finally:
            os.close(fd)
        os.replace(part, path)
    except OSError:
        pass  # no state: the next write sweeps


def write_last(raw, policy: TeePolicy, same_as: str | None = None) -> str | None:
    """Replace `tee/last.raw` with `raw` (written aside, then renamed: a concurrent
    `cc-filter raw` reads a whole file), or with a hard link to `same_as`, the tee file just
    written with the same bytes; its path, or None on any error."""
    if not policy.enabled or policy.mode == "never" or len(raw) == 0:
        return None
    try:
        try:
            directory = _private_dir(policy.dir())
        except UnsafeDirectory:  # as tee files: the private fallback, or nothing
            fallback = home.fallback_dir()
            if fallback is None:
                return None
            directory = _private_dir(os.path.join(fallback, "tee"))
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
        try:
            fd = os.open(part, OPEN_FLAGS, 0o600)
        except FileExistsError:  # left by a killed run of the same pid, or planted: not ours
            os.unlink(part)  # unlinks a symlink itself, never its target
            fd = os.open(part, OPEN_FLAGS, 0o600)
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
    """Where `cc-filter raw` reads the last raw output: never from a tee directory others
    could have written to (what it holds would be theirs), but from the private fallback."""
    directory = (policy or TeePolicy()).dir()
    if os.path.lexists(directory) and unsafe_reason(directory) is not None:
        fallback = home.fallback_dir(create=False)
        directory = os.path.join(fallback or "/nonexistent", "tee")
    return os.path.join(directory, LAST_NAME)


def cut_bytes(raw, policy: TeePolicy) -> int:
    """How many bytes of `raw` a tee file leaves out (0: it is whole)."""
    size = len(raw)
    return size - policy.max_file_size if size > policy.max_file_size else 0


def _private_dir(directory: str) -> str:
    """Create the tee directory 0700, or tighten our own existing one to 0700, then check its
    whole path (`unsafe_reason`); raises UnsafeDirectory when others could steer it."""
    directory = os.path.abspath(directory)
    home.ensure_private_dir(directory)
    try:
        st = os.lstat(directory)
        if (stat.S_ISDIR(st.st_mode) and st.st_uid == os.getuid()
                and not st.st_mode & stat.S_ISVTX and st.st_mode & 0o077):
            os.chmod(directory, 0o700, follow_symlinks=False)
    except (OSError, NotImplementedError):
        pass
    reason = unsafe_reason(directory)
    if reason is not None:
        raise UnsafeDirectory(reason)
    return directory


def unsafe_reason(directory: str) -> str | None:
    """Why `directory` is no place for tee files, or None. Every component is looked at with
    lstat, from `/` down, following no link: each must be a directory owned by us or root,
    not writable by others — a root-owned sticky one (/tmp) and a group-writable one of our
    own primary group (the user-private-group convention) excepted — and the directory
    itself must be ours and open to nobody else. A symbolic link is refused, except a
    root-owned one directly under `/` (macOS's /var, /tmp), which is followed."""
    uid = os.getuid()
    system = _system_owners()
    current = "/"
    parts = [p for p in os.path.abspath(directory).split(os.sep) if p]
    for depth, name in enumerate(parts):
        path = os.path.join(current, name)
        try:
            st = os.lstat(path)
        except OSError as exc:
            return f"{path}: {exc.strerror}"
        if stat.S_ISLNK(st.st_mode):
            if depth == 0 and st.st_uid == 0:
                current = os.path.realpath(path)
                continue
            return f"{path} is a symbolic link"
        if not stat.S_ISDIR(st.st_mode):
            return f"{path} is not a directory"
        if st.st_uid != uid and st.st_uid not in system:
            return f"{path} belongs to another user (uid {st.st_uid})"
        last = depth == len(parts) - 1
        if last and st.st_uid != uid:
            return f"{path} is not ours (uid {st.st_uid})"
        others_write = st.st_mode & 0o002
        group_write = st.st_mode & 0o020 and st.st_gid != os.getgid()
        if last and st.st_mode & 0o077:
            return f"{path} is open to others (mode {stat.S_IMODE(st.st_mode):04o})"
        if (others_write or group_write) and not (st.st_mode & stat.S_ISVTX
                                                  and st.st_uid in system):
            return f"{path} is writable by others (mode {stat.S_IMODE(st.st_mode):04o})"
        current = path
    return None


def _system_owners() -> tuple:
    """Who besides us may own the folders above a tee directory: root, and inside a user
    namespace (an agent's sandbox: Codex's bubblewrap) also the overflow uid, which is what
    root's folders (`/`, `/tmp`) show there. Outside one, the overflow uid is an ordinary user
    (`nobody`) and owns nothing of ours."""
    try:
        with open("/proc/self/uid_map", "rb") as f:
            mapped = f.read().split()
        if mapped[:3] == [b"0", b"0", b"4294967295"]:
            return (0,)
        with open("/proc/sys/kernel/overflowuid", "rb") as f:
            return (0, int(f.read().strip()))
    except (OSError, ValueError, IndexError):
        return (0,)


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


def sweep(directory: str, policy: TeePolicy, keep: str | None = None,
          now: float | None = None) -> list[str]:
    """Remove the tee files `policy` no longer keeps (by age, then total size, then the
    count ceiling), oldest first, never `keep`; record each in expired.tsv. Returns the
    names removed."""
    return _sweep(directory, policy, keep, time.time() if now is None else now)[0]


def _sweep(directory: str, policy: TeePolicy, keep: str | None, now: float):
    """(names removed, bytes kept, files kept)."""
    entries = []
    with os.scandir(directory) as it:
        for entry in it:
            if entry.name.endswith(".log") and entry.is_file(follow_symlinks=False):
                try:
                    st = entry.stat(follow_symlinks=False)
                except OSError:
                    continue
                entries.append((st.st_mtime, entry.name, st.st_size))
    entries.sort(reverse=True)  # newest first
    oldest_kept = now - policy.max_age_days * 86400
    total = 0
    gone = []
    for count, (mtime, name, size) in enumerate(entries, 1):
        if name != keep:
            reason = None
            if mtime < oldest_kept:
                reason = f"older than [tee] max_age_days = {policy.max_age_days}"
            elif total + size > policy.max_total_size:
                reason = f"over [tee] max_total_size = {policy.max_total_size} bytes"
            elif count > policy.max_files:
                reason = f"over [tee] max_files = {policy.max_files}"
            if reason is not None:
                try:
                    os.unlink(os.path.join(directory, name))
                except OSError:
                    continue
                gone.append((name, reason))
                continue
        total += size
    if gone:
        _record_expired(directory, gone, now)
    return [name for name, _reason in gone], total, len(entries) - len(gone)


def _record_expired(directory: str, gone, now: float) -> None:
    """Append `name<TAB>unix time<TAB>why` lines to expired.tsv; past EXPIRED_KEEP lines,
    the older half is dropped (rewritten aside, then renamed)."""
    path = os.path.join(directory, EXPIRED_NAME)
    lines = "".join(f"{name}\t{int(now)}\t{reason}\n" for name, reason in gone).encode()
    try:
        fd = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_APPEND | getattr(os, "O_NOFOLLOW", 0),
                     0o600)
        try:
            _write_all(fd, lines)
            size = os.fstat(fd).st_size
        finally:
            os.close(fd)
        if size > EXPIRED_KEEP * 32:  # no line is shorter: it may hold over EXPIRED_KEEP
            with open(path, "rb") as f:
                kept = f.read().splitlines(keepends=True)
            if len(kept) <= EXPIRED_KEEP:
                return
            kept = kept[-EXPIRED_KEEP // 2:]  # the newer half
            part = f"{path}.{os.getpid()}"
            fd = os.open(part, OPEN_FLAGS, 0o600)
            try:
                _write_all(fd, b"".join(kept))
            finally:
                os.close(fd)
            os.replace(part, path)
    except OSError:
        pass  # a missing record only makes `cc-filter raw` less precise


def expired(directory: str, name: str) -> tuple[float, str] | None:
    """(when, why) the tee file `name` was removed, from expired.tsv; None if not recorded."""
    try:
        with open(os.path.join(directory, EXPIRED_NAME), "rb") as f:
            lines = f.read().decode("utf-8", "replace").splitlines()
    except OSError:
        return None
    for line in reversed(lines):
        fields = line.split("\t")
        if len(fields) == 3 and fields[0] == name:
            try:
                return float(fields[1]), fields[2]
            except ValueError:
                return None
    return None


def hint(path: str, cut: int = 0) -> str:
    """The agent's last line; a file whose middle was cut says so after the bracket (readers
    take the path up to the first `]`)."""
    text = f"[full output: {home.short_path(path)}]"
    if cut:
        text += f" ({cut} bytes cut from its middle: over [tee] max_file_size)"
    return text
