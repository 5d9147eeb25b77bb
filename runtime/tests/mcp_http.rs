//! The MCP server on Streamable HTTP over a real loopback socket, driven
//! with raw requests: a session and a call, each kind of malformed input
//! with its JSON-RPC error, the body limit, `Host`/`Origin` checks, the
//! bearer token, batches per revision, and a flood of reused ids.
#![cfg(feature = "mcp")]

mod support;

use std::net::SocketAddr;
use std::time::Duration;

use http_body_util::{BodyExt, Full};
use hyper::body::Bytes;
use hyper::{Request, StatusCode, header};
use hyper_util::rt::TokioIo;
use serde_json::{Value, json};
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::{TcpListener, TcpStream};
use tokio_util::sync::CancellationToken;
use toolwright::DispatcherConfig;
use toolwright::mcp::{HttpConfig, McpServer};

/// A running server; dropping it stops the server.
struct Server {
    addr: SocketAddr,
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
    let server =
        McpServer::new(dispatcher(DispatcherConfig::default())).expect("the schema parses");
    tokio::spawn(server.serve_http_on(listener, config.shutdown(stop.clone())));
    Server { addr, stop }
}

/// An answer: status, headers, body.
struct Answer {
    status: StatusCode,
    headers: hyper::HeaderMap,
    body: String,
}

impl Answer {
    /// The JSON-RPC message the body holds, as JSON or as the `data:` of
    /// an event stream.
    fn message(&self) -> Value {
        if let Ok(value) = serde_json::from_str(&self.body) {
            return value;
        }
        self.body
            .lines()
            .filter_map(|line| line.strip_prefix("data:"))
            .filter_map(|data| serde_json::from_str::<Value>(data.trim()).ok())
            .find(|m| m.get("result").is_some() || m.get("error").is_some())
            .unwrap_or_else(|| panic!("no JSON-RPC answer in {:?}", self.body))
    }

    fn error_code(&self) -> i64 {
        self.message()["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("not an error: {}", self.body))
    }
}

/// Sends one POST to `/mcp` with the headers MCP asks for, plus `extra`.
async fn post(server: &Server, extra: &[(&str, &str)], body: impl Into<Bytes>) -> Answer {
    let stream = TcpStream::connect(server.addr).await.expect("connect");
    let (mut sender, connection) = hyper::client::conn::http1::handshake(TokioIo::new(stream))
        .await
        .expect("handshake");
    tokio::spawn(connection);
    let request = Request::post("/mcp")
        .header(header::HOST, server.addr.to_string())
        .header(header::CONTENT_TYPE, "application/json")
        .header(header::ACCEPT, "application/json, text/event-stream");
    let mut request = request.body(Full::new(body.into())).expect("a request");
    for (name, value) in extra {
        // Replacing, so a test can send a `Host` of its own.
        let name = header::HeaderName::from_bytes(name.as_bytes()).expect("a header name");
        let value = header::HeaderValue::from_str(value).expect("a header value");
        request.headers_mut().insert(name, value);
    }
    let response = tokio::time::timeout(SOON, sender.send_request(request))
        .await
        .expect("answered in time")
        .expect("an answer");
    let status = response.status();
    let headers = response.headers().clone();
    let body = tokio::time::timeout(SOON, response.into_body().collect())
        .await
        .expect("the body in time")
        .expect("a body")
        .to_bytes();
    Answer {
        status,
        headers,
        body: String::from_utf8_lossy(&body).into_owned(),
    }
}

/// Opens a session on `revision`; returns its id.
async fn session(server: &Server, revision: &str, extra: &[(&str, &str)]) -> String {
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {
            "protocolVersion": revision,
            "capabilities": {},
            "clientInfo": {"name": "test", "version": "1"}
        }
    });
    let answer = post(server, extra, init.to_string()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.message()["result"]["protocolVersion"], revision);
    let id = answer
        .headers
        .get("mcp-session-id")
        .expect("a session id")
        .to_str()
        .expect("ASCII")
        .to_owned();
    let mut headers = vec![("mcp-session-id", id.as_str())];
    headers.extend_from_slice(extra);
    if revision > "2025-03-26" {
        headers.push(("mcp-protocol-version", revision));
    }
    let initialized = json!({"jsonrpc": "2.0", "method": "notifications/initialized"});
    let answer = post(server, &headers, initialized.to_string()).await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.body);
    id
}

