//! What `docs/wire.md` says of HOOT01 that only a running server shows:
//! which body sizes are answered and which make libzmq drop the peer,
//! which refused Requests IOPub publishes, and how a stream cut off by its
//! wait budget ends.
#![cfg(feature = "hoot")]

mod support;

use std::time::Duration;

use support::*;
use toolwright::hoot::{
    self, Client, ClientConfig, Command, Message, RequestId, Server, ServerConfig,
};
use toolwright::port::{CallOptions, CallPort, StreamEvent};
use toolwright::{DispatcherConfig, ResponseEnvelope, codes};

/// A raw DEALER connected to `endpoint`, its receives bounded by `SOON`.
fn dealer(context: &zmq::Context, endpoint: &str) -> zmq::Socket {
    let dealer = context.socket(zmq::DEALER).expect("a socket");
    dealer
        .set_rcvtimeo(i32::try_from(SOON.as_millis()).expect("fits"))
        .expect("timeout");
    dealer.connect(endpoint).expect("connect");
    dealer
}

fn send(dealer: &zmq::Socket, message: Message) {
    dealer
        .send_multipart(hoot::encode(message), 0)
        .expect("send");
}

fn receive(dealer: &zmq::Socket) -> Message {
    let frames = dealer.recv_multipart(0).expect("an answer");
    hoot::decode(frames, 1 << 20).expect("a HOOT01 message")
}

