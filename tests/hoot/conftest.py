"""Fixtures for the HOOT01 peer: a studio backend serving HOOT01 and IOPub
on loopback, and DEALER sockets to it.

This peer is written from docs/wire.md alone and imports nothing of the
project: pyzmq speaks ZeroMQ, `msgpack` reads and writes the bodies. The
backend is `$STUDIO_BIN`, else `$CARGO_TARGET_DIR/debug/studio`
(`target/debug/studio` by default); it is started once per session on free
loopback ports, unless `$HOOT_ENDPOINT` (and `$HOOT_IOPUB`) name one already
running.
"""

from __future__ import annotations

import os
import socket
import subprocess
import tempfile
import time
from collections.abc import Iterator
from pathlib import Path

import pytest
import zmq

from hoot import Peer

ROOT = Path(__file__).resolve().parents[2]


def studio_bin() -> Path:
    explicit = os.environ.get("STUDIO_BIN")
    if explicit:
        path = Path(explicit)
    else:
        target = Path(os.environ.get("CARGO_TARGET_DIR", ROOT / "target"))
        path = target / "debug" / "studio"
    if not path.is_file():
        pytest.fail(f"no studio binary at {path}: build it with `cargo build -p studio` or set STUDIO_BIN")
    return path


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@pytest.fixture(scope="session")
def context() -> Iterator[zmq.Context[zmq.Socket[bytes]]]:
    context: zmq.Context[zmq.Socket[bytes]] = zmq.Context()
    yield context
    context.destroy(linger=0)


@pytest.fixture(scope="session")
def endpoints(context: zmq.Context[zmq.Socket[bytes]]) -> Iterator[tuple[str, str]]:
    running = os.environ.get("HOOT_ENDPOINT")
    if running:
        yield running, os.environ.get("HOOT_IOPUB", "")
        return
    hoot = f"tcp://127.0.0.1:{free_port()}"
    iopub = f"tcp://127.0.0.1:{free_port()}"
    with tempfile.TemporaryDirectory(prefix="studio-hoot-") as data:
        process = subprocess.Popen(
            [str(studio_bin()), "serve", "--hoot", hoot, "--iopub", iopub],
            env=os.environ | {"STUDIO_DATA": data},
            stdin=subprocess.DEVNULL,
        )
        try:
            wait_until_ready(context, hoot, process)
            yield hoot, iopub
        finally:
            process.terminate()
            process.wait(timeout=10)


def wait_until_ready(
    context: zmq.Context[zmq.Socket[bytes]], endpoint: str, process: subprocess.Popen[bytes], timeout: float = 30.0
) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"studio exited with status {process.returncode} before serving HOOT01")
        with Peer(context, endpoint) as peer:
            if peer.heartbeat(timeout_ms=200) is not None:
                return
    raise RuntimeError(f"studio did not answer a Heartbeat on {endpoint} within {timeout} s")


@pytest.fixture
def peer(context: zmq.Context[zmq.Socket[bytes]], endpoints: tuple[str, str]) -> Iterator[Peer]:
    with Peer(context, endpoints[0]) as peer:
        yield peer
