"""TOON corner cases: the header layout, the compression threshold, RLE
runs, limits, and every malformed input answered with its error kind."""

import json
import struct

import pytest

from toolwright_catalogue import codec, rle, toon
from toolwright_catalogue.errors import ErrorKind, TOONError


def _reference_rle(data: bytes) -> bytes:
    """The encoder as the specification words it, one position at a time."""
    out = bytearray()
    at = 0
    while at < len(data):
        byte = data[at]
        length = 1
        while at + length < len(data) and data[at + length] == byte and length < 255:
            length += 1
        if length >= 4 or byte == 0xFF:
            out += bytes((0xFF, byte, length))
        else:
            out += data[at : at + length]
        at += length
    return bytes(out)


def _kind(buffer: bytes, **limits: int | tuple[int, ...]) -> ErrorKind:
    with pytest.raises(TOONError) as caught:
        toon.decode(buffer, **limits)  # type: ignore[arg-type]
    return caught.value.kind


def test_the_seed_example_is_pinned_byte_for_byte() -> None:
    buffer = toon.encode(
        toon.MessageType.INSTRUCTION, {"instruction": "Test"}, sequence_id=1, timestamp=0
    )
    # Worked out by hand from the specification's table.
    assert buffer.hex() == (
        "0101" "16000000" "0000000000000000" "01000000" + b'{"instruction":"Test"}'.hex()
    )
    assert toon.HEADER_FORMAT == "<BBIQI"
    assert toon.HEADER_SIZE == struct.calcsize(toon.HEADER_FORMAT) == 18
    decoded = toon.decode(buffer)
    assert decoded["header"] == {
        "version": 1,
        "type": toon.MessageType.INSTRUCTION,
        "payload_length": 22,
        "timestamp": 0,
        "sequence_id": 1,
    }
    assert decoded["payload"] == {"instruction": "Test"}


def test_a_v2_frame_has_a_coding_byte_then_msgpack() -> None:
    buffer = toon.encode(
        toon.MessageType.STATUS,
        {"status": "ok", "progress": 0.5},
        sequence_id=7,
        version=2,
        timestamp=1,
    )
    payload = buffer[18:]
    assert payload.hex() == "00" "82" "a6737461747573" "a26f6b" "a870726f6772657373" "cb3fe0000000000000"
    assert toon.decode(buffer)["payload"] == {"status": "ok", "progress": 0.5}


def test_message_types_are_the_seeds() -> None:
    assert [(t.name, t.value) for t in toon.MessageType] == [
        ("INSTRUCTION", 1),
        ("TOOL_CALL", 2),
        ("TOOL_RESULT", 3),
        ("STATUS", 4),
        ("ERROR", 5),
        ("HEARTBEAT", 6),
        ("CONTEXT_REQUEST", 7),
        ("CONTEXT_RESPONSE", 8),
    ]


@pytest.mark.parametrize("version", [1, 2])
def test_compression_starts_above_1024_bytes(version: int) -> None:
    def payload_of(size: int) -> bytes:
        # A JSON string of `size` bytes in v1 (two quotes), a MsgPack str16
        # in v2 (three bytes of head).
        head = 2 if version == 1 else 3
        return b"a" * (size - head)

    for size, compressed in [(1024, False), (1025, True)]:
        text = payload_of(size).decode()
        raw = json.dumps(text).encode() if version == 1 else None
        if raw is not None:
            assert len(raw) == size
        buffer = toon.encode(toon.MessageType.CONTEXT_REQUEST, text, version=version, timestamp=0)
        decoded = toon.decode_frame(buffer)
        assert decoded["compressed"] is compressed, size
        first = buffer[18]
        assert (first == 0x5A) is compressed


def test_payloads_that_do_not_shrink_are_sent_plain() -> None:
    text = bytes(range(32, 127)).decode() * 20  # no runs: RLE cannot help
    buffer = toon.encode(toon.MessageType.INSTRUCTION, {"instruction": text}, timestamp=0)
    assert buffer[18:19] == b"{"
    assert toon.decode(buffer)["compressed"] is False
    # A run that saves exactly the marker's byte is not worth it either.
    raw = b'"' + b"x" * 1000 + b"abcd" * 5 + b'"'
    assert len(rle.encode(raw)) + 1 >= len(raw) - 995


@pytest.mark.parametrize("length", [1, 3, 4, 5, 254, 255, 256, 257, 1000, 65536])
@pytest.mark.parametrize("byte", [0x61, 0x00, 0xFF])
def test_runs_encode_as_the_specification_says(length: int, byte: int) -> None:
    data = b"xy" + bytes((byte,)) * length + b"z"
    encoded = rle.encode(data)
    assert encoded == _reference_rle(data)
    assert rle.decode(encoded, len(data)) == data


def test_rle_examples() -> None:
    assert rle.encode(b"a" * 257) == bytes((0xFF, 0x61, 0xFF, 0x61, 0x61))
    assert rle.encode(b"\xff") == bytes((0xFF, 0xFF, 0x01))
    assert rle.encode(b"aaab") == b"aaab"
    assert rle.encode(b"aaaab") == bytes((0xFF, 0x61, 4, 0x62))
    assert rle.encode(b"") == b""


