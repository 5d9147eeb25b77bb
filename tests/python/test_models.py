"""The models of the reference catalogue: validation on decode, defaults,
unknown keys, widths, bytes, unions, errors, the canonical writers (floats
as Rust prints them), typed TOON frames, and the registry."""

import pydantic
import pytest

from toolwright_catalogue import codec, models, registry, toon, tools
from toolwright_catalogue._canonical import format_f32, format_f64, json_text, msgpack_bytes
from toolwright_catalogue.errors import ErrorKind, TOONError, WireError
from toolwright_catalogue.metadata import (
    ToolCompleteEvent,
    ToolMetadata,
    ToolSource,
    ToolStartEvent,
)
from toolwright_catalogue.tools import ToolRequest

# What serde_json 1.0.154 writes for these values (printed by a Rust
# program once, pinned here).
F64_TEXT = [
    (1e-5, "0.00001"),
    (1e-6, "1e-6"),
    (1.5e-7, "1.5e-7"),
    (1e15, "1000000000000000.0"),
    (1e16, "1e+16"),
    (1.2345e16, "1.2345e+16"),
    (1e100, "1e+100"),
    (2.0, "2.0"),
    (0.1, "0.1"),
    (123456.0, "123456.0"),
    (1e-300, "1e-300"),
    (5e-324, "5e-324"),
    (-0.0, "-0.0"),
    (1.7976931348623157e308, "1.7976931348623157e+308"),
]
F32_TEXT = [
    (0.1, "0.1"),
    (1e-6, "0.000001"),
    (1e-7, "1e-7"),
    (1e12, "1000000000000.0"),
    (1e13, "1e+13"),
    (1.5e13, "1.5e+13"),
    (3.4028234663852886e38, "3.4028235e+38"),
    (1e-45, "1e-45"),
    (16777216.0, "16777216.0"),
    (0.3, "0.3"),
]


@pytest.mark.parametrize(("value", "text"), F64_TEXT)
def test_f64_is_written_as_serde_json_writes_it(value: float, text: str) -> None:
    assert format_f64(value) == text
    assert float(text) == value


@pytest.mark.parametrize(("value", "text"), F32_TEXT)
def test_f32_is_written_at_f32_precision(value: float, text: str) -> None:
    assert format_f32(value) == text


def test_defaults_are_filled_in_on_decode() -> None:
    call = codec.request_from_json('{"tool":"fs","action":"read","uri":"file:///a"}')
    assert isinstance(call, tools.FsReadCall)
    assert call.args.encoding is models.TextEncoding.UTF8
    jobs = codec.request_from_json('{"tool":"job_list"}')
    assert isinstance(jobs, tools.JobListCall)
    assert jobs.args.limit == 100
    # Defaults are written back, as the Rust runtime writes them.
    assert codec.request_to_json(jobs) == '{"tool":"job_list","limit":100}'


def test_the_job_list_filter_round_trips() -> None:
    text = '{"tool":"job_list","tool_name":"orpheus_generate","limit":5}'
    call = codec.request_from_json(text)
    assert isinstance(call, tools.JobListCall)
    assert call.args.tool_name == "orpheus_generate"
    assert codec.request_to_json(call) == text
    frame = codec.encode_tool_call(call, timestamp=0, version=2)
    assert codec.decode_tool_call(frame).request == call


def test_a_repeated_tag_is_refused() -> None:
    # No request field may be named `tool` (the checker's TW105), so a
    # second `tool` key is an unknown field, never a silent overwrite.
    with pytest.raises(WireError):
        codec.request_from_json('{"tool":"job_list","tool":"orpheus_generate"}')


@pytest.mark.parametrize(
    ("text", "code", "needle"),
    [
        ('{"a":1,"tool":"add","b":2}', "INVALID_REQUEST", "first key is `tool`"),
        ('{"tool":"nope"}', "UNKNOWN_TOOL", "nope"),
        ('{"tool":"fs","action":"nope","uri":"file:///"}', "UNKNOWN_ACTION", "nope"),
        ('{"tool":"fs","uri":"file:///","action":"read"}', "INVALID_REQUEST", "`action`"),
        ('{"tool":"add","a":1,"b":2,"c":3}', "INVALID_REQUEST", "c"),
        ('{"tool":"add","a":1}', "INVALID_REQUEST", "b"),
        ('{"tool":"add","a":1.5,"b":2}', "INVALID_REQUEST", "a"),
        ('{"tool":"add","a":true,"b":2}', "INVALID_REQUEST", "a"),
        ('{"tool":"add","a":"1","b":2}', "INVALID_REQUEST", "a"),
        ('{"tool":"add","a":9223372036854775808,"b":2}', "INVALID_REQUEST", "a"),
        ('{"tool":"add","a":1,"a":1,"b":2}', "INVALID_REQUEST", "duplicate"),
        ('{"tool":"fs","action":"read","uri":"http://x"}', "INVALID_REQUEST", "uri"),
        ('{"tool":"job_list","limit":0}', "INVALID_REQUEST", "limit"),
        ('{"tool":"job_list","state":"lost"}', "INVALID_REQUEST", "state"),
        ('{"tool":"cas_store","data":"not base64!"}', "INVALID_REQUEST", "base64"),
        ('{"tool":"add",', "INVALID_REQUEST", "JSON"),
        ("[1]", "INVALID_REQUEST", "first key"),
    ],
)
def test_bad_requests_are_typed_errors(text: str, code: str, needle: str) -> None:
    with pytest.raises(WireError) as caught:
        codec.request_from_json(text)
    assert caught.value.code == code
    assert needle in caught.value.message


