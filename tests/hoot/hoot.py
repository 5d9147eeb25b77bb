"""A HOOT01 peer written from docs/wire.md: frames, commands, call bodies
and replies, over a pyzmq DEALER socket."""

from __future__ import annotations

import time
import uuid
from dataclasses import dataclass
from types import TracebackType
from typing import Any

import msgpack
import zmq

MAGIC = b"HOOT01"

REQUEST = 0x01
REPLY = 0x02
HEARTBEAT = 0x03
CANCEL = 0x04
READY = 0x05
DISCONNECT = 0x06

NONE = 0x00
MSGPACK = 0x01
RAW_BINARY = 0x02

# The keys of a non-final Reply; every other answer is final.
STREAM_KEYS = ("stream_start", "stream_chunk", "stream_end")


@dataclass
class Message:
    """One HOOT01 message as received: the seven frames, read."""

    command: int
    content_type: int
    request_id: bytes
    service: bytes
    traceparent: bytes
    body: bytes

    def envelope(self) -> dict[str, Any]:
        assert self.content_type == MSGPACK, f"a Reply body is MsgPack, got content type {self.content_type}"
        value = msgpack.unpackb(self.body, raw=False)
        assert isinstance(value, dict) and len(value) == 1, f"an envelope is a one-entry map, got {value!r}"
        return value

    def is_final(self) -> bool:
        return next(iter(self.envelope())) not in STREAM_KEYS


def frames(
    command: int,
    content_type: int,
    request_id: bytes,
    body: bytes = b"",
    service: bytes = b"",
    traceparent: bytes = b"",
) -> list[bytes]:
    return [MAGIC, bytes([command]), bytes([content_type]), request_id, service, traceparent, body]


def call_body(request: dict[str, Any], wait_ms: int | None = None, stream: bool = False) -> bytes:
    """`{"request": {...}, "wait_ms"?, "stream"?}`, keys in the documented order."""
    body: dict[str, Any] = {"request": request}
    if wait_ms is not None:
        body["wait_ms"] = wait_ms
    if stream:
        body["stream"] = True
    return msgpack.packb(body, use_bin_type=True)


def new_id() -> bytes:
    return uuid.uuid4().bytes


@dataclass
class Curve:
    """A CURVE client's keys and the server's public key, Z85 as bytes."""

    public: bytes
    secret: bytes
    server: bytes

    def secure(self, socket: zmq.Socket[bytes]) -> None:
        socket.curve_publickey = self.public
        socket.curve_secretkey = self.secret
        socket.curve_serverkey = self.server


class Peer:
    """A DEALER connected to a HOOT01 server; with `curve`, a CURVE client."""

    def __init__(self, context: zmq.Context[zmq.Socket[bytes]], endpoint: str, curve: Curve | None = None) -> None:
        self.socket = context.socket(zmq.DEALER)
        self.socket.setsockopt(zmq.LINGER, 0)
        if curve is not None:
            curve.secure(self.socket)
        self.socket.connect(endpoint)

    def __enter__(self) -> Peer:
        return self

    def __exit__(
        self, kind: type[BaseException] | None, error: BaseException | None, trace: TracebackType | None
    ) -> None:
        self.socket.close(linger=0)

    def send(self, parts: list[bytes]) -> None:
        self.socket.send_multipart(parts)

    def receive(self, timeout_ms: int = 5000) -> Message | None:
        if not self.socket.poll(timeout_ms):
            return None
        parts = self.socket.recv_multipart()
        assert len(parts) == 7, f"a HOOT01 message is 7 frames, got {len(parts)}: {parts!r}"
        magic, command, content_type, request_id, service, traceparent, body = parts
        assert magic == MAGIC, magic
        assert len(command) == 1 and len(content_type) == 1, (command, content_type)
        assert len(request_id) == 16, request_id
        return Message(command[0], content_type[0], request_id, service, traceparent, body)

    def request(
        self, request: dict[str, Any], wait_ms: int | None = None, stream: bool = False, request_id: bytes | None = None
    ) -> bytes:
        request_id = request_id or new_id()
        self.send(frames(REQUEST, MSGPACK, request_id, call_body(request, wait_ms, stream)))
        return request_id

    def replies(self, request_id: bytes, timeout_ms: int = 10000) -> list[dict[str, Any]]:
        """Every Reply to `request_id` up to and including the final one."""
        deadline = time.monotonic() + timeout_ms / 1000
        answers: list[dict[str, Any]] = []
        while True:
            left = int((deadline - time.monotonic()) * 1000)
            message = self.receive(max(left, 1))
            assert message is not None, f"no final Reply within {timeout_ms} ms; got {answers!r}"
            if message.request_id != request_id:
                continue
            assert message.command == REPLY, f"expected a Reply, got command {message.command}"
            assert message.service == b"", "the runtime's Replies leave the service empty"
            answers.append(message.envelope())
            if message.is_final():
                return answers

    def call(self, request: dict[str, Any], wait_ms: int | None = None) -> dict[str, Any]:
        """The final answer of one call."""
        return self.replies(self.request(request, wait_ms))[-1]

    def heartbeat(self, timeout_ms: int = 5000) -> Message | None:
        request_id = new_id()
        self.send(frames(HEARTBEAT, NONE, request_id))
        deadline = time.monotonic() + timeout_ms / 1000
        while (left := int((deadline - time.monotonic()) * 1000)) > 0:
            message = self.receive(left)
            if message is None:
                return None
            if message.request_id == request_id:
                return message
        return None
