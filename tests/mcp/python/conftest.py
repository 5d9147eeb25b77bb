"""Fixtures for the MCP conformance suite: the studio server over stdio and
over Streamable HTTP, reached with the official `mcp` client.

The server binary is `$STUDIO_BIN`, else `$CARGO_TARGET_DIR/debug/studio`
(`target/debug/studio` by default); `tests/mcp/run` builds it first. An HTTP
server is started once per test session on a free loopback port, unless
`$MCP_HTTP_URL` names one already running.
"""

from __future__ import annotations

import json
import os
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from mcp import Client, StdioServerParameters

ROOT = Path(__file__).resolve().parents[3]
CASES: dict[str, Any] = json.loads((ROOT / "tests/mcp/cases.json").read_text())
# `gateway` is Streamable HTTP to the studio gateway, which forwards every
# call over HOOT01 to a studio backend: the same suite, one hop further.
TRANSPORTS = ["stdio", "http", "gateway"]


def built(variable: str, package: str) -> Path:
    """A binary of the workspace: `$variable`, else cargo's debug build of `package`."""
    explicit = os.environ.get(variable)
    if explicit:
        path = Path(explicit)
    else:
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        path = target / "debug" / package
    if not path.is_file():
        pytest.fail(f"no {package} binary at {path}: build it with `cargo build -p {package}` or set {variable}")
    return path


def studio_bin() -> Path:
    return built("STUDIO_BIN", "studio")


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_until_listening(process: subprocess.Popen[bytes], port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"studio exited with status {process.returncode} before listening")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"studio did not listen on port {port} within {timeout} s")


@pytest.fixture(scope="session")
def data_dir() -> Iterator[Path]:
    with tempfile.TemporaryDirectory(prefix="studio-mcp-") as path:
        yield Path(path)


@pytest.fixture(scope="session")
def http_url(data_dir: Path) -> Iterator[str]:
    running = os.environ.get("MCP_HTTP_URL")
    if running:
        yield running
        return
    port = free_port()
    process = subprocess.Popen(
        [str(studio_bin()), "serve", "--http", f"127.0.0.1:{port}"],
        cwd=data_dir,
        env=os.environ | {"STUDIO_DATA": str(data_dir / "http")},
        stdin=subprocess.DEVNULL,
    )
    try:
        wait_until_listening(process, port)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        try:
            process.wait(timeout=5)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


@pytest.fixture(scope="session")
def gateway_url(data_dir: Path) -> Iterator[str]:
    hoot = f"tcp://127.0.0.1:{free_port()}"
    iopub = f"tcp://127.0.0.1:{free_port()}"
    port = free_port()
    backend = subprocess.Popen(
        [str(studio_bin()), "serve", "--hoot", hoot, "--iopub", iopub],
        cwd=data_dir,
        env=os.environ | {"STUDIO_DATA": str(data_dir / "gateway-backend")},
        stdin=subprocess.DEVNULL,
    )
    gateway = subprocess.Popen(
        [str(studio_bin()), "gateway", "--backend", hoot, "--iopub", iopub, "--http", f"127.0.0.1:{port}"],
        cwd=data_dir,
        stdin=subprocess.DEVNULL,
    )
    try:
        wait_until_listening(gateway, port)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        for process in (gateway, backend):
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(params=TRANSPORTS)
def transport(request: pytest.FixtureRequest) -> str:
    return str(request.param)


@pytest.fixture
def connect(transport: str, data_dir: Path, request: pytest.FixtureRequest):  # type: ignore[no-untyped-def]
    """An async context manager factory: `async with connect() as client`;
    keyword arguments go to `Client` (e.g. `mode="legacy"` for a 2025-11-25
    session)."""

    @asynccontextmanager
    async def open_client(**options: Any) -> AsyncIterator[Client]:
        if transport == "stdio":
            server: Any = StdioServerParameters(
                command=str(studio_bin()),
                args=["serve", "--stdio"],
                cwd=str(data_dir),
                env={"STUDIO_DATA": str(data_dir / "stdio")},
            )
        elif transport == "gateway":
            server = request.getfixturevalue("gateway_url")
        else:
            server = request.getfixturevalue("http_url")
        async with Client(server, read_timeout_seconds=60, **options) as client:
            yield client

    return open_client


# The conformance server (tests/conformance): the official conformance
# suite's fixture tools, for the tests of handlers that talk back and of
# content blocks.
def conformance_bin() -> Path:
    return built("CONFORMANCE_BIN", "toolwright-conformance")


@pytest.fixture(scope="session")
def conformance_url() -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen([str(conformance_bin()), f"127.0.0.1:{port}"], stdin=subprocess.DEVNULL)
    try:
        wait_until_listening(process, port)
        yield f"http://127.0.0.1:{port}/mcp"
    finally:
        process.terminate()
        process.wait(timeout=10)


def conformance_stdio() -> StdioServerParameters:
    return StdioServerParameters(command=str(conformance_bin()), args=["--stdio"])


@pytest.fixture(params=["stdio", "http", "gateway"])
def conformance_server(request: pytest.FixtureRequest) -> Any:
    """The conformance server over stdio, then over Streamable HTTP, then
    over stdio to a gateway whose handlers run behind HOOT01, so that what
    they say and ask crosses that wire too."""
    if request.param == "stdio":
        return conformance_stdio()
    if request.param == "gateway":
        return StdioServerParameters(command=str(conformance_bin()), args=["--gateway", "--stdio"])
    return request.getfixturevalue("conformance_url")


def post_2026(
    url: str,
    method: str,
    params: dict[str, Any],
    *,
    capabilities: dict[str, Any] | None = None,
    headers: dict[str, str] | None = None,
) -> dict[str, Any]:
    """One MCP 2026-07-28 request over raw Streamable HTTP, naming its
    revision, client and `capabilities` in its `_meta`, with `Mcp-Method`
    and `headers` besides: the JSON-RPC answer, from a JSON body or the
    last event of an SSE one. For what the official client does not send."""
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": method,
        "params": {
            **params,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "raw", "version": "0"},
                "io.modelcontextprotocol/clientCapabilities": capabilities or {},
            },
        },
    }
    standard = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": "2026-07-28",
        "Mcp-Method": method,
    }
    text = httpx.post(url, json=body, headers={**standard, **(headers or {})}, timeout=30).text
    if not text.startswith("{"):
        events = [line[5:].strip() for line in text.splitlines() if line.startswith("data:") and line[5:].strip()]
        text = events[-1]
    answer: dict[str, Any] = json.loads(text)
    return answer
