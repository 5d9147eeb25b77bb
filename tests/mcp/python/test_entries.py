"""The studio's resources, prompts and completions through the official MCP
Python client, over stdio, Streamable HTTP and the gateway: the listings,
stored objects read back as `cas://objects/{hash}`, the `cas://index` that
tells its followers when new content is stored (a `subscriptions/listen`
stream on 2026-07-28, `resources/subscribe` on 2025-11-25; through the
gateway the update crosses IOPub from the backend), the two prompts, and
completion of their arguments and of the template's `hash`."""

from __future__ import annotations

import base64
import hashlib
import itertools
import json
import uuid
from collections.abc import Awaitable
from typing import Any

import anyio
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.subscriptions import ResourceUpdated
from mcp.shared.exceptions import MCPError
from mcp_types import INVALID_PARAMS

from conftest import ROOT

pytestmark = pytest.mark.anyio

INDEX = "cas://index"
TEMPLATE = "cas://objects/{hash}"
COMPOSE = types.PromptReference(type="ref/prompt", name="abc_compose")
DESCRIBE = types.PromptReference(type="ref/prompt", name="cas_describe")
OBJECTS = types.ResourceTemplateReference(type="ref/resource", uri=TEMPLATE)
# A hash nothing stores (its content would have to hash to zeros).
ABSENT = "0" * 64


def arguments_schema(name: str) -> dict[str, Any]:
    """The published schema of a prompt's arguments."""
    schema: dict[str, Any] = json.loads((ROOT / "generated/schemas/types" / f"{name}.json").read_text())
    return schema


def new_content(label: str) -> bytes:
    """Bytes no store holds yet, whose hash begins with `00`: `cas://index`
    shows only the first 100 hashes, in order, and in a store of more (a
    server named by `$MCP_HTTP_URL` may hold any number) an ordinary new
    hash could sort past them."""
    salt = uuid.uuid4().hex
    for n in itertools.count():
        data = f"{label} {salt} {n}\n".encode()
        if hashlib.sha256(data).hexdigest().startswith("00"):
            return data
    raise AssertionError("unreachable")


async def store(client: Client, data: bytes, mime_type: str = "text/plain") -> str:
    result = await client.call_tool("cas_store", {"data": base64.b64encode(data).decode(), "mime_type": mime_type})
    assert not result.is_error, result.content
    stored = result.structured_content
    assert stored is not None
    assert stored["already_present"] is False, stored
    assert stored["hash"] == hashlib.sha256(data).hexdigest(), stored
    return str(stored["hash"])


async def read_index(client: Client) -> dict[str, Any]:
    result = await client.read_resource(INDEX, cache_mode="bypass")
    (contents,) = result.contents
    assert isinstance(contents, types.TextResourceContents), contents
    assert contents.uri == INDEX and contents.mime_type == "application/json", contents
    index: dict[str, Any] = json.loads(contents.text)
    hashes = index["hashes"]
    assert hashes == sorted(hashes) and len(hashes) <= 100, index
    assert index["total"] >= len(hashes), index
    return index


async def refused(attempt: Awaitable[object]) -> types.ErrorData:
    """The JSON-RPC error an awaitable fails with: invalid params."""
    with pytest.raises(MCPError) as raised:
        await attempt
    assert raised.value.error.code == INVALID_PARAMS, raised.value.error
    return raised.value.error


async def test_the_listings_show_the_index_the_object_template_and_the_prompts(connect: Any) -> None:
    async with connect() as client:
        capabilities = client.server_capabilities
        assert capabilities.resources is not None and capabilities.resources.subscribe
        assert capabilities.prompts is not None and capabilities.completions is not None
        resources: dict[str, types.Resource] = {}
        templates: dict[str, types.ResourceTemplate] = {}
        prompts: dict[str, types.Prompt] = {}
        cursor = None
        while True:
            page = await client.list_resources(cursor=cursor)
            resources |= {resource.name: resource for resource in page.resources}
            if not (cursor := page.next_cursor):
                break
        while True:
            templates_page = await client.list_resource_templates(cursor=cursor)
            templates |= {template.name: template for template in templates_page.resource_templates}
            if not (cursor := templates_page.next_cursor):
                break
        while True:
            prompts_page = await client.list_prompts(cursor=cursor)
            prompts |= {prompt.name: prompt for prompt in prompts_page.prompts}
            if not (cursor := prompts_page.next_cursor):
                break

    index = resources["cas_index"]
    assert (index.uri, index.mime_type, index.title) == (INDEX, "application/json", "Stored objects")
    assert index.annotations is not None and index.annotations.audience == ["assistant"]
    objects = templates["cas_object"]
    assert (objects.uri_template, objects.mime_type) == (TEMPLATE, "application/octet-stream")
    for entry in (index, objects, prompts["cas_describe"]):
        assert (entry.meta or {}).get("toolwright/scopes") == ["cas:read"], entry

    # Each prompt lists the arguments of its published schema, required as
    # the schema says.
    for prompt, schema_name in [("abc_compose", "AbcComposeArguments"), ("cas_describe", "CasDescribeArguments")]:
        schema = arguments_schema(schema_name)
        listed = {argument.name: bool(argument.required) for argument in prompts[prompt].arguments or []}
        assert listed == {name: name in schema.get("required", []) for name in schema["properties"]}, listed
    assert [argument.name for argument in prompts["abc_compose"].arguments or []] == [
        "tonic",
        "mode",
        "mood",
        "length",
    ]
    assert all(argument.description for argument in prompts["cas_describe"].arguments or [])


