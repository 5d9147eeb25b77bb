"""Jobs, workers and gateways of one deployment sharing Redis: a job
started through one gateway is read, polled and cancelled through the
other; job_list sees every worker's jobs; a killed worker's job is
interrupted for everyone; losing a worker or Redis fails no call that did
not need them, and everything resumes when Redis is back."""

from __future__ import annotations

import asyncio
import json
import os
import signal
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any

import httpx2
import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client

from conftest import LEASE_MS, Deployment, connect, free_port, launch, structured, studio_bin, tool_error

pytestmark = pytest.mark.anyio

# Long enough to still run when the test acts on it: 8 variations of 16
# steps of 100 ms.
LONG = {"max_tokens": 8192, "num_variations": 8, "seed": 7}
SHORT = {"max_tokens": 128, "num_variations": 1, "seed": 7}


async def start(client: Any, arguments: dict[str, Any]) -> str:
    handle = structured(await client.call_tool("orpheus_generate", arguments))
    assert handle["expected_timing"] == "async_long", handle
    return str(handle["job_id"])


async def status(client: Any, job_id: str) -> dict[str, Any]:
    return dict(structured(await client.call_tool("job_status", {"job_id": job_id})))


async def test_a_job_started_through_one_gateway_is_followed_through_the_other(deployment: Deployment) -> None:
    a, b = deployment.gateways
    async with connect(a) as through_a, connect(b) as through_b:
        job_id = await start(through_a, LONG)
        seen = await status(through_b, job_id)
        assert seen["tool_name"] == "orpheus_generate", seen
        assert seen["state"] in ("pending", "running"), seen

        polled = structured(await through_b.call_tool("job_poll", {"job_ids": [job_id], "timeout_ms": 300}))
        assert polled["pending"] == [job_id] and polled["timed_out"], polled

        cancelled = structured(await through_b.call_tool("job_cancel", {"job_id": job_id}))
        assert cancelled == {"job_id": job_id, "cancelled": True, "state": "cancelled"}, cancelled
        assert (await status(through_a, job_id))["state"] == "cancelled"

        # Another principal sees none of it, through either gateway.
        async with connect(a, principal="mallory") as other:
            error = tool_error(await other.call_tool("job_status", {"job_id": job_id}))
            assert error["code"] == "NOT_FOUND", error

        # A short job finishes, and its result is read through the other
        # gateway than the one it started through.
        done = await start(through_b, SHORT)
        polled = structured(
            await through_a.call_tool("job_poll", {"job_ids": [done], "timeout_ms": 30_000, "mode": "all"})
        )
        assert polled["completed"] == [done], polled
        result = (await status(through_a, done))["result"]
        assert len(result["output_hashes"]) == 1, result


async def test_job_list_through_either_gateway_shows_every_workers_jobs(deployment: Deployment) -> None:
    a, b = deployment.gateways
    async with connect(a) as through_a, connect(b) as through_b:
        started = [await start(through_a, LONG) for _ in range(3)]
        started += [await start(through_b, LONG) for _ in range(3)]
        workers = {deployment.worker_of(job_id).pid for job_id in started}
        assert len(workers) == 3, f"six jobs ran on {len(workers)} of three workers"
        for client in (through_a, through_b):
            listed = structured(await client.call_tool("job_list", {"tool_name": "orpheus_generate"}))
            assert sorted(job["job_id"] for job in listed["jobs"]) == sorted(started), listed
            assert listed["by_state"]["pending"] + listed["by_state"]["running"] == 6, listed
        for job_id in started:
            structured(await through_b.call_tool("job_cancel", {"job_id": job_id}))


async def test_a_killed_workers_job_is_interrupted_through_both_gateways(deployment: Deployment) -> None:
    a, b = deployment.gateways
    async with connect(a) as through_a, connect(b) as through_b:
        job_id = await start(through_a, LONG)
        assert (await status(through_a, job_id))["state"] in ("pending", "running")
        deployment.worker_of(job_id).send_signal(signal.SIGKILL)
        killed = time.monotonic()
        pending = {"a": through_a, "b": through_b}
        while pending:
            for name, client in list(pending.items()):
                seen = await status(client, job_id)
                if seen["state"] != "failed":
                    continue
                assert seen["error_code"] == "INTERRUPTED", seen
                del pending[name]
            waited = time.monotonic() - killed
            assert waited < 2 * LEASE_MS / 1000, f"still not interrupted after {waited:.2f} s: {sorted(pending)}"
            await asyncio.sleep(0.05)