fn add(id: u64, a: i64, b: i64) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": "add", "arguments": {"a": a, "b": b}}
    })
}

#[tokio::test]
async fn a_session_calls_a_tool() {
    let server = start(HttpConfig::default()).await;
    let sid = session(&server, "2025-11-25", &[]).await;
    let headers = [
        ("mcp-session-id", sid.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let answer = post(&server, &headers, add(1, 2, 3).to_string()).await;
    assert_eq!(answer.status, StatusCode::OK);
    let message = answer.message();
    assert_eq!(message["id"], 1);
    assert_eq!(message["result"]["structuredContent"], json!({"result": 5}));
    assert_eq!(message["result"]["isError"], false);
}

#[tokio::test]
async fn malformed_messages_get_their_json_rpc_errors() {
    let server = start(HttpConfig::default()).await;
    let sid = session(&server, "2025-06-18", &[]).await;
    let headers = [
        ("mcp-session-id", sid.as_str()),
        ("mcp-protocol-version", "2025-06-18"),
    ];

    let parse = post(&server, &headers, "{\"jsonrpc\": \"2.0\", \"id\": 1,").await;
    assert_eq!(parse.status, StatusCode::BAD_REQUEST);
    assert_eq!(parse.error_code(), -32700);
    assert_eq!(parse.message()["id"], Value::Null);

    let invalid = post(&server, &headers, r#"{"id": 2, "method": "ping"}"#).await;
    assert_eq!(invalid.status, StatusCode::BAD_REQUEST);
    assert_eq!(invalid.error_code(), -32600);
    assert_eq!(invalid.message()["id"], 2);

    let unknown = post(
        &server,
        &headers,
        r#"{"jsonrpc": "2.0", "id": 3, "method": "tools/mix"}"#,
    )
    .await;
    assert_eq!(unknown.error_code(), -32601);
    assert_eq!(unknown.message()["id"], 3);

    let params = json!({"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": 5}});
    let bad = post(&server, &headers, params.to_string()).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad.error_code(), -32602);
    assert_eq!(bad.message()["id"], 4);

    let tool =
        json!({"jsonrpc": "2.0", "id": 5, "method": "tools/call", "params": {"name": "mix"}});
    assert_eq!(
        post(&server, &headers, tool.to_string()).await.error_code(),
        -32602
    );
}

#[tokio::test]
async fn an_oversized_body_is_refused_with_413() {
    let server = start(HttpConfig::default().max_body_bytes(64 * 1024)).await;
    let padding = "x".repeat(128 * 1024);
    let big = json!({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": {"pad": padding}});
    let answer = post(&server, &[], big.to_string()).await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE);
    assert!(answer.body.contains("65536 bytes"), "{}", answer.body);
}

#[tokio::test]
async fn a_huge_declared_length_is_refused_before_any_body_is_read() {
    let server = start(HttpConfig::default()).await;
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: 1099511627776\r\n\r\n{{",
        server.addr
    );
    stream.write_all(head.as_bytes()).await.expect("write");
    let mut answer = vec![0; 64];
    let n = tokio::time::timeout(SOON, stream.read(&mut answer))
        .await
        .expect("answered without the body")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer[..n]);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
}

#[tokio::test]
async fn foreign_hosts_and_origins_are_forbidden() {
    let server = start(HttpConfig::default()).await;
    let ping = r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#;
    let host = post(&server, &[("host", "attacker.example")], ping).await;
    assert_eq!(host.status, StatusCode::FORBIDDEN);
    let origin = post(&server, &[("origin", "https://attacker.example")], ping).await;
    assert_eq!(origin.status, StatusCode::FORBIDDEN);
    // A loopback origin is fine.
    let sid = session(
        &server,
        "2025-11-25",
        &[("origin", "http://localhost:3000")],
    )
    .await;
    assert!(!sid.is_empty());
}

#[tokio::test]
async fn a_bearer_token_is_required_when_set() {
    let server = start(HttpConfig::default().bearer_token("s3cret")).await;
    let ping = r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#;
    let missing = post(&server, &[], ping).await;
    assert_eq!(missing.status, StatusCode::UNAUTHORIZED);
    assert_eq!(
        missing
            .headers
            .get("www-authenticate")
            .map(|v| v.as_bytes()),
        Some(&b"Bearer"[..])
    );
    let wrong = post(&server, &[("authorization", "Bearer s3cre7")], ping).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    session(&server, "2025-11-25", &[("authorization", "Bearer s3cret")]).await;
}

#[tokio::test]
async fn batches_are_answered_on_2025_03_26() {
    let server = start(HttpConfig::default()).await;
    let sid = session(&server, "2025-03-26", &[]).await;
    let headers = [("mcp-session-id", sid.as_str())];
    let batch = json!([
        add(1, 1, 2),
        {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
        {"jsonrpc": "2.0", "id": 2, "method": "tools/mix"},
        {"id": 3, "method": "ping"},
        add(4, 20, 22),
    ]);
    let answer = post(&server, &headers, batch.to_string()).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let answers: Vec<Value> = serde_json::from_str(&answer.body).expect("a JSON array");
    let ids: Vec<&Value> = answers.iter().map(|a| &a["id"]).collect();
    assert_eq!(ids, [&json!(1), &json!(2), &json!(3), &json!(4)]);
    assert_eq!(
        answers[0]["result"]["structuredContent"],
        json!({"result": 3})
    );
    assert_eq!(answers[1]["error"]["code"], -32601);
    assert_eq!(answers[2]["error"]["code"], -32600);
    assert_eq!(
        answers[3]["result"]["structuredContent"],
        json!({"result": 42})
    );

    let empty = post(&server, &headers, "[]").await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST);
    assert_eq!(empty.error_code(), -32600);
    assert!(
        empty.message().is_object(),
        "one error, not a list: {}",
        empty.body
    );

    let notes = json!([{"jsonrpc": "2.0", "method": "notifications/roots/list_changed"}]);
    let quiet = post(&server, &headers, notes.to_string()).await;
    assert_eq!(quiet.status, StatusCode::ACCEPTED);
    assert_eq!(quiet.body, "");
}

#[tokio::test]
async fn batches_are_refused_after_2025_03_26() {
    let server = start(HttpConfig::default()).await;
    for revision in ["2025-06-18", "2025-11-25"] {
        let sid = session(&server, revision, &[]).await;
        let headers = [
            ("mcp-session-id", sid.as_str()),
            ("mcp-protocol-version", revision),
        ];
        let batch = json!([add(1, 1, 2)]);
        let answer = post(&server, &headers, batch.to_string()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{revision}");
        assert_eq!(answer.error_code(), -32600, "{revision}");
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_flood_of_reused_ids_leaves_the_server_answering() {
    let server = start(HttpConfig::default()).await;
    let sid = session(&server, "2025-11-25", &[]).await;
    let flood: Vec<_> = (0..64)
        .map(|i| {
            let body = match i % 4 {
                0 => add(1, i, 1).to_string(),
                1 => r#"{"jsonrpc": "2.0", "id": 1, "method": "ping"}"#.to_owned(),
                2 => {
                    r#"{"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": 1}}"#
                        .to_owned()
                }
                _ => "{\"jsonrpc\": \"2.0\", \"id\": 1".to_owned(),
            };
            let addr = server.addr;
            let sid = sid.clone();
            tokio::spawn(async move {
                let server = Server {
                    addr,
                    stop: CancellationToken::new(),
                };
                let headers = [
                    ("mcp-session-id", sid.as_str()),
                    ("mcp-protocol-version", "2025-11-25"),
                ];
                // Each may be answered or refused; none may take the server down.
                let _ = tokio::time::timeout(Duration::from_secs(2), post(&server, &headers, body))
                    .await;
            })
        })
        .collect();
    for task in flood {
        task.await.expect("the flooding task ends");
    }
    let headers = [
        ("mcp-session-id", sid.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let answer = post(&server, &headers, add(7, 40, 2).to_string()).await;
    assert_eq!(answer.message()["id"], 7);
    assert_eq!(
        answer.message()["result"]["structuredContent"],
        json!({"result": 42})
    );
}
