"""TOON: the binary framing frontends and subagents speak.

A frame is an 18-byte header (``<BBIQI``: version, type, payload length,
timestamp in milliseconds, sequence id, all little-endian) followed by the
payload: JSON text in version 1, a coding byte (``0x00`` plain, ``0x5A``
RLE) and MsgPack in version 2. A payload over 1,024 bytes is RLE-compressed
when that makes it shorter; a compressed version 1 payload starts with
``0x5A``, which JSON text never does.

    >>> buffer = encode(MessageType.INSTRUCTION, {"instruction": "Test"}, sequence_id=1)
    >>> decode(buffer)["payload"]
    {'instruction': 'Test'}
"""

import enum
import json
import struct
import time
from typing import Any, Final, TypedDict

import msgpack

from . import rle
from ._canonical import json_bytes, msgpack_bytes
from .errors import ErrorKind, TOONError

HEADER_FORMAT: Final = "<BBIQI"
"""version (B), type (B), payloadLength (I), timestamp (Q), sequenceId (I)."""
HEADER_SIZE: Final = 18
"""Size of the header in bytes."""
TOON_VERSION: Final = 1
"""The version of the seed specification: JSON payloads."""
TOON_VERSION_MSGPACK: Final = 2
"""The version with MsgPack payloads after a coding byte."""
VERSIONS: Final = (TOON_VERSION, TOON_VERSION_MSGPACK)
"""Every version this module reads and writes."""
COMPRESSION_THRESHOLD: Final = 1024
"""Payloads longer than this many bytes are compressed when that pays."""
COMPRESSED: Final = 0x5A
"""First payload byte of a compressed payload (the v2 coding byte too)."""
PLAIN: Final = 0x00
"""The version 2 coding byte of a payload that is not compressed."""
DEFAULT_MAX_PAYLOAD: Final = 64 * 1024 * 1024
"""The largest payload a decoder accepts unless told otherwise (64 MiB)."""

_HEADER: Final = struct.Struct(HEADER_FORMAT)
_MAX_U32: Final = 0xFFFF_FFFF
_MAX_U64: Final = 0xFFFF_FFFF_FFFF_FFFF


class MessageType(enum.IntEnum):
    """What a frame carries."""

    INSTRUCTION = 0x01
    """Orchestrator to subagent: a task."""
    TOOL_CALL = 0x02
    """Subagent to orchestrator: ``{"toolName", "args"}``."""
    TOOL_RESULT = 0x03
    """Orchestrator to subagent: ``{"success", "toolName", "data" | "error", "duration"}``."""
    STATUS = 0x04
    """Subagent to orchestrator: ``{"status", "progress"?}``."""
    ERROR = 0x05
    """Either direction: ``{"code", "message"}``."""
    HEARTBEAT = 0x06
    """Either direction: ``{}``."""
    CONTEXT_REQUEST = 0x07
    """Subagent to orchestrator: any JSON object."""
    CONTEXT_RESPONSE = 0x08
    """Orchestrator to subagent: any JSON object."""


_TYPES: Final = frozenset(int(t) for t in MessageType)


class Header(TypedDict):
    """The fields of a header, as ``decode`` returns them."""

    version: int
    type: MessageType
    payload_length: int
    timestamp: int
    sequence_id: int


class Decoded(TypedDict):
    """What ``decode`` returns."""

    header: Header
    payload: Any
    compressed: bool


class Frame(TypedDict):
    """What ``decode_frame`` returns: the payload still encoded (JSON text
    or MsgPack), decompressed and without v2's coding byte."""

    header: Header
    payload: bytes
    compressed: bool


def frame(
    message_type: MessageType,
    raw: bytes,
    *,
    version: int = TOON_VERSION,
    sequence_id: int = 0,
    timestamp: int | None = None,
    compress: bool = True,
) -> bytes:
    """Frames ``raw``, a payload already written in ``version``'s encoding,
    compressing it when it is over 1,024 bytes and that makes it shorter.

    Raises ``ValueError`` for an unknown version, a header field out of
    range, or a v1 payload starting with 0x5A.
    """
    if version not in VERSIONS:
        raise ValueError(f"version {version} is not defined (1 and 2 are)")
    if int(message_type) not in _TYPES:
        raise ValueError(f"message type {message_type} is not defined")
    if not 0 <= sequence_id <= _MAX_U32:
        raise ValueError(f"sequence_id {sequence_id} does not fit in 32 bits")
    stamp = int(time.time() * 1000) if timestamp is None else timestamp
    if not 0 <= stamp <= _MAX_U64:
        raise ValueError(f"timestamp {stamp} does not fit in 64 bits")
    if version == TOON_VERSION and raw[:1] == b"\x5a":
        raise ValueError("a version 1 payload is JSON text, which cannot start with 0x5A")
    payload: bytes | None = None
    if compress and len(raw) > COMPRESSION_THRESHOLD:
        # Used only when the marker and the RLE bytes together are shorter.
        packed = rle.encode_shorter_than(raw, len(raw) - 1)
        if packed is not None:
            payload = b"\x5a" + packed
    if payload is None:
        payload = raw if version == TOON_VERSION else b"\x00" + raw
    if len(payload) > _MAX_U32:
        raise ValueError(
            f"a payload of {len(payload)} bytes does not fit the header's 32-bit length"
        )
    header = _HEADER.pack(version, int(message_type), len(payload), stamp, sequence_id)
    return header + payload


