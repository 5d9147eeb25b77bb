"""Toolsets and progressive discovery through the official MCP Python client
(which speaks 2026-07-28 on stdio): `studio serve --toolset …` serves only
those toolsets, and `--progressive` starts each session from the discovery
tools, growing its list as it enables toolsets and describes tools, with a
`tools/list_changed` event on its `subscriptions/listen` stream each time."""

from __future__ import annotations

from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import anyio
import pytest
from jsonschema import Draft202012Validator
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from conftest import studio_bin

pytestmark = pytest.mark.anyio

DISCOVERY = ["search_tools", "describe_tools", "select_toolsets"]
JOB_TOOLS = ["job_status", "job_list", "job_poll", "job_cancel"]


@asynccontextmanager
async def studio(data_dir: Path, *flags: str) -> AsyncIterator[Client]:
    server = StdioServerParameters(
        command=str(studio_bin()),
        args=["serve", "--stdio", *flags],
        cwd=str(data_dir),
        env={"STUDIO_DATA": str(data_dir / "discovery")},
    )
    async with Client(server, read_timeout_seconds=60) as client:
        yield client


async def listed(client: Client) -> list[str]:
    return [tool.name for tool in (await client.list_tools()).tools]


async def structured(client: Client, tool: str, arguments: dict[str, Any]) -> Any:
    result = await client.call_tool(tool, arguments)
    assert not result.is_error, f"`{tool}` failed: {result.structured_content or result.content}"
    return result.structured_content


async def test_a_served_toolset_limits_what_is_listed_and_called(data_dir: Path) -> None:
    async with studio(data_dir, "--toolset", "math,analysis") as client:
        names = await listed(client)
        assert sorted(names) == sorted(
            [*JOB_TOOLS, "add", "multiply", "beatthis_analyze", "clap_analyze", "orpheus_classify"]
        )
        assert await structured(client, "add", {"a": 2, "b": 40}) == {"result": 42}
        with pytest.raises(MCPError) as refused:
            await client.call_tool("abc_parse", {"abc": "X:1\nK:C\nC"})
        assert refused.value.error.code == INVALID_PARAMS


async def test_a_progressive_session_grows_its_list_and_hears_of_each_change(data_dir: Path) -> None:
    async with studio(data_dir, "--progressive") as client:
        assert await listed(client) == DISCOVERY
        async with client.listen(tools_list_changed=True) as changes:
            assert changes.honored.tools_list_changed

            toolsets = await structured(client, "select_toolsets", {"enable": ["math"]})
            math = next(t for t in toolsets["toolsets"] if t["name"] == "math")
            assert math == {"name": "math", "tools": 2, "enabled": True}
            with anyio.fail_after(10):
                await changes.__anext__()
            assert await listed(client) == [*DISCOVERY, "add", "multiply"]

            found = await structured(client, "search_tools", {"query": "beats downbeats"})
            assert found["tools"][0]["name"] == "beatthis_analyze"
            described = await structured(client, "describe_tools", {"names": ["beatthis_analyze"]})
            (definition,) = described["tools"]
            assert definition["name"] == "beatthis_analyze"
            assert definition["inputSchema"]["type"] == "object"
            # Described in full: the error schema the listing only names.
            meta = definition["_meta"]
            assert meta["toolwright/errors"]["type"] == "BeatthisError"
            assert "AUDIO_TOO_LONG" in meta["toolwright/errors"]["codes"]
            errors = Draft202012Validator(meta["toolwright/errorSchema"])
            assert errors.is_valid({"audio_too_long": {"duration_seconds": 900.0, "max_seconds": 600.0}})
            assert not errors.is_valid({"audio_too_long": {"duration_seconds": 900.0}})
            assert not errors.is_valid({"no_such_error": {}})
            with anyio.fail_after(10):
                await changes.__anext__()
            # An async tool joined the list (in catalogue order), and with
            # it the job tools.
            assert await listed(client) == [*DISCOVERY, *JOB_TOOLS, "beatthis_analyze", "add", "multiply"]

            await structured(client, "select_toolsets", {"disable": ["math"]})
            with anyio.fail_after(10):
                await changes.__anext__()
            assert "add" not in await listed(client)


async def test_a_progressive_server_calls_tools_it_has_not_listed(data_dir: Path) -> None:
    async with studio(data_dir, "--progressive") as client:
        assert await structured(client, "multiply", {"a": 6, "b": 7}) == {"result": 42}


async def test_discovery_tools_answer_wrong_arguments_with_typed_errors(data_dir: Path) -> None:
    async with studio(data_dir, "--progressive") as client:
        unknown = await client.call_tool("select_toolsets", {"enable": ["nope"]})
        assert unknown.is_error
        assert unknown.structured_content is not None
        assert unknown.structured_content["code"] == "UNKNOWN_TOOLSET"
        assert unknown.structured_content["details"]["unknown"] == ["nope"]

        missing = await client.call_tool("describe_tools", {"names": ["no_such_tool"]})
        assert missing.is_error
        assert missing.structured_content is not None
        assert missing.structured_content["code"] == "UNKNOWN_TOOL"

        wrong = await client.call_tool("search_tools", {"query": "midi", "limit": 500})
        assert wrong.is_error
        assert wrong.structured_content is not None
        assert wrong.structured_content["code"] == "INVALID_REQUEST"
