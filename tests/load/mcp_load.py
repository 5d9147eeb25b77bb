#!/usr/bin/env python3
"""Load and faults over MCP Streamable HTTP against the studio.

Starts `studio serve --http` on a free loopback port (or uses --url), opens
CLIENTS sessions at once, and has each make CALLS tools/call requests, one
after another: mostly well-formed (sync `add` and `multiply` with operands
unique to the call, and async `orpheus_generate` answered with a job handle),
and a share of malformed ones (bad JSON, wrong types, unknown tools,
out-of-range values). It checks that every well-formed call is answered
exactly once with its own result (no reply lost or crossed), that every
malformed one gets its error, and that the server's memory stays bounded
(resident set before and after, and the peak, from /proc). Prints the
figures; exits 1 on any failure.

    tests/load/mcp_load.py --clients 50 --calls 1000     # the full run
    tests/load/mcp_load.py --clients 8 --calls 100       # the short one
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import pathlib
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from typing import Any

import httpx

ROOT = pathlib.Path(__file__).resolve().parents[2]
REVISION = "2025-06-18"


@dataclass
class Tally:
    calls: int = 0
    good: int = 0
    malformed: int = 0
    latencies: list[float] = field(default_factory=list)
    failures: list[str] = field(default_factory=list)


def rss_kib(pid: int) -> tuple[int, int]:
    """Resident set and its peak, KiB."""
    status = pathlib.Path(f"/proc/{pid}/status").read_text()
    def field_kib(name: str) -> int:
        found = re.search(rf"{name}:\s+(\d+)", status)
        return int(found.group(1)) if found else 0

    return field_kib("VmRSS"), field_kib("VmHWM")


def message_of(response: httpx.Response) -> dict[str, Any] | None:
    """The JSON-RPC message of an answer: a JSON body or one SSE event."""
    text = response.text
    if response.headers.get("content-type", "").startswith("text/event-stream"):
        data = [line[5:].strip() for line in text.splitlines() if line.startswith("data:")]
        messages: list[Any] = [json.loads(d) for d in data if d]
        answers: list[dict[str, Any]] = [
            m for m in messages if isinstance(m, dict) and "id" in m and ("result" in m or "error" in m)
        ]
        if len(answers) != 1:
            return None
        return answers[0]
    if not text.strip():
        return None
    message = json.loads(text)
    return message if isinstance(message, dict) else None


async def session(client: httpx.AsyncClient, url: str) -> dict[str, str]:
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": REVISION, "capabilities": {}, "clientInfo": {"name": "load", "version": "1"}},
    }
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    response = await client.post(url, json=init, headers=headers)
    response.raise_for_status()
    sid = response.headers["mcp-session-id"]
    headers = {**headers, "mcp-session-id": sid, "mcp-protocol-version": REVISION}
    await client.post(url, json={"jsonrpc": "2.0", "method": "notifications/initialized"}, headers=headers)
    return headers


def plan(client_no: int, i: int, malformed_every: int) -> tuple[str, Any, str]:
    """The i-th request of a client: (kind, body, expectation)."""
    rid = client_no * 1_000_000 + i + 1

    def call(tool: str, args: dict[str, Any]) -> dict[str, Any]:
        return {"jsonrpc": "2.0", "id": rid, "method": "tools/call", "params": {"name": tool, "arguments": args}}

    if malformed_every and i % malformed_every == malformed_every - 1:
        kind = (i // malformed_every) % 4
        if kind == 0:
            return "bad_json", b'{"jsonrpc": "2.0", "id": %d, "method": "tools/call", "params": {' % rid, "-32700"
        if kind == 1:
            return "wrong_type", call("add", {"a": "two", "b": 1}), "INVALID_REQUEST"
        if kind == 2:
            return "unknown_tool", call("addd", {"a": 1, "b": 2}), "-32602"
        return "out_of_range", call("abc_transpose", {"abc": "X:1", "semitones": 100}), "INVALID_REQUEST"
    a, b = client_no * 10_000 + i, i % 97 + 1
    match i % 10:
        case 9:
            return "async", call("orpheus_generate", {"max_tokens": 128, "seed": rid}), "job"
        case 3 | 6:
            return "sync", call("multiply", {"a": a, "b": b}), str(a * b)
        case _:
            return "sync", call("add", {"a": a, "b": b}), str(a + b)


async def run_client(client_no: int, url: str, calls: int, malformed_every: int, tally: Tally) -> None:
    async with httpx.AsyncClient(timeout=60) as client:
        headers = await session(client, url)
        for i in range(calls):
            kind, body, expected = plan(client_no, i, malformed_every)
            rid = client_no * 1_000_000 + i + 1
            started = time.perf_counter()
            if isinstance(body, bytes):
                response = await client.post(url, content=body, headers=headers)
            else:
                response = await client.post(url, json=body, headers=headers)
            tally.latencies.append(time.perf_counter() - started)
            tally.calls += 1
            message = message_of(response)
            where = f"client {client_no} call {i} ({kind})"
            if message is None:
                tally.failures.append(f"{where}: no single answer: {response.status_code} {response.text[:200]}")
                continue
            if kind == "bad_json":
                ok = message.get("error", {}).get("code") == -32700
                tally.malformed += ok
                if not ok:
                    tally.failures.append(f"{where}: {message}")
                continue
            if message.get("id") != rid:
                tally.failures.append(f"{where}: answered with id {message.get('id')}, not {rid}")
                continue
            if expected == "-32602":
                ok = message.get("error", {}).get("code") == -32602
                tally.malformed += ok
                if not ok:
                    tally.failures.append(f"{where}: {message}")
                continue
            result = message.get("result", {})
            content = result.get("structuredContent") or {}
            if expected == "INVALID_REQUEST":
                ok = result.get("isError") is True and content.get("code") == "INVALID_REQUEST"
                tally.malformed += ok
                if not ok:
                    tally.failures.append(f"{where}: {message}")
            elif expected == "job":
                ok = isinstance(content.get("job_id"), str) and content.get("tool") == "orpheus_generate"
                tally.good += ok
                if not ok:
                    tally.failures.append(f"{where}: {message}")
            else:
                ok = result.get("isError") is False and str(content.get("result")) == expected
                tally.good += ok
                if not ok:
                    tally.failures.append(f"{where}: expected {expected}: {message}")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


async def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--clients", type=int, default=50)
    parser.add_argument("--calls", type=int, default=1000)
    parser.add_argument("--malformed-every", type=int, default=20, help="one request in N is malformed (20: 5 %%)")
    parser.add_argument("--max-growth-mib", type=int, default=256, help="the resident set may grow this much")
    parser.add_argument("--studio", default=os.environ.get("STUDIO_BIN", str(ROOT / "target/debug/studio")))
    args = parser.parse_args()

    data = tempfile.TemporaryDirectory()
    port = free_port()
    server = subprocess.Popen(
        [args.studio, "serve", "--http", f"127.0.0.1:{port}"],
        env={**os.environ, "STUDIO_DATA": data.name},
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        for _ in range(200):
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=0.1):
                    break
            except OSError:
                await asyncio.sleep(0.05)
        # Warm up, then measure.
        await asyncio.gather(*(run_client(10_000 + n, url, 20, 0, Tally()) for n in range(4)))
        before, _ = rss_kib(server.pid)
        tally = Tally()
        started = time.perf_counter()
        await asyncio.gather(
            *(run_client(n, url, args.calls, args.malformed_every, tally) for n in range(args.clients))
        )
        elapsed = time.perf_counter() - started
        after, peak = rss_kib(server.pid)
    finally:
        server.terminate()
        try:
            server.wait(timeout=15)
        except subprocess.TimeoutExpired:
            server.kill()
        data.cleanup()

    latencies = sorted(tally.latencies)

    def p(q: float) -> float:
        return latencies[min(len(latencies) - 1, int(q * len(latencies)))] * 1000

    print(f"clients {args.clients} x calls {args.calls}: {tally.calls} requests in {elapsed:.1f} s ({tally.calls / elapsed:,.0f}/s)")
    print(f"  well-formed answered right: {tally.good}; malformed answered with their error: {tally.malformed}")
    print(f"  latency ms: p50 {p(0.5):.2f}, p99 {p(0.99):.2f}, max {latencies[-1] * 1000:.1f}; mean {statistics.fmean(latencies) * 1000:.2f}")
    print(f"  server RSS: {before / 1024:.1f} MiB before, {after / 1024:.1f} MiB after, peak {peak / 1024:.1f} MiB")
    failures = list(tally.failures)
    if tally.good + tally.malformed != tally.calls:
        failures.append(f"{tally.calls - tally.good - tally.malformed} requests without their right answer")
    if (after - before) / 1024 > args.max_growth_mib:
        failures.append(f"the server grew by {(after - before) / 1024:.1f} MiB")
    for failure in failures[:20]:
        print(f"FAIL {failure}", file=sys.stderr)
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(asyncio.run(main()))
