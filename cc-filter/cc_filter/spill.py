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


class HeadTailBuffer:
    """The raw output of a long run once its filtered answer is streaming: only the first
    `keep // 2` bytes and at least the last `keep // 2` stay (all a tee file keeps: `[tee]
    max_file_size`), the middle is counted. Without it a 1 GB run would write 1 GB to a temp
    file nobody reads again. The tail is a list of the chunks written (no copy per write)."""

    __slots__ = ("_head", "_tail", "_tail_size", "_size", "_half")

    def __init__(self, source: SpillBuffer, keep: int):
        half = max(keep // 2, 1)
        size = len(source)
        self._head = source.read_range(0, min(half, size))
        tail_start = max(len(self._head), size - half)
        self._tail = [source.read_range(tail_start, size - tail_start)]
        self._tail_size = size - tail_start
        self._size = size
        self._half = half
        source.close()

    def __len__(self) -> int:
        return self._size

    def write(self, data: bytes) -> None:
        self._size += len(data)
        tail = self._tail
        tail.append(data)
        self._tail_size += len(data)
        while self._tail_size - len(tail[0]) >= self._half:
            self._tail_size -= len(tail.pop(0))
        if len(tail) > 64:  # many small reads (a slow child): one chunk again
            data = b"".join(tail)[-self._half:]
            self._tail = [data]
            self._tail_size = len(data)

    def _complete(self) -> bool:
        return len(self._head) + self._tail_size == self._size

    def chunks(self, size: int = _COPY_CHUNK):
        if not self._complete():
            raise ValueError("the middle of this output was not kept")
        data = self._head + b"".join(self._tail)
        for start in range(0, len(data), size):
            yield data[start:start + size]

    def read_range(self, start: int, length: int) -> bytes:
        if start + length <= len(self._head):
            return self._head[start:start + length]
        tail_start = self._size - self._tail_size
        if start >= tail_start:
            return b"".join(self._tail)[start - tail_start:start - tail_start + length]
        if self._complete():
            return (self._head + b"".join(self._tail))[start:start + length]
        raise ValueError("the middle of this output was not kept")

    def getvalue(self) -> bytes:
        return b"".join(self.chunks())

    def close(self) -> None:
        self._head = b""
        self._tail = []
        self._tail_size = 0
