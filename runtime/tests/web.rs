//! The web routes beside MCP (docs/web.md), over a real loopback socket:
//! the tool metadata, the event feed, the call endpoint, TOON over a
//! WebSocket, and the access rules on all of them. And the event hook
//! itself: every call through the port, whatever its timing, reports
//! `tool_start` and `tool_complete`.

mod support;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use futures_util::{SinkExt as _, StreamExt as _};
use http_body_util::{BodyExt as _, Full};
use hyper::body::{Bytes, Incoming};
use hyper::{Method, Request, Response, StatusCode, header};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::broadcast;
use tokio_tungstenite::tungstenite::Message;
use tokio_util::sync::CancellationToken;
use toolwright::events::{Published, ToolSource};
use toolwright::mcp::{HttpConfig, McpServer};
use toolwright::port::{CallOptions, CallPort};
use toolwright::toon::{Decoder, Encoder, MessageType, Stamp, Version};
use toolwright::{Dispatcher, DispatcherConfig};

use support::{SOON, Studio, ToolRequest, dispatcher, encode};

/// A running server and the dispatcher behind it; dropping it stops both.
struct Server {
    addr: SocketAddr,
    port: Dispatcher<Studio>,
    stop: CancellationToken,
}

impl Drop for Server {
    fn drop(&mut self) {
        self.stop.cancel();
    }
}

async fn start(config: HttpConfig) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let port = dispatcher(DispatcherConfig::default());
    let server = McpServer::new(port.clone()).expect("the schema parses");
    tokio::spawn(server.serve_http_on(listener, config.shutdown(stop.clone())));
    Server { addr, port, stop }
}

