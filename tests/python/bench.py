"""TOON throughput of the Python binding: encode and decode of 1 KiB, 64 KiB
and 1 MiB payloads, compressible (long runs) and not (typical JSON text),
in versions 1 and 2. One line per case: ``lang case size MB/s-encode
MB/s-decode``. A script, not a test:

    PYTHONPATH=generated/python/src .venv/bin/python tests/python/bench.py

Encoding frames a payload already written (``toon.frame``: the RLE pass
and the header); decoding reads the frame back to payload bytes
(``toon.decode_frame``: checks, and RLE decoding when compressed). Both
sides of the JSON/MsgPack parse are left out, as they are not TOON's.
"""

import json
import sys
import time
from collections.abc import Callable

from toolwright_catalogue import toon

SIZES = (("1KiB", 1024), ("64KiB", 64 * 1024), ("1MiB", 1024 * 1024))


def typical_json(size: int) -> bytes:
    """JSON text such as tool results carry: no runs worth encoding."""
    items: list[str] = []
    i = 0
    while sum(len(x) for x in items) < size:
        items.append(
            json.dumps(
                {"id": f"job_{i * 7919:x}", "tool": "orpheus_generate", "progress": i / 7,
                 "state": ["pending", "running", "complete"][i % 3], "tags": ["midi", "v2"]},
                separators=(",", ":"),
            )
        )
        i += 1
    text = ("[" + ",".join(items) + "]").encode()
    return text[: size - 1] + b"]"


def compressible(size: int) -> bytes:
    """Long runs (padding, zeroed buffers): RLE's best case."""
    unit = b'"' + b" " * 1000 + b"0" * 2000 + b'",'
    return (b"[" + unit * (size // len(unit) + 1))[:size]


def rate(size: int, fn: Callable[[], object]) -> float:
    """MB/s of `fn` over `size` bytes: the best of several batches, timed in
    CPU time of this process, so other work on a busy machine does not
    count against it."""
    repeat = max(1, (8 * 1024 * 1024) // size)
    best = float("inf")
    for _ in range(5):
        start = time.process_time()
        for _ in range(repeat):
            fn()
        best = min(best, (time.process_time() - start) / repeat)
    return size / best / 1e6


def main() -> None:
    for case, make in (("json", typical_json), ("runs", compressible)):
        for label, size in SIZES:
            raw = make(size)
            for version in (1, 2):
                frame = toon.frame(
                    toon.MessageType.CONTEXT_RESPONSE, raw, version=version, timestamp=0
                )
                assert toon.decode_frame(frame)["payload"] == raw
                encode = rate(
                    size,
                    lambda: toon.frame(
                        toon.MessageType.CONTEXT_RESPONSE, raw, version=version, timestamp=0
                    ),
                )
                decode = rate(size, lambda: toon.decode_frame(frame))
                compressed = toon.decode_frame(frame)["compressed"]
                name = f"{case}-v{version}{'-rle' if compressed else ''}"
                print(f"python {name} {label} {encode:.0f} {decode:.0f}")
                sys.stdout.flush()


if __name__ == "__main__":
    main()
