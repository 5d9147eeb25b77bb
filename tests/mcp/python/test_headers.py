"""`@header` (SEP-2243) through the official MCP Python client and raw
HTTP: the conformance server's `test_custom_header` declares its `region`
argument mirrored into `Mcp-Param-Region`; the client mirrors it (Base64
for a value that is not plain ASCII), and a request whose header
disagrees with its argument, or leaves it out, is refused with -32020."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
from mcp import Client

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
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "test_custom_header",
            "arguments": {"region": region},
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }
    standard = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": "tools/call",
        "Mcp-Name": "test_custom_header",
    }
    response = httpx.post(url, json=body, headers={**standard, **headers}, timeout=30)
    text = response.text
    # A JSON body, or SSE whose last event's data is the answer.
    if text.startswith("{"):
        answer: dict[str, Any] = response.json()
        return answer
    data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
    parsed: dict[str, Any] = json.loads(data[-1])
    return parsed


def test_a_header_that_disagrees_or_is_missing_is_refused(conformance_url: str) -> None:
    agreed = call(conformance_url, "north", {"Mcp-Param-Region": "north"})
    assert "result" in agreed, agreed
    for headers in ({"Mcp-Param-Region": "south"}, {}):
        refused = call(conformance_url, "north", headers)
        assert refused.get("error", {}).get("code") == -32020, (headers, refused)
