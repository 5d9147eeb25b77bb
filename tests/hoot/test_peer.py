"""A HOOT01 peer written from docs/wire.md alone (pyzmq and msgpack, no
project code) against the studio backend: calls and replies, a stream, job
handles and the job tools, cancelling, heartbeats, malformed frames, and
the IOPub feed."""

from __future__ import annotations

import time
import uuid
from typing import Any

import msgpack
import zmq

from hoot import (
    CANCEL,
    DISCONNECT,
    HEARTBEAT,
    MAGIC,
    MSGPACK,
    NONE,
    RAW_BINARY,
    READY,
    REPLY,
    REQUEST,
    Peer,
    call_body,
    frames,
    new_id,
)

# Long enough to cancel: 16 steps of 25 ms for each of 8 variations.
LONG_GENERATION = {"tool": "orpheus_generate", "max_tokens": 8192, "num_variations": 8}


def error_code(answer: dict[str, Any]) -> str:
    assert "error" in answer, f"expected an error, got {answer!r}"
    error = answer["error"]
    assert isinstance(error["message"], str) and error["message"], error
    return str(error["code"])


def test_a_sync_call_is_answered_with_one_reply_carrying_its_id(peer: Peer) -> None:
    request_id = peer.request({"tool": "add", "a": 2, "b": 40})
    message = peer.receive()
    assert message is not None, "no Reply"
    assert message.command == REPLY
    assert message.content_type == MSGPACK
    assert message.request_id == request_id
    assert message.service == b"" and message.traceparent == b""
    assert message.envelope() == {"success": {"tool": "add", "result": 42}}


def test_the_documented_example_bytes_are_answered_as_documented(peer: Peer) -> None:
    # The Request of docs/wire.md's example, byte for byte, with its traceparent.
    request_id = bytes.fromhex("5f0c6d7e1a2b4c3d8e9fa0b1c2d3e4f5")
    body = bytes.fromhex("81a7726571756573748" "3a4746f6f6ca3616464a16101a16202")
    traceparent = b"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"
    peer.send([MAGIC, b"\x01", b"\x01", request_id, b"", traceparent, body])
    message = peer.receive()
    assert message is not None
    assert message.request_id == request_id
    assert message.body == bytes.fromhex("81a773756363657373" "82a4746f6f6ca3616464a6726573756c7403")


def test_pipelined_calls_are_each_answered_under_their_own_id(peer: Peer) -> None:
    ids = {peer.request({"tool": "add", "a": n, "b": n}): 2 * n for n in range(50)}
    seen: dict[bytes, int] = {}
    while len(seen) < len(ids):
        message = peer.receive()
        assert message is not None, f"{len(ids) - len(seen)} calls unanswered"
        assert message.request_id in ids and message.request_id not in seen
        seen[message.request_id] = message.envelope()["success"]["result"]
    assert seen == ids


def test_typed_errors_come_back_with_their_codes(peer: Peer) -> None:
    overflow = peer.call({"tool": "multiply", "a": 4611686018427387904, "b": 2})
    assert error_code(overflow) == "OVERFLOW"
    assert error_code(peer.call({"tool": "addd"})) == "UNKNOWN_TOOL"
    wrong = peer.call({"tool": "add", "a": "two", "b": 1})
    assert error_code(wrong) == "INVALID_REQUEST"
    assert "`a`" in wrong["error"]["message"]


def test_a_body_that_is_not_a_call_body_is_refused_and_the_key_named(peer: Peer) -> None:
    request_id = new_id()
    body = msgpack.packb({"request": {"tool": "add", "a": 1, "b": 2}, "wait": 5})
    peer.send(frames(REQUEST, MSGPACK, request_id, body))
    [answer] = peer.replies(request_id)
    assert error_code(answer) == "INVALID_REQUEST"
    assert "wait" in answer["error"]["message"]

    request_id = new_id()
    peer.send(frames(REQUEST, MSGPACK, request_id, b"\xc1\xff\x00garbage"))
    assert error_code(peer.replies(request_id)[0]) == "INVALID_REQUEST"


