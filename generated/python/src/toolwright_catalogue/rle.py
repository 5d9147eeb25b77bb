"""The run-length encoding TOON compresses payloads with.

The encoder walks its input; at each position it takes the run of identical
bytes starting there, at most 255 long. A run of at least four bytes, or any
run of 0xFF bytes, is written as ``FF <byte> <count>``; a shorter run is
written as its bytes. So 257 x ``a`` is ``FF 61 FF 61 61`` and a lone ``FF``
is ``FF FF 01``.

Both directions work on whole slices, never a byte at a time: the encoder
finds where runs start with big-integer arithmetic over blocks of the input
and ``bytes.find``, and copies the gaps between them as they are; the
decoder splits its input at the escape bytes.
"""

from typing import Final

from .errors import ErrorKind, TOONError

ESCAPE: Final = 0xFF
"""The byte that starts an encoded run."""
MIN_RUN: Final = 4
"""The shortest run written as ``ESCAPE <byte> <count>``."""
MAX_RUN: Final = 255
"""The longest run one ``ESCAPE <byte> <count>`` holds."""

_ESCAPE_BYTE: Final = b"\xff"
_THREE_ZEROS: Final = b"\x00\x00\x00"
_SINGLE: Final = tuple(bytes((b,)) for b in range(256))
_RUN_HEADS: Final = tuple(bytes((ESCAPE, b)) for b in range(256))
_FULL_RUNS: Final = tuple(bytes((ESCAPE, b, MAX_RUN)) for b in range(256))


def _run_length(data: bytes, start: int, byte: int) -> int:
    """Length of the run of ``byte`` at ``start``, looking at a window that
    grows only while the run fills it."""
    single = _SINGLE[byte]
    size = MAX_RUN
    while True:
        window = data[start : start + size]
        length = len(window) - len(window.lstrip(single))
        if length < size or start + size >= len(data):
            return length
        size *= 16


_BLOCK = 1 << 16
"""How many positions one big-integer pass covers: small enough to stay in
cache and to bound the memory a large payload costs."""


def _neighbour_diff(data: bytes) -> bytes:
    """Byte i is ``data[i] ^ data[i - 1]`` (byte 0 is ``data[0]``): zero
    exactly where a byte repeats the one before it."""
    n = len(data)
    value = int.from_bytes(data, "big")
    return (value ^ (value >> 8)).to_bytes(n, "big")


class _Fours:
    """Finds where runs of four equal bytes start, a block at a time."""

    __slots__ = ("data", "diff", "end", "start")

    def __init__(self, data: bytes) -> None:
        self.data = data
        # `diff[i]` compares data[start + i] with the byte before it.
        self.start = 0
        self.end = 0
        self.diff = b""

    def next(self, at: int) -> int:
        """The first position from ``at`` where four equal bytes start;
        ``len(data)`` when there is none."""
        n = len(self.data)
        # Four equal bytes from s are three zeros of the diff from s + 1.
        j = at + 1
        while j + 2 < n:
            if not self.start <= j < self.end - 2:
                self.start = j
                self.end = min(n, j + _BLOCK)
                self.diff = _neighbour_diff(self.data[j - 1 : self.end])[1:]
            found = self.diff.find(_THREE_ZEROS, j - self.start)
            if found >= 0:
                return self.start + found - 1
            if self.end >= n:
                break
            # Three zeros may straddle the block's end.
            j = self.end - 2
        return n


def encode(data: bytes) -> bytes:
    """Encodes ``data``."""
    n = len(data)
    fours = _Fours(data)
    out: list[bytes] = []
    at = 0
    while at < n:
        # The next run of four, unless an escape byte (a run of its own)
        # comes first.
        start = fours.next(at)
        escape = data.find(_ESCAPE_BYTE, at, start)
        if escape >= 0:
            start = escape
        if start >= n:
            out.append(data[at:])
            break
        if start > at:
            out.append(data[at:start])
        # At least MIN_RUN long, or a run of ESCAPE bytes.
        byte = data[start]
        length = _run_length(data, start, byte)
        full, rest = divmod(length, MAX_RUN)
        if full:
            out.append(_FULL_RUNS[byte] * full)
        if rest >= MIN_RUN or (rest and byte == ESCAPE):
            out.append(_RUN_HEADS[byte])
            out.append(_SINGLE[rest])
        elif rest:
            # The tail of a run longer than MAX_RUN is a run of its own,
            # written as its bytes when shorter than MIN_RUN.
            out.append(_SINGLE[byte] * rest)
        at = start + length
    return b"".join(out)


def encode_shorter_than(data: bytes, limit: int) -> bytes | None:
    """Encodes ``data`` when the encoding is shorter than ``limit`` bytes;
    ``None`` otherwise."""
    encoded = encode(data)
    return encoded if len(encoded) < limit else None


def decode(data: bytes, max_len: int) -> bytes:
    """Decodes ``data``, refusing to produce more than ``max_len`` bytes.

    Raises ``TOONError`` of kind ``bad_compression`` when an escape is not
    followed by a byte and a count, or the count is 0, and of kind
    ``decompressed_too_large`` when the output would pass ``max_len``
    (checked before the output grows).
    """
    out: list[bytes] = []
    size = 0
    at = 0
    n = len(data)
    while True:
        escape = data.find(_ESCAPE_BYTE, at)
        end = n if escape < 0 else escape
        if end > at:
            size += end - at
            if size > max_len:
                raise _too_large(max_len, at)
            out.append(data[at:end])
        if escape < 0:
            return b"".join(out)
        if escape + 3 > n:
            raise TOONError(
                ErrorKind.BAD_COMPRESSION,
                f"the escape byte at offset {escape} is not followed by a byte and a count",
            )
        count = data[escape + 2]
        if count == 0:
            raise TOONError(
                ErrorKind.BAD_COMPRESSION,
                f"the run at offset {escape} has a count of 0",
            )
        size += count
        if size > max_len:
            raise _too_large(max_len, escape)
        out.append(_SINGLE[data[escape + 1]] * count)
        at = escape + 3


def _too_large(max_len: int, offset: int) -> TOONError:
    return TOONError(
        ErrorKind.DECOMPRESSED_TOO_LARGE,
        f"the payload decompresses to more than the limit of {max_len} bytes "
        f"(passed at offset {offset} of the compressed data)",
    )