fn add_body(a: i64) -> Vec<u8> {
    hoot::encode_call(
        &encode(&ToolRequest::Add(MathOperands { a, b: 1 })),
        None,
        false,
    )
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn bodies_up_to_4096_bytes_over_the_limit_are_answered_and_larger_ones_drop_the_peer() {
    const MAX: usize = 1024;
    let d = dispatcher(DispatcherConfig::default());
    let server = Server::serve(d, ServerConfig::new("tcp://127.0.0.1:0").max_body(MAX))
        .expect("the server binds");
    let context = zmq::Context::new();
    let dealer = dealer(&context, server.endpoint());
    send(&dealer, Message::heartbeat(RequestId::new()));
    assert_eq!(receive(&dealer).command, Command::Ready, "a new peer");

    // Up to the limit the frame is read and the body judged as a call
    // body; past it, up to libzmq's limit 4096 bytes further, the frame is
    // answered as too large.
    for (len, says) in [
        (MAX, "call body"),
        (MAX + 1, "more than the limit of 1024"),
        (MAX + 4096, "more than the limit of 1024"),
    ] {
        let id = RequestId::new();
        send(&dealer, Message::request(id, "", vec![0xc0; len]));
        let answer = receive(&dealer);
        assert_eq!(answer.request_id, id);
        let refused = decode(&answer.body);
        let e = error(&refused);
        assert_eq!(e.code, codes::INVALID_REQUEST, "{len} bytes");
        assert!(e.message.contains(says), "{len} bytes: {}", e.message);
    }

    // One byte more and libzmq drops the connection unanswered: the
    // DEALER reconnects, and the server greets it as a peer it has not
    // seen (Ready, not Heartbeat), with nothing answered in between.
    // Heartbeats written behind the large frame go down with the
    // connection, so they are sent until one is answered.
    send(
        &dealer,
        Message::request(RequestId::new(), "", vec![0xc0; MAX + 4097]),
    );
    dealer.set_rcvtimeo(100).expect("timeout");
    let mut beats = Vec::new();
    let answer = tokio::time::timeout(SOON, async {
        loop {
            let beat = RequestId::new();
            beats.push(beat);
            send(&dealer, Message::heartbeat(beat));
            if let Ok(frames) = dealer.recv_multipart(0) {
                return hoot::decode(frames, 1 << 20).expect("a HOOT01 message");
            }
        }
    })
    .await
    .expect("a Heartbeat is answered once the DEALER has reconnected");
    assert_eq!(answer.command, Command::Ready, "{answer:?}");
    assert!(beats.contains(&answer.request_id), "{answer:?}");
    dealer
        .set_rcvtimeo(i32::try_from(SOON.as_millis()).expect("fits"))
        .expect("timeout");
    assert_eq!(server.stats().refused, 3);
    // The server goes on serving (past the answers to any later
    // Heartbeats).
    let id = RequestId::new();
    send(&dealer, Message::request(id, "", add_body(1)));
    let answer = std::iter::repeat_with(|| receive(&dealer))
        .find(|m| m.command == Command::Reply)
        .expect("a Reply");
    assert_eq!(answer.request_id, id);
    assert_eq!(
        decode(&answer.body),
        ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 2 }))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn iopub_publishes_the_calls_a_server_took_and_none_it_refused() {
    let d = dispatcher(DispatcherConfig::default());
    let config = ServerConfig::new("tcp://127.0.0.1:0")
        .iopub("tcp://127.0.0.1:0")
        .service("a")
        .max_in_flight(1);
    let server = Server::serve(d, config).expect("the server binds");
    let context = zmq::Context::new();
    let subscriber = context.socket(zmq::SUB).expect("a socket");
    subscriber.set_subscribe(b"call/").expect("subscribe");
    subscriber
        .connect(server.iopub_endpoint().expect("IOPub"))
        .expect("connect");
    subscriber.set_rcvtimeo(100).expect("timeout");
    let dealer = dealer(&context, server.endpoint());

    // A subscriber sees only what is published after it has joined: call
    // until it sees a call.
    let joined = tokio::time::timeout(SOON, async {
        loop {
            send(&dealer, Message::request(RequestId::new(), "", add_body(1)));
            receive(&dealer);
            if subscriber.recv_multipart(0).is_ok() {
                return;
            }
        }
    })
    .await;
    assert!(joined.is_ok(), "the subscriber joins");

    // One call in flight, as many as the server takes.
    let taken = server.stats().calls;
    let long = RequestId::new();
    let sleep = encode(&ToolRequest::Sleep(DelayRequest { ms: 60_000 }));
    send(
        &dealer,
        Message::request(long, "a", hoot::encode_call(&sleep, None, false)),
    );
    let in_flight = tokio::time::timeout(SOON, async {
        while server.stats().calls == taken {
            tokio::time::sleep(Duration::from_millis(5)).await;
        }
    })
    .await;
    assert!(in_flight.is_ok(), "the long call is taken");
    // Refused: one past the calls in flight, then (the long call
    // cancelled) a body that is not a call body and another service.
    // Taken: an unknown tool, which the port answers, and a last call.
    let busy = RequestId::new();
    send(&dealer, Message::request(busy, "a", add_body(1)));
    let code = |answer: &Message| error(&decode(&answer.body)).code.to_string();
    assert_eq!(code(&receive(&dealer)), codes::BUSY);
    send(&dealer, Message::cancel(long));
    assert_eq!(code(&receive(&dealer)), codes::CANCELLED);
    let garbage = RequestId::new();
    send(&dealer, Message::request(garbage, "a", vec![0xc0]));
    assert_eq!(code(&receive(&dealer)), codes::INVALID_REQUEST);
    let elsewhere = RequestId::new();
    send(&dealer, Message::request(elsewhere, "z", add_body(1)));
    assert_eq!(code(&receive(&dealer)), codes::UNKNOWN_SERVICE);
    let unknown = RequestId::new();
    send(
        &dealer,
        Message::request(
            unknown,
            "a",
            hoot::encode_call(b"\x81\xa4tool\xa4addd", None, false),
        ),
    );
    assert_eq!(code(&receive(&dealer)), codes::UNKNOWN_TOOL);
    let last = RequestId::new();
    send(&dealer, Message::request(last, "a", add_body(1)));
    receive(&dealer);

    // What was published, up to the last call's completion.
    let mut topics = Vec::new();
    let mut unknown_code = None;
    let last_done = format!("call/add/{last}/complete");
    subscriber
        .set_rcvtimeo(i32::try_from(SOON.as_millis()).expect("fits"))
        .expect("timeout");
    while topics.last() != Some(&last_done) {
        let frames = subscriber.recv_multipart(0).expect("published");
        let topic = String::from_utf8(frames[0].clone()).expect("a UTF-8 topic");
        if topic == format!("call/addd/{unknown}/complete") {
            let body: serde_json::Value =
                toolwright::codec::from_msgpack(&frames[1], Default::default()).expect("MsgPack");
            unknown_code = body["code"].as_str().map(str::to_owned);
        }
        topics.push(topic);
    }
    let of = |id: RequestId| -> Vec<&str> {
        let id = id.to_string();
        topics
            .iter()
            .filter(|t| t.contains(&id))
            .map(String::as_str)
            .collect()
    };
    assert_eq!(
        of(long),
        [
            format!("call/sleep/{long}/start"),
            format!("call/sleep/{long}/complete")
        ]
    );
    assert_eq!(
        of(unknown),
        [
            format!("call/addd/{unknown}/start"),
            format!("call/addd/{unknown}/complete")
        ]
    );
    assert_eq!(unknown_code.as_deref(), Some(codes::UNKNOWN_TOOL));
    for refused in [busy, garbage, elsewhere] {
        assert!(
            of(refused).is_empty(),
            "{refused} was published: {topics:?}"
        );
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_cut_off_by_its_wait_budget_has_no_stream_end() {
    let d = dispatcher(DispatcherConfig::default());
    let server =
        Server::serve(d, ServerConfig::new("tcp://127.0.0.1:0")).expect("the server binds");
    let client = Client::<ToolCatalogue>::connect(&[server.endpoint()], ClientConfig::default())
        .expect("connect");
    assert!(client.ready(SOON).await);
    let (tx, mut rx) = toolwright::port::stream_channel();
    // Far longer than its wait: 1,000,000 chunks a second apart.
    let generate = ToolRequest::Generate(GenerateRequest {
        chunks: 1_000_000,
        interval_ms: 1_000,
    });
    let options = CallOptions::default()
        .wait(Duration::from_millis(100))
        .stream_to(tx);
    let answer = client.call(encode(&generate), options).await;
    let job_id = started(&answer);
    let mut events = Vec::new();
    while let Ok(event) = rx.try_recv() {
        events.push(event);
    }
    assert_eq!(
        events.first(),
        Some(&StreamEvent::Start {
            job_id: job_id.clone(),
            tool: "generate".into()
        })
    );
    assert!(
        !events.iter().any(|e| matches!(e, StreamEvent::End { .. })),
        "{events:?}"
    );
    let cancelled = client.job_cancel(&job_id, None).await.expect("job_cancel");
    assert!(cancelled.cancelled);
}