async def test_no_call_fails_while_a_live_worker_remains(deployment: Deployment) -> None:
    a, _ = deployment.gateways
    async with connect(a) as client:
        failures = []
        calls = 0
        victim = deployment.workers[0]
        # At least 3 s of calls (past the dead worker's heartbeat lapse)
        # and at least 100 of them, however slowly a busy host answers.
        started = time.monotonic()
        while calls <= 100 or time.monotonic() - started < 3.0:
            assert time.monotonic() - started < 60, f"only {calls} calls in 60 s"
            result = await client.call_tool("add", {"a": calls, "b": 1})
            if result.is_error:
                failures.append(result.structured_content)
            calls += 1
            if calls == 30:
                victim.send_signal(signal.SIGKILL)
            await asyncio.sleep(1 / 60)
        assert failures == [], f"{len(failures)} of {calls} calls failed: {failures[:3]}"


async def test_without_redis_the_store_is_a_typed_error_and_it_comes_back(deployment: Deployment) -> None:
    a, b = deployment.gateways
    async with connect(a) as through_a, connect(b) as through_b:
        before = await start(through_a, SHORT)
        structured(
            await through_a.call_tool("job_poll", {"job_ids": [before], "timeout_ms": 30_000, "mode": "all"})
        )
        deployment.redis.kill()

        # A call that needs no store is answered as before.
        assert structured(await through_a.call_tool("add", {"a": 2, "b": 3})) == {"result": 5}
        # One that needs it is a typed error, soon.
        for call in (
            through_b.call_tool("job_status", {"job_id": before}),
            through_a.call_tool("orpheus_generate", SHORT),
            through_b.call_tool("job_list", {}),
        ):
            asked = time.monotonic()
            error = tool_error(await call)
            assert error["code"] == "UNAVAILABLE", error
            assert time.monotonic() - asked < 10, "the store's absence was a hang"

        deployment.redis.start()
        # Everything resumes without a restart: what was acknowledged is
        # there, and new jobs start and finish.
        deadline = time.monotonic() + 10
        while True:
            result = await through_b.call_tool("job_status", {"job_id": before})
            if not result.is_error:
                break
            assert time.monotonic() < deadline, result.structured_content
            await asyncio.sleep(0.1)
        assert structured(result)["state"] == "complete"
        after = await start(through_a, SHORT)
        polled = structured(
            await through_b.call_tool("job_poll", {"job_ids": [after], "timeout_ms": 30_000, "mode": "all"})
        )
        assert polled["completed"] == [after], polled


class Balancer(httpx2.AsyncBaseTransport):
    """A load balancer in front of the gateways, as a client sees one: every
    request goes to the gateway in `target`, whatever the URL says. It
    notes the session id the server gave."""

    def __init__(self, target: str) -> None:
        self.target = target
        self.session: str | None = None
        self.inner = httpx2.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx2.Request) -> httpx2.Response:
        target = httpx2.URL(self.target)
        request.url = request.url.copy_with(host=target.host, port=target.port)
        request.headers["host"] = f"{target.host}:{target.port}"
        response = await self.inner.handle_async_request(request)
        self.session = response.headers.get("mcp-session-id", self.session)
        return response

    async def aclose(self) -> None:
        await self.inner.aclose()


@asynccontextmanager
async def session_through(balancer: Balancer) -> AsyncIterator[Client]:
    """The official client in a 2025-11-25 session (the revision whose
    sessions move between gateways), through `balancer`."""
    async with httpx2.AsyncClient(transport=balancer, timeout=httpx2.Timeout(30.0, read=300.0)) as http:
        transport = streamable_http_client("http://gateway/mcp", http_client=http)
        async with Client(transport, mode="legacy", read_timeout_seconds=30) as client:
            yield client


