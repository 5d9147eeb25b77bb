//! The probes beside every door: `/healthz` answers while the process
//! serves, `/readyz` says whether the port can take calls (a gateway with
//! no live backend cannot), and `/metrics` counts calls, behind the token
//! like every other route. The Prometheus text is parsed strictly by the
//! Python client's parser in `tests/topology/test_probes.py`.
#![cfg(all(
    feature = "mcp",
    feature = "web",
    feature = "hoot",
    feature = "metrics"
))]

mod support;

use std::time::Duration;

use hyper::{Method, StatusCode};
use serde_json::{Value, json};
use support::http::{Server, get, request, sample, start};
use support::*;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use toolwright::hoot::{Client, ClientConfig, ServerConfig};
use toolwright::mcp::{HttpConfig, McpServer};
use toolwright::{DispatcherConfig, http};

/// A gateway (a HOOT01 client) to `endpoint` served over HTTP.
async fn gateway(endpoint: &str) -> Server {
    let client = Client::<ToolCatalogue>::connect(
        &[endpoint],
        ClientConfig::default().heartbeat(Duration::from_millis(50), Duration::from_millis(500)),
    )
    .expect("the client connects");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let server = McpServer::new(client).expect("the schema parses");
    let config = HttpConfig::default().shutdown(stop.clone());
    tokio::spawn(server.serve_http_on(listener, config));
    Server { addr, stop }
}