async def test_a_stored_object_reads_back_in_its_mime_type_and_the_index_lists_it(connect: Any) -> None:
    text = new_content("read back")
    midi = b"MThd\x00\x00\x00\x06\x00\x00\x00\x01\x00\x60" + uuid.uuid4().bytes
    async with connect() as client:
        for data, mime_type in [(text, "text/plain"), (midi, "audio/midi")]:
            hash = await store(client, data, mime_type)
            result = await client.read_resource(f"cas://objects/{hash}")
            (contents,) = result.contents
            # Bytes, whatever their type: a blob, in the type they were stored with.
            assert isinstance(contents, types.BlobResourceContents), contents
            assert contents.uri == f"cas://objects/{hash}"
            assert contents.mime_type == mime_type
            assert base64.b64decode(contents.blob) == data
        index = await read_index(client)
    assert hashlib.sha256(text).hexdigest() in index["hashes"], index


async def test_reading_what_is_not_there_is_invalid_params_naming_the_uri(connect: Any) -> None:
    async with connect() as client:
        for uri in ["cas://nope", "cas://objects/", "file:///etc/passwd"]:
            error = await refused(client.read_resource(uri))
            assert error.data == {"uri": uri}, error
        # A hash of the right shape that nothing is stored under, and one of
        # the wrong shape: the template matches, the handler refuses.
        missing = await refused(client.read_resource(f"cas://objects/{ABSENT}"))
        assert missing.data is not None and missing.data["uri"] == f"cas://objects/{ABSENT}", missing
        assert missing.data["code"] == "NOT_FOUND", missing
        malformed = await refused(client.read_resource("cas://objects/ABC"))
        assert malformed.data is not None and malformed.data["uri"] == "cas://objects/ABC", malformed
        assert malformed.data["details"]["field"] == "hash", malformed


async def test_a_listener_hears_that_the_index_changed(connect: Any) -> None:
    # This SDK speaks 2026-07-28 on every transport here: the subscription
    # is a `subscriptions/listen` stream naming the URI.
    async with connect() as client:
        assert client.protocol_version == "2026-07-28"
        async with client.listen(resource_subscriptions=[INDEX, f"cas://objects/{ABSENT}"]) as changes:
            # Only a @subscribable resource is followed.
            assert changes.honored.resource_subscriptions == [INDEX], changes.honored
            hash = await store(client, new_content("listened"))
            with anyio.fail_after(10):
                event = await changes.__anext__()
            assert event == ResourceUpdated(uri=INDEX)
        assert hash in (await read_index(client))["hashes"]


@pytest.mark.filterwarnings("ignore:resources/(un)?subscribe is removed")
async def test_a_2025_11_25_session_subscribes_to_the_index(connect: Any) -> None:
    heard: list[str] = []
    updated = anyio.Event()

    async def on_message(message: Any) -> None:
        if isinstance(message, types.ResourceUpdatedNotification):
            heard.append(message.params.uri)
            updated.set()

    async with connect(mode="legacy", message_handler=on_message) as client:
        assert client.protocol_version == "2025-11-25"
        await client.subscribe_resource(INDEX)
        # An object cannot be subscribed to: only @subscribable resources.
        error = await refused(client.subscribe_resource(f"cas://objects/{ABSENT}"))
        assert error.data == {"uri": f"cas://objects/{ABSENT}"}, error

        hash = await store(client, new_content("subscribed"))
        with anyio.fail_after(10):
            await updated.wait()
        assert set(heard) == {INDEX}, heard
        assert hash in (await read_index(client))["hashes"]
        await client.unsubscribe_resource(INDEX)


