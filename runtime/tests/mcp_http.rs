//! The MCP server on Streamable HTTP over a real loopback socket, driven
//! with raw requests: a session and a call, each kind of malformed input
//! with its JSON-RPC error, the body limit, `Host`/`Origin` checks, the
//! bearer token, batches per revision, and a flood of reused ids.
#![cfg(feature = "mcp")]

mod support;

use std::time::Duration;

use hyper::StatusCode;
use serde_json::{Value, json};
use support::http::*;
use support::*;
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_util::sync::CancellationToken;
use toolwright::mcp::HttpConfig;

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
    // A request that was read, answered like any other (in the session's
    // answer stream), with its params error.
    assert_eq!(bad.status, StatusCode::OK);
    assert_eq!(bad.error_code(), -32602);
    let init =
        json!({"jsonrpc": "2.0", "id": 6, "method": "initialize", "params": {"capabilities": 1}});
    let bad_init = post(&server, &headers, init.to_string()).await;
    assert_eq!(bad_init.status, StatusCode::BAD_REQUEST);
    assert_eq!(bad_init.error_code(), -32602);
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
async fn a_client_still_sending_an_oversized_body_receives_the_413() {
    let server = start(HttpConfig::default().max_body_bytes(64 * 1024)).await;
    let mut stream = TcpStream::connect(server.addr).await.expect("connect");
    // Far more than the socket buffers hold: a server that answered and
    // closed at once would reset the connection under the writer.
    let body = vec![b' '; 16 * 1024 * 1024];
    let head = format!(
        "POST /mcp HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\r\n",
        server.addr,
        body.len()
    );
    stream
        .write_all(head.as_bytes())
        .await
        .expect("write the head");
    tokio::time::timeout(SOON, stream.write_all(&body))
        .await
        .expect("written in time")
        .expect("the whole body is taken");
    let mut answer = Vec::new();
    tokio::time::timeout(SOON, stream.read_to_end(&mut answer))
        .await
        .expect("answered in time")
        .expect("read");
    let answer = String::from_utf8_lossy(&answer);
    assert!(answer.starts_with("HTTP/1.1 413"), "{answer}");
    assert!(answer.contains("connection: close"), "{answer}");
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
    // The rules are the web routes' (one parser for every route): a
    // loopback name followed by anything but a port is another site.
    for malformed in [
        "http://localhost:8741.evil.example",
        "http://localhost.evil.example",
        "localhost:3000",
    ] {
        let paths: &[&str] = if cfg!(feature = "web") {
            &["/mcp", "/api/tools"]
        } else {
            &["/mcp"]
        };
        for &path in paths {
            let method = if path == "/mcp" {
                hyper::Method::POST
            } else {
                hyper::Method::GET
            };
            let answer =
                support::http::request(&server, method, path, &[("origin", malformed)], ping).await;
            assert_eq!(
                answer.status,
                StatusCode::FORBIDDEN,
                "{malformed} at {path}"
            );
        }
    }
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

fn call(id: u64, tool: &str, arguments: Value) -> Value {
    json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments}
    })
}

