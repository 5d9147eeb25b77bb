//! `studio serve`: the real binary serving the reference catalogue over MCP,
//! as a client starts it, on stdio and on Streamable HTTP.

use std::process::Stdio;
use std::time::Duration;

use rmcp::model::{CallToolRequestParams, CallToolResult, ProgressNotificationParam};
use rmcp::service::{NotificationContext, RunningService};
use rmcp::{ClientHandler, RoleClient, ServiceExt};
use serde_json::{Value, json};
use studio::ToolCatalogue;
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::process::{Child, Command};
use tokio::sync::mpsc;
use toolwright::Catalogue;

const SOON: Duration = Duration::from_secs(30);

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

/// `studio serve ARGS` with its own content store; killed when dropped.
fn studio(args: &[&str], data: &tempfile::TempDir) -> Child {
    Command::new(env!("CARGO_BIN_EXE_studio"))
        .arg("serve")
        .args(args)
        .env("STUDIO_DATA", data.path())
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the studio starts")
}

async fn call(
    client: &RunningService<RoleClient, Listener>,
    tool: &'static str,
    arguments: Value,
) -> CallToolResult {
    let Value::Object(arguments) = arguments else {
        panic!("arguments must be an object");
    };
    tokio::time::timeout(
        SOON,
        client.call_tool(CallToolRequestParams::new(tool).with_arguments(arguments)),
    )
    .await
    .expect("answered in time")
    .unwrap_or_else(|e| panic!("calling `{tool}` failed: {e}"))
}

