"""Jobs, workers and gateways of one deployment sharing Redis: a job
started through one gateway is read, polled and cancelled through the
other; job_list sees every worker's jobs; a killed worker's job is
interrupted for everyone; losing a worker or Redis fails no call that did
not need them, and everything resumes when Redis is back."""

from __future__ import annotations

import asyncio
import signal
import time
from typing import Any

import pytest

from conftest import LEASE_MS, Deployment, connect, structured, tool_error

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
        deadline = time.monotonic() + 3.0
        while time.monotonic() < deadline:
            result = await client.call_tool("add", {"a": calls, "b": 1})
            if result.is_error:
                failures.append(result.structured_content)
            calls += 1
            if calls == 30:
                victim.send_signal(signal.SIGKILL)
            await asyncio.sleep(1 / 60)
        assert calls > 100, calls
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