#[tokio::test]
async fn one_sessions_jobs_are_not_found_by_another() {
    let server = start(HttpConfig::default()).await;
    let (a, b) = (
        session(&server, "2025-06-18", &[]).await,
        session(&server, "2025-06-18", &[]).await,
    );
    let headers = |sid: &str| {
        [
            ("mcp-session-id", sid.to_owned()),
            ("mcp-protocol-version", "2025-06-18".to_owned()),
        ]
    };
    let (ha, hb) = (headers(&a), headers(&b));
    let ha: Vec<(&str, &str)> = ha.iter().map(|(k, v)| (*k, v.as_str())).collect();
    let hb: Vec<(&str, &str)> = hb.iter().map(|(k, v)| (*k, v.as_str())).collect();

    let started = post(
        &server,
        &ha,
        call(1, "generate", json!({"chunks": 1000, "interval_ms": 1000})).to_string(),
    )
    .await;
    let handle = started.message()["result"]["structuredContent"].clone();
    let job_id = handle["job_id"].as_str().expect("a job handle").to_owned();

    let theirs = post(
        &server,
        &hb,
        call(2, "job_status", json!({"job_id": job_id})).to_string(),
    )
    .await;
    let result = &theirs.message()["result"];
    assert_eq!(result["isError"], true, "{result}");
    assert_eq!(result["structuredContent"]["code"], "NOT_FOUND", "{result}");
    let listed = post(&server, &hb, call(3, "job_list", json!({})).to_string()).await;
    assert_eq!(listed.message()["result"]["structuredContent"]["total"], 0);
    let cancel = post(
        &server,
        &hb,
        call(4, "job_cancel", json!({"job_id": job_id})).to_string(),
    )
    .await;
    assert_eq!(
        cancel.message()["result"]["structuredContent"]["code"],
        "NOT_FOUND"
    );

    let mine = post(
        &server,
        &ha,
        call(5, "job_status", json!({"job_id": job_id})).to_string(),
    )
    .await;
    let result = &mine.message()["result"];
    assert_eq!(result["isError"], false, "{result}");
    assert_eq!(result["structuredContent"]["state"], "running", "{result}");
    let cancel = post(
        &server,
        &ha,
        call(6, "job_cancel", json!({"job_id": job_id})).to_string(),
    )
    .await;
    assert_eq!(
        cancel.message()["result"]["structuredContent"]["cancelled"],
        true
    );
}