fn structured(result: &CallToolResult) -> &Value {
    result
        .structured_content
        .as_ref()
        .expect("structured content")
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_stdio_lists_calls_and_streams_the_catalogue() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let mut child = studio(&["--stdio"], &data);
    let stdout = child.stdout.take().expect("stdout");
    let stdin = child.stdin.take().expect("stdin");
    let (tx, mut progress) = mpsc::unbounded_channel();
    let client = Listener { progress: tx }
        .serve((stdout, stdin))
        .await
        .expect("the handshake succeeds");
    let server = client.peer_info().expect("server info");
    assert_eq!(server.server_info.as_ref().expect("named").name, "studio");

    let tools = client.list_all_tools().await.expect("tools/list");
    let listed: Vec<&str> = tools.iter().map(|t| t.name.as_ref()).collect();
    let declared: Vec<&str> = ToolCatalogue::TOOLS.iter().map(|t| t.name).collect();
    assert_eq!(listed, declared);
    // A tool that can run as a job admits its handle as a result.
    let orpheus = tools
        .iter()
        .find(|t| t.name == "orpheus_generate")
        .expect("listed");
    let output = Value::Object(
        orpheus
            .output_schema
            .as_deref()
            .expect("an output schema")
            .clone(),
    );
    // The response, a job handle, or a tool error.
    let alternatives = output["anyOf"].as_array().expect("alternatives");
    for name in ["JobHandle", "ToolError"] {
        assert!(
            alternatives.contains(&json!({ "$ref": format!("#/$defs/{name}") })),
            "{name} in {alternatives:?}"
        );
    }
    assert_eq!(
        output["$defs"]["JobHandle"]["required"],
        json!(["job_id", "tool", "expected_timing"])
    );

    let sum = call(&client, "add", json!({"a": 2, "b": 40})).await;
    assert_eq!(structured(&sum), &json!({"result": 42}));

    let bad = call(&client, "add", json!({"a": 2, "b": "forty"})).await;
    assert_eq!(bad.is_error, Some(true));
    assert_eq!(
        structured(&bad)["details"],
        json!({"field": "b", "expected": "integer"})
    );

    // Arguments as OpenAI's strict mode has a model send them, from the
    // generated profile: every property present, `null` for those left out.
    let profiles =
        std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../../generated/schemas/profiles");
    let openai: Value = serde_json::from_str(
        &std::fs::read_to_string(profiles.join("openai.json")).expect("the OpenAI profile"),
    )
    .expect("JSON");
    let store = openai
        .as_array()
        .and_then(|tools| tools.iter().find(|t| t["function"]["name"] == "cas_store"))
        .expect("cas_store in the profile");
    let parameters = &store["function"]["parameters"];
    assert_eq!(store["function"]["strict"], true);
    assert_eq!(parameters["required"], json!(["data", "mime_type"]));
    assert_eq!(
        parameters["properties"]["mime_type"]["type"],
        json!(["string", "null"])
    );
    let strict = json!({"data": "aGVsbG8=", "mime_type": null});
    let stored = call(&client, "cas_store", strict).await;
    assert_eq!(stored.is_error, Some(false), "{stored:?}");
    // A `null` for a required property is that property missing.
    let missing = call(&client, "cas_store", json!({"data": null})).await;
    assert_eq!(missing.is_error, Some(true));
    assert_eq!(
        structured(&missing)["details"]["field"],
        "data",
        "{missing:?}"
    );

    let started = call(&client, "orpheus_generate", json!({"max_tokens": 1024})).await;
    assert_eq!(structured(&started)["expected_timing"], "async_long");
    let job_id = structured(&started)["job_id"]
        .as_str()
        .expect("a job id")
        .to_owned();
    let polled = call(
        &client,
        "job_poll",
        json!({"job_ids": [job_id], "timeout_ms": 20_000}),
    )
    .await;
    assert_eq!(structured(&polled)["completed"], json!([job_id]));
    // The server sends every notification before the poll's answer, but
    // the client hands each to its handler on a task of its own, so the
    // last ones may reach the test just after the answer.
    let mut messages = Vec::new();
    let finished = tokio::time::timeout(SOON, async {
        while let Some(p) = progress.recv().await {
            let message = p.message.unwrap_or_default();
            let last = message.contains("\"percent\":100");
            messages.push(message);
            if last {
                return true;
            }
        }
        false
    })
    .await;
    assert_eq!(finished, Ok(true), "{messages:?}");

    let status = call(&client, "job_status", json!({"job_id": job_id})).await;
    assert_eq!(structured(&status)["state"], "complete");
    assert!(
        structured(&status)["result"]["output_hashes"].is_array(),
        "{status:?}"
    );
    client.cancel().await.expect("the client closes");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn serve_http_says_where_it_listens_and_answers_there() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let mut child = studio(&["--http", "127.0.0.1:0"], &data);
    let mut stderr = BufReader::new(child.stderr.take().expect("stderr"));
    let mut line = String::new();
    tokio::time::timeout(SOON, stderr.read_line(&mut line))
        .await
        .expect("it says where in time")
        .expect("a line");
    let url = line
        .trim()
        .strip_prefix("studio: serving MCP at http://")
        .unwrap_or_else(|| panic!("unexpected first line: {line:?}"));
    let (addr, path) = url.split_once('/').expect("an address and a path");
    assert_eq!(path, "mcp");

    let body = json!({
        "jsonrpc": "2.0", "id": 1, "method": "initialize",
        "params": {"protocolVersion": "2025-06-18", "capabilities": {},
                   "clientInfo": {"name": "test", "version": "1"}}
    })
    .to_string();
    let request = format!(
        "POST /mcp HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Accept: application/json, text/event-stream\r\nContent-Length: {}\r\n\
         Connection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = tokio::net::TcpStream::connect(addr).await.expect("connect");
    stream.write_all(request.as_bytes()).await.expect("write");
    let mut answer = String::new();
    tokio::time::timeout(SOON, stream.read_to_string(&mut answer))
        .await
        .expect("answered in time")
        .expect("read");
    assert!(answer.starts_with("HTTP/1.1 200"), "{answer}");
    assert!(
        answer.contains("\"protocolVersion\":\"2025-06-18\""),
        "{answer}"
    );
    assert!(
        answer.to_ascii_lowercase().contains("mcp-session-id:"),
        "{answer}"
    );
}

#[test]
fn mount_scopes_for_no_mount_are_refused_before_serving() {
    let data = tempfile::tempdir().expect("a temporary directory");
    let output = std::process::Command::new(env!("CARGO_BIN_EXE_studio"))
        .args(["serve", "--stdio", "--mount-scopes", "b=b:use"])
        .env("STUDIO_DATA", data.path())
        .stdin(Stdio::null())
        .output()
        .expect("the studio runs");
    assert!(!output.status.success());
    let stderr = String::from_utf8_lossy(&output.stderr);
    assert!(
        stderr.contains("studio: --mount-scopes b=…: no --mount b=… is given"),
        "{stderr}"
    );
}
