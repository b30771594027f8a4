"""`os` for the hook's stages, on `posix` alone.

The hook starts its stages as `python -I -S` (no `site`, which imports `os`), and a bare
interpreter has no `os` yet: importing it would cost each stage a fifth of an interpreter
start (`os` pulls in `_collections_abc`, `stat`, `posixpath` and `genericpath`). The modules
on the hook's path import this instead, as `from ctxcrl import lean_os as os`, and keep their
`os.…` call sites:

- the system calls and constants are `posix`'s own, the very functions `os` re-exports;
- `path` has the `os.path` functions those modules use, on `posix.stat`, `lstat` and
  `readlink`, with `os.path`'s results (tests/ctxcrl/test_lean_os.py holds each one to
  `os.path` with generated paths and symlink trees);
- `environ` is the environment the process started with, decoded as `os.environ` decodes it.
  It is read-only here: nothing on the hook's path sets a variable.

When `os` is already loaded (a console script started with `site`, the tests), this module
hands out `os`'s own `path` and `environ`, so what `os.environ` or `monkeypatch` sets is seen.
Anything else `os` has is looked up in `os` on first use (importing it then): a cold path that
needs `os.makedirs` or `os.fdopen` simply pays for `os`.
"""
import sys

import posix
from posix import (O_APPEND, O_CREAT, O_EXCL, O_NOFOLLOW, O_RDONLY, O_TRUNC, O_WRONLY,
                   POSIX_SPAWN_DUP2, W_OK, WNOHANG, X_OK, access, chmod, close, dup, dup2,
                   fspath, fstat, getcwd, getgid, getpgrp, getpid, getppid, getuid, isatty,
                   kill, link, listdir, lstat, mkdir, pipe, posix_spawnp, pread, read, readlink,
                   replace, scandir, stat, tcgetpgrp, unlink, urandom, waitpid,
                   waitstatus_to_exitcode, write)
from posix import open  # noqa: A004  (os.open, as `os` has it: this module is used as `os`)

__all__ = [  # what is used as `os.…`: posix's own, and the lean rest below
    "O_APPEND", "O_CREAT", "O_EXCL", "O_NOFOLLOW", "O_RDONLY", "O_TRUNC", "O_WRONLY",
    "POSIX_SPAWN_DUP2", "W_OK", "WNOHANG", "X_OK", "access", "chmod", "close", "dup", "dup2",
    "fspath", "fstat", "getcwd", "getgid", "getpgrp", "getpid", "getppid", "getuid", "isatty",
    "kill", "link", "listdir", "lstat", "mkdir", "open", "pipe", "posix_spawnp", "pread", "read",
    "readlink", "replace", "scandir", "stat", "tcgetpgrp", "unlink", "urandom", "waitpid",
    "waitstatus_to_exitcode", "write",
    "sep", "pathsep", "curdir", "pardir", "devnull", "defpath", "path", "environ", "makedirs"]

sep = "/"
pathsep = ":"
curdir = "."
pardir = ".."
devnull = "/dev/null"
defpath = "/bin:/usr/bin"  # os.defpath on POSIX

_S_IFMT = 0o170000
_S_IFDIR = 0o040000
_S_IFREG = 0o100000
_S_IFLNK = 0o120000


def _decode(value: bytes) -> str:
    return value.decode(sys.getfilesystemencoding(), "surrogateescape")  # as os.environ does