def test_unknown_names_come_with_a_suggestion() -> None:
    with pytest.raises(WireError) as caught:
        codec.request_from_json('{"tool":"mutiply","a":1,"b":2}')
    assert caught.value.message == "no tool is named `mutiply`; did you mean `multiply`?"
    with pytest.raises(WireError) as caught:
        codec.request_from_json('{"tool":"fs","action":"raed","uri":"file:///"}')
    assert caught.value.message == "tool `fs` has no action `raed`; did you mean `read`?"


def test_responses_ignore_unknown_keys() -> None:
    text = '{"tool":"add","result":3,"added_later":true}'
    result = codec.response_from_json(text)
    assert isinstance(result, tools.AddResult)
    assert result.data.result == 3
    assert codec.response_to_json(result) == '{"tool":"add","result":3}'


def test_bytes_are_bin_in_msgpack_and_base64_in_json() -> None:
    call = tools.CasStoreCall(args=models.CasStoreRequest(data=b"\x00\xffhi"))
    assert codec.request_to_json(call) == (
        '{"tool":"cas_store","data":"AP9oaQ==","mime_type":"application/octet-stream"}'
    )
    packed = codec.request_to_msgpack(call)
    assert b"\xc4\x04\x00\xffhi" in packed
    assert codec.request_from_msgpack(packed) == call
    # Some writers send bytes as an array of integers.
    as_array = codec.request_from_json('{"tool":"cas_store","data":[0,255,104,105]}')
    assert as_array == call


def test_msgpack_integers_take_the_smallest_encoding() -> None:
    cases = [
        (0, "00"),
        (127, "7f"),
        (128, "cc80"),
        (65535, "cdffff"),
        (65536, "ce00010000"),
        (2**32, "cf0000000100000000"),
        (-1, "ff"),
        (-32, "e0"),
        (-33, "d0df"),
        (-129, "d1ff7f"),
        (-(2**31), "d280000000"),
        (-(2**31) - 1, "d3ffffffff7fffffff"),
    ]
    for value, hex_text in cases:
        assert msgpack_bytes(value).hex() == hex_text, value


def test_the_wire_spec_examples() -> None:
    call = codec.request_from_json('{"tool":"add","a":1,"b":2}')
    assert codec.request_to_msgpack(call).hex() == "83a4746f6f6ca3616464a16101a16202"


def test_unions_are_externally_tagged() -> None:
    adapter: pydantic.TypeAdapter[models.ProcOutput] = pydantic.TypeAdapter(models.ProcOutput)
    value = adapter.validate_python({"stdout": {"data": b"hi"}})
    assert isinstance(value, models.ProcOutputStdout)
    assert json_text(value) == '{"stdout":{"data":"aGk="}}'
    assert adapter.dump_python(value) == {"stdout": {"data": b"hi"}}
    exited = adapter.validate_json('{"exited":{}}')
    assert isinstance(exited, models.ProcOutputExited)
    assert json_text(exited) == '{"exited":{}}'
    for bad in [{"stdout": {}, "stderr": {}}, {"nope": {}}, {"stdout": 1}]:
        with pytest.raises(pydantic.ValidationError):
            adapter.validate_python(bad)


def test_errors_have_codes_and_become_tool_errors() -> None:
    error = models.FsErrorConflict(expected="a", actual="b")
    assert error.code == "CONFLICT"
    tool_error = error.to_tool_error()
    assert tool_error.code == "CONFLICT"
    assert tool_error.message.startswith("The file changed since it was read")
    assert tool_error.details == {"conflict": {"expected": "a", "actual": "b"}}
    frame = codec.encode_tool_result(tool_error, tool="fs", duration_ms=12, timestamp=0)
    assert toon.decode(frame)["payload"] == {
        "success": False,
        "toolName": "fs",
        "error": {
            "code": "CONFLICT",
            "message": tool_error.message,
            "details": {"conflict": {"actual": "b", "expected": "a"}},
        },
        "duration": 12,
    }
    result = codec.decode_tool_result(frame)
    assert result.outcome == tool_error
    assert result.tool == "fs"
    assert result.duration_ms == 12


