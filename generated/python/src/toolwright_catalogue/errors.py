"""Why a TOON frame, a request or a response could not be read."""

import enum


class ErrorKind(enum.StrEnum):
    """What kind of problem a ``TOONError`` reports. Every TOON
    implementation (Rust, TypeScript, Python) reports the same kinds."""

    TRUNCATED_HEADER = "truncated_header"
    """The input is shorter than the 18-byte header."""
    UNSUPPORTED_VERSION = "unsupported_version"
    """The header's version is not one the decoder accepts."""
    UNKNOWN_TYPE = "unknown_type"
    """The header's message type is not one of the eight defined."""
    TRUNCATED_PAYLOAD = "truncated_payload"
    """The input ends before the payload the header announces."""
    PAYLOAD_TOO_LARGE = "payload_too_large"
    """The header announces a payload larger than the decoder's limit."""
    BAD_COMPRESSION = "bad_compression"
    """The RLE stream is malformed: a dangling escape, a zero count."""
    DECOMPRESSED_TOO_LARGE = "decompressed_too_large"
    """The payload would decompress to more than the decoder's limit."""
    INVALID_PAYLOAD = "invalid_payload"
    """The payload is not what its version and type require."""


class TOONError(Exception):
    """A frame that could not be read or written: a ``kind`` for programs
    and a ``message`` for people."""

    def __init__(self, kind: ErrorKind, message: str) -> None:
        super().__init__(f"{kind.value}: {message}")
        self.kind = kind
        self.message = message


class WireError(Exception):
    """A request or response that could not be read or written, with the
    runtime's error code (``INVALID_REQUEST``, ``UNKNOWN_TOOL``,
    ``UNKNOWN_ACTION``) and a message naming what is wrong."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(f"{code}: {message}")
        self.code = code
        self.message = message