def test_an_async_long_call_answers_a_job_handle_the_job_tools_follow(peer: Peer) -> None:
    started = peer.call({"tool": "orpheus_generate", "max_tokens": 256})
    handle = started["job_started"]
    assert handle["tool"] == "orpheus_generate" and handle["expected_timing"] == "async_long"
    polled = peer.call({"tool": "job_poll", "job_ids": [handle["job_id"]], "timeout_ms": 10000, "mode": "all"})
    assert polled["success"]["completed"] == [handle["job_id"]], polled
    status = peer.call({"tool": "job_status", "job_id": handle["job_id"]})["success"]
    assert status["state"] == "complete" and status["tool_name"] == "orpheus_generate", status


def test_a_streaming_call_waited_on_sends_its_stream_then_its_answer(peer: Peer) -> None:
    request_id = peer.request({"tool": "orpheus_generate", "max_tokens": 384}, wait_ms=30000, stream=True)
    answers = peer.replies(request_id)
    kinds = [next(iter(a)) for a in answers]
    assert kinds[0] == "stream_start" and kinds[-2:] == ["stream_end", "success"], kinds
    assert set(kinds[1:-2]) == {"stream_chunk"}, kinds
    job_id = answers[0]["stream_start"]["job_id"]
    chunks = [a["stream_chunk"] for a in answers[1:-2]]
    assert [c["seq"] for c in chunks] == list(range(len(chunks)))
    assert all(c["job_id"] == job_id for c in chunks)
    assert answers[-2]["stream_end"] == {"job_id": job_id, "chunks": len(chunks)}
    # A chunk is the MsgPack of the tool's stream type, carried as bin.
    first = msgpack.unpackb(chunks[0]["chunk"], raw=False)
    assert first == {"model_loaded": {}}, first
    assert answers[-1]["success"]["tool"] == "orpheus_generate"


def test_wait_ms_zero_answers_a_job_handle_at_once_without_a_stream(peer: Peer) -> None:
    request_id = peer.request({"tool": "orpheus_generate", "max_tokens": 256}, wait_ms=0, stream=True)
    [answer] = peer.replies(request_id)
    assert "job_started" in answer, answer


def test_cancel_stops_the_call_and_its_final_reply_says_so(peer: Peer) -> None:
    request_id = peer.request(LONG_GENERATION, wait_ms=60000)
    time.sleep(0.1)
    sent = time.monotonic()
    peer.send(frames(CANCEL, NONE, request_id))
    [answer] = peer.replies(request_id, timeout_ms=5000)
    assert error_code(answer) == "CANCELLED"
    assert time.monotonic() - sent < 2.0
    # A Cancel of an id the server does not know is ignored.
    peer.send(frames(CANCEL, NONE, new_id()))
    assert peer.call({"tool": "add", "a": 1, "b": 1}) == {"success": {"tool": "add", "result": 2}}


def test_a_new_peer_gets_ready_then_heartbeats(context: zmq.Context[zmq.Socket[bytes]], endpoints: tuple[str, str]) -> None:
    with Peer(context, endpoints[0]) as fresh:
        first = fresh.heartbeat()
        assert first is not None and first.command == READY, first
        second = fresh.heartbeat()
        assert second is not None and second.command == HEARTBEAT, second
        assert second.content_type == NONE and second.body == b""
        # Disconnect makes the server forget the peer: it is new again.
        fresh.send(frames(DISCONNECT, NONE, bytes(16)))
        time.sleep(0.05)
        again = fresh.heartbeat()
        assert again is not None and again.command == READY, again


def test_messages_without_an_id_to_answer_are_dropped_and_serving_goes_on(peer: Peer) -> None:
    peer.send([MAGIC, b"\x01", b"\x01"])
    peer.send(frames(REQUEST, MSGPACK, b"short-id", call_body({"tool": "add", "a": 1, "b": 2})))
    assert peer.receive(timeout_ms=300) is None
    assert peer.call({"tool": "add", "a": 1, "b": 2}) == {"success": {"tool": "add", "result": 3}}


