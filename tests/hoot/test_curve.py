"""HOOT01 with CURVE, from outside: the studio serving with `--curve-secret`
and `--curve-allow`, its keys made by `studio keygen`, the client's by
pyzmq (`zmq.auth`). A client whose key is allowed is answered, over HOOT01
and on IOPub; one with another key, and one speaking plain text, get
nothing, and the studio counts each refusal when it stops."""

from __future__ import annotations

import os
import re
import subprocess
import tempfile
import time
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
import zmq
import zmq.auth

from conftest import free_port, studio_bin
from hoot import Curve, Peer

# How long a refused peer is given to get an answer anyway.
REFUSED_MS = 1500


@dataclass
class Backend:
    """A studio serving HOOT01 and IOPub with CURVE."""

    hoot: str
    iopub: str
    allowed: Curve
    server_key: bytes
    process: subprocess.Popen[bytes]
    log: Path

    def stop(self) -> tuple[int, int]:
        """Stops it; the handshakes it refused because of the client's key,
        and those that failed otherwise, as it reported them."""
        self.process.terminate()
        self.process.wait(timeout=15)
        said = self.log.read_text()
        found = re.search(r"CURVE handshakes refused: (\d+) \(client key not allowed\), (\d+) failed", said)
        assert found, f"no CURVE report in what the studio said:\n{said}"
        return int(found.group(1)), int(found.group(2))


def stranger(backend: Backend) -> Curve:
    """Keys the backend does not allow, which know its public key."""
    public, secret = zmq.curve_keypair()
    return Curve(public, secret, backend.server_key)


@pytest.fixture
def backend(context: zmq.Context[zmq.Socket[bytes]]) -> Iterator[Backend]:
    assert zmq.has("curve"), "pyzmq's libzmq has no CURVE"
    with tempfile.TemporaryDirectory(prefix="studio-curve-") as scratch:
        root = Path(scratch)
        subprocess.run([str(studio_bin()), "keygen", str(root / "server")], check=True, capture_output=True)
        server_key, no_secret = zmq.auth.load_certificate(root / "server.pub")
        assert no_secret is None
        server_public, server_secret = zmq.auth.load_certificate(root / "server")
        assert server_public == server_key and server_secret is not None
        allow = root / "allow"
        allow.mkdir()
        client_public_file, client_secret_file = zmq.auth.create_certificates(allow, "gateway")
        public, secret = zmq.auth.load_certificate(client_secret_file)
        assert secret is not None
        hoot = f"tcp://127.0.0.1:{free_port()}"
        iopub = f"tcp://127.0.0.1:{free_port()}"
        log = root / "studio.log"
        with log.open("wb") as stderr:
            process = subprocess.Popen(
                [str(studio_bin()), "serve", "--hoot", hoot, "--iopub", iopub,
                 "--curve-secret", str(root / "server"), "--curve-allow", str(allow)],
                env=os.environ | {"STUDIO_DATA": str(root / "data")},
                stdin=subprocess.DEVNULL,
                stderr=stderr,
            )
        backend = Backend(hoot, iopub, Curve(public, secret, server_key), server_key, process, log)
        try:
            wait_until_answered(context, backend)
            yield backend
        finally:
            if process.poll() is None:
                process.kill()
                process.wait()


def wait_until_answered(context: zmq.Context[zmq.Socket[bytes]], backend: Backend, timeout: float = 30.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if backend.process.poll() is not None:
            raise RuntimeError(f"studio exited with status {backend.process.returncode}: {backend.log.read_text()}")
        with Peer(context, backend.hoot, backend.allowed) as peer:
            if peer.heartbeat(timeout_ms=200) is not None:
                return
    raise RuntimeError(f"studio did not answer an allowed Heartbeat within {timeout} s")


def answered(peer: Peer) -> bool:
    """Whether a Heartbeat or a call from `peer` gets any answer within
    REFUSED_MS each. A refused DEALER may have nowhere to queue them (libzmq
    dropped its connection): a send that times out is not answered either."""
    peer.socket.setsockopt(zmq.SNDTIMEO, REFUSED_MS)
    try:
        if peer.heartbeat(timeout_ms=REFUSED_MS) is not None:
            return True
        peer.request({"tool": "add", "a": 2, "b": 40})
    except zmq.Again:
        return False
    return peer.receive(timeout_ms=REFUSED_MS) is not None


def test_a_client_with_an_allowed_key_is_answered(context: zmq.Context[zmq.Socket[bytes]], backend: Backend) -> None:
    with Peer(context, backend.hoot, backend.allowed) as peer:
        assert answered(peer)
        assert peer.call({"tool": "add", "a": 2, "b": 40}) == {"success": {"tool": "add", "result": 42}}
    assert backend.stop() == (0, 0)


def test_a_client_with_a_key_not_allowed_gets_nothing_and_is_counted(
    context: zmq.Context[zmq.Socket[bytes]], backend: Backend
) -> None:
    with Peer(context, backend.hoot, stranger(backend)) as peer:
        assert not answered(peer)
    refused, _ = backend.stop()
    assert refused >= 1


def test_a_plain_text_client_gets_nothing_and_is_counted(
    context: zmq.Context[zmq.Socket[bytes]], backend: Backend
) -> None:
    with Peer(context, backend.hoot) as peer:
        assert not answered(peer)
    refused, failed = backend.stop()
    assert (refused, failed >= 1) == (0, True)


def test_only_an_allowed_subscriber_hears_iopub(context: zmq.Context[zmq.Socket[bytes]], backend: Backend) -> None:
    subscribers = []
    for curve in (backend.allowed, stranger(backend)):
        subscriber = context.socket(zmq.SUB)
        subscriber.setsockopt(zmq.LINGER, 0)
        curve.secure(subscriber)
        subscriber.setsockopt(zmq.SUBSCRIBE, b"call/")
        subscriber.connect(backend.iopub)
        subscribers.append(subscriber)
    allowed, refused = subscribers
    try:
        # A SUB receives only what is published after it has joined.
        time.sleep(0.5)
        with Peer(context, backend.hoot, backend.allowed) as peer:
            assert "success" in peer.call({"tool": "add", "a": 1, "b": 1})
        assert allowed.poll(5000), "the allowed subscriber heard nothing"
        topic, _ = allowed.recv_multipart()
        assert topic.startswith(b"call/add/"), topic
        assert not refused.poll(500), "a subscriber with a key not allowed heard the call"
    finally:
        for subscriber in subscribers:
            subscriber.close(linger=0)
    refused_count, _ = backend.stop()
    assert refused_count >= 1