@pytest.mark.parametrize("version", [1, 2])
def test_tool_frames_round_trip(version: int) -> None:
    call = codec.request_from_json('{"tool":"fs","action":"write","uri":"file:///a","content":"x"}')
    frame = codec.encode_tool_call(call, version=version, sequence_id=3, timestamp=9)
    payload = toon.decode(frame)["payload"]
    assert payload == {
        "toolName": "fs",
        "args": {"action": "write", "uri": "file:///a", "content": "x", "create_parents": False},
    }
    assert codec.decode_tool_call(frame).request == call
    ack = codec.response_from_json('{"tool":"garden_play"}')
    frame = codec.encode_tool_result(ack, duration_ms=1, version=version, timestamp=0)
    assert toon.decode(frame)["payload"] == {
        "success": True,
        "toolName": "garden_play",
        "data": {},
        "duration": 1,
    }
    assert codec.decode_tool_result(frame).outcome == ack


def test_typed_decoders_reject_other_frames_and_bad_calls() -> None:
    heartbeat = toon.encode(toon.MessageType.HEARTBEAT, {}, timestamp=0)
    with pytest.raises(TOONError) as caught:
        codec.decode_tool_call(heartbeat)
    assert caught.value.kind is ErrorKind.INVALID_PAYLOAD
    bad = toon.encode(
        toon.MessageType.TOOL_CALL, {"toolName": "add", "args": {"a": 1}}, timestamp=0
    )
    with pytest.raises(TOONError) as caught:
        codec.decode_tool_call(bad)
    assert caught.value.kind is ErrorKind.INVALID_PAYLOAD
    assert "INVALID_REQUEST" in caught.value.message


def test_request_unions_discriminate_on_tool_and_action() -> None:
    adapter: pydantic.TypeAdapter[ToolRequest] = pydantic.TypeAdapter(ToolRequest)
    call = adapter.validate_python({"tool": "fs", "action": "stat", "uri": "file:///"})
    assert isinstance(call, tools.FsStatCall)
    assert adapter.dump_python(call) == {"tool": "fs", "action": "stat", "uri": "file:///"}
    add = adapter.validate_python({"tool": "add", "a": 1, "b": 2})
    assert isinstance(add, tools.AddCall)
    with pytest.raises(pydantic.ValidationError):
        adapter.validate_python({"tool": "fs", "action": "nope"})


def test_the_registry_lists_every_tool() -> None:
    names = [t.name for t in registry.TOOLS]
    assert names[:4] == ["job_status", "job_list", "job_poll", "job_cancel"]
    assert set(names) == {key.split(".")[0] for key in tools.CALLS}
    add = registry.REGISTRY.get_tool("add")
    assert add is not None
    assert add.source is ToolSource.LOCAL
    assert add.title == "Add"
    assert add.annotations.read_only and add.annotations.idempotent
    assert [(p.name, p.type, p.required) for p in add.parameters] == [
        ("a", "integer", True),
        ("b", "integer", True),
    ]
    fs = registry.get_tool_registry().get_tool("fs")
    assert fs is not None
    assert [a.name for a in fs.actions][:2] == ["read", "write"]
    read = fs.actions[0]
    assert [(p.name, p.required) for p in read.parameters] == [
        ("uri", True),
        ("range", False),
        ("encoding", False),
    ]
    assert registry.REGISTRY.get_tool_source("nope") is None


def test_a_json_parameter_has_no_json_schema_type() -> None:
    create = registry.REGISTRY.get_tool("artifact_create")
    assert create is not None
    metadata = next(p for p in create.parameters if p.name == "metadata")
    assert (metadata.idl_type, metadata.type) == ("json?", None)


def test_an_entry_of_the_served_document_keeps_its_schemas() -> None:
    schema = {"type": "object", "properties": {}}
    errors = {"oneOf": [{"type": "object", "required": ["overflow"]}]}
    entry = ToolMetadata.model_validate(
        {
            "name": "fs",
            "inputSchema": schema,
            "outputSchema": schema,
            "errorSchema": errors,
            "actions": [
                {"name": "read", "timing": "sync", "inputSchema": schema, "outputSchema": schema}
            ],
        }
    )
    assert (entry.input_schema, entry.output_schema, entry.error_schema) == (schema, schema, errors)
    assert (entry.actions[0].input_schema, entry.actions[0].output_schema) == (schema, schema)
    generated = registry.REGISTRY.get_tool("add")
    assert generated is not None and generated.error_schema is None


def test_tool_events() -> None:
    start = ToolStartEvent(tool_name="add", tool_input='{"a":1}')
    assert start.type == "tool_start"
    assert start.source is ToolSource.LOCAL
    done = ToolCompleteEvent(tool_name="add", tool_result="3", source=ToolSource.MCP)
    assert done.model_dump()["source"] == "mcp"
    legacy = ToolCompleteEvent.model_validate(
        {"type": "tool_complete", "tool_name": "add", "tool_result": "3", "timestamp": "t"}
    )
    assert legacy.source is ToolSource.LOCAL
