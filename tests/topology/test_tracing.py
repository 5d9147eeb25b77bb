"""One trace per call across the tiers: a gateway and a worker export
their spans over OTLP/HTTP to a receiver in the test, and one MCP call
made with the caller's `traceparent` (in `params._meta`, or as an HTTP
header) is one trace under the caller's span: the gateway's `tools/call`
span, the worker's span as its child (the context crossed HOOT01 in frame
5), and the handler's span as the worker's."""

from __future__ import annotations

import os
import secrets
import signal
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import connect, free_port, launch, structured, studio_bin
from otlp import SERVER, Receiver, Span

pytestmark = pytest.mark.anyio


@dataclass
class Traced:
    receiver: Receiver
    gateway: str
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
            worker = launch([str(studio_bin()), "serve", "--hoot", endpoint, "--otlp", receiver.url], env, port)
            processes.append(worker)
            port = free_port()
            # The collector's URL from the standard variable, not the flag.
            gateway_env = env | {"OTEL_EXPORTER_OTLP_ENDPOINT": receiver.url}
            argv = [str(studio_bin()), "gateway", "--backend", endpoint, "--http", f"127.0.0.1:{port}"]
            gateway = launch(argv, gateway_env, port)
            processes.insert(0, gateway)
            yield Traced(receiver, f"http://127.0.0.1:{port}/mcp", processes)
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
    handler = one(spans, service="studio-worker", name="handler add")
    assert handler.attributes["error.type"] == code, handler
    assert handler.status_code == 2, handler
