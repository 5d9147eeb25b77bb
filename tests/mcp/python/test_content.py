"""Content blocks through the official MCP Python client: the conformance
server's tools (tests/conformance) declare `@content` response fields, which
arrive as image, audio, resource and text blocks, while the other fields
stay in `structuredContent` (which then matches the tool's outputSchema)."""

from __future__ import annotations

import base64
from typing import Any

import mcp_types as types
import pytest
from mcp import Client


pytestmark = pytest.mark.anyio


async def call(server: Any, tool: str) -> types.CallToolResult:
    async with Client(server, read_timeout_seconds=60) as client:
        result = await client.call_tool(tool, {})
    assert not result.is_error, result.content
    return result


async def test_an_image_field_is_an_image_block(conformance_server: Any) -> None:
    result = await call(conformance_server, "test_image_content")
    (block,) = result.content
    assert isinstance(block, types.ImageContent)
    assert block.mime_type == "image/png"
    assert base64.b64decode(block.data).startswith(b"\x89PNG\r\n\x1a\n")
    assert result.structured_content == {}


async def test_an_audio_field_is_an_audio_block(conformance_server: Any) -> None:
    result = await call(conformance_server, "test_audio_content")
    (block,) = result.content
    assert isinstance(block, types.AudioContent)
    assert block.mime_type == "audio/wav"
    wav = base64.b64decode(block.data)
    assert wav[:4] == b"RIFF" and wav[8:12] == b"WAVE"


async def test_a_resource_field_is_an_embedded_resource(conformance_server: Any) -> None:
    result = await call(conformance_server, "test_embedded_resource")
    (block,) = result.content
    assert isinstance(block, types.EmbeddedResource)
    resource = block.resource
    assert isinstance(resource, types.TextResourceContents)
    assert str(resource.uri) == "test://embedded-resource"
    assert resource.mime_type == "text/plain"
    assert resource.text == "This is an embedded resource content."


async def test_several_fields_are_blocks_in_declaration_order(conformance_server: Any) -> None:
    result = await call(conformance_server, "test_multiple_content_types")
    kinds = [type(block) for block in result.content]
    assert kinds == [types.TextContent, types.ImageContent, types.EmbeddedResource]
    assert isinstance(result.content[0], types.TextContent)
    assert result.content[0].text == "Multiple content types test:"


async def test_a_response_without_content_fields_is_structured_as_before(conformance_server: Any) -> None:
    result = await call(conformance_server, "test_simple_text")
    assert result.structured_content == {"text": "This is a simple text response for testing."}
    (block,) = result.content
    assert isinstance(block, types.TextContent)
    assert block.text == '{"text":"This is a simple text response for testing."}'