# The session sets its log level the 2025-11-25 way, which 2026-07-28
# deprecates: that is the revision whose sessions move between gateways.
@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
async def test_a_session_goes_on_through_another_gateway_when_its_own_dies(deployment: Deployment) -> None:
    a, b = deployment.gateways
    balancer = Balancer(a)
    async with session_through(balancer) as client:
        await client.set_logging_level("info")
        job_id = await start(client, LONG)
        session = balancer.session
        assert session, "a 2025-11-25 server gives a session id"

        deployment.gateway_processes[0].send_signal(signal.SIGKILL)
        deployment.gateway_processes[0].wait()
        balancer.target = b

        # The same session, on the other gateway: its job is its own
        # there too, and its log level came with it.
        seen = await status(client, job_id)
        assert seen["state"] in ("pending", "running"), seen
        cancelled = structured(await client.call_tool("job_cancel", {"job_id": job_id}))
        assert cancelled["cancelled"] is True, cancelled
        stored = deployment.redis.command("HGET", f"toolwright:mcp-session:{session}", "level")
        assert stored == '"info"', stored

        # Another session does not see the job.
        async with connect(b, principal="mallory") as other:
            error = tool_error(await other.call_tool("job_status", {"job_id": job_id}))
            assert error["code"] == "NOT_FOUND", error


@pytest.mark.filterwarnings("ignore:The logging capability is deprecated")
async def test_a_sessions_finished_job_outlives_restarts_of_its_worker_and_gateway(deployment: Deployment) -> None:
    a, _ = deployment.gateways
    balancer = Balancer(a)
    async with session_through(balancer) as client:
        await client.set_logging_level("warning")
        job_id = await start(client, SHORT)
        polled = structured(
            await client.call_tool("job_poll", {"job_ids": [job_id], "timeout_ms": 30_000, "mode": "all"})
        )
        assert polled["completed"] == [job_id], polled

        # Both processes that served the job die and come back on the
        # same addresses, knowing nothing of their own.
        deployment.restart(deployment.worker_of(job_id))
        deployment.restart(deployment.gateway_processes[0])

        # The session goes on through the new gateway, and its job is
        # still its own, with its result.
        seen = await status(client, job_id)
        assert seen["state"] == "complete", seen
        assert len(seen["result"]["output_hashes"]) == 1, seen
        listed = structured(await client.call_tool("job_list", {"tool_name": "orpheus_generate"}))
        assert [job["job_id"] for job in listed["jobs"]] == [job_id], listed


def result_of(response: httpx2.Response) -> Any:
    """The `result` of a raw request's answer (id 1), from a JSON body or
    the event of an SSE one that carries it; an error fails the test."""
    assert response.status_code == 200, response.text
    if response.headers.get("content-type", "").startswith("application/json"):
        answer = response.json()
    else:
        events = [line[5:] for line in response.text.splitlines() if line.startswith("data:")]
        answer = next(m for m in map(json.loads, filter(str.strip, events)) if m.get("id") == 1)
    assert "error" not in answer, answer
    return answer["result"]


async def rpc(http: httpx2.AsyncClient, session: str | None, method: str, params: dict[str, Any]) -> Any:
    """One JSON-RPC request of a 2025-11-25 session, raw: the official
    client does not make task-augmented calls. Its `result`."""
    headers = {"accept": "application/json, text/event-stream", "mcp-protocol-version": "2025-11-25"}
    if session:
        headers["mcp-session-id"] = session
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": params}
    response = await http.post("http://gateway/mcp", json=body, headers=headers)
    return result_of(response)


async def test_a_sessions_tasks_go_on_through_another_gateway_when_its_own_dies(deployment: Deployment) -> None:
    a, b = deployment.gateways
    balancer = Balancer(a)
    async with httpx2.AsyncClient(transport=balancer, timeout=httpx2.Timeout(30.0, read=60.0)) as http:
        hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "topology", "version": "1"}}
        assert (await rpc(http, None, "initialize", hello))["capabilities"]["tasks"], "tasks are offered"
        session = balancer.session
        assert session, "a 2025-11-25 server gives a session id"
        initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
        headers = {"mcp-session-id": session, "mcp-protocol-version": "2025-11-25"}
        await http.post("http://gateway/mcp", json=initialized, headers=headers)

        def call(arguments: dict[str, Any]) -> dict[str, Any]:
            return {"name": "orpheus_generate", "arguments": arguments, "task": {"ttl": 60_000}}

        long = (await rpc(http, session, "tools/call", call(LONG)))["task"]["taskId"]
        short = (await rpc(http, session, "tools/call", call(SHORT)))["task"]["taskId"]

        deployment.gateway_processes[0].send_signal(signal.SIGKILL)
        deployment.gateway_processes[0].wait()
        balancer.target = b

        # Gateway B finds the session's tasks, follows the short one's job
        # to its result, and cancels the long one.
        listed = await rpc(http, session, "tasks/list", {})
        assert [t["taskId"] for t in listed["tasks"]] == [long, short], listed
        result = await rpc(http, session, "tasks/result", {"taskId": short})
        assert result["isError"] is False, result
        assert len(result["structuredContent"]["output_hashes"]) == 1, result
        working = await rpc(http, session, "tasks/get", {"taskId": long})
        assert working["status"] == "working", working
        cancelled = await rpc(http, session, "tasks/cancel", {"taskId": long})
        assert cancelled["status"] == "cancelled", cancelled
        job = await rpc(http, session, "tools/call", {"name": "job_status", "arguments": {"job_id": long}})
        assert job["structuredContent"]["state"] == "cancelled", job


