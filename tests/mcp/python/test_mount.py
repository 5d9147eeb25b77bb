"""A studio that mounts other studios, through the official MCP Python
client: studio `b` over Streamable HTTP and studio `c` as a command on
stdio, served beside the mounting studio's own tools as `b_…` and `c_…` —
by `studio serve` and by `studio gateway` in front of a HOOT01 backend.
Their calls are proxied, their resources and prompts too (with completion
of their arguments, and updates of a mounted resource listened to), their
events carry `source: "mcp"`; when `b` stops, its tools answer `UNAVAILABLE` and
leave the list, and when it is back on its address they are listed and
answer again."""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import mcp_types as types
import pytest
from mcp import Client
from mcp.client.subscriptions import ResourceUpdated

from conftest import free_port, studio_bin, wait_until_listening

pytestmark = pytest.mark.anyio

WAIT = 20.0


def start(args: list[str], data: Path, port: int | None = None) -> subprocess.Popen[bytes]:
    process = subprocess.Popen(
        [str(studio_bin()), *args],
        cwd=data.parent,
        env=os.environ | {"STUDIO_DATA": str(data)},
        stdin=subprocess.DEVNULL,
    )
    if port is not None:
        wait_until_listening(process, port)
    return process


def stop(process: subprocess.Popen[bytes]) -> None:
    process.terminate()
    try:
        process.wait(timeout=15)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


class Mounted:
    """Studio `b` on HTTP, which the test stops and starts again."""

    def __init__(self, data: Path) -> None:
        self.data = data
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> None:
        self.process = start(["serve", "--http", f"127.0.0.1:{self.port}"], self.data, self.port)

    def stop(self) -> None:
        if self.process is not None:
            stop(self.process)
            self.process = None


