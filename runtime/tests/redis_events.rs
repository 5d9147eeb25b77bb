//! SSE streams whose events are kept in Redis (a server of the test's
//! own), shared by two replicas: a client resumes with `Last-Event-ID` on
//! the other replica and gets what it missed; on the same replica a
//! stream goes on live, as without Redis; without Redis a call is still
//! answered.

mod support;

use std::time::Instant;

use http_body_util::{BodyExt, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, StatusCode, header};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use support::http::{Answer, Server, post, request, session};
use support::redis::RedisServer;
use support::{SOON, dispatcher};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use toolwright::DispatcherConfig;
use toolwright::mcp::{HttpConfig, McpServer, RedisSessions};

const REVISION: &str = "2025-11-25";

/// A replica of the server, keeping its sessions (and so its streams'
/// events) in the Redis at `url`.
async fn replica(url: &str) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let server = McpServer::new(dispatcher(DispatcherConfig::default()))
        .expect("the schema parses")
        .sessions(RedisSessions::open(url).expect("opens"));
    let config = HttpConfig::default().shutdown(stop.clone());
    tokio::spawn(server.serve_http_on(listener, config));
    Server { addr, stop }
}

/// One SSE event.
#[derive(Clone, Debug, PartialEq)]
struct Event {
    id: Option<String>,
    data: Option<Value>,
    retry: Option<String>,
}

/// The events of an event stream's text (comments left out).
fn events(body: &str) -> Vec<Event> {
    body.split("\n\n").filter_map(event).collect()
}

fn event(block: &str) -> Option<Event> {
    let mut event = Event {
        id: None,
        data: None,
        retry: None,
    };
    for line in block.lines() {
        if let Some(id) = line.strip_prefix("id:") {
            event.id = Some(id.trim().to_owned());
        } else if let Some(data) = line.strip_prefix("data:") {
            event.data = serde_json::from_str(data.trim()).ok();
        } else if let Some(retry) = line.strip_prefix("retry:") {
            event.retry = Some(retry.trim().to_owned());
        }
    }
    (event.id.is_some() || event.data.is_some()).then_some(event)
}

fn headers<'a>(session: &'a str, extra: &[(&'a str, &'a str)]) -> Vec<(&'a str, &'a str)> {
    let mut headers = vec![
        ("mcp-session-id", session),
        ("mcp-protocol-version", REVISION),
    ];
    headers.extend_from_slice(extra);
    headers
}

fn call(id: u64, tool: &str, arguments: Value, meta: Value) -> String {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": meta}
    })
    .to_string()
}

/// Starts a `generate` job on `server`; returns its id.
async fn generate(server: &Server, session: &str, chunks: u32, interval_ms: u64) -> String {
    let args = json!({"chunks": chunks, "interval_ms": interval_ms});
    let answer = post(
        server,
        &headers(session, &[]),
        call(1, "generate", args, json!({})),
    )
    .await;
    answer.message()["result"]["structuredContent"]["job_id"]
        .as_str()
        .unwrap_or_else(|| panic!("a job handle: {}", answer.body))
        .to_owned()
}

/// A `job_poll` on `job`, with a progress token: its chunks come as
/// progress notifications on the call's stream, then the answer.
fn poll(job: &str) -> String {
    call(
        2,
        "job_poll",
        json!({"job_ids": [job], "timeout_ms": 30_000}),
        json!({"progressToken": "p"}),
    )
}

/// A `GET` resuming a stream after `last`.
async fn resume(server: &Server, session: &str, last: &str) -> Answer {
    request(
        server,
        Method::GET,
        "/mcp",
        &headers(session, &[("last-event-id", last)]),
        Bytes::new(),
    )
    .await
}

fn is_answer(event: &Event) -> bool {
    event
        .data
        .as_ref()
        .is_some_and(|data| data.get("result").is_some() || data.get("error").is_some())
}

#[tokio::test]
async fn a_stream_begun_on_one_replica_resumes_on_another() {
    let redis = RedisServer::start();
    let a = replica(&redis.url()).await;
    let b = replica(&redis.url()).await;
    let id = session(&a, REVISION, &[]).await;
    let job = generate(&a, &id, 4, 10).await;

    let polled = post(&a, &headers(&id, &[]), poll(&job)).await;
    assert_eq!(polled.status, StatusCode::OK);
    let sent = events(&polled.body);
    // A `retry` hint first, then progress, then the answer: every one
    // with an id.
    assert!(sent.len() >= 4, "{}", polled.body);
    assert!(sent.iter().all(|event| event.id.is_some()), "{sent:?}");
    assert!(
        sent[0].retry.is_some() && sent[0].data.is_none(),
        "{sent:?}"
    );
    assert!(is_answer(sent.last().expect("events")), "{sent:?}");

    // The client missed all after the first progress: B, where the
    // session never was, replays them from Redis, in order, with their
    // ids, and ends the stream.
    let last = sent[1].id.clone().expect("an id");
    let resumed = resume(&b, &id, &last).await;
    assert_eq!(resumed.status, StatusCode::OK, "{}", resumed.body);
    assert_eq!(events(&resumed.body), sent[2..], "{}", resumed.body);

    // From the last event on, there is nothing more.
    let last = sent
        .last()
        .and_then(|event| event.id.clone())
        .expect("an id");
    assert_eq!(events(&resume(&b, &id, &last).await.body), []);

    // The session goes on on B.
    let answer = post(
        &b,
        &headers(&id, &[]),
        call(3, "add", json!({"a": 2, "b": 3}), json!({})),
    )
    .await;
    assert_eq!(answer.message()["result"]["structuredContent"]["result"], 5);
}

