"""The shared vectors, byte for byte: every value of ``values.json`` read
from JSON and MsgPack and written back identically; every frame of
``toon.json`` decoded, checked and re-encoded identically; every invalid
frame rejected with its kind. Writes ``from-python.json``: the frames this
encoder makes of each ``frames`` entry, for the Rust side to read."""

import json
import os
import pathlib
from typing import Any

import pytest

from conftest import VECTORS
from toolwright_catalogue import codec, toon
from toolwright_catalogue.errors import TOONError
from toolwright_catalogue.tools import ToolRequest, ToolResponse


def _load(name: str) -> dict[str, Any]:
    path = VECTORS / name
    assert path.is_file(), f"{path} is missing: the Rust side writes it"
    data: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    assert data["format"] == 1
    return data


VALUES: list[dict[str, Any]] = _load("values.json")["cases"] if (VECTORS / "values.json").is_file() else []
TOON: dict[str, Any] = (
    _load("toon.json") if (VECTORS / "toon.json").is_file() else {"frames": [], "invalid": []}
)


def test_the_vector_files_exist_and_are_not_empty() -> None:
    assert VALUES, "tests/vectors/values.json has no cases"
    assert TOON["frames"], "tests/vectors/toon.json has no frames"
    assert TOON["invalid"], "tests/vectors/toon.json has no invalid frames"


def _name(case: dict[str, Any]) -> str:
    return str(case["name"])


@pytest.mark.parametrize("case", VALUES, ids=_name)
def test_values_round_trip(case: dict[str, Any]) -> None:
    text: str = case["json"]
    packed = bytes.fromhex(case["msgpack"])
    if case["kind"] == "request":
        request: ToolRequest = codec.request_from_json(text)
        assert request.__tool__ == case["tool"]
        assert request.__action__ == case["action"]
        assert codec.request_to_json(request) == text
        assert codec.request_to_msgpack(request) == packed
        assert codec.request_from_msgpack(packed) == request
    else:
        assert case["kind"] == "response"
        response: ToolResponse = codec.response_from_json(text)
        assert response.__tool__ == case["tool"]
        assert response.__action__ == case["action"]
        assert codec.response_to_json(response) == text
        assert codec.response_to_msgpack(response) == packed
        assert codec.response_from_msgpack(packed) == response


def _reencode(entry: dict[str, Any], frame: bytes) -> bytes:
    """Encodes the entry's logical payload again: typed for tool frames
    (so f32 fields are written as such), as plain values otherwise."""
    message_type = toon.MessageType(entry["message_type"])
    stamp = {
        "version": entry["version"],
        "sequence_id": entry["sequence_id"],
        "timestamp": entry["timestamp"],
    }
    if message_type is toon.MessageType.TOOL_CALL:
        call = codec.decode_tool_call(frame)
        return codec.encode_tool_call(call.request, **stamp)
    if message_type is toon.MessageType.TOOL_RESULT:
        result = codec.decode_tool_result(frame)
        return codec.encode_tool_result(
            result.outcome, tool=result.tool, duration_ms=result.duration_ms, **stamp
        )
    payload = json.loads(entry["payload_json"])
    return toon.encode(
        message_type,
        payload,
        entry["sequence_id"],
        version=entry["version"],
        timestamp=entry["timestamp"],
    )


@pytest.mark.parametrize("entry", TOON["frames"], ids=_name)
def test_frames_decode_and_encode_to_the_same_bytes(entry: dict[str, Any]) -> None:
    frame = bytes.fromhex(entry["frame"])
    decoded = toon.decode(frame)
    header = decoded["header"]
    assert header["version"] == entry["version"]
    assert header["type"] == entry["message_type"]
    assert header["timestamp"] == entry["timestamp"]
    assert header["sequence_id"] == entry["sequence_id"]
    assert header["payload_length"] == len(frame) - toon.HEADER_SIZE
    assert decoded["compressed"] == entry["compressed"]
    expected = json.loads(entry["payload_json"])
    if entry["version"] == toon.TOON_VERSION:
        assert decoded["payload"] == expected
        raw = toon.decode_frame(frame)["payload"]
        assert raw.decode("utf-8") == entry["payload_json"]
    assert _reencode(entry, frame) == frame


@pytest.mark.parametrize("entry", TOON["invalid"], ids=_name)
def test_invalid_frames_fail_with_their_kind(entry: dict[str, Any]) -> None:
    frame = bytes.fromhex(entry["frame"])
    limit = entry["max_payload"]
    with pytest.raises(TOONError) as caught:
        if limit is None:
            toon.decode(frame)
        else:
            toon.decode(frame, max_payload=limit)
    assert caught.value.kind.value == entry["error"], caught.value.message


def test_frames_this_encoder_writes_are_recorded_for_the_rust_side() -> None:
    frames = []
    for entry in TOON["frames"]:
        frame = _reencode(entry, bytes.fromhex(entry["frame"]))
        frames.append({**entry, "frame": frame.hex()})
    out_dir = pathlib.Path(os.environ.get("TOOLWRIGHT_VECTORS_OUT") or VECTORS)
    out_dir.mkdir(parents=True, exist_ok=True)
    text = json.dumps({"format": 1, "frames": frames}, indent=2, ensure_ascii=False) + "\n"
    (out_dir / "from-python.json").write_text(text, encoding="utf-8")
    assert len(frames) == len(TOON["frames"])
