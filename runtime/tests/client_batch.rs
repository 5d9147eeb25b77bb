//! The batch client against a real rmcp server, connected through an
//! in-memory pipe: order, concurrency, the batch deadline, partial failure
//! and duplicate ids.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use rmcp::ServiceExt;
use rmcp::handler::server::ServerHandler;
use rmcp::model::{
    CallToolRequestParams, CallToolResponse, CallToolResult, ContentBlock, ErrorData,
    ListToolsResult, PaginatedRequestParams, ServerCapabilities, ServerConfig, Tool,
};
use rmcp::service::{RequestContext, RoleServer};
use serde_json::{Value, json};
use toolwright::client::{BatchError, BatchOptions, Client, McpTransport, ToolCall, codes};

/// Tools with observable timing: `echo` answers its arguments, `sleep`
/// waits `ms` milliseconds, `fail` answers a structured tool error, `mumble`
/// an error with text only. The server counts calls in flight.
#[derive(Clone, Default)]
struct Fixture {
    in_flight: Arc<AtomicUsize>,
    most_in_flight: Arc<AtomicUsize>,
    started: Arc<AtomicUsize>,
}

impl ServerHandler for Fixture {
    fn get_info(&self) -> ServerConfig {
        ServerConfig::new(ServerCapabilities::builder().enable_tools().build())
    }

    async fn list_tools(
        &self,
        _request: Option<PaginatedRequestParams>,
        _context: RequestContext<RoleServer>,
    ) -> Result<ListToolsResult, ErrorData> {
        let object = Arc::new(serde_json::Map::from_iter([(
            "type".into(),
            json!("object"),
        )]));
        let tools = ["echo", "sleep", "fail", "mumble"]
            .map(|name| Tool::new(name, "fixture tool", object.clone()));
        Ok(ListToolsResult::with_all_items(tools.to_vec()))
    }

    async fn call_tool(
        &self,
        request: CallToolRequestParams,
        _context: RequestContext<RoleServer>,
    ) -> Result<CallToolResponse, ErrorData> {
        self.started.fetch_add(1, Ordering::SeqCst);
        let now = self.in_flight.fetch_add(1, Ordering::SeqCst) + 1;
        self.most_in_flight.fetch_max(now, Ordering::SeqCst);
        let arguments = Value::Object(request.arguments.unwrap_or_default());
        let result = match &*request.name {
            "echo" => Ok(CallToolResult::structured(arguments)),
            "sleep" => {
                let ms = arguments["ms"].as_u64().unwrap_or(0);
                tokio::time::sleep(Duration::from_millis(ms)).await;
                Ok(CallToolResult::structured(json!({"slept_ms": ms})))
            }
            "fail" => Ok(CallToolResult::structured_error(json!({
                "code": "NOT_FOUND",
                "message": "no such thing",
                "details": {"not_found": {"key": arguments["key"]}},
            }))),
            "mumble" => Ok(CallToolResult::error(vec![ContentBlock::text(
                "it went wrong",
            )])),
            other => Err(ErrorData::invalid_params(
                format!("no tool `{other}`"),
                None,
            )),
        };
        self.in_flight.fetch_sub(1, Ordering::SeqCst);
        result.map(Into::into)
    }
}

async fn connect(fixture: &Fixture) -> Client<McpTransport> {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let server = fixture.clone();
    tokio::spawn(async move {
        if let Ok(running) = server.serve(server_end).await {
            let _ = running.waiting().await;
        }
    });
    Client::new(McpTransport::connect(client_end).await.expect("handshake"))
}

