"""HIP-0300's unified envelope, through the official MCP Python client: a
studio serving with `--envelope` answers every call as `{ok, data, error,
meta}`, successes, typed errors, job handles and an action tool's `help`
alike, and every answer validates against the tool's `outputSchema`, on
2025-11-25 and on 2026-07-28."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from mcp_types import Tool

from conftest import studio_bin

pytestmark = pytest.mark.anyio

ZERO_HASH = "0" * 64


@asynccontextmanager
async def studio(data_dir: Path, mode: str) -> AsyncIterator[Client]:
    server = StdioServerParameters(
        command=str(studio_bin()),
        args=["serve", "--stdio", "--envelope"],
        cwd=str(data_dir),
        env={"STUDIO_DATA": str(data_dir / "envelope")},
    )
    async with Client(server, read_timeout_seconds=60, mode=mode) as client:
        yield client


async def enveloped(client: Client, tools: dict[str, Tool], name: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(name, arguments)
    envelope = result.structured_content
    schema = tools[name].output_schema
    assert schema is not None
    Draft202012Validator.check_schema(schema)
    Draft202012Validator(schema).validate(envelope)
    assert isinstance(envelope, dict)
    assert envelope["ok"] is not result.is_error, envelope
    assert envelope["meta"]["tool"] == name
    assert envelope["meta"]["backend"] == "local"
    return envelope


@pytest.mark.parametrize("mode", ["legacy", "auto"])
async def test_every_answer_comes_in_the_envelope_its_schema_describes(data_dir: Path, mode: str) -> None:
    async with studio(data_dir, mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        added = await enveloped(client, tools, "add", {"a": 1, "b": 2})
        assert added["data"] == {"result": 3} and added["error"] is None
        failed = await enveloped(client, tools, "cas_get", {"hash": ZERO_HASH})
        assert failed["data"] is None
        assert failed["error"]["code"] == "NOT_FOUND"
        assert failed["error"]["details"] == {"not_found": {"hash": ZERO_HASH}}
        job = await enveloped(client, tools, "orpheus_generate", {"max_tokens": 8192})
        assert job["data"]["job_id"].startswith("job_")
        paged = await enveloped(client, tools, "cas_list", {"limit": 1})
        assert paged["meta"]["paging"] == paged["data"]["paging"]
        assert "paging" not in added["meta"], "only a paged call's meta has it"
        helped = await enveloped(client, tools, "fs", {"action": "help"})
        assert helped["meta"]["action"] == "help"
        assert helped["data"]["tool"] == "fs"
    # Each call has a trace id of its own.
    ids = {added["meta"]["trace_id"], failed["meta"]["trace_id"], job["meta"]["trace_id"]}
    assert len(ids) == 3
    # The envelope says what the bare schema would not admit.
    assert not Draft202012Validator(tools["add"].output_schema).is_valid({"result": 3})