class LeanPath:
    """The `os.path` functions the hook's modules use, for `str` paths (POSIX rules; a path
    of another type is a TypeError, as in `os.path`)."""

    @staticmethod
    def isabs(p: str) -> bool:
        return fspath(p).startswith("/")

    @staticmethod
    def join(a: str, *parts: str) -> str:
        path = fspath(a) + ""
        for part in map(fspath, parts):
            if part.startswith("/"):
                path = part
            elif not path or path.endswith("/"):
                path += part
            else:
                path += "/" + part
        return path

    @staticmethod
    def split(p: str) -> tuple:
        p = fspath(p)
        i = p.rfind("/") + 1
        head, tail = p[:i], p[i:]
        if head and head != "/" * len(head):
            head = head.rstrip("/")
        return head, tail

    @staticmethod
    def dirname(p: str) -> str:
        return LeanPath.split(p)[0]

    @staticmethod
    def basename(p: str) -> str:
        p = fspath(p)
        return p[p.rfind("/") + 1:]

    @staticmethod
    def splitext(p: str) -> tuple:
        p = fspath(p)
        dot = p.rfind(".")
        if dot > p.rfind("/"):
            start = p.rfind("/") + 1
            # a leading run of dots is part of the name (".bashrc", "..x"), not an extension
            if p[start:dot].strip("."):
                return p[:dot], p[dot:]
        return p, ""

    @staticmethod
    def normpath(p: str) -> str:
        return _normpath(fspath(p)) or "."

    @staticmethod
    def abspath(p: str) -> str:
        p = fspath(p)
        if not p.startswith("/"):
            p = LeanPath.join(getcwd(), p)
        return LeanPath.normpath(p)

    @staticmethod
    def expanduser(p: str) -> str:
        p = fspath(p)
        if not p.startswith("~"):
            return p
        i = p.find("/", 1)
        if i < 0:
            i = len(p)
        if i == 1:
            home = environ.get("HOME")
            if home is None:
                import pwd

                try:
                    home = pwd.getpwuid(getuid()).pw_dir
                except KeyError:
                    return p
        else:
            import pwd

            try:
                home = pwd.getpwnam(p[1:i]).pw_dir
            except KeyError:
                return p
        home = home.rstrip("/")
        return (home + p[i:]) or "/"

    @staticmethod
    def _mode(p, follow: bool = True):
        try:
            return (stat(p) if follow else lstat(p)).st_mode
        except (OSError, ValueError):
            return None

    @staticmethod
    def exists(p) -> bool:
        return LeanPath._mode(p) is not None

    @staticmethod
    def lexists(p) -> bool:
        return LeanPath._mode(p, follow=False) is not None

    @staticmethod
    def isfile(p) -> bool:
        mode = LeanPath._mode(p)
        return mode is not None and mode & _S_IFMT == _S_IFREG

    @staticmethod
    def isdir(p) -> bool:
        mode = LeanPath._mode(p)
        return mode is not None and mode & _S_IFMT == _S_IFDIR

    @staticmethod
    def islink(p) -> bool:
        mode = LeanPath._mode(p, follow=False)
        return mode is not None and mode & _S_IFMT == _S_IFLNK

    @staticmethod
    def realpath(p: str) -> str:
        """The path with every symlink resolved, like `os.path.realpath` (not strict: a
        missing part, or a symlink loop, is kept as it is and the rest joined to it)."""
        path, _ = _resolve("", fspath(p), {})
        return LeanPath.abspath(path)


def _normpath_py(p: str) -> str:
    if not p:
        return ""
    initial = 2 if p.startswith("//") and not p.startswith("///") else 1 if p[0] == "/" else 0
    parts: list = []
    for part in p.split("/"):
        if part in ("", "."):
            continue
        if part != ".." or (not initial and not parts) or (parts and parts[-1] == ".."):
            parts.append(part)
        elif parts:
            parts.pop()
    return "/" * initial + "/".join(parts)


try:  # CPython 3.11+: os.path.normpath's own C function
    from posix import _path_normpath as _normpath
except ImportError:  # pragma: no cover (another interpreter)
    _normpath = _normpath_py


def _resolve(path: str, rest: str, seen: dict) -> tuple:
    """Join `rest` to the resolved `path`, resolving each symlink met on the way; `seen` maps
    a symlink to what it resolved to (None while it is being resolved: a loop). Returns
    (path, False) when a loop stopped it (the rest joined as it is)."""
    if rest.startswith("/"):
        rest, path = rest[1:], "/"
    while rest:
        name, _, rest = rest.partition("/")
        if not name or name == ".":
            continue
        if name == "..":
            if path:
                path, name = LeanPath.split(path)
                if name == "..":
                    path = LeanPath.join(path, "..", "..")
            else:
                path = ".."
            continue
        candidate = LeanPath.join(path, name)
        try:
            is_link = lstat(candidate).st_mode & _S_IFMT == _S_IFLNK
        except OSError:  # missing, or not a folder: kept as it is
            is_link = False
        if not is_link:
            path = candidate
            continue
        if candidate in seen:
            known = seen[candidate]
            if known is not None:
                path = known
                continue
            return LeanPath.join(candidate, rest), False  # a loop
        seen[candidate] = None
        path, ok = _resolve(path, readlink(candidate), seen)
        if not ok:
            return LeanPath.join(path, rest), False
        seen[candidate] = path
    return path, True


def lean_makedirs(name: str, mode: int = 0o777, exist_ok: bool = False) -> None:
    """`os.makedirs`: the folder and every missing parent."""
    head, tail = path.split(name)
    if not tail:
        head, tail = path.split(head)
    if head and tail and not path.exists(head):
        try:
            lean_makedirs(head, exist_ok=exist_ok)
        except FileExistsError:  # made meanwhile
            pass
        if tail == curdir:
            return
    try:
        mkdir(name, mode)
    except OSError:
        if not exist_ok or not path.isdir(name):
            raise


_os = sys.modules.get("os")
if _os is not None:  # already paid for: be `os`
    path = _os.path
    environ = _os.environ
    makedirs = _os.makedirs
else:
    path = LeanPath
    makedirs = lean_makedirs
    environ = {_decode(k): _decode(v) for k, v in posix.environ.items()}


def __getattr__(name: str):
    """Whatever else `os` has, from `os` itself (imported on first use: a cold path)."""
    import os

    return getattr(os, name)