/// Sends one request; the answer's head, and its body as a stream.
async fn send(
    server: &Server,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> Response<Incoming> {
    let stream = TcpStream::connect(server.addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(connection);
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, server.addr.to_string())
        .header(header::CONTENT_TYPE, "application/json")
        .body(Full::new(Bytes::from(body.to_owned())))
        .expect("a request");
    for (name, value) in headers {
        let name = header::HeaderName::from_bytes(name.as_bytes()).expect("a header name");
        let value = header::HeaderValue::from_str(value).expect("a header value");
        request.headers_mut().insert(name, value);
    }
    tokio::time::timeout(SOON, sender.send_request(request))
        .await
        .expect("answered in time")
        .expect("an answer")
}

/// Sends one request and reads the whole answer.
async fn fetch(
    server: &Server,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, hyper::HeaderMap, String) {
    let (status, headers, body) = fetch_bytes(server, method, path, headers, body).await;
    (status, headers, String::from_utf8_lossy(&body).into_owned())
}

/// Sends one request and reads the whole answer, its body as sent.
async fn fetch_bytes(
    server: &Server,
    method: Method,
    path: &str,
    headers: &[(&str, &str)],
    body: &str,
) -> (StatusCode, hyper::HeaderMap, Bytes) {
    let response = send(server, method, path, headers, body).await;
    let (status, headers) = (response.status(), response.headers().clone());
    let body = tokio::time::timeout(SOON, response.into_body().collect())
        .await
        .expect("the body in time")
        .expect("a body")
        .to_bytes();
    (status, headers, body)
}

async fn post(server: &Server, tool: &str, body: &str) -> (StatusCode, Value) {
    let path = format!("/api/tools/{tool}");
    let (status, _, body) = fetch(server, Method::POST, &path, &[], body).await;
    let value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    (status, value)
}

/// Reads Server-Sent Events from a response body.
struct Sse {
    body: Incoming,
    buffer: String,
}

impl Sse {
    async fn open(server: &Server, query: &str) -> Sse {
        let path = format!("/api/events{query}");
        Sse::of(send(server, Method::GET, &path, &[], "").await)
    }

    /// The events of `response`, which must be an event stream.
    fn of(response: Response<Incoming>) -> Sse {
        assert_eq!(response.status(), StatusCode::OK);
        assert_eq!(
            response.headers()[header::CONTENT_TYPE],
            "text/event-stream"
        );
        Sse {
            body: response.into_body(),
            buffer: String::new(),
        }
    }

    /// The rest of the stream, every event until it ends.
    async fn rest(&mut self) -> Vec<(String, Value)> {
        let mut events = Vec::new();
        loop {
            if self.buffer.contains("\n\n") {
                events.push(self.next().await);
                continue;
            }
            let frame = tokio::time::timeout(SOON, self.body.frame())
                .await
                .expect("the stream ends in time");
            match frame {
                Some(frame) => {
                    if let Ok(data) = frame.expect("a frame").into_data() {
                        self.buffer.push_str(&String::from_utf8_lossy(&data));
                    }
                }
                None => return events,
            }
        }
    }

    /// The next event: its `event:` name and its `data:` as JSON.
    async fn next(&mut self) -> (String, Value) {
        loop {
            if let Some(end) = self.buffer.find("\n\n") {
                let block: String = self.buffer.drain(..end + 2).collect();
                let field = |name: &str| {
                    block
                        .lines()
                        .find_map(|l| l.strip_prefix(name))
                        .map(|v| v.trim_start().to_owned())
                };
                let (Some(event), Some(data)) = (field("event:"), field("data:")) else {
                    continue; // a keep-alive comment
                };
                let data = serde_json::from_str(&data).unwrap_or_else(|e| panic!("{e}: {data}"));
                return (event, data);
            }
            let frame = tokio::time::timeout(SOON, self.body.frame())
                .await
                .expect("an event in time")
                .expect("the stream is open")
                .expect("a frame");
            if let Ok(data) = frame.into_data() {
                self.buffer.push_str(&String::from_utf8_lossy(&data));
            }
        }
    }
}

/// The next event from a hub subscription.
async fn next_event(events: &mut broadcast::Receiver<Arc<Published>>) -> Value {
    let event = tokio::time::timeout(SOON, events.recv())
        .await
        .expect("an event in time")
        .expect("an event");
    let value: Value = serde_json::from_str(event.json()).expect("JSON");
    assert_eq!(value, serde_json::to_value(event.event()).expect("JSON"));
    value
}

fn add(a: i64, b: i64) -> Vec<u8> {
    encode(&ToolRequest::Add(support::MathOperands { a, b }))
}

/// The web routes alone (`http::web_router`), with no MCP endpoint.
async fn start_web_only(config: HttpConfig) -> Server {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let port = dispatcher(DispatcherConfig::default());
    let config = config.shutdown(stop.clone());
    let router = toolwright::http::web_router(port.clone(), &config).expect("the schema parses");
    tokio::spawn(async move { toolwright::http::serve_on(router, listener, &config).await });
    Server { addr, port, stop }
}

#[tokio::test]
async fn the_web_routes_serve_without_mcp_behind_the_same_rules() {
    let server = start_web_only(HttpConfig::default().bearer_token("s3cret")).await;
    let token = [("authorization", "Bearer s3cret")];
    let (status, _, body) = fetch(
        &server,
        Method::POST,
        "/api/tools/add",
        &token,
        r#"{"a": 2, "b": 3}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let envelope: Value = serde_json::from_str(&body).expect("JSON");
    assert_eq!(envelope, json!({"success": {"tool": "add", "result": 5}}));
    // An action tool's built-ins are answered here too.
    let (status, _, body) = fetch(
        &server,
        Method::POST,
        "/api/tools/fs",
        &token,
        r#"{"action": "help"}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{body}");
    let (status, _, _) = fetch(&server, Method::POST, "/api/tools/add", &[], "{}").await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let evil = [("origin", "http://localhost:8741.evil.example"), token[0]];
    let (status, _, _) = fetch(&server, Method::GET, "/api/tools", &evil, "").await;
    assert_eq!(status, StatusCode::FORBIDDEN);
    // No MCP endpoint: nothing is served at /mcp.
    let (status, _, _) = fetch(&server, Method::POST, "/mcp", &token, "{}").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn every_timing_class_reports_its_start_and_end() {
    let port = dispatcher(DispatcherConfig::default());
    let mut events = port.events().subscribe();
    assert_eq!(port.events().source(), ToolSource::Local);

    // sync, answered.
    CallPort::call(&port, add(2, 3), CallOptions::default()).await;
    let start = next_event(&mut events).await;
    let end = next_event(&mut events).await;
    assert_eq!(start["type"], "tool_start");
    assert_eq!(start["tool_name"], "add");
    assert_eq!(start["tool_input"], r#"{"a":2,"b":3}"#);
    assert_eq!(start["source"], "local");
    assert_eq!(end["type"], "tool_complete");
    assert_eq!(end["call_id"], start["call_id"]);
    assert_eq!(end["tool_result"], r#"{"result":5}"#);
    assert_eq!(end["success"], true);
    assert!(end["duration_ms"].as_f64().is_some_and(|ms| ms >= 0.0));
    assert!(end.get("error_code").is_none());
    let stamp = end["timestamp"].as_str().expect("a timestamp");
    assert!(stamp.len() == 24 && stamp.ends_with('Z') && stamp.as_bytes()[10] == b'T');

    // sync, failed with the tool's own error.
    CallPort::call(&port, add(i64::MAX, 1), CallOptions::default()).await;
    next_event(&mut events).await;
    let end = next_event(&mut events).await;
    assert_eq!(end["success"], false);
    assert_eq!(end["error_code"], "OVERFLOW");
    let error: Value =
        serde_json::from_str(end["tool_result"].as_str().expect("text")).expect("JSON");
    assert_eq!(error["code"], "OVERFLOW");

    // A call that fails before it starts is one `error` event: bytes that
    // do not decode name no tool; a request for no tool of the catalogue,
    // or with arguments the tool does not take, names the tool asked for.
    CallPort::call(&port, vec![0xc1], CallOptions::default()).await;
    let error = next_event(&mut events).await;
    assert_eq!(error["type"], "error");
    assert_eq!(error["code"], "INVALID_REQUEST");
    assert!(error.get("tool_name").is_none(), "{error}");
    assert!(error["message"].as_str().is_some_and(|m| !m.is_empty()));
    assert_eq!(error["source"], "local");
    let msgpack = |json: &[u8]| {
        toolwright::codec::json_to_msgpack(json, toolwright::codec::Limits::default())
            .expect("MsgPack")
    };
    let unknown = msgpack(br#"{"tool": "ad", "a": 1}"#);
    CallPort::call(&port, unknown, CallOptions::default()).await;
    let error = next_event(&mut events).await;
    assert_eq!(
        (&error["type"], &error["tool_name"], &error["code"]),
        (&json!("error"), &json!("ad"), &json!("UNKNOWN_TOOL"))
    );
    let missing = msgpack(br#"{"tool": "add", "a": 1}"#);
    CallPort::call(&port, missing, CallOptions::default()).await;
    let error = next_event(&mut events).await;
    assert_eq!(
        (&error["tool_name"], &error["code"]),
        (&json!("add"), &json!("INVALID_REQUEST"))
    );
    assert!(
        error["call_id"]
            .as_str()
            .is_some_and(|id| id.starts_with('c'))
    );

    // async_long and streaming: it completes when the job ends, not when
    // the caller gets the handle.
    let generate = encode(&ToolRequest::Generate(support::GenerateRequest {
        chunks: 3,
        interval_ms: 10,
    }));
    let answer = CallPort::call(&port, generate, CallOptions::default()).await;
    let job = support::started(&answer);
    let start = next_event(&mut events).await;
    assert_eq!(start["tool_name"], "generate");
    let end = next_event(&mut events).await;
    assert_eq!(end["call_id"], start["call_id"]);
    assert_eq!(end["job_id"], job);
    assert_eq!(end["success"], true);
    assert_eq!(end["tool_result"], r#"{"sent":3}"#);

    // fire_and_forget that fails: the failure arrives with the job's end.
    let launch = encode(&ToolRequest::Launch(support::LaunchRequest { fail: true }));
    CallPort::call(&port, launch, CallOptions::default()).await;
    next_event(&mut events).await;
    let end = next_event(&mut events).await;
    assert_eq!(end["tool_name"], "launch");
    assert_eq!(end["success"], false);
    assert_eq!(end["error_code"], "ENGINE_DOWN");

    // Cancelled: a long job cancelled through the job tools.
    let generate = encode(&ToolRequest::Generate(support::GenerateRequest {
        chunks: 1000,
        interval_ms: 50,
    }));
    let job = support::started(&CallPort::call(&port, generate, CallOptions::default()).await);
    let start = next_event(&mut events).await;
    port.job_cancel(&job, None).await.expect("cancelled");
    let end = next_event(&mut events).await;
    assert_eq!(end["call_id"], start["call_id"]);
    assert_eq!(end["error_code"], "CANCELLED");

    // An action tool names its action apart from its arguments.
    let read = encode(&ToolRequest::Fs(support::FsRequest::Read(
        support::FsReadRequest {
            uri: "mem://a".into(),
        },
    )));
    CallPort::call(&port, read, CallOptions::default()).await;
    let start = next_event(&mut events).await;
    assert_eq!(
        (start["tool_name"].as_str(), start["action"].as_str()),
        (Some("fs"), Some("read"))
    );
    assert_eq!(start["tool_input"], r#"{"uri":"mem://a"}"#);
}

#[tokio::test]
async fn a_subscriber_that_never_reads_slows_nothing_and_is_told_what_it_missed() {
    let port = dispatcher(DispatcherConfig::default());
    let mut idle = port.events().subscribe();
    let calls = 5_000;
    let started = std::time::Instant::now();
    for i in 0..calls {
        CallPort::call(&port, add(i, 1), CallOptions::default()).await;
    }
    // Two events a call, far more than the buffer holds: the oldest are
    // dropped for this receiver, never waited for.
    assert!(started.elapsed() < SOON);
    match idle.recv().await {
        Err(broadcast::error::RecvError::Lagged(missed)) => {
            assert_eq!(
                missed,
                u64::try_from(2 * calls as usize - toolwright::events::EVENT_BUFFER).expect("fits")
            );
        }
        other => panic!("expected a lag, got {other:?}"),
    }
    let mut kept = 0;
    while idle.try_recv().is_ok() {
        kept += 1;
    }
    assert_eq!(kept, toolwright::events::EVENT_BUFFER);
}

#[tokio::test]
async fn the_last_feed_to_close_stops_the_tracing() {
    let server = start(HttpConfig::default()).await;
    let (first, second) = (Sse::open(&server, "").await, Sse::open(&server, "").await);
    assert!(server.port.events().is_observed());
    drop(first);
    drop(second);
    // Let go of when the feed's batcher next has a batch to hand out.
    for _ in 0..100 {
        if !server.port.events().is_observed() {
            break;
        }
        CallPort::call(&server.port, add(1, 2), CallOptions::default()).await;
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    assert!(!server.port.events().is_observed());
    // A feed opened afterwards follows again.
    let mut feed = Sse::open(&server, "").await;
    CallPort::call(&server.port, add(3, 4), CallOptions::default()).await;
    let (name, start) = feed.next().await;
    assert_eq!(name, "tool_start");
    assert_eq!(start["tool_input"], r#"{"a":3,"b":4}"#);
}

#[tokio::test]
async fn nobody_listening_costs_no_event() {
    let port = dispatcher(DispatcherConfig::default());
    assert!(!port.events().is_observed());
    assert!(port.events().start(&add(1, 2), None).is_none());
    let events = port.events().subscribe();
    assert!(port.events().is_observed());
    drop(events);
    assert!(port.events().start(&add(1, 2), None).is_none());
}

#[tokio::test]
async fn the_tool_document_is_the_catalogues_metadata_with_an_etag() {
    let server = start(HttpConfig::default()).await;
    let (status, headers, body) = fetch(&server, Method::GET, "/api/tools", &[], "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    let mut document: Value = serde_json::from_str(&body).expect("JSON");
    let expected: Value =
        serde_json::from_str(<support::ToolCatalogue as toolwright::Catalogue>::METADATA)
            .expect("JSON");
    // A dispatcher knows its service's handlers: each tool says whether it
    // is served here (the test service serves every one).
    for tool in document["tools"].as_array_mut().expect("tools") {
        let served = tool
            .as_object_mut()
            .and_then(|t| t.remove("served"))
            .unwrap_or_default();
        assert_eq!(served, Value::Bool(true), "{}", tool["name"]);
    }
    assert_eq!(document, expected);
    assert_eq!(document["tools"][0]["source"], "local");
    // Each tool with typed errors publishes their schema.
    let tool = |name: &str| {
        document["tools"]
            .as_array()
            .and_then(|tools| tools.iter().find(|t| t["name"] == name))
            .cloned()
            .unwrap_or_default()
    };
    let errors = &tool("add")["errorSchema"]["oneOf"];
    assert_eq!(errors[0]["required"], serde_json::json!(["overflow"]));
    assert!(tool("echo").get("errorSchema").is_none());
    let etag = headers[header::ETAG].to_str().expect("ASCII").to_owned();
    assert!(etag.starts_with('"') && etag.ends_with('"'));

    let (status, _, body) = fetch(
        &server,
        Method::GET,
        "/api/tools",
        &[("if-none-match", &etag)],
        "",
    )
    .await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(body.is_empty());
    let (status, _, _) = fetch(
        &server,
        Method::GET,
        "/api/tools",
        &[("if-none-match", "\"stale\"")],
        "",
    )
    .await;
    assert_eq!(status, StatusCode::OK);
}

#[tokio::test]
async fn the_tool_document_is_gzipped_for_a_client_that_accepts_it() {
    let server = start(HttpConfig::default()).await;
    let (_, plain_head, plain) = fetch_bytes(&server, Method::GET, "/api/tools", &[], "").await;
    assert!(plain_head.get(header::CONTENT_ENCODING).is_none());

    let gzip = [("accept-encoding", "br;q=1, gzip;q=0.8")];
    let (status, head, body) = fetch_bytes(&server, Method::GET, "/api/tools", &gzip, "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(head[header::CONTENT_ENCODING], "gzip");
    assert_eq!(head[header::VARY], "accept-encoding");
    assert_eq!(head[header::CONTENT_TYPE], "application/json");
    assert_eq!(head[header::ETAG], plain_head[header::ETAG]);
    let mut unzipped = Vec::new();
    std::io::Read::read_to_end(&mut flate2::read::GzDecoder::new(&body[..]), &mut unzipped)
        .expect("gzip");
    assert_eq!(unzipped, plain);
    assert!(
        body.len() < plain.len() / 4,
        "{} of {}",
        body.len(),
        plain.len()
    );

    // The tag still answers 304, with nothing to compress.
    let etag = head[header::ETAG].to_str().expect("ASCII");
    let revalidate = [gzip[0], ("if-none-match", etag)];
    let (status, head, body) =
        fetch_bytes(&server, Method::GET, "/api/tools", &revalidate, "").await;
    assert_eq!(status, StatusCode::NOT_MODIFIED);
    assert!(head.get(header::CONTENT_ENCODING).is_none() && body.is_empty());

    // Only the document: a call's answer is sent as it is.
    let path = "/api/tools/echo";
    let text = format!(
        r#"{{"text": "{}", "data": "", "items": [], "tags": {{}}}}"#,
        "x".repeat(4096)
    );
    let (status, head, _) = fetch_bytes(&server, Method::POST, path, &gzip, &text).await;
    assert_eq!(status, StatusCode::OK);
    assert!(head.get(header::CONTENT_ENCODING).is_none());
}

#[tokio::test]
async fn calls_answer_their_envelope_with_a_status_that_says_how_they_ended() {
    let server = start(HttpConfig::default()).await;
    let (status, answer) = post(&server, "add", r#"{"a": 2, "b": 40}"#).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer, json!({"success": {"tool": "add", "result": 42}}));

    let (status, answer) = post(&server, "add", r#"{"a": 1, "b": 9223372036854775807}"#).await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["error"]["code"], "OVERFLOW");

    let (status, answer) = post(&server, "add", r#"{"a": 1}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["error"]["code"], "INVALID_REQUEST");
    assert!(
        answer["error"]["message"]
            .as_str()
            .is_some_and(|m| m.contains('b')),
        "{answer}"
    );

    // A strict-mode model's `null` for a property it leaves out is read as
    // absent (the default applies); one where a value is required is not.
    let (status, answer) = post(
        &server,
        "fs",
        r#"{"action": "write", "uri": "a", "content": "hi", "ms": null}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    assert_eq!(answer["success"]["written"], 2);
    let (status, answer) = post(&server, "add", r#"{"a": 1, "b": null}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["error"]["code"], "INVALID_REQUEST");

    let (status, answer) = post(&server, "ad", r#"{"a": 1, "b": 2}"#).await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert_eq!(answer["error"]["code"], "UNKNOWN_TOOL");

    let (status, answer) = post(&server, "add", "[1, 2]").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["error"]["code"], "INVALID_REQUEST");

    let (status, answer) = post(&server, "add", "{").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(answer["error"]["code"], "INVALID_REQUEST");

    let (status, answer) = post(&server, "generate", r#"{"chunks": 2, "interval_ms": 5}"#).await;
    assert_eq!(status, StatusCode::ACCEPTED);
    assert_eq!(answer["job_started"]["tool"], "generate");

    // `wait` turns a long call into one answered when it ends.
    let (status, answer) = post(
        &server,
        "generate?wait=5000",
        r#"{"chunks": 2, "interval_ms": 5}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(answer["success"]["sent"], 2);

    let big = format!(r#"{{"text": "{}"}}"#, "x".repeat(5 * 1024 * 1024));
    let (status, _, _) = fetch(&server, Method::POST, "/api/tools/echo", &[], &big).await;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE);
}

#[tokio::test]
async fn the_event_stream_carries_calls_from_every_transport_filtered_by_tool() {
    let server = start(HttpConfig::default()).await;
    let mut feed = Sse::open(&server, "?tool=add").await;
    // The subscription is made when the answer's head is sent.
    assert!(server.port.events().is_observed());

    // A call that is filtered out, then one through the HTTP call endpoint,
    // then one straight through the port (as MCP and HOOT01 make them).
    let echo = r#"{"text": "hi", "data": "", "items": [], "tags": {}}"#;
    assert_eq!(post(&server, "echo", echo).await.0, StatusCode::OK);
    post(&server, "add", r#"{"a": 1, "b": 2}"#).await;
    CallPort::call(&server.port, add(3, 4), CallOptions::default()).await;

    let (name, start) = feed.next().await;
    assert_eq!(name, "tool_start");
    assert_eq!(start["tool_input"], r#"{"a":1,"b":2}"#);
    let (name, end) = feed.next().await;
    assert_eq!(name, "tool_complete");
    assert_eq!(end["tool_result"], r#"{"result":3}"#);
    let (_, start) = feed.next().await;
    assert_eq!(start["tool_input"], r#"{"a":3,"b":4}"#);
}

#[tokio::test]
async fn calls_refused_at_a_door_are_error_events_in_the_stream() {
    let server = start(HttpConfig::default()).await;
    let mut feed = Sse::open(&server, "").await;
    assert_eq!(post(&server, "ad", "{}").await.0, StatusCode::NOT_FOUND);
    let (status, _) = post(&server, "fs", r#"{"action": "rename"}"#).await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    let mcp = support::http::Server {
        addr: server.addr,
        stop: CancellationToken::new(),
    };
    let session = support::http::session(&mcp, "2025-06-18", &[]).await;
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "sub", "arguments": {}}});
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-06-18"),
    ];
    support::http::post(&mcp, &headers, call.to_string()).await;

    for (tool, code) in [
        ("ad", "UNKNOWN_TOOL"),
        ("fs", "UNKNOWN_ACTION"),
        ("sub", "UNKNOWN_TOOL"),
    ] {
        let (name, error) = feed.next().await;
        assert_eq!(name, "error", "{error}");
        assert_eq!(
            (error["tool_name"].as_str(), error["code"].as_str()),
            (Some(tool), Some(code))
        );
        assert!(
            error["message"].as_str().is_some_and(|m| m.contains(tool)),
            "{error}"
        );
    }
}

#[tokio::test]
async fn the_mcp_endpoint_reports_its_calls_too() {
    let server = start(HttpConfig::default()).await;
    let mut events = server.port.events().subscribe();
    let mcp = support::http::Server {
        addr: server.addr,
        stop: CancellationToken::new(),
    };
    let session = support::http::session(&mcp, "2025-06-18", &[]).await;
    let call = json!({"jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": 20, "b": 22}}});
    let headers = [
        ("mcp-session-id", session.as_str()),
        ("mcp-protocol-version", "2025-06-18"),
    ];
    support::http::post(&mcp, &headers, call.to_string()).await;
    let start = next_event(&mut events).await;
    assert_eq!(start["tool_name"], "add");
    let end = next_event(&mut events).await;
    assert_eq!(end["tool_result"], r#"{"result":42}"#);
}

#[tokio::test]
async fn the_web_routes_keep_the_mcp_endpoints_rules() {
    let server = start(HttpConfig::default().bearer_token("s3cret")).await;
    for (method, path) in [
        (Method::GET, "/api/tools"),
        (Method::GET, "/api/events"),
        (Method::POST, "/api/tools/add"),
        (Method::GET, "/api/toon"),
    ] {
        let (status, headers, _) = fetch(&server, method.clone(), path, &[], "{}").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path}");
        assert_eq!(headers[header::WWW_AUTHENTICATE], "Bearer");
        let wrong = [("authorization", "Bearer s3cre7")];
        let (status, _, _) = fetch(&server, method.clone(), path, &wrong, "{}").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED, "{method} {path}");
    }
    let token = [("authorization", "Bearer s3cret")];
    let (status, _, _) = fetch(&server, Method::GET, "/api/tools", &token, "").await;
    assert_eq!(status, StatusCode::OK);
    // A token in the URL (RFC 6750 § 2.3) is taken by the WebSocket route
    // alone, since a browser's WebSocket cannot send headers.
    let (status, _, _) = fetch(
        &server,
        Method::GET,
        "/api/tools?access_token=s3cret",
        &[],
        "",
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = fetch(
        &server,
        Method::GET,
        "/api/toon?access_token=s3cret",
        &[],
        "",
    )
    .await;
    assert_eq!(
        status,
        StatusCode::BAD_REQUEST,
        "past the token: not an upgrade"
    );
    let (status, _, _) = fetch(
        &server,
        Method::GET,
        "/api/toon?access_token=wrong",
        &[],
        "",
    )
    .await;
    assert_eq!(status, StatusCode::UNAUTHORIZED);
    let (status, _, _) = fetch(
        &server,
        Method::POST,
        "/api/tools/add",
        &token,
        r#"{"a":1,"b":1}"#,
    )
    .await;
    assert_eq!(status, StatusCode::OK);

    // The viewer holds no data: it is served without the token.
    let (status, headers, page) = fetch(&server, Method::GET, "/", &[], "").await;
    assert_eq!(status, StatusCode::OK);
    assert_eq!(headers[header::CONTENT_TYPE], "text/html; charset=utf-8");
    assert!(page.to_ascii_lowercase().contains("<!doctype html>"));
    assert!(headers.contains_key(header::CONTENT_SECURITY_POLICY));

    // Host and Origin: against DNS rebinding and other sites' pages.
    for path in ["/", "/api/tools"] {
        let evil_host = [("host", "evil.example"), token[0]];
        let (status, _, _) = fetch(&server, Method::GET, path, &evil_host, "").await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
        let evil_origin = [("origin", "https://evil.example"), token[0]];
        let (status, _, _) = fetch(&server, Method::GET, path, &evil_origin, "").await;
        assert_eq!(status, StatusCode::FORBIDDEN, "{path}");
        let local_origin = [("origin", "http://localhost:5173"), token[0]];
        let (status, _, _) = fetch(&server, Method::GET, path, &local_origin, "").await;
        assert_eq!(status, StatusCode::OK, "{path}");
    }
}

#[tokio::test]
async fn the_web_routes_can_be_turned_off_and_do_not_shadow_mcp() {
    let server = start(HttpConfig::default().web(false)).await;
    let (status, _, _) = fetch(&server, Method::GET, "/api/tools", &[], "").await;
    assert_eq!(status, StatusCode::NOT_FOUND);

    let port = dispatcher(DispatcherConfig::default());
    let server = McpServer::new(port).expect("the schema parses");
    let refused = server.router(HttpConfig::default().path("/")).map(|_| ());
    assert!(matches!(
        refused,
        Err(toolwright::mcp::ServeError::Config(_))
    ));
}

/// A WebSocket to `/api/toon`.
async fn toon_socket(server: &Server) -> tokio_tungstenite::WebSocketStream<TcpStream> {
    let stream = TcpStream::connect(server.addr).await.expect("connect");
    let url = format!("ws://{}/api/toon", server.addr);
    let (socket, response) = tokio_tungstenite::client_async(url, stream)
        .await
        .expect("the upgrade");
    assert_eq!(response.status(), StatusCode::SWITCHING_PROTOCOLS);
    socket
}

async fn next_frame(socket: &mut tokio_tungstenite::WebSocketStream<TcpStream>) -> Vec<u8> {
    match tokio::time::timeout(SOON, socket.next()).await {
        Ok(Some(Ok(Message::Binary(bytes)))) => bytes.to_vec(),
        other => panic!("expected a binary frame, got {other:?}"),
    }
}

#[tokio::test]
async fn toon_frames_over_a_websocket_call_tools_concurrently() {
    let server = start(HttpConfig::default()).await;
    let mut socket = toon_socket(&server).await;
    let decoder = Decoder::new();
    for version in [Version::V1, Version::V2] {
        let encoder = Encoder::new(version);
        let stamp = |sequence_id| Stamp {
            timestamp: 1,
            sequence_id,
        };
        // A long call first, then a quick one: the quick one answers first.
        let slow = ToolRequest::Sleep(support::DelayRequest { ms: 300 });
        let quick = ToolRequest::Add(support::MathOperands { a: 2, b: 3 });
        for (seq, request) in [(1, &slow), (2, &quick)] {
            let frame = encoder
                .encode_tool_call(stamp(seq), request)
                .expect("a frame");
            socket
                .send(Message::Binary(frame.into()))
                .await
                .expect("sent");
        }
        let first = decoder
            .decode_tool_result::<support::ToolResponse>(&next_frame(&mut socket).await)
            .expect("a result");
        assert_eq!(first.header.sequence_id, 2);
        assert_eq!(first.header.version, version);
        assert_eq!(
            first.value.outcome,
            Ok(support::ToolResponse::Add(support::MathResult {
                result: 5
            }))
        );
        let second = decoder
            .decode_tool_result::<support::ToolResponse>(&next_frame(&mut socket).await)
            .expect("a result");
        assert_eq!(second.header.sequence_id, 1);
        assert!(second.value.outcome.is_ok());

        // A typed error is a failed result.
        let overflow = ToolRequest::Add(support::MathOperands { a: i64::MAX, b: 1 });
        let frame = encoder
            .encode_tool_call(stamp(3), &overflow)
            .expect("a frame");
        socket
            .send(Message::Binary(frame.into()))
            .await
            .expect("sent");
        let failed = decoder
            .decode_tool_result::<support::ToolResponse>(&next_frame(&mut socket).await)
            .expect("a result");
        assert_eq!(
            failed.value.outcome.map_err(|e| e.code),
            Err("OVERFLOW".into())
        );

        // A heartbeat is answered in kind.
        let frame = encoder
            .encode(
                MessageType::Heartbeat,
                stamp(4),
                &toolwright::toon::Heartbeat {},
            )
            .expect("a frame");
        socket
            .send(Message::Binary(frame.into()))
            .await
            .expect("sent");
        let answer = decoder
            .decode_frame(&next_frame(&mut socket).await)
            .map(|f| *f.header());
        assert_eq!(
            answer.map(|h| (h.message_type, h.sequence_id)),
            Ok((MessageType::Heartbeat, 4))
        );
    }
}

#[tokio::test]
async fn bad_toon_frames_get_an_error_frame_and_text_closes_the_socket() {
    let server = start(HttpConfig::default()).await;
    let mut socket = toon_socket(&server).await;
    let decoder = Decoder::new();
    for garbage in [vec![1, 2, 3], vec![0xff; 40]] {
        socket
            .send(Message::Binary(garbage.into()))
            .await
            .expect("sent");
        let frame = next_frame(&mut socket).await;
        let error = decoder
            .decode::<toolwright::toon::ErrorMessage>(&frame)
            .expect("an ERROR frame");
        assert_eq!(error.header.message_type, MessageType::Error);
        assert!(!error.value.code.is_empty() && !error.value.message.is_empty());
    }
    // A call of a tool that does not exist: a failed result, as the other
    // doors answer it.
    let frame = Encoder::new(Version::V1)
        .frame(
            MessageType::ToolCall,
            Stamp {
                timestamp: 1,
                sequence_id: 9,
            },
            br#"{"toolName":"nope","args":{}}"#,
        )
        .expect("a frame");
    socket
        .send(Message::Binary(frame.into()))
        .await
        .expect("sent");
    let result = decoder
        .decode_tool_result::<support::ToolResponse>(&next_frame(&mut socket).await)
        .expect("a TOOL_RESULT frame");
    assert_eq!(result.header.sequence_id, 9);
    assert_eq!(
        result.value.outcome.map_err(|e| e.code),
        Err("UNKNOWN_TOOL".into())
    );

    socket
        .send(Message::Text("hello".into()))
        .await
        .expect("sent");
    match tokio::time::timeout(SOON, socket.next()).await {
        Ok(Some(Ok(Message::Close(Some(close))))) => assert_eq!(u16::from(close.code), 1003),
        other => panic!("expected a close, got {other:?}"),
    }
}

#[tokio::test]
async fn a_job_called_over_toon_reports_progress_before_its_result() {
    let server = start(HttpConfig::default()).await;
    let mut socket = toon_socket(&server).await;
    let request = ToolRequest::Generate(support::GenerateRequest {
        chunks: 4,
        interval_ms: 20,
    });
    let frame = Encoder::new(Version::V1)
        .encode_tool_call(
            Stamp {
                timestamp: 1,
                sequence_id: 5,
            },
            &request,
        )
        .expect("a frame");
    socket
        .send(Message::Binary(frame.into()))
        .await
        .expect("sent");
    let decoder = Decoder::new();
    let mut statuses = 0;
    loop {
        let frame = next_frame(&mut socket).await;
        let header = *decoder.decode_frame(&frame).expect("a frame").header();
        assert_eq!(header.sequence_id, 5);
        match header.message_type {
            MessageType::Status => {
                let status = decoder
                    .decode::<toolwright::toon::Status>(&frame)
                    .expect("a status");
                assert!(
                    status
                        .value
                        .progress
                        .is_some_and(|p| (0.0..=1.0).contains(&p))
                );
                statuses += 1;
            }
            MessageType::ToolResult => {
                let result = decoder
                    .decode_tool_result::<support::ToolResponse>(&frame)
                    .expect("a result");
                assert!(result.value.outcome.is_ok());
                break;
            }
            other => panic!("unexpected {other:?}"),
        }
    }
    assert!(statuses > 0, "no progress was reported");
    let _ = Duration::ZERO;
}

/// A gateway's tools run elsewhere: its document and its events say `mcp`.
#[cfg(feature = "hoot")]
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_serves_its_tools_as_mcp() {
    use toolwright::hoot::{Client, ClientConfig, Server as Backend, ServerConfig};

    let backend = Backend::serve(
        dispatcher(DispatcherConfig::default()),
        ServerConfig::new("tcp://127.0.0.1:0"),
    )
    .expect("the backend binds");
    let client =
        Client::<support::ToolCatalogue>::connect(&[backend.endpoint()], ClientConfig::default())
            .expect("the gateway connects");
    assert!(client.ready(SOON).await, "the backend answers");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let server = McpServer::new(client.clone()).expect("the schema parses");
    tokio::spawn(server.serve_http_on(listener, HttpConfig::default().shutdown(stop.clone())));
    let gateway = Server {
        addr,
        port: dispatcher(DispatcherConfig::default()),
        stop,
    };

    let (status, _, body) = fetch(&gateway, Method::GET, "/api/tools", &[], "").await;
    assert_eq!(status, StatusCode::OK);
    let document: Value = serde_json::from_str(&body).expect("JSON");
    let tools = document["tools"].as_array().expect("tools");
    assert!(!tools.is_empty() && tools.iter().all(|t| t["source"] == "mcp"));

    let mut feed = Sse::open(&gateway, "?tool=add").await;
    let (status, answer) = post(&gateway, "add", r#"{"a": 20, "b": 22}"#).await;
    assert_eq!(
        (status, &answer["success"]["result"]),
        (StatusCode::OK, &json!(42))
    );
    let (_, start) = feed.next().await;
    assert_eq!(
        (start["type"].as_str(), start["source"].as_str()),
        (Some("tool_start"), Some("mcp"))
    );
}

/// Posts a call whose client reads an event stream.
async fn post_streamed(server: &Server, tool: &str, body: &str) -> Sse {
    let path = format!("/api/tools/{tool}");
    let accept = [("accept", "text/event-stream")];
    Sse::of(send(server, Method::POST, &path, &accept, body).await)
}

#[tokio::test]
async fn a_streamed_call_reports_its_job_progress_and_chunks_then_ends_with_its_result() {
    let server = start(HttpConfig::default()).await;
    let mut stream = post_streamed(&server, "generate", r#"{"chunks": 3, "interval_ms": 5}"#).await;
    let events = stream.rest().await;
    let kinds: Vec<&str> = events.iter().map(|(kind, _)| kind.as_str()).collect();
    assert_eq!(kinds.first(), Some(&"job"), "{kinds:?}");
    assert_eq!(kinds.last(), Some(&"result"), "{kinds:?}");
    let job_id = events[0].1["job_id"].as_str().expect("a job id").to_owned();
    assert_eq!(events[0].1["tool"], "generate");
    let chunks: Vec<&Value> = events
        .iter()
        .filter(|(kind, _)| kind == "chunk")
        .map(|(_, data)| data)
        .collect();
    assert_eq!(chunks.len(), 3, "{events:?}");
    for (n, chunk) in chunks.iter().enumerate() {
        assert_eq!(chunk["job_id"], job_id.as_str());
        assert_eq!(chunk["seq"], n);
        // The stream type's JSON, as every JSON door carries it.
        assert_eq!(chunk["chunk"], json!({"step": {"n": n}}));
    }
    let progress: Vec<f64> = events
        .iter()
        .filter(|(kind, _)| kind == "progress")
        .map(|(_, data)| data["progress"].as_f64().expect("a fraction"))
        .collect();
    assert!(!progress.is_empty(), "{events:?}");
    assert!(
        progress.iter().all(|p| (0.0..=1.0).contains(p)),
        "{progress:?}"
    );
    assert!(progress.windows(2).all(|w| w[0] <= w[1]), "{progress:?}");
    assert_eq!(
        events.last().map(|(_, data)| data),
        Some(&json!({"success": {"tool": "generate", "sent": 3}}))
    );
}

#[tokio::test]
async fn a_streamed_sync_call_is_its_result_and_a_refused_one_is_answered_as_json() {
    let server = start(HttpConfig::default()).await;
    let events = post_streamed(&server, "add", r#"{"a": 2, "b": 40}"#)
        .await
        .rest()
        .await;
    assert_eq!(
        events,
        [(
            "result".to_owned(),
            json!({"success": {"tool": "add", "result": 42}})
        )]
    );
    // A call the port answers with an error ends the same way.
    let events = post_streamed(&server, "add", r#"{"a": 1, "b": 9223372036854775807}"#)
        .await
        .rest()
        .await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].1["error"]["code"], "OVERFLOW");

    // As does one whose arguments the port finds wrong, explained.
    let events = post_streamed(&server, "add", r#"{"a": 1}"#)
        .await
        .rest()
        .await;
    assert_eq!(events.len(), 1, "{events:?}");
    assert_eq!(events[0].1["error"]["code"], "INVALID_REQUEST");

    // Refused before it was made: no stream, the status and JSON of any call.
    let accept = [("accept", "text/event-stream")];
    let (status, headers, body) =
        fetch(&server, Method::POST, "/api/tools/add", &accept, "[1, 2]").await;
    assert_eq!(status, StatusCode::BAD_REQUEST);
    assert_eq!(headers[header::CONTENT_TYPE], "application/json");
    assert!(body.contains("INVALID_REQUEST"), "{body}");
    let (status, _, body) = fetch(&server, Method::POST, "/api/tools/ad", &accept, "{}").await;
    assert_eq!(status, StatusCode::NOT_FOUND);
    assert!(body.contains("UNKNOWN_TOOL"), "{body}");
}

#[tokio::test]
async fn a_streamed_job_cancelled_meanwhile_ends_with_its_cancellation() {
    let server = start(HttpConfig::default()).await;
    let mut stream = post_streamed(
        &server,
        "generate",
        r#"{"chunks": 1000, "interval_ms": 20}"#,
    )
    .await;
    let (kind, job) = stream.next().await;
    assert_eq!(kind, "job");
    let body = json!({"job_id": job["job_id"]}).to_string();
    let (status, answer) = post(&server, "job_cancel", &body).await;
    assert_eq!(status, StatusCode::OK, "{answer}");
    let events = stream.rest().await;
    let (kind, result) = events.last().expect("a result");
    assert_eq!(kind, "result");
    assert_eq!(result["error"]["code"], "CANCELLED", "{result}");
    assert!(
        events.iter().filter(|(kind, _)| kind == "chunk").count() < 1000,
        "the job stopped"
    );
}