def test_rle_matches_the_reference_on_random_input() -> None:
    import random

    rng = random.Random(7)
    for _ in range(3000):
        parts = []
        for _ in range(rng.randint(0, 12)):
            byte = rng.choice([0, 1, 0x61, 0xFF, rng.randint(0, 255)])
            parts.append(bytes((byte,)) * rng.choice([1, 2, 3, 4, 5, 255, 256, 600]))
        data = b"".join(parts)
        assert rle.encode(data) == _reference_rle(data)
        assert rle.decode(rle.encode(data), len(data)) == data


@pytest.mark.parametrize("block", [3, 4, 7, 64])
def test_runs_across_the_encoders_blocks(block: int, monkeypatch: pytest.MonkeyPatch) -> None:
    import random

    monkeypatch.setattr(rle, "_BLOCK", block)
    rng = random.Random(block)
    for _ in range(500):
        data = bytes(rng.choice(b"aab\xff\x00") for _ in range(rng.randint(0, 200)))
        assert rle.encode(data) == _reference_rle(data)


def test_literal_escape_bytes_survive_a_frame() -> None:
    blob = (b"\xff" + b"ab") * 600
    buffer = toon.encode(toon.MessageType.CONTEXT_RESPONSE, {"blob": blob}, version=2, timestamp=0)
    assert toon.decode(buffer)["payload"] == {"blob": blob}


def test_a_compressible_payload_is_compressed_and_reads_back() -> None:
    payload = {"instruction": "x" * 5000}
    buffer = toon.encode(toon.MessageType.INSTRUCTION, payload, timestamp=0)
    assert buffer[18] == 0x5A
    assert len(buffer) < 200
    assert toon.decode(buffer) == {
        "header": toon.decode_header(buffer),
        "payload": payload,
        "compressed": True,
    }


def _header(version: int = 1, kind: int = 1, length: int = 0) -> bytes:
    return struct.pack(toon.HEADER_FORMAT, version, kind, length, 0, 0)


def test_truncated_headers_and_payloads() -> None:
    good = toon.encode(toon.MessageType.HEARTBEAT, {}, timestamp=0)
    for cut in range(18):
        assert _kind(good[:cut]) is ErrorKind.TRUNCATED_HEADER
    assert _kind(good[:-1]) is ErrorKind.TRUNCATED_PAYLOAD
    assert toon.decode(good + b"next frame")["payload"] == {}


def test_versions_and_types_are_checked_in_order() -> None:
    assert _kind(_header(version=0, kind=0)) is ErrorKind.UNSUPPORTED_VERSION
    assert _kind(_header(version=3)) is ErrorKind.UNSUPPORTED_VERSION
    assert _kind(_header(kind=0)) is ErrorKind.UNKNOWN_TYPE
    assert _kind(_header(kind=9)) is ErrorKind.UNKNOWN_TYPE
    v2 = toon.encode(toon.MessageType.HEARTBEAT, {}, version=2, timestamp=0)
    assert _kind(v2, versions=(1,)) is ErrorKind.UNSUPPORTED_VERSION
    assert toon.decode(v2)["payload"] == {}


def test_a_huge_announced_length_costs_nothing() -> None:
    header = _header(length=0xFFFF_FFFF)
    assert _kind(header) is ErrorKind.PAYLOAD_TOO_LARGE
    assert _kind(header, max_payload=0xFFFF_FFFF) is ErrorKind.TRUNCATED_PAYLOAD
    assert _kind(_header(length=100) + b"{}" * 50, max_payload=99) is ErrorKind.PAYLOAD_TOO_LARGE


def test_bad_compression_and_bombs() -> None:
    def compressed(rle_bytes: bytes, version: int = 1) -> bytes:
        payload = b"\x5a" + rle_bytes
        return _header(version=version, length=len(payload)) + payload

    assert _kind(compressed(b"{\xff")) is ErrorKind.BAD_COMPRESSION
    assert _kind(compressed(b"{\xff\x61")) is ErrorKind.BAD_COMPRESSION
    assert _kind(compressed(b"{\xff\x61\x00")) is ErrorKind.BAD_COMPRESSION
    bomb = compressed(b"\xff\x20\xff" * 1000)
    assert _kind(bomb, max_payload=4096) is ErrorKind.DECOMPRESSED_TOO_LARGE
    assert _kind(bomb, max_decompressed=1000) is ErrorKind.DECOMPRESSED_TOO_LARGE
    with pytest.raises(TOONError) as caught:
        rle.decode(b"abc", 2)
    assert caught.value.kind is ErrorKind.DECOMPRESSED_TOO_LARGE