@pytest.fixture(params=["serve", "gateway"])
def mounting(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[tuple[str, Mounted]]:
    """The mounting studio's base URL, and studio `b`."""
    b = Mounted(tmp_path / "b")
    b.start()
    mounts = ["--mount", f"b={b.url}", "--mount", f"c={studio_bin()} serve --stdio"]
    port = free_port()
    processes = []
    if request.param == "serve":
        processes.append(start(["serve", "--http", f"127.0.0.1:{port}", *mounts], tmp_path / "a", port))
    else:
        hoot = f"tcp://127.0.0.1:{free_port()}"
        processes.append(start(["serve", "--hoot", hoot], tmp_path / "backend"))
        gateway = ["gateway", "--backend", hoot, "--http", f"127.0.0.1:{port}", *mounts]
        processes.append(start(gateway, tmp_path / "gateway", port))
    try:
        yield f"http://127.0.0.1:{port}", b
    finally:
        for process in reversed(processes):
            stop(process)
        b.stop()


async def tool_names(client: Client) -> set[str]:
    return {tool.name for tool in (await client.list_tools()).tools}


async def until_listed(client: Client, names: set[str], listed: bool = True) -> None:
    async def poll() -> None:
        while True:
            present = await tool_names(client)
            if (names <= present) if listed else not (names & present):
                return
            await asyncio.sleep(0.05)

    await asyncio.wait_for(poll(), WAIT)


async def add(client: Client, name: str) -> Any:
    return await client.call_tool(name, {"a": 2, "b": 3})


async def test_mounted_studios_are_served_beside_the_studio(mounting: tuple[str, Mounted]) -> None:
    base, _ = mounting
    async with Client(f"{base}/mcp", read_timeout_seconds=60) as client:
        await until_listed(client, {"b_add", "c_add", "b_cas_store", "c_job_status"})
        names = await tool_names(client)
        assert "add" in names and "b_b_add" not in names

        for name in ("b_add", "c_add"):
            result = await add(client, name)
            assert not result.is_error, result.content
            assert result.structured_content == {"result": 5}

        # A mounted tool's typed error passes through as the tool error it is.
        error = await client.call_tool("b_add", {"a": 2**63 - 1, "b": 1})
        assert error.is_error and error.structured_content is not None
        assert error.structured_content["code"] == "OVERFLOW", error.structured_content

        # Resources and prompts, under the mount's prefix.
        templates = {t.uri_template for t in (await client.list_resource_templates()).resource_templates}
        assert {"cas://objects/{hash}", "cas://b/objects/{hash}", "cas://c/objects/{hash}"} <= templates
        index = await client.read_resource("cas://b/index")
        assert index.contents[0].uri == "cas://b/index"
        assert "hashes" in json.loads(index.contents[0].text)  # type: ignore[union-attr]
        prompt = await client.get_prompt("c_abc_compose", {"tonic": "G"})
        assert prompt.messages, prompt


async def test_mounted_calls_reach_the_events_with_their_source(mounting: tuple[str, Mounted]) -> None:
    base, _ = mounting
    async with httpx.AsyncClient(base_url=base, timeout=WAIT) as web:
        document = (await web.get("/api/tools")).json()
        sources = {tool["name"]: tool["source"] for tool in document["tools"]}
        # The gateway's own tools run on its backend: they are `mcp` too.
        assert sources.get("add") in {"local", "mcp"}
        if sources.get("b_add") is None:
            # The document follows the mounts: wait for `b` to be listed.
            async def listed() -> None:
                while "b_add" not in {t["name"] for t in (await web.get("/api/tools")).json()["tools"]}:
                    await asyncio.sleep(0.05)

            await asyncio.wait_for(listed(), WAIT)
            document = (await web.get("/api/tools")).json()
        entry = next(tool for tool in document["tools"] if tool["name"] == "b_add")
        assert entry["source"] == "mcp" and entry["mount"] == "b"
        assert [p["name"] for p in entry["parameters"]] == ["a", "b"]
        # Its resources too, listed and read at their served URIs.
        listed = next(r for r in document["resources"] if r["uri"] == "cas://b/index")
        assert listed["source"] == "mcp" and listed["mount"] == "b"
        index = await web.get("/api/resources", params={"uri": "cas://b/index"})
        assert index.status_code == 200, index.text
        assert index.headers["content-type"].startswith("application/json"), index.headers
        assert "hashes" in index.json()

        seen: list[dict[str, Any]] = []

        async def follow() -> None:
            async with web.stream("GET", "/api/events", params={"tool": "b_add"}) as stream:
                async for line in stream.aiter_lines():
                    if line.startswith("data:"):
                        seen.append(json.loads(line[5:]))
                        if seen[-1]["type"] == "tool_complete":
                            return

        following = asyncio.create_task(follow())
        # Calls made before the subscription is in place are not seen:
        # call until one is.
        while not following.done():
            answer = await web.post("/api/tools/b_add", json={"a": 2, "b": 3})
            assert answer.status_code == 200 and answer.json() == {"success": {"result": 5}}, answer.text
            await asyncio.sleep(0.05)
        await following
    start, end = seen[-2], seen[-1]
    assert start["type"] == "tool_start" and start["source"] == "mcp"
    assert json.loads(start["tool_input"]) == {"a": 2, "b": 3}
    assert end["source"] == "mcp" and end["success"] is True
    assert json.loads(end["tool_result"]) == {"result": 5}


async def test_a_mounted_studio_that_stops_is_unavailable_until_it_is_back(mounting: tuple[str, Mounted]) -> None:
    base, b = mounting
    async with Client(f"{base}/mcp", read_timeout_seconds=60) as client:
        await until_listed(client, {"b_add", "c_add"})
        b.stop()

        async def unavailable() -> dict[str, Any]:
            while True:
                result = await add(client, "b_add")
                if result.is_error:
                    assert result.structured_content is not None
                    return result.structured_content
                await asyncio.sleep(0.05)

        error = await asyncio.wait_for(unavailable(), WAIT)
        assert error["code"] == "UNAVAILABLE", error
        assert "`b`" in error["message"], error
        await until_listed(client, {"b_add"}, listed=False)
        # The other mount is not affected.
        assert (await add(client, "c_add")).structured_content == {"result": 5}
        async with httpx.AsyncClient(base_url=base, timeout=WAIT) as web:
            answer = await web.post("/api/tools/b_add", json={"a": 2, "b": 3})
            assert answer.status_code == 503, answer.text
            assert answer.json()["error"]["code"] == "UNAVAILABLE"

        b.start()
        await until_listed(client, {"b_add"})
        result = await add(client, "b_add")
        assert result.structured_content == {"result": 5}, result


async def test_a_mounted_prompts_arguments_complete(mounting: tuple[str, Mounted]) -> None:
    base, _ = mounting
    async with Client(f"{base}/mcp", read_timeout_seconds=60) as client:
        await until_listed(client, {"c_add"})
        compose = types.PromptReference(type="ref/prompt", name="c_abc_compose")
        # The mounted studio's own list of moods, as its own prompt gives it.
        result = await client.complete(compose, {"name": "mood", "value": "sl"})
        assert result.completion.values == ["a slow lament"], result


async def test_a_listener_hears_a_mounted_resource_change(mounting: tuple[str, Mounted]) -> None:
    base, _ = mounting
    async with Client(f"{base}/mcp", read_timeout_seconds=60) as client:
        await until_listed(client, {"b_cas_store"})
        async with client.listen(resource_subscriptions=["cas://b/index"]) as changes:
            assert changes.honored.resource_subscriptions == ["cas://b/index"], changes.honored

            # The subscription reaches `b` a moment after the stream is
            # acknowledged: store new content until its index's update is
            # heard, under the mount's prefix.
            async def heard() -> Any:
                while True:
                    data = base64.b64encode(f"mounted {uuid.uuid4()}".encode()).decode()
                    stored = await client.call_tool("b_cas_store", {"data": data, "mime_type": "text/plain"})
                    assert not stored.is_error, stored.content
                    with anyio.move_on_after(0.5):
                        return await changes.__anext__()

            event = await asyncio.wait_for(heard(), WAIT)
            assert event == ResourceUpdated(uri="cas://b/index"), event