#[tokio::test]
async fn an_unknown_or_foreign_event_id_resumes_nothing() {
    let redis = RedisServer::start();
    let a = replica(&redis.url()).await;
    let b = replica(&redis.url()).await;
    let id = session(&a, REVISION, &[]).await;
    let job = generate(&a, &id, 2, 10).await;
    let polled = post(&a, &headers(&id, &[]), poll(&job)).await;
    let first = events(&polled.body)[0].id.clone().expect("an id");

    // rmcp answers a resumption it cannot make with an empty stream that
    // ends at once, so that an EventSource does not retry it forever.
    let other = session(&b, REVISION, &[]).await;
    for (session, last) in [
        (id.as_str(), "garbage"),
        (id.as_str(), "123456789012345678"),
        (id.as_str(), "3/7"),
        // Another session's stream is not replayed to it.
        (other.as_str(), first.as_str()),
    ] {
        let asked = Instant::now();
        let answer = resume(&b, session, last).await;
        assert_eq!(answer.status, StatusCode::OK, "{last}: {}", answer.body);
        assert_eq!(events(&answer.body), [], "{last}: {}", answer.body);
        assert!(asked.elapsed() < SOON, "{last}");
    }
    // An unknown session is rmcp's 404.
    let answer = resume(&b, "no-such-session", &first).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.body);
}

/// A request whose response body is read event by event.
async fn open(server: &Server, extra: &[(&str, &str)], method: Method, body: String) -> Incoming {
    let stream = TcpStream::connect(server.addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(connection);
    let mut request = Request::builder()
        .method(method)
        .uri("/mcp")
        .header(header::HOST, server.addr.to_string())
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream")
        .body(Full::new(Bytes::from(body)))
        .expect("a request");
    for (name, value) in extra {
        let name = header::HeaderName::from_bytes(name.as_bytes()).expect("a header name");
        request
            .headers_mut()
            .insert(name, value.parse().expect("a header value"));
    }
    let response = tokio::time::timeout(SOON, sender.send_request(request))
        .await
        .expect("answered in time")
        .expect("an answer");
    assert_eq!(response.status(), StatusCode::OK);
    response.into_body()
}

/// Reads `body` until `enough` holds of the events so far (or it ends).
async fn read_until(body: &mut Incoming, enough: impl Fn(&[Event]) -> bool) -> Vec<Event> {
    let mut text = String::new();
    loop {
        let so_far = events(&text);
        if enough(&so_far) {
            return so_far;
        }
        let frame = tokio::time::timeout(SOON, body.frame())
            .await
            .expect("an event in time");
        let Some(frame) = frame else {
            return so_far;
        };
        if let Ok(data) = frame.expect("a frame").into_data() {
            text.push_str(&String::from_utf8_lossy(&data));
        }
    }
}

#[tokio::test]
async fn on_the_same_replica_a_resumed_stream_goes_on_live() {
    let redis = RedisServer::start();
    let a = replica(&redis.url()).await;
    let id = session(&a, REVISION, &[]).await;
    // Long enough that most of it comes after the client is back.
    let job = generate(&a, &id, 30, 50).await;

    let mut body = open(&a, &headers(&id, &[]), Method::POST, poll(&job)).await;
    let seen = read_until(&mut body, |events| events.len() >= 3).await;
    drop(body);
    let last = seen
        .last()
        .and_then(|event| event.id.clone())
        .expect("an id");

    // Resumed where it was: the events after it, then (live, long after
    // the resumption) the rest and the answer; the ids go on counting.
    let last_index: u64 = last.parse().expect("a number");
    let resumed = open(
        &a,
        &headers(&id, &[("last-event-id", &last)]),
        Method::GET,
        String::new(),
    )
    .await;
    let mut resumed = resumed;
    let rest = read_until(&mut resumed, |events| events.iter().any(is_answer)).await;
    assert!(rest.iter().any(is_answer), "{rest:?}");
    let progress = rest.iter().filter(|event| event.data.is_some()).count();
    assert!(progress >= 20, "{rest:?}");
    for (n, event) in rest.iter().enumerate() {
        let index: u64 = event
            .id
            .as_deref()
            .expect("an id")
            .parse()
            .expect("a number");
        assert_eq!(index, last_index + 1 + n as u64, "{rest:?}");
    }
}

#[tokio::test]
async fn without_redis_a_call_is_still_answered() {
    let mut redis = RedisServer::start();
    let a = replica(&redis.url()).await;
    let id = session(&a, REVISION, &[]).await;
    redis.kill();

    // Its events cannot be kept: the call is answered all the same, on a
    // stream this replica alone can resume.
    let asked = Instant::now();
    let answer = post(
        &a,
        &headers(&id, &[]),
        call(5, "add", json!({"a": 2, "b": 3}), json!({})),
    )
    .await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.message()["result"]["structuredContent"]["result"], 5);
    assert!(asked.elapsed() < SOON);
    let sent = events(&answer.body);
    assert!(sent.iter().all(|event| event.id.is_some()), "{sent:?}");

    // Once answered, its stream is no longer followed here, and Redis
    // has nothing to replay: an empty stream, soon.
    let first = sent[0].id.clone().expect("an id");
    let asked = Instant::now();
    let resumed = resume(&a, &id, &first).await;
    assert_eq!(resumed.status, StatusCode::OK);
    assert_eq!(events(&resumed.body), [], "{}", resumed.body);
    assert!(asked.elapsed() < SOON);
}