async def extension_rpc(url: str, method: str, params: dict[str, Any], name: str) -> Any:
    """One 2026-07-28 request with the tasks extension, raw (the official
    client does not speak it), as the principal `alice`: its `result`."""
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": method,
        "params": {
            **params,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "topology", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {"extensions": {"io.modelcontextprotocol/tasks": {}}},
            },
        },
    }
    headers = {
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": method,
        "mcp-name": name,
        "authorization": "Bearer alice",
    }
    async with httpx2.AsyncClient(timeout=30) as http:
        response = await http.post(url, json=body, headers=headers)
    return result_of(response)


async def test_a_2026_07_28_task_made_through_one_gateway_is_followed_through_the_other(
    deployment: Deployment,
) -> None:
    a, b = deployment.gateways

    async def task(arguments: dict[str, Any]) -> str:
        call = {"name": "orpheus_generate", "arguments": arguments}
        created = await extension_rpc(a, "tools/call", call, "orpheus_generate")
        assert created["resultType"] == "task", created
        return str(created["taskId"])

    long, short = await task(LONG), await task(SHORT)
    deadline = time.monotonic() + 30
    while True:
        done = await extension_rpc(b, "tasks/get", {"taskId": short}, short)
        if done["status"] == "completed" or time.monotonic() > deadline:
            break
        await asyncio.sleep(0.1)
    assert done["status"] == "completed", done
    assert len(done["result"]["structuredContent"]["output_hashes"]) == 1, done

    working = await extension_rpc(b, "tasks/get", {"taskId": long}, long)
    assert working["status"] == "working", working
    await extension_rpc(b, "tasks/cancel", {"taskId": long}, long)
    cancelled = await extension_rpc(a, "tasks/get", {"taskId": long}, long)
    assert cancelled["status"] == "cancelled", cancelled


async def test_one_gateway_routes_each_service_to_its_own_backends(tmp_path: Any) -> None:
    """`gateway --route NAME=ENDPOINT…`: each service at /NAME/mcp, its calls
    only to the backends serving it; a route to a backend that serves
    another service is refused by that backend, so its calls fail
    UNAVAILABLE rather than run there."""
    env = os.environ | {"STUDIO_DATA": str(tmp_path)}
    ports = {name: free_port() for name in ("music", "maths")}
    started = []
    try:
        for name, port in ports.items():
            argv = [str(studio_bin()), "serve", "--hoot", f"tcp://127.0.0.1:{port}", "--service", name]
            started.append(launch(argv, env, port))
        gateway_port = free_port()
        routes = [
            "--route", f"music=tcp://127.0.0.1:{ports['music']}",
            "--route", f"maths=tcp://127.0.0.1:{ports['maths']}",
            "--route", f"wrong=tcp://127.0.0.1:{ports['music']}",
        ]
        argv = [str(studio_bin()), "gateway", *routes, "--http", f"127.0.0.1:{gateway_port}"]
        started.append(launch(argv, env, gateway_port))
        base = f"http://127.0.0.1:{gateway_port}"

        for name in ("music", "maths"):
            async with connect(f"{base}/{name}/mcp") as client:
                added = structured(await client.call_tool("add", {"a": 2, "b": 3}))
                assert added == {"result": 5}, (name, added)
        async with connect(f"{base}/wrong/mcp") as client:
            error = tool_error(await client.call_tool("add", {"a": 2, "b": 3}))
            assert error["code"] == "UNAVAILABLE", error
    finally:
        for process in started:
            process.terminate()
            process.wait(timeout=15)