def encode(
    message_type: MessageType,
    payload: Any,
    sequence_id: int = 0,
    *,
    version: int = TOON_VERSION,
    timestamp: int | None = None,
    compress: bool = True,
) -> bytes:
    """Encodes ``payload`` (a dict, or any JSON value; generated models are
    written with their wire names) as a frame of ``message_type``: JSON in
    version 1, MsgPack in version 2. The timestamp defaults to now.
    """
    raw = json_bytes(payload) if version == TOON_VERSION else msgpack_bytes(payload)
    return frame(
        message_type,
        raw,
        version=version,
        sequence_id=sequence_id,
        timestamp=timestamp,
        compress=compress,
    )


def decode_header(buffer: bytes) -> Header:
    """Reads the header at the start of ``buffer``, checking (in this
    order) that a whole header is there and that its version and message
    type are defined. Raises ``TOONError``."""
    if len(buffer) < HEADER_SIZE:
        raise TOONError(
            ErrorKind.TRUNCATED_HEADER,
            f"{len(buffer)} bytes is shorter than the {HEADER_SIZE}-byte header",
        )
    version, kind, length, stamp, sequence = _HEADER.unpack_from(buffer)
    if version not in VERSIONS:
        raise TOONError(
            ErrorKind.UNSUPPORTED_VERSION, f"version {version} is not defined (1 and 2 are)"
        )
    if kind not in _TYPES:
        raise TOONError(
            ErrorKind.UNKNOWN_TYPE,
            f"message type {kind:#04x} is not defined (0x01 to 0x08 are)",
        )
    return Header(
        version=version,
        type=MessageType(kind),
        payload_length=length,
        timestamp=stamp,
        sequence_id=sequence,
    )


def decode_frame(
    buffer: bytes,
    *,
    max_payload: int = DEFAULT_MAX_PAYLOAD,
    versions: tuple[int, ...] = VERSIONS,
    max_decompressed: int | None = None,
) -> Frame:
    """Reads the frame at the start of ``buffer``: its header and its
    payload, decompressed, still encoded. Bytes after the frame are not
    looked at (the next frame starts at ``HEADER_SIZE + payload_length``).

    Checks run in this order: ``truncated_header``, ``unsupported_version``
    (undefined, or not in ``versions``), ``unknown_type``,
    ``payload_too_large`` (from the header alone), ``truncated_payload``,
    then ``bad_compression`` and ``decompressed_too_large`` (the output is
    capped at ``max_decompressed``, by default ``max_payload``).
    """
    header = decode_header(buffer)
    version = header["version"]
    if version not in versions:
        accepted = ", ".join(str(v) for v in versions) or "none"
        raise TOONError(
            ErrorKind.UNSUPPORTED_VERSION,
            f"version {version} frames are not accepted here (accepted: {accepted})",
        )
    length = header["payload_length"]
    if length > max_payload:
        raise TOONError(
            ErrorKind.PAYLOAD_TOO_LARGE,
            f"the header announces a payload of {length} bytes; the limit is {max_payload} bytes",
        )
    available = len(buffer) - HEADER_SIZE
    if available < length:
        raise TOONError(
            ErrorKind.TRUNCATED_PAYLOAD,
            f"the header announces a payload of {length} bytes; only {available} follow it",
        )
    payload = bytes(buffer[HEADER_SIZE : HEADER_SIZE + length])
    compressed = False
    if version == TOON_VERSION:
        if payload[:1] == b"\x5a":
            compressed, payload = True, payload[1:]
    else:
        if not payload:
            raise TOONError(
                ErrorKind.INVALID_PAYLOAD,
                "a version 2 payload starts with a coding byte; this one is empty",
            )
        coding = payload[0]
        if coding not in (PLAIN, COMPRESSED):
            raise TOONError(
                ErrorKind.INVALID_PAYLOAD,
                f"a version 2 payload starts with the coding byte 0x00 or 0x5A, not {coding:#04x}",
            )
        compressed, payload = coding == COMPRESSED, payload[1:]
    if compressed:
        limit = max_payload if max_decompressed is None else max_decompressed
        payload = rle.decode(payload, limit)
    return Frame(header=header, payload=payload, compressed=compressed)


def parse_payload(version: int, payload: bytes) -> Any:
    """Parses a decompressed payload: JSON text (v1) or MsgPack (v2).
    Raises ``TOONError`` of kind ``invalid_payload``."""
    try:
        if version == TOON_VERSION:
            return json.loads(payload.decode("utf-8"))
        return msgpack.unpackb(payload, raw=False, strict_map_key=True)
    except (ValueError, TypeError, RecursionError, msgpack.ExtraData) as e:
        encoding = "JSON" if version == TOON_VERSION else "MsgPack"
        # msgpack's errors may have no text (nesting too deep): name them.
        reason = str(e) or type(e).__name__
        raise TOONError(ErrorKind.INVALID_PAYLOAD, f"the {encoding} payload: {reason}") from None


