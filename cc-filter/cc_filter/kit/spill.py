"""A byte buffer that stays in memory while small and spills to an anonymous temp file.

The runner keeps a command's raw output (for the never-worse fallback and the tee file) and
the filtered output (printed at the end, once the safety rules have decided) in these, so
memory stays bounded however much a command prints (ARCHITECTURE §6.2 rule 3). Small outputs — the
common case, and `cc-filter run true` — never touch the disk.

Imports nothing heavy: `tempfile` is imported only on the first spill.
"""
from ctxcrl import lean_os as os

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
    file nobody reads again. Head and tail are `SpillBuffer`s (memory while small, then a
    temp file), so a 16 MiB `max_file_size` costs no 16 MiB of memory: the tail is two
    buffers of at most `keep // 2` bytes each, the older dropped when the newer fills up."""

    __slots__ = ("_head", "_old", "_new", "_size", "_half")

    def __init__(self, source: SpillBuffer, keep: int):
        half = max(keep // 2, 1)
        size = len(source)
        self._half = half
        self._size = size
        self._old = SpillBuffer()
        self._new = SpillBuffer()
        if size <= half:
            self._head = source  # it keeps growing until it holds `half` bytes
            return
        self._head = SpillBuffer()
        self._head.write(source.read_range(0, half))
        tail_start = max(half, size - half)
        for at in range(tail_start, size, _COPY_CHUNK):
            self._new.write(source.read_range(at, min(_COPY_CHUNK, size - at)))
        source.close()

    def __len__(self) -> int:
        return self._size

    def write(self, data: bytes) -> None:
        if not data:
            return
        head = self._head
        if len(head) < self._half and self._size == len(head):
            room = self._half - len(head)
            head.write(data[:room])
            self._size += min(room, len(data))
            data = data[room:]
            if not data:
                return
        self._size += len(data)
        new = self._new
        if len(new) + len(data) > self._half and len(new):
            self._old.close()
            self._old, self._new = new, SpillBuffer()
            new = self._new
        new.write(data)

    def _tail_size(self) -> int:
        return len(self._old) + len(self._new)

    def _complete(self) -> bool:
        return len(self._head) + self._tail_size() == self._size

    def chunks(self, size: int = _COPY_CHUNK):
        if not self._complete():
            raise ValueError("the middle of this output was not kept")
        for buf in (self._head, self._old, self._new):
            yield from buf.chunks(size)

    def read_range(self, start: int, length: int) -> bytes:
        head = len(self._head)
        if start + length <= head:
            return self._head.read_range(start, length)
        tail_start = self._size - self._tail_size()
        if start < tail_start and not self._complete():
            raise ValueError("the middle of this output was not kept")
        out = []
        if start < head:
            out.append(self._head.read_range(start, head - start))
            length -= head - start
            start = head
        at = start - tail_start  # offset into old + new
        old = len(self._old)
        if at < old and length > 0:
            piece = self._old.read_range(at, min(length, old - at))
            out.append(piece)
            length -= len(piece)
            at = old
        if length > 0:
            out.append(self._new.read_range(at - old, length))
        return b"".join(out)

    def getvalue(self) -> bytes:
        return b"".join(self.chunks())

    def close(self) -> None:
        for buf in (self._head, self._old, self._new):
            buf.close()