#[tokio::test]
async fn healthz_answers_ok_while_the_process_serves() {
    let server = start(HttpConfig::default().bearer_token("s3cret")).await;
    // No credentials: an orchestrator's probe shows none.
    let answer = get(&server, http::HEALTHZ, &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    assert_eq!(answer.body, "ok\n");
    // The `Host` rule still holds, as on every route.
    let answer = get(&server, http::HEALTHZ, &[("host", "evil.example")]).await;
    assert_eq!(answer.status, StatusCode::FORBIDDEN, "{}", answer.body);
}

#[tokio::test]
async fn a_dispatcher_whose_store_answers_is_ready() {
    let server = start(HttpConfig::default().bearer_token("s3cret")).await;
    let answer = get(&server, http::READYZ, &[]).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let body: Value = serde_json::from_str(&answer.body).expect("JSON");
    assert_eq!(body, json!({"ready": true}));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_gateway_is_not_ready_until_a_backend_is_in_rotation() {
    // A port nothing listens on yet; the worker binds it later.
    let port = std::net::TcpListener::bind("127.0.0.1:0")
        .expect("bind")
        .local_addr()
        .expect("an address")
        .port();
    let endpoint = format!("tcp://127.0.0.1:{port}");
    let server = gateway(&endpoint).await;

    let answer = get(&server, http::READYZ, &[]).await;
    assert_eq!(
        answer.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        answer.body
    );
    let body: Value = serde_json::from_str(&answer.body).expect("JSON");
    assert_eq!(body["ready"], false, "{body}");
    let reason = body["reasons"][0].as_str().expect("a reason");
    assert!(
        reason.contains("no backend") && reason.contains(&endpoint),
        "{reason}"
    );
    let metrics = get(&server, http::METRICS, &[]).await.body;
    assert_eq!(
        sample(&metrics, "toolwright_workers_live"),
        Some(0.0),
        "{metrics}"
    );
    assert_eq!(
        sample(&metrics, "toolwright_workers"),
        Some(1.0),
        "{metrics}"
    );

    let worker = toolwright::hoot::Server::serve(
        dispatcher(DispatcherConfig::default()),
        ServerConfig::new(endpoint.as_str()),
    )
    .expect("the worker binds");
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        let answer = get(&server, http::READYZ, &[]).await;
        if answer.status == StatusCode::OK {
            assert_eq!(answer.body, r#"{"ready":true}"#);
            break;
        }
        assert!(
            tokio::time::Instant::now() < deadline,
            "never ready: {}",
            answer.body
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let metrics = get(&server, http::METRICS, &[]).await.body;
    assert_eq!(
        sample(&metrics, "toolwright_workers_live"),
        Some(1.0),
        "{metrics}"
    );
    assert_eq!(
        sample(&metrics, "toolwright_hoot_calls_in_flight"),
        Some(0.0),
        "{metrics}"
    );
    worker.shutdown(Duration::from_millis(100)).await;
}

#[tokio::test]
async fn metrics_count_calls_for_a_caller_with_the_token() {
    let server = start(HttpConfig::default().bearer_token("s3cret")).await;
    let token = [("authorization", "Bearer s3cret")];

    let refused = get(&server, http::METRICS, &[]).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.body);
    let wrong = get(&server, http::METRICS, &[("authorization", "Bearer guess")]).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.body);

    let before = get(&server, http::METRICS, &token).await;
    assert_eq!(before.status, StatusCode::OK, "{}", before.body);
    let content_type = before.headers["content-type"].to_str().expect("ASCII");
    assert!(
        content_type.starts_with("text/plain; version=0.0.4"),
        "{content_type}"
    );
    let ok = r#"toolwright_calls_total{tool="add",outcome="ok"}"#;
    assert_eq!(sample(&before.body, ok), None, "{}", before.body);
    let missing = r#"toolwright_auth_failures_total{reason="missing"}"#;
    let invalid = r#"toolwright_auth_failures_total{reason="invalid"}"#;
    assert_eq!(sample(&before.body, missing), Some(1.0), "{}", before.body);
    assert_eq!(sample(&before.body, invalid), Some(1.0), "{}", before.body);
    // The dispatcher's jobs, read at the scrape.
    assert_eq!(
        sample(&before.body, r#"toolwright_jobs{state="running"}"#),
        Some(0.0)
    );

    let call = |path: &'static str, body: &'static str| {
        let server = &server;
        async move { request(server, Method::POST, path, &token, body).await }
    };
    let answer = call("/api/tools/add", r#"{"a": 2, "b": 3}"#).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.body);
    let answer = call("/api/tools/add", r#"{"a": "two", "b": 3}"#).await;
    assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{}", answer.body);
    let answer = call("/api/tools/no_such_tool", "{}").await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.body);

    let after = get(&server, http::METRICS, &token).await.body;
    assert_eq!(sample(&after, ok), Some(1.0), "{after}");
    let invalid_request = r#"toolwright_calls_total{tool="add",outcome="INVALID_REQUEST"}"#;
    assert_eq!(sample(&after, invalid_request), Some(1.0), "{after}");
    // Names outside the catalogue share one label.
    let unknown = r#"toolwright_calls_total{tool="unknown",outcome="UNKNOWN_TOOL"}"#;
    assert_eq!(sample(&after, unknown), Some(1.0), "{after}");
    assert!(!after.contains("no_such_tool"), "{after}");
    let count = r#"toolwright_call_duration_seconds_count{tool="add"}"#;
    assert_eq!(sample(&after, count), Some(2.0), "{after}");
    let all = r#"toolwright_call_duration_seconds_bucket{le="+Inf",tool="add"}"#;
    let all = sample(&after, all).or_else(|| {
        sample(
            &after,
            r#"toolwright_call_duration_seconds_bucket{tool="add",le="+Inf"}"#,
        )
    });
    assert_eq!(all, Some(2.0), "{after}");
}

#[tokio::test]
async fn mcp_at_a_probes_path_is_refused() {
    let server =
        McpServer::new(dispatcher(DispatcherConfig::default())).expect("the schema parses");
    let refused = server.router(HttpConfig::default().path(http::READYZ));
    assert!(refused.is_err(), "MCP at /readyz hides the probe");
    let server =
        McpServer::new(dispatcher(DispatcherConfig::default())).expect("the schema parses");
    let served = server.router(HttpConfig::default().path(http::READYZ).probes(false));
    assert!(
        served.is_ok(),
        "without the probes, /readyz is MCP's to take"
    );
}
