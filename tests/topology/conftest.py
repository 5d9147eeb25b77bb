"""A deployment of the studio on loopback: Redis, three workers, two
gateways, every process real and killable.

The studio binary is `$STUDIO_BIN`, else `$CARGO_TARGET_DIR/debug/studio`;
`tests/topology/run` builds it. Redis is Debian's `redis-server`, started
here on a free port with an append-only file, so that a Redis restarted
mid-test keeps what it had acknowledged."""

from __future__ import annotations

import os
import signal
import socket
import subprocess
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import pytest
from mcp import Client
from mcp.client.streamable_http import streamable_http_client
from mcp.shared._httpx_utils import create_mcp_http_client

ROOT = Path(__file__).resolve().parents[2]
# A worker's lease on its jobs; a killed worker's jobs are interrupted
# within twice this.
LEASE_MS = 1000
# One step of `orpheus_generate`: 16 steps a variation, up to 8 variations.
STEP_MS = 100


def studio_bin() -> Path:
    explicit = os.environ.get("STUDIO_BIN")
    target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
    path = Path(explicit) if explicit else target / "debug" / "studio"
    if not path.is_file():
        pytest.fail(f"no studio binary at {path}: build it with `cargo build -p studio`")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def wait_for_port(process: subprocess.Popen[bytes], port: int, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args} exited with status {process.returncode}")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.2):
                return
        except OSError:
            time.sleep(0.05)
    raise RuntimeError(f"{process.args} did not listen on port {port} within {timeout} s")


@dataclass
class Redis:
    port: int
    directory: Path
    process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"redis://127.0.0.1:{self.port}/0"

    def start(self) -> None:
        self.process = subprocess.Popen(
            [
                "redis-server",
                "--port", str(self.port),
                "--bind", "127.0.0.1",
                "--dir", str(self.directory),
                "--save", "",
                "--appendonly", "yes",
                "--appendfsync", "always",
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        wait_for_port(self.process, self.port)

    def kill(self) -> None:
        if self.process is not None:
            self.process.send_signal(signal.SIGKILL)
            self.process.wait()
            self.process = None

    def command(self, *args: str) -> str:
        """One `redis-cli` command's answer."""
        return subprocess.run(
            ["redis-cli", "-p", str(self.port), *args], check=True, capture_output=True, text=True
        ).stdout.strip()


@dataclass
class Deployment:
    redis: Redis
    workers: list[subprocess.Popen[bytes]]
    gateways: list[str]
    gateway_processes: list[subprocess.Popen[bytes]] = field(default_factory=list)
    # How each process was started, to start it again: (argv, env, port).
    launches: dict[int, tuple[list[str], dict[str, str], int]] = field(default_factory=dict)
    started: list[subprocess.Popen[bytes]] = field(default_factory=list)

    def restart(self, process: subprocess.Popen[bytes]) -> subprocess.Popen[bytes]:
        """Kills `process` (SIGKILL) and starts it again as it was started:
        same arguments, same port."""
        argv, env, port = self.launches[process.pid]
        if process.poll() is None:
            process.send_signal(signal.SIGKILL)
            process.wait()
        again = launch(argv, env, port)
        self.launches[again.pid] = (argv, env, port)
        self.started.append(again)
        for group in (self.workers, self.gateway_processes):
            if process in group:
                group[group.index(process)] = again
        return again

    def worker_of(self, job_id: str) -> subprocess.Popen[bytes]:
        """The worker process running `job_id`, as the store names it
        (`w-PID-…`)."""
        name = self.redis.command("HGET", f"toolwright:job:{job_id}", "worker")
        pid = int(name.split("-")[1])
        for worker in self.workers:
            if worker.pid == pid:
                return worker
        raise AssertionError(f"{job_id} runs on {name!r}, which is none of the workers")


def launch(argv: list[str], env: dict[str, str], port: int) -> subprocess.Popen[bytes]:
    """Starts a studio process and waits until it listens on `port`."""
    process = subprocess.Popen(argv, env=env, stdin=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        wait_for_port(process, port)
    except Exception:
        process.kill()
        process.wait()
        raise
    return process


@pytest.fixture
def deployment() -> Iterator[Deployment]:
    with tempfile.TemporaryDirectory(prefix="toolwright-topology-") as scratch:
        root = Path(scratch)
        redis = Redis(port=free_port(), directory=root)
        redis.start()
        env = os.environ | {
            "STUDIO_JOB_LEASE_MS": str(LEASE_MS),
            "STUDIO_STEP_MS": str(STEP_MS),
        }
        deployment = Deployment(redis=redis, workers=[], gateways=[])
        try:
            endpoints = []
            for n in range(3):
                port = free_port()
                endpoint = f"tcp://127.0.0.1:{port}"
                # Loopback only gateways reach: a gateway that authenticates
                # its callers may forward them in plain text.
                argv = [
                    str(studio_bin()), "serve", "--hoot", endpoint, "--jobs", redis.url,
                    "--trust-plain-gateways",
                ]
                worker_env = env | {"STUDIO_DATA": str(root / f"worker-{n}")}
                worker = launch(argv, worker_env, port)
                deployment.launches[worker.pid] = (argv, worker_env, port)
                deployment.started.append(worker)
                deployment.workers.append(worker)
                endpoints.append(endpoint)
            backends = [arg for endpoint in endpoints for arg in ("--backend", endpoint)]
            for _ in range(2):
                port = free_port()
                argv = [str(studio_bin()), "gateway", *backends, "--http", f"127.0.0.1:{port}", "--jobs", redis.url]
                gateway = launch(argv, env, port)
                deployment.launches[gateway.pid] = (argv, env, port)
                deployment.started.append(gateway)
                deployment.gateway_processes.append(gateway)
                deployment.gateways.append(f"http://127.0.0.1:{port}/mcp")
            yield deployment
        finally:
            processes = deployment.started
            for process in processes:
                if process.poll() is None:
                    process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()
            redis.kill()


@asynccontextmanager
async def connect(url: str, principal: str = "alice", headers: dict[str, str] | None = None) -> AsyncIterator[Client]:
    """The official client, as one principal: the bearer token it shows
    names the owner of its jobs on every gateway. `headers` go on each of
    its HTTP requests too."""
    http = create_mcp_http_client(headers={"Authorization": f"Bearer {principal}"} | (headers or {}))
    async with http:
        transport = streamable_http_client(url, http_client=http)
        async with Client(transport, read_timeout_seconds=30) as client:
            yield client


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def structured(result: Any) -> Any:
    assert not result.is_error, result.structured_content or result.content
    return result.structured_content


def tool_error(result: Any) -> dict[str, Any]:
    assert result.is_error, f"expected an error, got {result.structured_content!r}"
    error = result.structured_content
    assert isinstance(error, dict), error
    return error
