"""A gateway and a worker speaking HOOT01 over CURVE, as real processes:
keys made by `studio keygen`, the worker letting in the gateway's key
alone, the official MCP client calling through the gateway. A gateway
whose key the worker does not allow serves no call. A gateway that
authenticates its callers forwards each one's principal, which a CURVE
worker believes and a plain-text worker refuses unless it trusts its
network. The worker's own probes count the handshakes it refused."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
import urllib.request
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
    probes: str
    processes: list[subprocess.Popen[bytes]]

    def refused(self, reason: str) -> float:
        """The worker's count of CURVE handshakes refused for `reason`,
        from its `/metrics` (which takes the probes' token)."""
        request = urllib.request.Request(f"{self.probes}/metrics", headers={"Authorization": "Bearer probe-token"})
        with urllib.request.urlopen(request, timeout=10) as response:
            text = response.read().decode()
        found = re.search(rf'^toolwright_hoot_auth_failures_total\{{reason="{reason}"\}} (\S+)$', text, re.M)
        assert found, text
        return float(found.group(1))

    def gateway(self, key: str | None, *extra: str, worker: str | None = None) -> str:
        """Starts a gateway with the key pair `key` (none: plain text) in
        front of `worker` (by default the CURVE one); its MCP URL."""
        port = free_port()
        argv = [
            str(studio_bin()), "gateway", "--backend", worker or self.worker,
            "--http", f"127.0.0.1:{port}", *extra,
        ]
        if key is not None:
            argv += ["--curve-secret", str(self.root / key), "--curve-server", str(self.root / "worker.pub")]
        self.processes.append(launch(argv, dict(os.environ), port))
        return f"http://127.0.0.1:{port}/mcp"

    def plain_worker(self, *extra: str) -> str:
        """Starts a worker speaking plain text; its endpoint."""
        port = free_port()
        worker = f"tcp://127.0.0.1:{port}"
        argv = [str(studio_bin()), "serve", "--hoot", worker, *extra]
        env = os.environ | {"STUDIO_DATA": str(self.root / f"data-{port}")}
        self.processes.append(launch(argv, env, port))
        return worker


def keygen(path: Path) -> None:
    subprocess.run([str(studio_bin()), "keygen", str(path)], check=True, capture_output=True)


@pytest.fixture
def secured() -> Iterator[Secured]:
    with tempfile.TemporaryDirectory(prefix="toolwright-curve-") as scratch:
        root = Path(scratch)
        for name in ("worker", "gateway", "intruder"):
            keygen(root / name)
        port, probes = free_port(), free_port()
        worker = f"tcp://127.0.0.1:{port}"
        argv = [
            str(studio_bin()), "serve", "--hoot", worker,
            "--curve-secret", str(root / "worker"), "--curve-allow", str(root / "gateway.pub"),
            "--probes", f"127.0.0.1:{probes}", "--token", "probe-token",
        ]
        env = os.environ | {"STUDIO_DATA": str(root / "data")}
        processes = [launch(argv, env, probes)]
        try:
            yield Secured(root, worker, f"http://127.0.0.1:{probes}", processes)
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
    assert secured.refused("key") == 0


async def test_a_gateway_the_worker_does_not_allow_serves_no_call(secured: Secured) -> None:
    async with connect(secured.gateway("intruder")) as client:
        error = tool_error(await client.call_tool("add", {"a": 2, "b": 40}))
        assert error["code"] == "UNAVAILABLE", error
        assert "CURVE handshake" in error["message"], error
    # Counted by the worker as its socket thread answers the ZAP request.
    deadline = time.monotonic() + 10
    while secured.refused("key") == 0:
        assert time.monotonic() < deadline, "the refusal was not counted"
        time.sleep(0.05)


async def test_an_authenticating_gateway_forwards_its_caller_to_a_curve_worker(
    secured: Secured,
) -> None:
    url = secured.gateway("gateway", "--token", "s3cret")
    async with connect(url, principal="s3cret") as client:
        # `cas_store` needs `cas:write`, which the static token grants; the
        # worker checks it again against the principal forwarded to it.
        stored = structured(await client.call_tool("cas_store", {"data": "aGVsbG8="}))
        assert stored["size"] == 5, stored


async def test_a_plain_worker_believes_a_forwarded_caller_only_when_it_trusts_its_network(
    secured: Secured,
) -> None:
    wary = secured.gateway(None, "--token", "s3cret", worker=secured.plain_worker())
    async with connect(wary, principal="s3cret") as client:
        error = tool_error(await client.call_tool("add", {"a": 2, "b": 40}))
        assert error["code"] == "FORBIDDEN", error
        assert "only from a peer it authenticated" in error["message"], error
    trusting = secured.plain_worker("--trust-plain-gateways")
    url = secured.gateway(None, "--token", "s3cret", worker=trusting)
    async with connect(url, principal="s3cret") as client:
        assert structured(await client.call_tool("add", {"a": 2, "b": 40})) == {"result": 42}