def test_invalid_payloads() -> None:
    def frame(payload: bytes, version: int = 1, kind: int = 1) -> bytes:
        return _header(version=version, kind=kind, length=len(payload)) + payload

    assert _kind(frame(b"{not json")) is ErrorKind.INVALID_PAYLOAD
    assert _kind(frame(b"\xc3\x28")) is ErrorKind.INVALID_PAYLOAD
    assert _kind(frame(b"")) is ErrorKind.INVALID_PAYLOAD
    # Valid frames, whatever their payload holds; only a typed reader asks more.
    assert toon.decode(frame(b"[]"))["payload"] == []
    assert toon.decode(frame(b'{"instruction":1}'))["payload"] == {"instruction": 1}
    with pytest.raises(TOONError) as caught:
        toon.check_payload(toon.MessageType.INSTRUCTION, {"instruction": 1})
    assert caught.value.kind is ErrorKind.INVALID_PAYLOAD
    assert "`instruction`" in caught.value.message
    assert isinstance(caught.value, toon.PayloadFieldError)
    assert caught.value.key == "instruction"
    assert caught.value.problem is toon.FieldProblem.WRONG_TYPE
    assert caught.value.message_type is toon.MessageType.INSTRUCTION
    # The seed's own TOOL_RESULT example is a frame; a typed reader needs more.
    example = b'{"success": true, "data": "...", "duration": 12}'
    assert toon.decode(frame(example, kind=3))["payload"]["data"] == "..."
    with pytest.raises(toon.PayloadFieldError) as missing:
        toon.check_payload(
            toon.MessageType.TOOL_RESULT, {"toolName": "t", "success": True, "duration": 1, "data": "..."}
        )
    assert (missing.value.key, missing.value.problem) == ("data", toon.FieldProblem.WRONG_TYPE)
    with pytest.raises(toon.PayloadFieldError) as missing:
        toon.check_payload(toon.MessageType.TOOL_CALL, {"args": {}})
    assert (missing.value.key, missing.value.problem) == (
        "toolName",
        toon.FieldProblem.MISSING_FIELD,
    )
    with pytest.raises(toon.PayloadFieldError) as not_object:
        toon.check_payload(toon.MessageType.TOOL_CALL, [])
    assert not_object.value.key is None
    assert _kind(frame(b"", version=2)) is ErrorKind.INVALID_PAYLOAD
    assert _kind(frame(b"\x01\x80", version=2)) is ErrorKind.INVALID_PAYLOAD
    assert _kind(frame(b"\x00\x80\x80", version=2, kind=6)) is ErrorKind.INVALID_PAYLOAD
    assert _kind(frame(b"\x00\xc1", version=2, kind=6)) is ErrorKind.INVALID_PAYLOAD
    assert toon.decode(frame(b"\x00\x80", version=2, kind=6))["payload"] == {}


@pytest.mark.parametrize("version", [1, 2])
def test_deep_nesting_is_an_invalid_payload_not_a_crash(version: int) -> None:
    depth = 100_000
    body = b"[" * depth + b"]" * depth if version == 1 else b"\x00" + b"\x91" * depth + b"\xc0"
    with pytest.raises(TOONError) as caught:
        toon.decode(_header(version=version, kind=7, length=len(body)) + body)
    assert caught.value.kind is ErrorKind.INVALID_PAYLOAD
    assert caught.value.message.split(": ", 1)[1]


def test_errors_carry_a_kind_and_a_message() -> None:
    error = TOONError(ErrorKind.UNKNOWN_TYPE, "message type 0x09 is not defined")
    assert error.kind is ErrorKind.UNKNOWN_TYPE
    assert str(error) == "unknown_type: message type 0x09 is not defined"
    assert {k.value for k in ErrorKind} == {
        "truncated_header",
        "unsupported_version",
        "unknown_type",
        "truncated_payload",
        "payload_too_large",
        "bad_compression",
        "decompressed_too_large",
        "invalid_payload",
    }


def test_encoding_refuses_what_the_header_cannot_hold() -> None:
    with pytest.raises(ValueError):
        toon.encode(toon.MessageType.HEARTBEAT, {}, sequence_id=2**32)
    with pytest.raises(ValueError):
        toon.encode(toon.MessageType.HEARTBEAT, {}, version=3)
    with pytest.raises(ValueError):
        toon.frame(toon.MessageType.HEARTBEAT, b"Z{}", timestamp=0)


def test_the_specifications_tool_result_example_decodes() -> None:
    """The seed's own TOOL_RESULT example has no ``toolName``: a valid frame,
    which plain ``decode`` returns; the typed reader needs the tool's name
    to know its response type, and says so."""
    payload = b'{"success": true, "data": "export class UserService { ... }", "duration": 12}'
    buffer = _header(version=1, kind=3, length=len(payload)) + payload
    decoded = toon.decode(buffer)
    assert decoded["payload"] == {"success": True, "data": "export class UserService { ... }", "duration": 12}
    assert decoded["header"]["type"] is toon.MessageType.TOOL_RESULT
    with pytest.raises(TOONError) as caught:
        codec.decode_tool_result(buffer)
    assert caught.value.kind is ErrorKind.INVALID_PAYLOAD
    assert "`toolName`" in caught.value.message


def test_timestamps_are_read_as_the_whole_uint64() -> None:
    buffer = toon.encode(toon.MessageType.HEARTBEAT, {}, timestamp=2**64 - 1)
    assert toon.decode(buffer)["header"]["timestamp"] == 2**64 - 1