def decode(
    buffer: bytes,
    *,
    max_payload: int = DEFAULT_MAX_PAYLOAD,
    versions: tuple[int, ...] = VERSIONS,
    max_decompressed: int | None = None,
) -> Decoded:
    """Decodes the frame at the start of ``buffer``: ``{"header": {version,
    type, payload_length, timestamp, sequence_id}, "payload": <parsed
    value>, "compressed": bool}``.

    Any frame that passes the specification's validation rules decodes
    (a complete header of a known version and type, and the payload it
    announces), with whatever JSON (or MsgPack) value its payload holds: the
    specification's own ``TOOL_RESULT`` example, without ``toolName``, is
    one. ``check_payload`` says whether a payload has the keys a message
    type needs; the typed readers (``codec.decode_tool_call``,
    ``codec.decode_tool_result``) apply it and raise ``PayloadFieldError``
    naming the key.

    Raises ``TOONError`` with one of the kinds of ``ErrorKind``.
    """
    read = decode_frame(
        buffer,
        max_payload=max_payload,
        versions=versions,
        max_decompressed=max_decompressed,
    )
    header = read["header"]
    payload = parse_payload(header["version"], read["payload"])
    return Decoded(header=header, payload=payload, compressed=read["compressed"])


class FieldProblem(enum.StrEnum):
    """What a ``PayloadFieldError`` found wrong with the key it names."""

    MISSING_FIELD = "missing_field"
    """The key is absent (or ``null``)."""
    WRONG_TYPE = "wrong_type"
    """The key is there with a value of another type."""


class PayloadFieldError(TOONError):
    """A valid frame whose payload a typed reader cannot use: a key its
    message type needs is missing or of the wrong type. ``check_payload``
    raises it, and so the typed readers (``codec.decode_tool_call``,
    ``codec.decode_tool_result``); plain ``decode`` never does.

    Its ``kind`` is ``invalid_payload``, as in every TOON implementation;
    ``key`` names the key (``None`` when the payload is not an object at
    all), ``problem`` says what is wrong with it and ``message_type`` is the
    frame's type.
    """

    def __init__(
        self,
        message_type: MessageType,
        key: str | None,
        problem: FieldProblem,
        message: str,
    ) -> None:
        super().__init__(ErrorKind.INVALID_PAYLOAD, message)
        self.message_type = message_type
        self.key = key
        self.problem = problem


_REQUIRED: Final[dict[MessageType, tuple[tuple[str, tuple[type, ...]], ...]]] = {
    MessageType.INSTRUCTION: (("instruction", (str,)),),
    MessageType.TOOL_CALL: (("toolName", (str,)), ("args", (dict,))),
    MessageType.TOOL_RESULT: (("success", (bool,)), ("toolName", (str,)), ("duration", (int,))),
    MessageType.STATUS: (("status", (str,)),),
    MessageType.ERROR: (("code", (str,)), ("message", (str,))),
}


def check_payload(message_type: MessageType, payload: Any) -> None:
    """Checks that ``payload`` has the keys and types a typed reader of
    ``message_type`` needs (``toolName`` to find a tool, ``data`` or
    ``error`` for its outcome). Raises ``PayloadFieldError`` (a
    ``TOONError`` of kind ``invalid_payload``) naming the key."""

    def invalid(key: str | None, problem: FieldProblem, why: str) -> PayloadFieldError:
        return PayloadFieldError(
            message_type, key, problem, f"the payload of a {message_type.name} frame {why}"
        )

    def check(key: str, kinds: tuple[type, ...], why: str) -> None:
        value = payload.get(key)
        if value is None:
            raise invalid(key, FieldProblem.MISSING_FIELD, f"{why}; it has none")
        if not isinstance(value, kinds) or (kinds == (int,) and isinstance(value, bool)):
            raise invalid(key, FieldProblem.WRONG_TYPE, f"{why}, not {type(value).__name__}")

    if not isinstance(payload, dict):
        raise invalid(
            None, FieldProblem.WRONG_TYPE, f"is an object, not {type(payload).__name__}"
        )
    for key, kinds in _REQUIRED.get(message_type, ()):
        check(key, kinds, f"needs `{key}` of type {kinds[0].__name__}")
    if message_type is MessageType.TOOL_RESULT:
        if payload["success"]:
            check("data", (dict,), "needs `data`, an object, when `success` is true")
        else:
            check("error", (dict,), "needs `error`, an object, when `success` is false")
    if message_type is MessageType.STATUS and payload.get("progress") is not None:
        progress = payload["progress"]
        if isinstance(progress, bool) or not isinstance(progress, (int, float)):
            raise invalid(
                "progress", FieldProblem.WRONG_TYPE, "has a `progress` that is not a number"
            )
