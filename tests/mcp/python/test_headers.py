"""`@header` (SEP-2243) through the official MCP Python client and raw
HTTP: the conformance server's `test_custom_header` declares its `region`
argument mirrored into `Mcp-Param-Region`; the client mirrors it (Base64
for a value that is not plain ASCII), and a request whose header
disagrees with its argument, or leaves it out, is refused with -32020."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client

from conftest import post_2026

pytestmark = pytest.mark.anyio

REGION = "eu west ü"


@pytest.mark.parametrize("mode", ["auto", "legacy"])
async def test_the_client_mirrors_the_argument_and_the_call_goes_through(conformance_url: str, mode: str) -> None:
    async with Client(conformance_url, mode=mode) as client:
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        region = tools["test_custom_header"].input_schema["properties"]["region"]
        assert region["x-mcp-header"] == "Region"
        result = await client.call_tool("test_custom_header", {"region": REGION})
        assert not result.is_error, result
        assert result.structured_content == {"text": f"Region: {REGION}"}


def call(url: str, region: str, headers: dict[str, str]) -> dict[str, Any]:
    params = {"name": "test_custom_header", "arguments": {"region": region}}
    return post_2026(url, "tools/call", params, headers={"Mcp-Name": "test_custom_header", **headers})


def test_a_header_that_disagrees_or_is_missing_is_refused(conformance_url: str) -> None:
    agreed = call(conformance_url, "north", {"Mcp-Param-Region": "north"})
    assert "result" in agreed, agreed
    for headers in ({"Mcp-Param-Region": "south"}, {}):
        refused = call(conformance_url, "north", headers)
        assert refused.get("error", {}).get("code") == -32020, (headers, refused)
