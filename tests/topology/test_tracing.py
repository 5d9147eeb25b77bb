"""One trace per call across the tiers: a gateway and a worker export
their spans over OTLP/HTTP to a receiver in the test, and one MCP call
made with the caller's `traceparent` (in `params._meta`, or as an HTTP
header) is one trace under the caller's span: the gateway's `tools/call`
span, the worker's span as its child (the context crossed HOOT01 in frame
5), and the handler's span as the worker's. A job's span belongs to the
trace of the call that started it, and so does its IOPub `started`
event."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import msgpack
import pytest
import zmq
import zmq.asyncio

from conftest import connect, free_port, launch, structured, studio_bin
from otlp import SERVER, Receiver, Span

pytestmark = pytest.mark.anyio


@dataclass
class Traced:
    receiver: Receiver
    gateway: str
    iopub: str
    processes: list[subprocess.Popen[bytes]]

    def stop(self) -> list[Span]:
        """Stops the gateway, then the worker (each sends the spans it
        still holds as it stops), and gives every span received."""
        for process in self.processes:
            process.send_signal(signal.SIGTERM)
            process.wait(timeout=30)
        return self.receiver.collected()


@pytest.fixture
def traced() -> Iterator[Traced]:
    receiver = Receiver()
    processes: list[subprocess.Popen[bytes]] = []
    try:
        with tempfile.TemporaryDirectory(prefix="toolwright-tracing-") as scratch:
            env = os.environ | {"STUDIO_DATA": str(Path(scratch) / "worker")}
            env.pop("OTEL_EXPORTER_OTLP_ENDPOINT", None)
            env.pop("OTEL_SERVICE_NAME", None)
            port = free_port()
            endpoint = f"tcp://127.0.0.1:{port}"
            iopub = f"tcp://127.0.0.1:{free_port()}"
            argv = [str(studio_bin()), "serve", "--hoot", endpoint, "--iopub", iopub, "--otlp", receiver.url]
            worker = launch(argv, env, port)
            processes.append(worker)
            port = free_port()
            # The collector's URL from the standard variable, not the flag.
            gateway_env = env | {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url}
            argv = [str(studio_bin()), "gateway", "--backend", endpoint, "--http", f"127.0.0.1:{port}"]
            gateway = launch(argv, gateway_env, port)
            processes.insert(0, gateway)
            yield Traced(receiver, f"http://127.0.0.1:{port}/mcp", iopub, processes)
    finally:
        for process in processes:
            if process.poll() is None:
                process.kill()
                process.wait()
        receiver.close()


def traceparent() -> tuple[str, str, str]:
    """A caller's fresh `traceparent`, its trace id and its span id."""
    trace_id, span_id = secrets.token_hex(16), secrets.token_hex(8)
    return f"00-{trace_id}-{span_id}-01", trace_id, span_id


def one(spans: list[Span], **match: object) -> Span:
    found = [s for s in spans if all(getattr(s, k) == v for k, v in match.items())]
    assert len(found) == 1, f"{len(found)} spans match {match}: {spans}"
    return found[0]


def check_call(spans: list[Span], trace_id: str, caller_span: str, tool: str) -> None:
    """The gateway → worker → handler chain of one call, under the
    caller's span, all in the caller's trace."""
    mine = [s for s in spans if s.trace_id == trace_id]
    door = one(mine, service="studio-gateway", name=f"tools/call {tool}")
    assert door.parent_span_id == caller_span, door
    assert door.kind == SERVER, door
    assert door.attributes["mcp.method.name"] == "tools/call", door
    assert door.attributes["gen_ai.tool.name"] == tool, door
    assert door.attributes["gen_ai.operation.name"] == "execute_tool", door
    # A revision with sessions names the session; 2026-07-28 keeps none.
    version = door.attributes["mcp.protocol.version"]
    assert version == "2026-07-28" or door.attributes["mcp.session.id"], door
    assert door.attributes["jsonrpc.request.id"], door
    assert door.attributes["network.transport"] == "tcp", door
    assert door.attributes["toolwright.outcome"] == "success", door
    worker = one(mine, service="studio-worker", name=f"worker {tool}")
    assert worker.parent_span_id == door.span_id, (door, worker)
    assert worker.kind == SERVER, worker
    assert worker.attributes["gen_ai.tool.name"] == tool, worker
    assert worker.attributes["toolwright.outcome"] == "success", worker
    assert worker.attributes["toolwright.hoot.request_id"], worker
    handler = one(mine, service="studio-worker", name=f"handler {tool}")
    assert handler.parent_span_id == worker.span_id, (worker, handler)
    assert handler.attributes["toolwright.outcome"] == "success", handler
    assert {s.span_id for s in mine} == {door.span_id, worker.span_id, handler.span_id}, mine