def test_frame_errors_of_a_request_get_an_invalid_request_reply(peer: Peer) -> None:
    body = call_body({"tool": "add", "a": 1, "b": 2})
    cases = {
        "magic": [b"HOOT02", b"\x01", b"\x01", None, b"", b"", body],
        "content type": [MAGIC, b"\x01", b"\x09", None, b"", b"", body],
        "a RawBinary request": [MAGIC, b"\x01", bytes([RAW_BINARY]), None, b"", b"", body],
        "service": [MAGIC, b"\x01", b"\x01", None, b"\xff\xfe", b"", body],
        "traceparent": [MAGIC, b"\x01", b"\x01", None, b"", b"0" * 56, body],
    }
    for name, parts in cases.items():
        request_id = new_id()
        parts[3] = request_id
        peer.send([p if p is not None else request_id for p in parts])
        message = peer.receive()
        assert message is not None, f"{name}: no Reply"
        assert message.request_id == request_id, name
        answer = message.envelope()
        assert error_code(answer) == "INVALID_REQUEST", (name, answer)
        message_text = answer["error"]["message"]
        assert "HOOT01" in message_text and "frame" in message_text, (name, answer)
    assert peer.call({"tool": "add", "a": 1, "b": 2}) == {"success": {"tool": "add", "result": 3}}


def subscribe(context: zmq.Context[zmq.Socket[bytes]], endpoint: str, *topics: bytes) -> zmq.Socket[bytes]:
    """A SUB to `topics`, given time to join: it only receives what is
    published after it has."""
    subscriber = context.socket(zmq.SUB)
    subscriber.setsockopt(zmq.LINGER, 0)
    subscriber.connect(endpoint)
    for topic in topics:
        subscriber.setsockopt(zmq.SUBSCRIBE, topic)
    time.sleep(0.3)
    return subscriber


def test_a_fire_and_forget_caller_learns_every_outcome_from_iopub(
    context: zmq.Context[zmq.Socket[bytes]], endpoints: tuple[str, str], peer: Peer
) -> None:
    subscriber = subscribe(context, endpoints[1], b"job/", b"call/")
    try:
        # Fire and forget: send, never wait for a Reply. One job succeeds;
        # the other is a fire_and_forget tool whose job fails.
        succeeding = peer.request({"tool": "orpheus_generate", "max_tokens": 128}, wait_ms=0)
        failing = peer.request({"tool": "garden_play"}, wait_ms=0)
        calls: dict[str, dict[str, Any]] = {}
        finished: dict[str, dict[str, Any]] = {}
        topics: dict[str, bytes] = {}
        deadline = time.monotonic() + 10
        while len(finished) < 2 and time.monotonic() < deadline:
            if not subscriber.poll(500):
                continue
            topic, body = subscriber.recv_multipart()
            event = msgpack.unpackb(body, raw=False)
            if topic.startswith(b"call/") and topic.endswith(b"/complete"):
                calls[event["request_id"]] = event
            if topic.startswith(b"job/") and topic.endswith(b"/finished"):
                finished[event["tool"]] = event
                topics[event["tool"]] = topic
        assert set(finished) == {"orpheus_generate", "garden_play"}, finished
        assert finished["orpheus_generate"]["state"] == "complete"
        assert finished["garden_play"]["state"] == "failed"
        assert isinstance(finished["garden_play"]["error_code"], str)
        for tool, event in finished.items():
            assert topics[tool] == f"job/{tool}/{event['job_id']}/finished".encode()
        # Each call's completion names the job it started.
        for request_id, tool in ((succeeding, "orpheus_generate"), (failing, "garden_play")):
            call = calls[str(uuid.UUID(bytes=request_id))]
            assert call["tool"] == tool and call["outcome"] == "job_started", call
            assert call["job_id"] == finished[tool]["job_id"]
    finally:
        subscriber.close(linger=0)


def test_a_subscription_to_one_tool_sees_that_tool_only(
    context: zmq.Context[zmq.Socket[bytes]], endpoints: tuple[str, str], peer: Peer
) -> None:
    subscriber = subscribe(context, endpoints[1], b"job/garden_stop/")
    try:
        peer.request({"tool": "orpheus_generate", "max_tokens": 128}, wait_ms=0)
        peer.request({"tool": "garden_stop"}, wait_ms=0)
        seen: list[bytes] = []
        deadline = time.monotonic() + 10
        while not any(t.endswith(b"/finished") for t in seen) and time.monotonic() < deadline:
            if subscriber.poll(500):
                seen.append(subscriber.recv_multipart()[0])
        assert seen and all(t.startswith(b"job/garden_stop/") for t in seen), seen
        assert seen[0].endswith(b"/started") and seen[-1].endswith(b"/finished"), seen
    finally:
        subscriber.close(linger=0)
