//! The MCP server driven by rmcp's own client over an in-process pipe (the
//! stdio transport's framing): listing, calls of each timing class, typed
//! and argument errors, action tools, job handles polled with the job
//! tools, progress for streams, and cancellation.
#![cfg(feature = "mcp")]

mod support;

use std::time::Duration;

use rmcp::model::{
    CallToolRequest, CallToolRequestParams, CallToolResult, ClientRequest, ErrorCode,
    ProgressNotificationParam,
};
use rmcp::service::{NotificationContext, PeerRequestOptions, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceError, ServiceExt};
use serde_json::{Value, json};
use support::*;
use tokio::sync::mpsc;
use toolwright::jobs::JobState;
use toolwright::mcp::McpServer;
use toolwright::{Dispatcher, DispatcherConfig};

/// A client that hands every progress notification to the test.
#[derive(Clone)]
struct Listener {
    progress: mpsc::UnboundedSender<ProgressNotificationParam>,
}

impl ClientHandler for Listener {
    async fn on_progress(
        &self,
        params: ProgressNotificationParam,
        _context: NotificationContext<RoleClient>,
    ) {
        let _ = self.progress.send(params);
    }
}

struct Session {
    client: RunningService<RoleClient, Listener>,
    progress: mpsc::UnboundedReceiver<ProgressNotificationParam>,
    dispatcher: Dispatcher<Studio>,
}

/// A server over a fresh test studio, and a client connected to it through
/// a pipe.
async fn connect(config: DispatcherConfig) -> Session {
    let dispatcher = support::dispatcher(config);
    let server = McpServer::new(dispatcher.clone()).expect("the schema parses");
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (server_read, server_write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(server_read, server_write));
    let (tx, progress) = mpsc::unbounded_channel();
    let client = Listener { progress: tx }
        .serve(tokio::io::split(client_end))
        .await
        .expect("the handshake succeeds");
    Session {
        client,
        progress,
        dispatcher,
    }
}

fn args(value: Value) -> rmcp::model::JsonObject {
    match value {
        Value::Object(map) => map,
        other => panic!("arguments must be an object, not {other}"),
    }
}

async fn call(session: &Session, tool: &'static str, arguments: Value) -> CallToolResult {
    session
        .client
        .call_tool(CallToolRequestParams::new(tool).with_arguments(args(arguments)))
        .await
        .unwrap_or_else(|e| panic!("calling `{tool}` failed: {e}"))
}

fn structured(result: &CallToolResult) -> &Value {
    result
        .structured_content
        .as_ref()
        .unwrap_or_else(|| panic!("no structured content in {result:?}"))
}

fn text(result: &CallToolResult) -> String {
    let block = result.content.first().expect("one content block");
    block
        .as_text()
        .map(|t| t.text.clone())
        .unwrap_or_else(|| panic!("not a text block: {block:?}"))
}

#[tokio::test]
async fn initialize_advertises_tools_and_a_known_revision() {
    let session = connect(DispatcherConfig::default()).await;
    let info = session
        .client
        .peer_info()
        .expect("the server introduced itself");
    assert!(info.capabilities.tools.is_some(), "{info:?}");
    let server = info.server_info.as_ref().expect("server info");
    assert_eq!(server.name, "toolwright");
    assert_eq!(info.protocol_version.as_str(), "2025-11-25");
    assert!(toolwright::mcp::PROTOCOL_VERSIONS.contains(&info.protocol_version.as_str()));
}

#[tokio::test]
async fn a_sync_call_answers_with_the_response_fields() {
    let session = connect(DispatcherConfig::default()).await;
    let result = call(&session, "add", json!({"a": 2, "b": 40})).await;
    assert_eq!(result.is_error, Some(false));
    assert_eq!(structured(&result), &json!({"result": 42}));
    let text: Value = serde_json::from_str(&text(&result)).expect("the text is JSON");
    assert_eq!(&text, structured(&result));
}

#[tokio::test]
async fn a_typed_error_is_a_tool_result_with_its_code() {
    let session = connect(DispatcherConfig::default()).await;
    let result = call(&session, "add", json!({"a": i64::MAX, "b": 1})).await;
    assert_eq!(result.is_error, Some(true));
    assert_eq!(structured(&result)["code"], "OVERFLOW");
    assert!(text(&result).starts_with("OVERFLOW: "), "{}", text(&result));
}

