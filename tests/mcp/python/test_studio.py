"""The studio server through the official MCP Python client, over stdio and
Streamable HTTP: handshake, tools/list, every tool called, an async tool
followed through the job tools, typed errors and bad arguments."""

from __future__ import annotations

import base64
import json
import re
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS, CallToolResult, Tool

from conftest import CASES, ROOT
from instances import minimal_instance

pytestmark = pytest.mark.anyio

KNOWN_PROTOCOL_VERSIONS = {"2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28"}


def validator(schema: dict[str, Any]) -> Draft202012Validator:
    Draft202012Validator.check_schema(schema)
    return Draft202012Validator(schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


async def tools_by_name(client: Client) -> dict[str, Tool]:
    tools: dict[str, Tool] = {}
    cursor = None
    while True:
        page = await client.list_tools(cursor=cursor)
        for tool in page.tools:
            assert tool.name not in tools, f"tools/list repeats `{tool.name}`"
            tools[tool.name] = tool
        cursor = page.next_cursor
        if not cursor:
            return tools


def assert_subset(expected: Any, actual: Any, path: str = "structuredContent") -> None:
    if isinstance(expected, dict):
        assert isinstance(actual, dict), f"{path}: expected an object, got {actual!r}"
        for key, value in expected.items():
            assert key in actual, f"{path}: no `{key}` in {actual!r}"
            assert_subset(value, actual[key], f"{path}.{key}")
    else:
        assert actual == expected, f"{path}: expected {expected!r}, got {actual!r}"


def assert_success(tool: Tool, result: CallToolResult) -> Any:
    assert not result.is_error, f"`{tool.name}` failed: {result.structured_content or result.content}"
    assert result.structured_content is not None, f"`{tool.name}` answered no structuredContent"
    assert tool.output_schema is not None, f"`{tool.name}` declares no outputSchema"
    validator(tool.output_schema).validate(result.structured_content)
    return result.structured_content


def assert_tool_error(result: CallToolResult, code: str) -> dict[str, Any]:
    assert result.is_error, f"expected isError with {code}, got {result.structured_content!r}"
    error = result.structured_content
    assert isinstance(error, dict), f"a tool error carries {{code, message, details}}, got {error!r}"
    assert error.get("code") == code, f"expected code {code}, got {error!r}"
    assert isinstance(error.get("message"), str) and error["message"], error
    assert result.content, "a tool error also says what went wrong as text"
    return error


async def test_initialize_negotiates_a_known_revision(connect: Any) -> None:
    async with connect() as client:
        assert client.protocol_version in KNOWN_PROTOCOL_VERSIONS
        # This SDK prefers the newest revision, which names itself on every
        # request rather than through `initialize`: every test of this
        # suite runs on it.
        assert client.protocol_version == "2026-07-28"
        assert client.server_info is not None and client.server_info.name
        assert client.server_capabilities is not None
        assert client.server_capabilities.tools is not None
        # 2026-07-28 removed `ping`; the TypeScript suite pings on 2025-11-25.


async def test_every_tool_is_described(connect: Any) -> None:
    async with connect() as client:
        tools = await tools_by_name(client)
    assert set(CASES["implemented"]) <= set(tools), "an implemented tool is missing from tools/list"
    for name, tool in tools.items():
        assert tool.description and tool.description.strip(), f"`{name}` has no description"
        assert tool.input_schema.get("type") == "object", f"`{name}`: inputSchema is not an object"
        Draft202012Validator.check_schema(tool.input_schema)
        if tool.output_schema is not None:
            assert tool.output_schema.get("type") == "object", f"`{name}`: outputSchema is not an object"
            Draft202012Validator.check_schema(tool.output_schema)


async def test_implemented_tools_answer_what_their_output_schema_says(connect: Any) -> None:
    called = {call["tool"] for call in CASES["calls"]}
    assert called | set(CASES["covered_by_job_test"]) == set(CASES["implemented"])
    async with connect() as client:
        tools = await tools_by_name(client)
        for call in CASES["calls"]:
            tool = tools[call["tool"]]
            arguments = call["arguments"]
            validator(tool.input_schema).validate(arguments)
            result = await client.call_tool(tool.name, arguments)
            assert_subset(call["expect"], assert_success(tool, result))


def test_pattern_samples_match_their_patterns() -> None:
    for pattern, sample in CASES["pattern_samples"].items():
        assert re.search(pattern, sample), f"{sample!r} does not match {pattern!r}"


async def test_unimplemented_tools_answer_not_implemented(connect: Any) -> None:
    async with connect() as client:
        tools = await tools_by_name(client)
        unimplemented = sorted(set(tools) - set(CASES["implemented"]))
        assert len(unimplemented) >= 50, f"expected the catalogue's unserved tools, got {unimplemented}"
        assert set(CASES["unimplemented_arguments"]) <= set(unimplemented)
        jobs: dict[str, str] = {}
        for name in unimplemented:
            schema = tools[name].input_schema
            arguments = CASES["unimplemented_arguments"].get(name)
            if arguments is None:
                arguments = minimal_instance(schema, CASES["pattern_samples"])
            validator(schema).validate(arguments)
            result = await client.call_tool(name, arguments)
            if result.is_error:
                error = assert_tool_error(result, "NOT_IMPLEMENTED")
                assert name in error["message"], error
            else:
                # `async_long` and `fire_and_forget` tools answer a job handle
                # at once; their job then fails with NOT_IMPLEMENTED.
                handle = result.structured_content
                assert handle["tool"] == name, handle
                assert handle["expected_timing"] in ("async_long", "fire_and_forget"), handle
                jobs[handle["job_id"]] = name
        polled = await client.call_tool("job_poll", {"job_ids": sorted(jobs), "timeout_ms": 20000, "mode": "all"})
        assert_success(tools["job_poll"], polled)
        assert sorted(polled.structured_content["failed"]) == sorted(jobs), polled.structured_content
        listed = await client.call_tool("job_list", {"state": "failed", "limit": 1000})
        failed = {info["job_id"]: info for info in assert_success(tools["job_list"], listed)["jobs"]}
        for job_id, name in jobs.items():
            assert failed[job_id]["tool_name"] == name, failed[job_id]
            assert failed[job_id]["error_code"] == "NOT_IMPLEMENTED", failed[job_id]


async def test_an_async_tool_answers_a_job_handle_then_the_job_tools_follow_it(connect: Any) -> None:
    job = CASES["job"]
    async with connect() as client:
        tools = await tools_by_name(client)
        started = await client.call_tool(job["tool"], job["arguments"])
        assert not started.is_error, started.structured_content
        handle = started.structured_content
        assert isinstance(handle, dict) and handle["tool"] == job["tool"], handle
        assert handle["expected_timing"] == "async_long", handle
        job_id = handle["job_id"]
        assert job_id.startswith("job_"), handle

        polled = assert_success(
            tools["job_poll"],
            await client.call_tool(
                "job_poll", {"job_ids": [job_id], "timeout_ms": job["poll_timeout_ms"], "mode": "all"}
            ),
        )
        assert polled["completed"] == [job_id], polled
        assert not polled["timed_out"], polled

        status = assert_success(tools["job_status"], await client.call_tool("job_status", {"job_id": job_id}))
        assert status["state"] == "complete", status
        assert status["tool_name"] == job["tool"], status
        generated = status["result"]
        assert len(generated["output_hashes"]) == job["arguments"]["num_variations"], generated
        midi = assert_success(
            tools["cas_get"], await client.call_tool("cas_get", {"hash": generated["output_hashes"][0]})
        )
        assert base64.b64decode(midi["data"]).startswith(b"MThd"), "the job stored a MIDI file"

        listed = assert_success(tools["job_list"], await client.call_tool("job_list", {"tool_name": job["tool"]}))
        assert job_id in [info["job_id"] for info in listed["jobs"]], listed

        # Cancelling a finished job is not an error; it reports the job's state.
        cancelled = assert_success(tools["job_cancel"], await client.call_tool("job_cancel", {"job_id": job_id}))
        assert cancelled == {"job_id": job_id, "cancelled": False, "state": "complete"}, cancelled


async def test_a_running_job_can_be_cancelled(connect: Any) -> None:
    job = CASES["job"]
    async with connect() as client:
        tools = await tools_by_name(client)
        # Long enough (8 variations of 16 steps) to still run when cancelled.
        arguments = job["arguments"] | {"max_tokens": 8192, "num_variations": 8}
        started = await client.call_tool(job["tool"], arguments)
        job_id = started.structured_content["job_id"]
        cancelled = assert_success(tools["job_cancel"], await client.call_tool("job_cancel", {"job_id": job_id}))
        assert cancelled["cancelled"] is True and cancelled["state"] == "cancelled", cancelled
        status = assert_success(tools["job_status"], await client.call_tool("job_status", {"job_id": job_id}))
        assert status["state"] == "cancelled", status


@pytest.mark.parametrize("case", CASES["typed_errors"], ids=lambda case: f"{case['tool']}-{case['code']}")
async def test_typed_errors_carry_code_and_details(connect: Any, case: dict[str, Any]) -> None:
    async with connect() as client:
        tools = await tools_by_name(client)
        result = await client.call_tool(case["tool"], case["arguments"])
    error = assert_tool_error(result, case["code"])
    assert error.get("details") == case["details"], error
    # The listing names the tool's error type and codes; the type's
    # published schema describes `details`.
    meta = tools[case["tool"]].meta or {}
    errors = meta.get("toolwright/errors")
    assert errors is not None and case["code"] in errors["codes"], meta
    schema = json.loads((ROOT / "generated/schemas/types" / f"{errors['type']}.json").read_text())
    validator(schema).validate(error["details"])


@pytest.mark.parametrize("case", CASES["bad_arguments"], ids=lambda case: f"{case['tool']}-{case['names']}")
async def test_bad_arguments_are_invalid_request_naming_the_field(connect: Any, case: dict[str, Any]) -> None:
    async with connect() as client:
        tools = await tools_by_name(client)
        assert not validator(tools[case["tool"]].input_schema).is_valid(case["arguments"])
        result = await client.call_tool(case["tool"], case["arguments"])
    error = assert_tool_error(result, "INVALID_REQUEST")
    assert f"`{case['names']}`" in error["message"] or case["names"] in error["message"], error
    # A broken @range, @length or @pattern says which bound.
    assert case.get("says", "") in error["message"], error


async def test_an_unknown_tool_is_a_protocol_error(connect: Any) -> None:
    async with connect() as client:
        with pytest.raises(MCPError) as raised:
            await client.call_tool("addd", {"a": 1, "b": 2})
    assert raised.value.code == INVALID_PARAMS, raised.value
    assert "`addd`" in raised.value.message, raised.value


async def test_action_tools_answer_status_unless_they_declare_it(connect: Any) -> None:
    async with connect() as client:
        tools = await tools_by_name(client)
        status = await client.call_tool("fs", {"action": "status"})
        answer = assert_success(tools["fs"], status)
        assert answer["action"] == "status" and answer["tool"] == "fs", answer
        assert answer["enabled"] is True
        assert answer["backend"] in ("local", "mcp")
        assert isinstance(answer["version"], str) and answer["version"], answer
        # `vcs` declares a `status` action of its own: its handler answers
        # (the studio has none for it), not the built-in.
        vcs = await client.call_tool("vcs", {"action": "status"})
        assert_tool_error(vcs, "NOT_IMPLEMENTED")