#[tokio::test]
async fn methods_of_undeclared_capabilities_are_not_found() {
    let server = start(HttpConfig::default()).await;
    let sid = session(&server, "2025-11-25", &[]).await;
    let headers = [
        ("mcp-session-id", sid.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    for (id, method, params) in [
        (1, "resources/list", json!({})),
        (2, "resources/templates/list", json!({})),
        (3, "prompts/list", json!({})),
        (
            4,
            "completion/complete",
            json!({"ref": {"type": "ref/prompt", "name": "x"}, "argument": {"name": "a", "value": ""}}),
        ),
        (5, "resources/read", json!({"uri": "file:///x"})),
        (6, "prompts/get", json!({"name": "x"})),
    ] {
        let request = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let answer = post(&server, &headers, request.to_string()).await;
        assert_eq!(
            answer.error_code(),
            -32601,
            "{method}: {}",
            answer.message()
        );
    }
}

#[tokio::test]
async fn tools_list_refuses_a_cursor_it_never_issued_and_says_how_long_to_keep_the_list() {
    let server = start(HttpConfig::default()).await;
    let sid = session(&server, "2025-11-25", &[]).await;
    let in_session = [
        ("mcp-session-id", sid.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let sessionless = [
        ("mcp-protocol-version", "2026-07-28"),
        ("mcp-method", "tools/list"),
    ];
    let list = |id: u64, revision: &str, cursor: Option<Value>| {
        let mut params = json!({});
        if revision == "2026-07-28" {
            params["_meta"] = json!({
                "io.modelcontextprotocol/protocolVersion": "2026-07-28",
                "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "0"},
                "io.modelcontextprotocol/clientCapabilities": {},
            });
        }
        if let Some(cursor) = cursor {
            params["cursor"] = cursor;
        }
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/list", "params": params}).to_string()
    };
    for (revision, headers) in [("2025-11-25", &in_session), ("2026-07-28", &sessionless)] {
        let made_up = post(&server, headers, list(1, revision, Some(json!("page-2")))).await;
        assert_eq!(
            made_up.error_code(),
            -32602,
            "{revision}: {}",
            made_up.message()
        );
        assert_eq!(made_up.message()["error"]["data"]["cursor"], "page-2");

        let whole = post(&server, headers, list(2, revision, None)).await;
        let result = &whole.message()["result"];
        assert!(result.get("nextCursor").is_none(), "{revision}: {result}");
        assert!(!result["tools"].as_array().unwrap().is_empty());
        assert_eq!(result["ttlMs"], 60_000, "{revision}");
        assert_eq!(result["cacheScope"], "public", "{revision}");
    }
    let not_a_string = post(&server, &in_session, list(3, "2025-11-25", Some(json!(2)))).await;
    assert_eq!(
        not_a_string.error_code(),
        -32602,
        "{}",
        not_a_string.message()
    );
}

/// The headers and `_meta` a sessionless 2026-07-28 request carries.
fn stateless(
    id: u64,
    tool: &str,
    arguments: Value,
    meta: Value,
) -> (Value, [(&'static str, String); 3]) {
    let mut meta = meta;
    meta["io.modelcontextprotocol/protocolVersion"] = json!("2026-07-28");
    meta["io.modelcontextprotocol/clientInfo"] = json!({"name": "test", "version": "0"});
    meta["io.modelcontextprotocol/clientCapabilities"] = json!({});
    let body = json!({
        "jsonrpc": "2.0", "id": id, "method": "tools/call",
        "params": {"name": tool, "arguments": arguments, "_meta": meta}
    });
    let headers = [
        ("mcp-protocol-version", "2026-07-28".to_owned()),
        ("mcp-method", "tools/call".to_owned()),
        ("mcp-name", tool.to_owned()),
    ];
    (body, headers)
}

async fn post_stateless(
    server: &Server,
    id: u64,
    tool: &str,
    arguments: Value,
    meta: Value,
) -> Answer {
    let (body, headers) = stateless(id, tool, arguments, meta);
    let headers: Vec<(&str, &str)> = headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
    post(server, &headers, body.to_string()).await
}

fn content_type(answer: &Answer) -> &str {
    answer
        .headers
        .get("content-type")
        .and_then(|v| v.to_str().ok())
        .unwrap_or_default()
}

#[tokio::test]
async fn a_sessionless_call_that_sends_nothing_else_is_answered_as_json() {
    let server = start(HttpConfig::default()).await;
    let answer = post_stateless(&server, 1, "add", json!({"a": 2, "b": 3}), json!({})).await;
    assert_eq!(answer.status, StatusCode::OK);
    assert_eq!(content_type(&answer), "application/json", "{}", answer.body);
    let message: Value = serde_json::from_str(&answer.body).expect("one JSON message");
    assert_eq!(message["result"]["structuredContent"], json!({"result": 5}));

    // Turned off, the same call gets an event stream.
    let server = start(HttpConfig::default().json_response(false)).await;
    let answer = post_stateless(&server, 1, "add", json!({"a": 2, "b": 3}), json!({})).await;
    assert_eq!(
        content_type(&answer),
        "text/event-stream",
        "{}",
        answer.body
    );
    assert_eq!(
        answer.message()["result"]["structuredContent"],
        json!({"result": 5})
    );
}

#[tokio::test]
async fn a_sessionless_call_that_sends_notifications_keeps_its_event_stream() {
    let server = start(HttpConfig::default()).await;
    let started = post_stateless(
        &server,
        1,
        "generate",
        json!({"chunks": 2, "interval_ms": 20}),
        json!({}),
    )
    .await;
    assert_eq!(
        content_type(&started),
        "application/json",
        "{}",
        started.body
    );
    let job_id = started.message()["result"]["structuredContent"]["job_id"]
        .as_str()
        .expect("a job handle")
        .to_owned();
    // Waiting on the job with a progress token: its chunks come as
    // notifications before the answer, so the answer is a stream.
    let polled = post_stateless(
        &server,
        2,
        "job_poll",
        json!({"job_ids": [job_id], "timeout_ms": 10_000}),
        json!({"progressToken": "p"}),
    )
    .await;
    assert_eq!(
        content_type(&polled),
        "text/event-stream",
        "{}",
        polled.body
    );
    assert!(
        polled.body.contains("notifications/progress"),
        "{}",
        polled.body
    );
    assert_eq!(
        polled.message()["result"]["structuredContent"]["completed"],
        json!([job_id])
    );
}
