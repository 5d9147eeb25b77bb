"""A gateway and a worker speaking HOOT01 over CURVE, as real processes:
keys made by `studio keygen`, the worker letting in the gateway's key
alone, the official MCP client calling through the gateway. A gateway
whose key the worker does not allow serves no call."""

from __future__ import annotations

import os
import subprocess
import tempfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from conftest import connect, free_port, launch, structured, studio_bin, tool_error

pytestmark = pytest.mark.anyio


@dataclass
class Secured:
    """A CURVE worker, and the keys of two would-be gateways: one it allows."""

    root: Path
    worker: str
    processes: list[subprocess.Popen[bytes]]

    def gateway(self, key: str) -> str:
        """Starts a gateway with the key pair `key`; its MCP URL."""
        port = free_port()
        argv = [
            str(studio_bin()), "gateway", "--backend", self.worker, "--http", f"127.0.0.1:{port}",
            "--curve-secret", str(self.root / key), "--curve-server", str(self.root / "worker.pub"),
        ]
        self.processes.append(launch(argv, dict(os.environ), port))
        return f"http://127.0.0.1:{port}/mcp"


def keygen(path: Path) -> None:
    subprocess.run([str(studio_bin()), "keygen", str(path)], check=True, capture_output=True)


@pytest.fixture
def secured() -> Iterator[Secured]:
    with tempfile.TemporaryDirectory(prefix="toolwright-curve-") as scratch:
        root = Path(scratch)
        for name in ("worker", "gateway", "intruder"):
            keygen(root / name)
        port = free_port()
        worker = f"tcp://127.0.0.1:{port}"
        argv = [
            str(studio_bin()), "serve", "--hoot", worker,
            "--curve-secret", str(root / "worker"), "--curve-allow", str(root / "gateway.pub"),
        ]
        env = os.environ | {"STUDIO_DATA": str(root / "data")}
        processes = [launch(argv, env, port)]
        try:
            yield Secured(root, worker, processes)
        finally:
            for process in processes:
                process.terminate()
            for process in processes:
                try:
                    process.wait(timeout=15)
                except subprocess.TimeoutExpired:
                    process.kill()
                    process.wait()


async def test_a_curve_gateway_serves_mcp_calls_from_a_curve_worker(secured: Secured) -> None:
    async with connect(secured.gateway("gateway")) as client:
        assert structured(await client.call_tool("add", {"a": 2, "b": 40})) == {"result": 42}


async def test_a_gateway_the_worker_does_not_allow_serves_no_call(secured: Secured) -> None:
    async with connect(secured.gateway("intruder")) as client:
        error = tool_error(await client.call_tool("add", {"a": 2, "b": 40}))
        assert error["code"] == "UNAVAILABLE", error
        assert "CURVE handshake" in error["message"], error