#[tokio::test]
async fn a_bad_argument_names_the_field() {
    let session = connect(DispatcherConfig::default()).await;
    let result = call(&session, "add", json!({"a": "two", "b": 40})).await;
    assert_eq!(result.is_error, Some(true));
    let error = structured(&result);
    assert_eq!(error["code"], "INVALID_REQUEST");
    assert_eq!(error["details"]["field"], "a");
    assert!(text(&result).contains("field `a`"), "{}", text(&result));

    let missing = call(&session, "add", json!({"a": 1})).await;
    assert_eq!(structured(&missing)["details"]["field"], "b");
}

#[tokio::test]
async fn an_unknown_tool_is_invalid_params() {
    let session = connect(DispatcherConfig::default()).await;
    let error = session
        .client
        .call_tool(CallToolRequestParams::new("subtract"))
        .await
        .expect_err("no such tool");
    match error {
        ServiceError::McpError(e) => {
            assert_eq!(e.code, ErrorCode::INVALID_PARAMS);
            assert!(e.message.contains("`subtract`"), "{}", e.message);
        }
        other => panic!("expected a JSON-RPC error, got {other:?}"),
    }
}

#[tokio::test]
async fn action_tools_answer_help_schema_status_and_unknown_actions() {
    let session = connect(DispatcherConfig::default()).await;
    let read = call(&session, "fs", json!({"action": "read", "uri": "a.txt"})).await;
    assert_eq!(
        structured(&read),
        &json!({"action": "read", "text": "contents of a.txt"})
    );

    let help = call(&session, "fs", json!({"action": "help"})).await;
    let actions: Vec<&str> = structured(&help)["actions"]
        .as_array()
        .expect("a list of actions")
        .iter()
        .map(|a| a["name"].as_str().expect("a name"))
        .collect();
    assert_eq!(actions, ["read", "list", "write"]);

    let schema = call(
        &session,
        "fs",
        json!({"action": "schema", "of_action": "write"}),
    )
    .await;
    let described: Vec<&String> = structured(&schema)["actions"]
        .as_object()
        .expect("a map of actions")
        .keys()
        .collect();
    assert_eq!(described, ["write"]);

    let status = call(&session, "fs", json!({"action": "status"})).await;
    let status = structured(&status);
    assert_eq!(status["tool"], "fs");
    assert_eq!(status["enabled"], true);
    assert_eq!(status["backend"], "local");
    assert!(
        status["version"].as_str().is_some_and(|v| !v.is_empty()),
        "{status}"
    );

    let unknown = call(&session, "fs", json!({"action": "wirte"})).await;
    assert_eq!(unknown.is_error, Some(true));
    assert_eq!(structured(&unknown)["code"], "UNKNOWN_ACTION");
    assert_eq!(
        structured(&unknown)["details"]["available"],
        json!(["read", "list", "write", "help", "schema", "status"])
    );
}

#[tokio::test]
async fn a_short_job_within_its_budget_answers_inline() {
    let session = connect(DispatcherConfig::default()).await;
    let result = call(&session, "sleep", json!({"ms": 10})).await;
    assert_eq!(structured(&result), &json!({"slept_ms": 10}));
}

#[tokio::test]
async fn a_job_over_its_budget_answers_with_a_handle_to_poll() {
    let config = DispatcherConfig::default().short_wait(Duration::from_millis(20));
    let session = connect(config).await;
    let result = call(&session, "sleep", json!({"ms": 300})).await;
    assert_eq!(result.is_error, Some(false));
    let handle = structured(&result);
    assert_eq!(handle["tool"], "sleep");
    assert_eq!(handle["expected_timing"], "async_short");
    let job_id = handle["job_id"].as_str().expect("a job id").to_owned();
    assert!(text(&result).contains("job_poll"), "{}", text(&result));

    let polled = call(
        &session,
        "job_poll",
        json!({"job_ids": [job_id], "timeout_ms": 10_000}),
    )
    .await;
    assert_eq!(structured(&polled)["completed"], json!([job_id]));
    let status = call(&session, "job_status", json!({"job_id": job_id})).await;
    assert_eq!(structured(&status)["state"], "complete");
}

#[tokio::test]
async fn medium_calls_wait_and_fire_and_forget_calls_do_not() {
    let session = connect(DispatcherConfig::default()).await;
    let render = call(&session, "render", json!({"ms": 20})).await;
    assert_eq!(structured(&render), &json!({"frames": 2}));
    let launch = call(&session, "launch", json!({"fail": true})).await;
    assert_eq!(structured(&launch)["expected_timing"], "fire_and_forget");
    let job_id = structured(&launch)["job_id"]
        .as_str()
        .expect("a job id")
        .to_owned();
    let polled = call(
        &session,
        "job_poll",
        json!({"job_ids": [job_id], "timeout_ms": 10_000}),
    )
    .await;
    assert_eq!(structured(&polled)["failed"], json!([job_id]));
}