async def test_one_mcp_call_is_one_trace_from_gateway_through_worker_to_handler(traced: Traced) -> None:
    in_meta, meta_trace, meta_span = traceparent()
    in_header, header_trace, header_span = traceparent()
    async with connect(traced.gateway) as client:
        result = await client.call_tool("add", {"a": 2, "b": 40}, meta={"traceparent": in_meta})
        assert structured(result) == {"result": 42}
    async with connect(traced.gateway, headers={"traceparent": in_header}) as client:
        result = await client.call_tool("add", {"a": 1, "b": 1})
        assert structured(result) == {"result": 2}
    spans = traced.stop()
    # `params._meta` carries the caller's context…
    check_call(spans, meta_trace, meta_span, "add")
    # …and so does the HTTP request's header, for a caller that sets no
    # `_meta`.
    check_call(spans, header_trace, header_span, "add")


async def test_a_failed_call_records_its_error(traced: Traced) -> None:
    caller, trace_id, span_id = traceparent()
    async with connect(traced.gateway) as client:
        result = await client.call_tool("add", {"a": 2**62, "b": 2**62}, meta={"traceparent": caller})
        assert result.is_error, result
    spans = [s for s in traced.stop() if s.trace_id == trace_id]
    door = one(spans, service="studio-gateway", name="tools/call add")
    assert door.parent_span_id == span_id, door
    assert door.attributes["error.type"] == "tool_error", door
    assert door.attributes["toolwright.outcome"] == "error", door
    code = door.attributes["toolwright.error.code"]
    assert code, door
    # Status code 2 is ERROR.
    assert door.status_code == 2, door
    worker = one(spans, service="studio-worker", name="worker add")
    assert worker.attributes["toolwright.error.code"] == code, worker
    assert worker.status_code == 2, worker
    handler = one(spans, service="studio-worker", name="handler add")
    assert handler.attributes["error.type"] == code, handler
    assert handler.status_code == 2, handler


async def test_a_job_and_its_iopub_events_belong_to_the_trace_that_started_it(traced: Traced) -> None:
    caller, trace_id, span_id = traceparent()
    context = zmq.asyncio.Context()
    events = context.socket(zmq.SUB)
    events.setsockopt(zmq.LINGER, 0)
    events.subscribe(b"job/orpheus_generate/")
    events.connect(traced.iopub)
    try:
        async with connect(traced.gateway) as client:
            # A subscription takes effect a moment after it is made: call
            # until the worker's `started` event arrives.
            started = None
            for _ in range(50):
                arguments = {"max_tokens": 128, "num_variations": 1, "seed": 7}
                handle = structured(await client.call_tool("orpheus_generate", arguments, meta={"traceparent": caller}))
                if await events.poll(200):
                    break
            while started is None:
                assert await events.poll(5000), "no IOPub event"
                topic, body = await events.recv_multipart()
                event = msgpack.unpackb(body)
                if event["event"] == "started":
                    started = event
            job_id = started["job_id"]
            assert topic.decode().startswith("job/orpheus_generate/job_"), topic
            polled = structured(await client.call_tool("job_poll", {"job_ids": [job_id], "timeout_ms": 20000}))
            assert job_id in polled["completed"], polled
    finally:
        events.close()
        context.term()
    assert handle["expected_timing"] == "async_long", handle
    # The event names the worker's span for the call, in the caller's trace.
    version, event_trace, parent, flags = started["traceparent"].split("-")
    assert (version, event_trace, flags) == ("00", trace_id, "01"), started
    spans = [s for s in traced.stop() if s.trace_id == trace_id]
    worker = next(s for s in spans if s.name == "worker orpheus_generate" and s.span_id == parent)
    assert worker.attributes["toolwright.outcome"] == "job_started", worker
    [job] = [s for s in spans if s.name == "job orpheus_generate" and s.attributes.get("toolwright.job.id") == job_id]
    assert job.service == "studio-worker", job
    assert job.parent_span_id == worker.span_id, (worker, job)
    assert job.attributes["toolwright.outcome"] == "success", job
    assert any(s.name == "tools/call orpheus_generate" and s.parent_span_id == span_id for s in spans), spans