fn sleep_call(id: &str, ms: u64) -> ToolCall {
    ToolCall::new(id, "sleep", json!({"ms": ms}))
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn results_come_back_in_request_order() {
    let fixture = Fixture::default();
    let client = connect(&fixture).await;
    // The first call ends last, so a client that returned results in the
    // order of arrival would get this wrong when parallel.
    let batch = [
        sleep_call("slow", 150),
        ToolCall::new("x", "echo", json!({"n": 1})),
        sleep_call("medium", 50),
        ToolCall::new("y", "echo", json!({"n": 2})),
    ];
    for parallel in [false, true] {
        let options = BatchOptions::default().parallel(parallel);
        let results = client.call_tools(&batch, &options).await.unwrap();
        let ids: Vec<&str> = results.iter().map(|r| r.call_id.as_str()).collect();
        assert_eq!(ids, ["slow", "x", "medium", "y"], "parallel: {parallel}");
        assert_eq!(results[0].result(), Some(&json!({"slept_ms": 150})));
        assert_eq!(results[1].result(), Some(&json!({"n": 1})));
        assert_eq!(results[2].result(), Some(&json!({"slept_ms": 50})));
        assert_eq!(results[3].result(), Some(&json!({"n": 2})));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sequential_calls_never_overlap_and_parallel_calls_do() {
    let batch: Vec<ToolCall> = (0..4).map(|i| sleep_call(&format!("c{i}"), 200)).collect();

    let fixture = Fixture::default();
    let client = connect(&fixture).await;
    let started = Instant::now();
    let results = client
        .call_tools(&batch, &BatchOptions::default())
        .await
        .unwrap();
    let sequential = started.elapsed();
    assert!(results.iter().all(|r| r.is_success()));
    assert_eq!(fixture.most_in_flight.load(Ordering::SeqCst), 1);
    assert!(sequential >= Duration::from_millis(800), "{sequential:?}");

    let fixture = Fixture::default();
    let client = connect(&fixture).await;
    let started = Instant::now();
    let options = BatchOptions::default().parallel(true);
    let results = client.call_tools(&batch, &options).await.unwrap();
    let parallel = started.elapsed();
    assert!(results.iter().all(|r| r.is_success()));
    assert_eq!(fixture.most_in_flight.load(Ordering::SeqCst), 4);
    assert!(parallel < Duration::from_millis(600), "{parallel:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn parallel_batches_respect_the_concurrency_bound() {
    let fixture = Fixture::default();
    let client = connect(&fixture).await;
    let batch: Vec<ToolCall> = (0..6).map(|i| sleep_call(&format!("c{i}"), 100)).collect();
    let options = BatchOptions::default()
        .parallel(true)
        .max_concurrency(2.try_into().unwrap());
    let results = client.call_tools(&batch, &options).await.unwrap();
    assert!(results.iter().all(|r| r.is_success()));
    assert_eq!(fixture.most_in_flight.load(Ordering::SeqCst), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_that_misses_the_deadline_times_out_alone() {
    let fixture = Fixture::default();
    let client = connect(&fixture).await;
    let batch = [
        ToolCall::new("before", "echo", json!({"n": 1})),
        sleep_call("stuck", 5_000),
        ToolCall::new("after", "echo", json!({"n": 2})),
    ];

    // In parallel the quick calls answer; only the slow one times out.
    let options = BatchOptions::default()
        .parallel(true)
        .timeout(Duration::from_millis(300));
    let started = Instant::now();
    let results = client.call_tools(&batch, &options).await.unwrap();
    assert!(
        started.elapsed() < Duration::from_secs(2),
        "{:?}",
        started.elapsed()
    );
    assert_eq!(results[0].result(), Some(&json!({"n": 1})));
    assert_eq!(results[1].error().unwrap().code, "TIMEOUT");
    assert!(results[1].error().unwrap().message.contains("300 ms"));
    assert_eq!(results[2].result(), Some(&json!({"n": 2})));

    // In sequence the call after the stuck one comes too late to be sent.
    let started_before = fixture.started.load(Ordering::SeqCst);
    let options = BatchOptions::default().timeout(Duration::from_millis(300));
    let results = client.call_tools(&batch, &options).await.unwrap();
    assert!(results[0].is_success());
    assert_eq!(results[1].error().unwrap().code, "TIMEOUT");
    let late = results[2].error().unwrap();
    assert_eq!(late.code, "TIMEOUT");
    assert!(late.message.starts_with("not sent"), "{}", late.message);
    assert_eq!(fixture.started.load(Ordering::SeqCst) - started_before, 2);

    // The session is still usable afterwards.
    let results = client
        .call_tools(&batch[..1], &BatchOptions::default())
        .await
        .unwrap();
    assert!(results[0].is_success());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn failures_are_per_call_results() {
    let fixture = Fixture::default();
    let client = connect(&fixture).await;
    let batch = [
        ToolCall::new("ok", "echo", json!({"n": 1})),
        ToolCall::new("typed", "fail", json!({"key": "k1"})),
        ToolCall::new("text", "mumble", json!({})),
        ToolCall::new("unknown", "nope", json!({})),
        ToolCall::new("not-an-object", "echo", json!([1, 2])),
        ToolCall::new("ok-again", "echo", json!({"n": 2})),
    ];
    for parallel in [false, true] {
        let options = BatchOptions::default().parallel(parallel);
        let results = client.call_tools(&batch, &options).await.unwrap();
        assert_eq!(results.len(), batch.len());
        assert_eq!(results[0].result(), Some(&json!({"n": 1})));

        let typed = results[1].error().unwrap();
        assert_eq!(typed.code, "NOT_FOUND");
        assert_eq!(typed.message, "no such thing");
        assert_eq!(typed.details, Some(json!({"not_found": {"key": "k1"}})));

        let text = results[2].error().unwrap();
        assert_eq!(
            (&*text.code, &*text.message),
            (codes::TOOL_ERROR, "it went wrong")
        );

        let unknown = results[3].error().unwrap();
        assert_eq!(unknown.code, codes::PROTOCOL);
        assert!(
            unknown.message.contains("no tool `nope`"),
            "{}",
            unknown.message
        );
        assert_eq!(
            unknown.details.as_ref().unwrap()["jsonrpc_code"],
            json!(-32602)
        );

        let not_object = results[4].error().unwrap();
        assert_eq!(not_object.code, "INVALID_REQUEST");
        assert!(
            not_object.message.contains("an array"),
            "{}",
            not_object.message
        );

        assert_eq!(results[5].result(), Some(&json!({"n": 2})));
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn duplicate_ids_refuse_the_batch_before_sending() {
    let fixture = Fixture::default();
    let client = connect(&fixture).await;
    let batch = [
        ToolCall::new("a", "echo", json!({})),
        ToolCall::new("b", "echo", json!({})),
        ToolCall::new("a", "echo", json!({})),
    ];
    let error = client
        .call_tools(&batch, &BatchOptions::default())
        .await
        .unwrap_err();
    assert_eq!(
        error,
        BatchError::DuplicateCallId {
            id: "a".into(),
            first: 0,
            second: 2
        }
    );
    assert!(error.to_string().contains("share the id `a`"), "{error}");
    assert_eq!(fixture.started.load(Ordering::SeqCst), 0);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn an_empty_batch_has_no_results() {
    let client = connect(&Fixture::default()).await;
    let results = client
        .call_tools(&[], &BatchOptions::default())
        .await
        .unwrap();
    assert!(results.is_empty());
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ping_measures_a_round_trip() {
    let client = connect(&Fixture::default()).await;
    let rtt = client.ping(Duration::from_secs(5)).await.unwrap();
    assert!(rtt < Duration::from_secs(5));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn ping_of_a_closed_session_fails() {
    let fixture = Fixture::default();
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let server = tokio::spawn(async move { fixture.serve(server_end).await });
    let client = Client::new(McpTransport::connect(client_end).await.unwrap());
    let running = server.await.unwrap().unwrap();
    running.cancel().await.unwrap();
    let error = client.ping(Duration::from_secs(5)).await.unwrap_err();
    assert_eq!(error.code, codes::TRANSPORT, "{error:?}");
}
