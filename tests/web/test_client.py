"""The generated Python async client against a running studio (tests/web/run
starts it and sets TOOLWRIGHT_WEB_URL): typed calls, the tool document, and
the live events."""

import asyncio
import json
import os

import httpx
import pytest
from toolwright_catalogue import models, registry, tools
from toolwright_catalogue.metadata import (
    CallErrorEvent,
    PromptMetadata,
    ResourceMetadata,
    ToolCompleteEvent,
    ToolStartEvent,
)
from toolwright_catalogue.web import AsyncToolClient, ServerError, ToolCallError

BASE = os.environ["TOOLWRIGHT_WEB_URL"]


def test_calls_answer_typed_responses_and_errors() -> None:
    async def run() -> None:
        async with AsyncToolClient(BASE) as client:
            answer = await client.call(tools.AddCall(args=models.MathOperands(a=2, b=40)))
            assert isinstance(answer, tools.AddResult)
            assert answer.data.result == 42
            with pytest.raises(ToolCallError) as failed:
                await client.call(tools.AddCall(args=models.MathOperands(a=2**62, b=2**62)))
            assert failed.value.code == "OVERFLOW"
            with pytest.raises(ToolCallError) as failed:
                await client.call(tools.PingCall())
            assert failed.value.code == "NOT_IMPLEMENTED"

    asyncio.run(run())


def test_the_document_is_the_generated_registry() -> None:
    async def run() -> None:
        async with AsyncToolClient(BASE) as client:
            served = await client.tools()
        assert [t.name for t in served] == [t.name for t in registry.TOOLS]
        for tool, generated in zip(served, registry.TOOLS, strict=True):
            # The served entries add the MCP schemas; the rest is the same.
            assert tool.input_schema is not None
            # `served` is the server's to say; the registry does not.
            assert tool.served is not None and generated.served is None
            schemas = {"input_schema": None, "output_schema": None, "error_schema": None}
            ignored = {**schemas, "actions": (), "served": None}
            assert tool.model_copy(update=ignored) == generated.model_copy(update={"actions": ()})
            assert [a.name for a in tool.actions] == [a.name for a in generated.actions]
        add = next(t for t in served if t.name == "add")
        # The studio serves add, and has no handler for ping.
        assert add.served is True
        assert next(t for t in served if t.name == "ping").served is False
        # The schema of the typed errors' `details`: `add` has one, `overflow`.
        assert add.error_schema is not None and len(add.error_schema["oneOf"]) == 1
        create = next(t for t in served if t.name == "artifact_create")
        metadata = next(p for p in create.parameters if p.name == "metadata")
        # A `json` parameter has no JSON Schema type: any value.
        assert (metadata.idl_type, metadata.type) == ("json?", None)

    asyncio.run(run())


def test_the_documents_resources_and_prompts_are_the_generated_ones() -> None:
    async def run() -> None:
        async with httpx.AsyncClient() as client:
            document = (await client.get(f"{BASE}/api/tools")).json()
        resources = [ResourceMetadata.model_validate(r) for r in document["resources"]]
        prompts = [PromptMetadata.model_validate(p) for p in document["prompts"]]
        assert [r.model_copy(update={"input_schema": None}) for r in resources] == list(
            registry.RESOURCES
        )
        assert [p.model_copy(update={"input_schema": None}) for p in prompts] == list(
            registry.PROMPTS
        )
        assert resources[0].uri == "cas://objects/{hash}"
        assert resources[0].input_schema is not None

    asyncio.run(run())


def test_a_wrong_token_is_a_server_error() -> None:
    async def run() -> None:
        # The studio serves without a token, so any token passes; an unknown
        # route is what it refuses here.
        async with AsyncToolClient(BASE + "/nowhere") as client:
            with pytest.raises(ServerError):
                await client.tools()

    asyncio.run(run())


def test_events_follow_calls_filtered_by_tool() -> None:
    async def run() -> tuple[ToolStartEvent, ToolCompleteEvent]:
        async with AsyncToolClient(BASE) as client:
            start: ToolStartEvent | None = None

            async def follow() -> tuple[ToolStartEvent, ToolCompleteEvent]:
                nonlocal start
                async for event in client.events(tools=["multiply"]):
                    if isinstance(event, ToolStartEvent):
                        start = event
                    elif start is not None and event.call_id == start.call_id:
                        return start, event
                raise AssertionError("the stream ended")

            following = asyncio.create_task(follow())
            # Calls made before the subscription is in place are not seen:
            # call until one is.
            while not following.done():
                await client.call(tools.AddCall(args=models.MathOperands(a=1, b=1)))
                await client.call(tools.MultiplyCall(args=models.MathOperands(a=3, b=5)))
                await asyncio.sleep(0.05)
            return await following

    start, end = asyncio.run(asyncio.wait_for(run(), 20))
    assert start.tool_name == end.tool_name == "multiply"
    assert json.loads(start.tool_input) == {"a": 3, "b": 5}
    assert json.loads(end.tool_result) == {"result": 15}
    assert end.success is True and end.duration_ms is not None


def test_events_report_a_call_that_failed_before_it_started() -> None:
    async def run() -> CallErrorEvent:
        async with AsyncToolClient(BASE) as client, httpx.AsyncClient() as raw:

            async def follow() -> CallErrorEvent:
                async for event in client.events(tools=["ad"]):
                    if isinstance(event, CallErrorEvent):
                        return event
                raise AssertionError("the stream ended")

            following = asyncio.create_task(follow())
            while not following.done():
                await raw.post(f"{BASE}/api/tools/ad", json={})
                await asyncio.sleep(0.05)
            return await following

    error = asyncio.run(asyncio.wait_for(run(), 20))
    assert (error.type, error.tool_name, error.code) == ("error", "ad", "UNKNOWN_TOOL")
    assert "did you mean `add`" in error.message