async def test_abc_compose_asks_for_the_tune_its_arguments_describe(connect: Any) -> None:
    async with connect() as client:
        chosen = await client.get_prompt(
            "abc_compose", {"tonic": "G", "mode": "dorian", "mood": "a playful jig", "length": "short"}
        )
        defaults = await client.get_prompt("abc_compose", {})
        bad_mode = await refused(client.get_prompt("abc_compose", {"mode": "ionian"}))
        bad_tonic = await refused(client.get_prompt("abc_compose", {"tonic": "H"}))
        unknown = await refused(client.get_prompt("abc_decompose", {}))

    assert chosen.description == "a playful jig in G dorian"
    (message,) = chosen.messages
    assert message.role == "user"
    assert isinstance(message.content, types.TextContent)
    assert message.content.text.startswith("Write a playful jig in G dorian, 8 bars long, in ABC notation.")
    # Defaults from the schema: C, major, medium (16 bars).
    (message,) = defaults.messages
    assert isinstance(message.content, types.TextContent)
    assert message.content.text.startswith("Write a tune in C major, 16 bars long")

    assert bad_mode.data is not None and bad_mode.data["name"] == "abc_compose", bad_mode
    assert "`ionian`" in bad_mode.message and "`dorian`" in bad_mode.message, bad_mode
    assert bad_tonic.data is not None and bad_tonic.data["name"] == "abc_compose", bad_tonic
    assert unknown.data == {"name": "abc_decompose"}, unknown


async def test_cas_describe_embeds_the_stored_object(connect: Any) -> None:
    text = new_content("described")
    binary = b"\x00\x01\x02\xff" + uuid.uuid4().bytes
    async with connect() as client:
        text_hash = await store(client, text)
        binary_hash = await store(client, binary, "application/octet-stream")
        focused = await client.get_prompt("cas_describe", {"hash": text_hash, "focus": "its length"})
        plain = await client.get_prompt("cas_describe", {"hash": binary_hash})
        missing = await refused(client.get_prompt("cas_describe", {}))
        absent = await refused(client.get_prompt("cas_describe", {"hash": ABSENT}))

    assert focused.description == f"Describe cas://objects/{text_hash}"
    attached, ask = focused.messages
    assert attached.role == "user" and isinstance(attached.content, types.EmbeddedResource)
    # Text is attached as text...
    resource = attached.content.resource
    assert isinstance(resource, types.TextResourceContents), resource
    assert (resource.uri, resource.mime_type) == (f"cas://objects/{text_hash}", "text/plain")
    assert resource.text == text.decode()
    assert isinstance(ask.content, types.TextContent) and "its length" in ask.content.text
    # ...and other bytes as a blob.
    attached = plain.messages[0]
    assert isinstance(attached.content, types.EmbeddedResource)
    blob = attached.content.resource
    assert isinstance(blob, types.BlobResourceContents), blob
    assert blob.mime_type == "application/octet-stream"
    assert base64.b64decode(blob.blob) == binary

    # A required argument missing, and an object that is not there.
    assert missing.data is not None and missing.data["name"] == "cas_describe", missing
    assert "`hash`" in missing.message, missing
    assert absent.data is not None and absent.data["name"] == "cas_describe", absent
    assert absent.data["code"] == "NOT_FOUND", absent


async def test_arguments_complete(connect: Any) -> None:
    schema = arguments_schema("AbcComposeArguments")["$defs"]
    modes: list[str] = schema["AbcMode"]["enum"]
    lengths: list[str] = schema["TuneLength"]["enum"]

    async def values(
        client: Client, ref: types.PromptReference | types.ResourceTemplateReference, name: str, typed: str
    ) -> list[str]:
        result = await client.complete(ref, {"name": name, "value": typed})
        assert result.completion.has_more is not True, result
        return result.completion.values

    async with connect() as client:
        # The server's list of moods, matched by any word.
        assert await values(client, COMPOSE, "mood", "sl") == ["a slow lament"]
        assert await values(client, COMPOSE, "mood", "Wist") == ["a wistful air"]
        assert len(await values(client, COMPOSE, "mood", "")) == 8
        # Enums complete with their values, in the schema's order.
        assert await values(client, COMPOSE, "mode", "") == modes
        assert await values(client, COMPOSE, "mode", "m") == [mode for mode in modes if mode.startswith("m")]
        assert await values(client, COMPOSE, "length", "") == lengths

        # Hashes of stored objects, by prefix, for the template and the prompt.
        hash = await store(client, new_content("completed"))
        for ref in (OBJECTS, DESCRIBE):
            assert await values(client, ref, "hash", hash[:12]) == [hash]
            assert await values(client, ref, "hash", hash[:12].upper()) == []
        assert hash in await values(client, OBJECTS, "hash", hash[:2])

        nothing = types.PromptReference(type="ref/prompt", name="nope")
        unknown = await refused(client.complete(nothing, {"name": "x", "value": ""}))
        assert unknown.data == {"ref": "nope"}, unknown