#[tokio::test]
async fn an_async_long_call_answers_with_its_handle_at_once() {
    let session = connect(DispatcherConfig::default()).await;
    let result = call(
        &session,
        "generate",
        json!({"chunks": 3, "interval_ms": 5_000}),
    )
    .await;
    let handle = structured(&result);
    assert_eq!(handle["expected_timing"], "async_long");
    let job_id = handle["job_id"].as_str().expect("a job id");
    let state = status(&session.dispatcher, job_id).await.state;
    assert!(
        matches!(state, JobState::Pending | JobState::Running),
        "{state:?}"
    );
}

#[tokio::test]
async fn polling_a_stream_sends_its_chunks_as_progress() {
    let mut session = connect(DispatcherConfig::default()).await;
    let result = call(
        &session,
        "generate",
        json!({"chunks": 4, "interval_ms": 30}),
    )
    .await;
    let job_id = structured(&result)["job_id"]
        .as_str()
        .expect("a job id")
        .to_owned();
    // rmcp's client gives every request a progress token.
    let polled = call(
        &session,
        "job_poll",
        json!({"job_ids": [job_id], "timeout_ms": 10_000}),
    )
    .await;
    assert_eq!(structured(&polled)["completed"], json!([job_id]));

    // The poll may start after the first chunk; the last ones come while it
    // waits. The server sends them before the poll's answer, but rmcp's
    // client runs each notification's handler on a task of its own, so
    // they may reach the test just after it.
    let mut messages = Vec::new();
    let last = tokio::time::timeout(Duration::from_secs(10), async {
        while let Some(p) = session.progress.recv().await {
            let message = p.message.unwrap_or_default();
            let last = message.contains("\"step\"") && message.contains("\"n\":3");
            messages.push(message);
            if last {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(last, Ok(true), "{messages:?}");
}

#[tokio::test]
async fn cancelling_a_call_cancels_its_job() {
    let session = connect(DispatcherConfig::default()).await;
    let params = CallToolRequestParams::new("sleep").with_arguments(args(json!({"ms": 60_000})));
    let request = ClientRequest::CallToolRequest(CallToolRequest::new(params));
    let handle = session
        .client
        .peer()
        .send_cancellable_request(request, PeerRequestOptions::no_options())
        .await
        .expect("sent");
    let probes = &session.dispatcher.service().probes;
    tokio::time::timeout(SOON, probes.started("sleep", 1))
        .await
        .expect("the handler starts");
    handle
        .cancel(Some("changed my mind".into()))
        .await
        .expect("cancelled");

    let jobs = tokio::time::timeout(SOON, async {
        loop {
            let jobs = session
                .dispatcher
                .jobs()
                .list(all_jobs())
                .await
                .expect("lists")
                .jobs;
            if jobs.iter().all(|j| j.state == JobState::Cancelled) {
                return jobs;
            }
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("the job is cancelled");
    assert_eq!(jobs.len(), 1);
    // The server still answers.
    let result = call(&session, "add", json!({"a": 1, "b": 1})).await;
    assert_eq!(structured(&result), &json!({"result": 2}));
}

/// Raw lines in, raw lines out: what a client that is not rmcp sees.
mod raw {
    use super::*;
    use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};

    #[tokio::test]
    async fn malformed_lines_get_their_errors_and_the_session_goes_on() {
        let server =
            McpServer::new(dispatcher(DispatcherConfig::default())).expect("the schema parses");
        let (client_end, server_end) = tokio::io::duplex(64 * 1024);
        let (server_read, server_write) = tokio::io::split(server_end);
        let served = tokio::spawn(server.serve_io(server_read, server_write));
        let (client_read, mut client_write) = tokio::io::split(client_end);
        let mut lines = BufReader::new(client_read).lines();

        let init = json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                       "clientInfo": {"name": "raw", "version": "1"}}
        });
        let too_long = format!("{{\"pad\": \"{}\"}}", "x".repeat(MAX_LINE));
        let input = [
            init.to_string(),
            json!({"jsonrpc": "2.0", "method": "notifications/initialized"}).to_string(),
            "{\"jsonrpc\": \"2.0\", \"id\": 1,".to_owned(),
            json!({"id": 2, "method": "ping"}).to_string(),
            json!({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": 3}})
                .to_string(),
            json!([{"jsonrpc": "2.0", "id": 4, "method": "ping"}]).to_string(),
            too_long,
            json!({"jsonrpc": "2.0", "id": 5, "method": "tools/mix"}).to_string(),
            add_call(6).to_string(),
        ];
        let writer = tokio::spawn(async move {
            for line in input {
                client_write
                    .write_all(line.as_bytes())
                    .await
                    .expect("write");
                client_write.write_all(b"\n").await.expect("write");
            }
            client_write
        });

        let mut answers = Vec::new();
        while answers.len() < 8 {
            let line = tokio::time::timeout(SOON, lines.next_line())
                .await
                .expect("answered in time")
                .expect("read")
                .expect("a line");
            answers.push(serde_json::from_str::<Value>(&line).expect("JSON"));
        }
        let code_of = |id: Value| -> Option<i64> {
            answers
                .iter()
                .find(|a| a["id"] == id)
                .and_then(|a| a["error"]["code"].as_i64())
        };
        assert_eq!(code_of(json!(2)), Some(-32600));
        assert_eq!(code_of(json!(3)), Some(-32602));
        assert_eq!(code_of(json!(5)), Some(-32601));
        let anonymous: Vec<i64> = answers
            .iter()
            .filter(|a| a["id"].is_null())
            .filter_map(|a| a["error"]["code"].as_i64())
            .collect();
        // The broken line, the batch, the over-long line.
        assert_eq!(anonymous, [-32700, -32600, -32600]);
        let sum = answers
            .iter()
            .find(|a| a["id"] == 6)
            .expect("the call is answered");
        assert_eq!(sum["result"]["structuredContent"], json!({"result": 7}));

        // The end of input ends the session.
        let mut client_write = writer.await.expect("the writer ends");
        client_write.shutdown().await.expect("shutdown");
        tokio::time::timeout(SOON, served)
            .await
            .expect("the server stops")
            .expect("the task ends")
            .expect("served without error");
    }

    /// A server on one end of a pipe, driven line by line from the other.
    struct RawSession {
        lines: tokio::io::Lines<BufReader<tokio::io::ReadHalf<tokio::io::DuplexStream>>>,
        input: tokio::io::WriteHalf<tokio::io::DuplexStream>,
        served: tokio::task::JoinHandle<Result<(), toolwright::mcp::ServeError>>,
    }

    impl RawSession {
        fn start() -> RawSession {
            let server =
                McpServer::new(dispatcher(DispatcherConfig::default())).expect("the schema parses");
            let (client_end, server_end) = tokio::io::duplex(64 * 1024);
            let (server_read, server_write) = tokio::io::split(server_end);
            let served = tokio::spawn(server.serve_io(server_read, server_write));
            let (client_read, input) = tokio::io::split(client_end);
            RawSession {
                lines: BufReader::new(client_read).lines(),
                input,
                served,
            }
        }

        /// A session past `initialize` on `revision`; gives the
        /// `initialize` result.
        async fn initialized(revision: &str) -> (RawSession, Value) {
            let mut session = RawSession::start();
            let result = session.initialize(revision).await;
            (session, result)
        }

        async fn initialize(&mut self, revision: &str) -> Value {
            self.send(&initialize(revision)).await;
            let answer = self.next().await;
            assert_eq!(answer["id"], 0, "{answer}");
            self.send(&json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
                .await;
            answer["result"].clone()
        }

        async fn send(&mut self, message: &Value) {
            self.send_line(&message.to_string()).await;
        }

        async fn send_line(&mut self, line: &str) {
            self.input.write_all(line.as_bytes()).await.expect("write");
            self.input.write_all(b"\n").await.expect("write");
        }

        /// The next line the server writes.
        async fn next(&mut self) -> Value {
            let line = tokio::time::timeout(SOON, self.lines.next_line())
                .await
                .expect("answered in time")
                .expect("read")
                .expect("a line");
            serde_json::from_str(&line).expect("JSON")
        }

        /// The next answer the server writes, past any notification.
        async fn answer(&mut self) -> Value {
            loop {
                let message = self.next().await;
                if message.get("id").is_some() {
                    return message;
                }
            }
        }

        /// Ends the input; the server stops without error.
        async fn end(mut self) {
            self.input.shutdown().await.expect("shutdown");
            tokio::time::timeout(SOON, self.served)
                .await
                .expect("the server stops")
                .expect("the task ends")
                .expect("served without error");
        }
    }

    fn initialize(revision: &str) -> Value {
        json!({
            "jsonrpc": "2.0", "id": 0, "method": "initialize",
            "params": {"protocolVersion": revision, "capabilities": {},
                       "clientInfo": {"name": "raw", "version": "1"}}
        })
    }

    fn ping(id: u64) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": "ping"})
    }

    fn add(id: u64, a: i64, b: i64) -> Value {
        json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": a, "b": b}}
        })
    }

    /// A lone JSON-RPC error without an id, and its message.
    fn anonymous_error(answer: &Value) -> String {
        assert!(answer.is_object(), "one error object, not {answer}");
        assert_eq!(answer["id"], Value::Null, "{answer}");
        assert_eq!(answer["error"]["code"], -32600, "{answer}");
        answer["error"]["message"]
            .as_str()
            .expect("a message")
            .to_owned()
    }

    #[tokio::test]
    async fn a_2025_03_26_session_answers_a_batch_with_one_array() {
        let (mut session, _) = RawSession::initialized("2025-03-26").await;
        session
            .send(&json!([
                add(1, 3, 4),
                {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
                add(2, 10, 20),
                {"id": 9, "method": "ping"},
            ]))
            .await;
        let reply = session.next().await;
        let answers = reply.as_array().expect("one array for the batch");
        assert_eq!(answers.len(), 3, "{reply}");
        let by_id = |id: u64| {
            answers
                .iter()
                .find(|a| a["id"] == id)
                .unwrap_or_else(|| panic!("no answer for {id} in {reply}"))
        };
        assert_eq!(
            by_id(1)["result"]["structuredContent"],
            json!({"result": 7})
        );
        assert_eq!(
            by_id(2)["result"]["structuredContent"],
            json!({"result": 30})
        );
        assert_eq!(by_id(9)["error"]["code"], -32600);

        // An empty batch is one error object, not an array.
        session.send_line("[]").await;
        let empty = session.next().await;
        assert!(anonymous_error(&empty).contains("empty"), "{empty}");

        // Notifications only: no reply at all, and the session goes on.
        session
            .send(&json!([
                {"jsonrpc": "2.0", "method": "notifications/roots/list_changed"},
                {"jsonrpc": "2.0", "method": "notifications/progress",
                 "params": {"progress": "not a number"}},
            ]))
            .await;
        session.send(&ping(5)).await;
        let pong = session.next().await;
        assert_eq!(pong["id"], 5, "the batch got no reply: {pong}");
        assert_eq!(pong["result"], json!({}));
        session.end().await;
    }

    #[tokio::test]
    async fn a_batch_does_not_wait_for_a_cancelled_request() {
        let (mut session, _) = RawSession::initialized("2025-03-26").await;
        let sleep = json!({
            "jsonrpc": "2.0", "id": 1, "method": "tools/call",
            "params": {"name": "sleep", "arguments": {"ms": 60_000}}
        });
        session.send(&json!([sleep, add(2, 1, 1)])).await;
        session
            .send(
                &json!({"jsonrpc": "2.0", "method": "notifications/cancelled",
                          "params": {"requestId": 1, "reason": "changed my mind"}}),
            )
            .await;
        let reply = session.next().await;
        let ids: Vec<&Value> = reply
            .as_array()
            .expect("an array")
            .iter()
            .map(|a| &a["id"])
            .collect();
        assert_eq!(ids, [2], "{reply}");
        session.send(&ping(3)).await;
        assert_eq!(session.next().await["id"], 3);
        session.end().await;
    }

    #[tokio::test]
    async fn a_batch_of_errors_only_is_answered_at_once() {
        let (mut session, _) = RawSession::initialized("2024-11-05").await;
        session
            .send(
                &json!([7, {"jsonrpc": "2.0", "id": 3, "method": "tools/call",
                              "params": {"name": 3}}]),
            )
            .await;
        let reply = session.next().await;
        let codes: Vec<&Value> = reply
            .as_array()
            .expect("an array")
            .iter()
            .map(|a| &a["error"]["code"])
            .collect();
        assert_eq!(codes, [-32600, -32602], "{reply}");
        session.end().await;
    }

    #[tokio::test]
    async fn later_revisions_and_uninitialized_sessions_refuse_batches() {
        let mut session = RawSession::start();
        session.send(&json!([ping(1)])).await;
        let before = session.next().await;
        assert!(anonymous_error(&before).contains("initialize"), "{before}");
        session.initialize("2025-06-18").await;
        session.send(&json!([ping(2), ping(3)])).await;
        let refused = session.next().await;
        assert!(
            anonymous_error(&refused).contains("MCP 2025-06-18"),
            "{refused}"
        );
        session.send(&ping(4)).await;
        assert_eq!(session.next().await["id"], 4);
        session.end().await;

        let (mut session, _) = RawSession::initialized("2025-11-25").await;
        session.send(&json!([ping(1)])).await;
        let refused = session.next().await;
        assert!(
            anonymous_error(&refused).contains("MCP 2025-11-25"),
            "{refused}"
        );
        session.end().await;
    }

    #[tokio::test]
    async fn tools_list_on_a_2025_11_25_session_is_answered() {
        let (mut session, _) = RawSession::initialized("2025-11-25").await;
        session
            .send(&json!({"jsonrpc": "2.0", "id": 7, "method": "tools/list"}))
            .await;
        let answer = session.next().await;
        assert_eq!(answer["id"], 7, "{answer}");
        // Rerouted to `toolwright/tools/list`, whose tools carry the
        // `execution` that rmcp's own `tools/list` would drop.
        let tools = answer["result"]["tools"].as_array().expect("the tools");
        assert!(tools.iter().any(|t| t["execution"].is_object()), "{answer}");
        session.end().await;
    }

    #[tokio::test]
    async fn the_tasks_capability_comes_with_2025_11_25() {
        let (session, result) = RawSession::initialized("2025-11-25").await;
        assert_eq!(result["protocolVersion"], "2025-11-25");
        assert!(result["capabilities"]["tasks"].is_object(), "{result}");
        assert!(result["capabilities"]["tools"].is_object(), "{result}");
        session.end().await;

        let (session, result) = RawSession::initialized("2025-06-18").await;
        assert_eq!(result["protocolVersion"], "2025-06-18");
        assert!(result["capabilities"].get("tasks").is_none(), "{result}");
        session.end().await;
    }

    #[tokio::test]
    async fn a_task_is_created_followed_and_fetched_on_stdio() {
        let (mut session, _) = RawSession::initialized("2025-11-25").await;
        session.send(&sleep_as_task(1)).await;
        let created = session.next().await;
        let task_id = created["result"]["task"]["taskId"]
            .as_str()
            .unwrap_or_else(|| panic!("no task in {created}"))
            .to_owned();
        session
            .send(&json!({"jsonrpc": "2.0", "id": 2, "method": "tasks/result",
                "params": {"taskId": task_id}}))
            .await;
        let result = session.answer().await;
        assert_eq!(result["id"], 2, "{result}");
        assert_eq!(
            result["result"]["structuredContent"],
            json!({"slept_ms": 50})
        );
        session
            .send(&json!({"jsonrpc": "2.0", "id": 3, "method": "tasks/get",
                "params": {"taskId": task_id}}))
            .await;
        let got = session.answer().await;
        assert_eq!(got["result"]["status"], "completed", "{got}");
        session.end().await;
    }

    #[tokio::test]
    async fn a_finished_task_is_announced_to_its_session() {
        let (mut session, _) = RawSession::initialized("2025-11-25").await;
        session.send(&sleep_as_task(1)).await;
        let created = session.next().await;
        let task = &created["result"]["task"];
        assert_eq!(task["status"], "working", "{created}");
        // Nothing asked after the task was made: the status comes unasked.
        let told = session.next().await;
        assert_eq!(told["method"], "notifications/tasks/status", "{told}");
        assert_eq!(told["params"]["taskId"], task["taskId"], "{told}");
        assert_eq!(told["params"]["status"], "completed", "{told}");
        assert!(told.get("id").is_none(), "{told}");
        session.end().await;
    }

    /// `sleep` for 50 ms, called as a task.
    fn sleep_as_task(id: u64) -> Value {
        json!({"jsonrpc": "2.0", "id": id, "method": "tools/call", "params": {
            "name": "sleep", "arguments": {"ms": 50}, "task": {"ttl": 5000}}})
    }

    fn add_call(id: u64) -> Value {
        json!({
            "jsonrpc": "2.0", "id": id, "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 3, "b": 4}}
        })
    }

    /// The longest line the server reads; the padding alone reaches it.
    const MAX_LINE: usize = 16 * 1024 * 1024;
}
