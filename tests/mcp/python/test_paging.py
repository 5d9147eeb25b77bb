"""`@paged` tools through the official MCP Python client, on every
transport (stdio, Streamable HTTP, and the gateway that forwards over
HOOT01): the studio's `cas_list` pages through the content store with
opaque cursors, and a cursor the server did not issue for the same
arguments is refused with `INVALID_CURSOR`."""

from __future__ import annotations

import base64
from typing import Any

import pytest
from jsonschema import Draft202012Validator
from mcp import Client

pytestmark = pytest.mark.anyio


async def store(client: Client, text: str) -> str:
    data = base64.b64encode(text.encode()).decode()
    result = await client.call_tool("cas_store", {"data": data, "mime_type": "text/plain"})
    assert not result.is_error, result
    assert isinstance(result.structured_content, dict)
    return str(result.structured_content["hash"])


async def page(client: Client, arguments: dict[str, Any]) -> dict[str, Any]:
    result = await client.call_tool("cas_list", arguments)
    assert not result.is_error, result.structured_content
    assert isinstance(result.structured_content, dict)
    return result.structured_content


async def test_pages_follow_each_other_to_the_last(connect: Any) -> None:
    async with connect() as client:
        stored = {await store(client, f"paging sample {i}") for i in range(5)}
        tools = {tool.name: tool for tool in (await client.list_tools()).tools}
        schema = tools["cas_list"].input_schema
        assert schema["properties"]["cursor"]["type"] == "string"
        assert "cursor" not in schema.get("required", [])
        output = Draft202012Validator(tools["cas_list"].output_schema)

        seen: list[str] = []
        cursors: list[str] = []
        arguments: dict[str, Any] = {"limit": 2}
        while True:
            answer = await page(client, arguments)
            output.validate(answer)
            assert len(answer["hashes"]) <= 2
            seen.extend(answer["hashes"])
            paging = answer["paging"]
            if not paging["more"]:
                assert "cursor" not in paging, paging
                break
            cursor = paging["cursor"]
            # Opaque: not the handler's position (the page's last hash).
            assert answer["hashes"][-1] not in cursor
            cursors.append(cursor)
            arguments = {"limit": 2, "cursor": cursor}
        assert stored <= set(seen), "every stored hash is on some page"
        assert seen == sorted(set(seen)), "in order, each once"
        assert len(cursors) >= 2


async def test_a_cursor_continues_only_the_call_it_was_issued_for(connect: Any) -> None:
    async with connect() as client:
        for i in range(3):
            await store(client, f"cursor sample {i}")
        first = await page(client, {"limit": 1})
        cursor = first["paging"]["cursor"]
        second = await page(client, {"limit": 1, "cursor": cursor})
        assert second["hashes"][0] > first["hashes"][0]

        tampered = cursor[:-2] + ("AA" if cursor[-2:] != "AA" else "BA")
        for arguments in (
            {"limit": 2, "cursor": cursor},  # other arguments
            {"limit": 1, "prefix": "0", "cursor": cursor},
            {"limit": 1, "cursor": tampered},
            {"limit": 1, "cursor": first["hashes"][0]},  # the bare position
            {"limit": 1, "cursor": ""},
        ):
            result = await client.call_tool("cas_list", arguments)
            assert result.is_error, (arguments, result.structured_content)
            error = result.structured_content
            assert isinstance(error, dict) and error["code"] == "INVALID_CURSOR", error
            assert "start again" in error["message"], error
