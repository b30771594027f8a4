"""A byte buffer that stays in memory while small and spills to an anonymous temp file.

The runner keeps a command's raw output (for the never-worse fallback and the tee file) and
the filtered output (printed at the end, once the safety rules have decided) in these, so
memory stays bounded however much a command prints (DESIGN §6.2 rule 3). Small outputs — the
common case, and `cc-filter run true` — never touch the disk.

Imports nothing heavy: `tempfile` is imported only on the first spill.
"""
import os

#: Bytes kept in memory before spilling to disk.
MEMORY_LIMIT = 1 << 20
_COPY_CHUNK = 1 << 20


class SpillBuffer:
    __slots__ = ("_parts", "_size", "_file", "limit")

    def __init__(self, limit: int = MEMORY_LIMIT):
        self._parts: list[bytes] = []
        self._size = 0
        self._file = None
        self.limit = limit

    def __len__(self) -> int:
        return self._size

    @property
    def spilled(self) -> bool:
        return self._file is not None

    def write(self, data: bytes) -> None:
        if not data:
            return
        self._size += len(data)
        if self._file is not None:
            self._file.write(data)
            return
        self._parts.append(data)
        if self._size > self.limit:
            import tempfile

            self._file = tempfile.TemporaryFile(prefix="ctxcrl-")
            self._file.write(b"".join(self._parts))
            self._parts = []

    def chunks(self, size: int = _COPY_CHUNK):
        """Iterate over the content from the start, in chunks of at most `size` bytes."""
        if self._file is None:
            data = b"".join(self._parts)
            self._parts = [data] if data else []
            for start in range(0, len(data), size):
                yield data[start:start + size]
            return
        self._file.flush()
        fd = self._file.fileno()
        offset = 0
        while True:
            chunk = os.pread(fd, size, offset)
            if not chunk:
                return
            offset += len(chunk)
            yield chunk

    def read_range(self, start: int, length: int) -> bytes:
        if self._file is None:
            data = b"".join(self._parts)
            self._parts = [data] if data else []
            return data[start:start + length]
        self._file.flush()
        return os.pread(self._file.fileno(), length, start)

    def getvalue(self) -> bytes:
        """The whole content (tests and small outputs only)."""
        return b"".join(self.chunks())

    def close(self) -> None:
        if self._file is not None:
            self._file.close()
            self._file = None
        self._parts = []
