//! Every JSON door answers alike: one table of calls — a plain call, an
//! action, the built-in `help`, `schema` and `status`, each with a field
//! they do not take, an unknown action, a provider's strict-mode `null`, a
//! bad argument, a number too large for its `f32` — sent through MCP on
//! stdio, MCP on Streamable HTTP, `POST /api/tools/{name}`, the TOON
//! WebSocket (both versions), an MCP gateway in front of a HOOT01 worker
//! and the batch client straight to that worker, each answer read into one
//! shape and compared with the others.
#![cfg(all(feature = "mcp", feature = "web", feature = "hoot", feature = "client"))]

mod support;

use futures_util::{SinkExt as _, StreamExt as _};
use hyper::StatusCode;
use rmcp::model::{CallToolRequestParams, CallToolResult};
use rmcp::service::RunningService;
use rmcp::{RoleClient, ServiceExt as _};
use serde_json::{Value, json};
use support::http::{Server, post, session, start};
use support::*;
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::Message;
use toolwright::client::{HootTransport, ToolTransport as _};
use toolwright::hoot::{Client, ClientConfig, ServerConfig, ServerHandle};
use toolwright::mcp::{HttpConfig, McpServer};
use toolwright::toon::{Decoder, Encoder, MessageType, Stamp, Version};
use toolwright::{DispatcherConfig, Json};

/// What a door answered, in one shape: the response's fields (without
/// the `tool` tag some doors keep), or the error.
#[derive(Debug, PartialEq)]
enum Said {
    Ok(Value),
    Err(Value),
}

impl Said {
    fn ok(mut fields: Value) -> Said {
        if let Some(map) = fields.as_object_mut() {
            map.remove("tool");
        }
        Said::Ok(fields)
    }

    fn code(&self) -> Option<&str> {
        match self {
            Said::Err(e) => e["code"].as_str(),
            Said::Ok(_) => None,
        }
    }
}

/// The table: a name, the tool, its arguments, and what to expect of the
/// answer (every door must also agree with every other).
fn cases() -> Vec<(&'static str, &'static str, Value, Expect)> {
    use Expect::{Code, Fields};
    vec![
        (
            "a plain call",
            "add",
            json!({"a": 2, "b": 3}),
            Fields(json!({"result": 5})),
        ),
        (
            "an action",
            "fs",
            json!({"action": "read", "uri": "a"}),
            Fields(json!({"action": "read", "text": "contents of a"})),
        ),
        (
            "an action with a field it lacks",
            "fs",
            json!({"action": "read", "uri": "a", "content": "x"}),
            Code("INVALID_REQUEST"),
        ),
        ("help", "fs", json!({"action": "help"}), Fields(Value::Null)),
        (
            "help with a field",
            "fs",
            json!({"action": "help", "uri": 123}),
            Code("INVALID_REQUEST"),
        ),
        (
            "schema",
            "fs",
            json!({"action": "schema", "of_action": "read"}),
            Fields(Value::Null),
        ),
        (
            "schema with a field",
            "fs",
            json!({"action": "schema", "uri": "a"}),
            Code("INVALID_REQUEST"),
        ),
        (
            "schema of an unknown action",
            "fs",
            json!({"action": "schema", "of_action": "raed"}),
            Code("UNKNOWN_ACTION"),
        ),
        (
            "status",
            "fs",
            json!({"action": "status"}),
            Fields(Value::Null),
        ),
        (
            "status with a field",
            "fs",
            json!({"action": "status", "files": 2}),
            Code("INVALID_REQUEST"),
        ),
        (
            "an unknown action",
            "fs",
            json!({"action": "raed"}),
            Code("UNKNOWN_ACTION"),
        ),
        (
            "no action",
            "fs",
            json!({"uri": "a"}),
            Code("INVALID_REQUEST"),
        ),
        (
            "a strict-mode null",
            "fs",
            json!({"action": "write", "uri": "a", "content": "xyz", "ms": null}),
            Fields(json!({"action": "write", "written": 3})),
        ),
        (
            "a bad argument",
            "add",
            json!({"a": "two", "b": 3}),
            Code("INVALID_REQUEST"),
        ),
        (
            "a missing argument",
            "add",
            json!({"a": 2}),
            Code("INVALID_REQUEST"),
        ),
        (
            "an f32 that fits",
            "scale",
            json!({"factor": 1.5}),
            Fields(json!({"factor": 1.5})),
        ),
        (
            "an f32 overflow",
            "scale",
            json!({"factor": 1.44e98}),
            Code("INVALID_REQUEST"),
        ),
    ]
}

enum Expect {
    /// These fields (`null`: whatever the doors agree on).
    Fields(Value),
    /// An error with this code.
    Code(&'static str),
}

/// An MCP result as [`Said`].
fn from_mcp(result: &CallToolResult) -> Said {
    let content = result.structured_content.clone().unwrap_or(Value::Null);
    if result.is_error == Some(true) {
        Said::Err(content)
    } else {
        Said::ok(content)
    }
}

fn arguments(args: &Value) -> rmcp::model::JsonObject {
    args.as_object().cloned().expect("arguments are an object")
}

async fn over_rmcp(client: &RunningService<RoleClient, ()>, tool: &str, args: &Value) -> Said {
    let params = CallToolRequestParams::new(tool.to_owned()).with_arguments(arguments(args));
    let result = client.call_tool(params).await.expect("a tool result");
    from_mcp(&result)
}

/// An rmcp client of `server` over an in-process pipe (stdio's framing).
async fn piped<P: toolwright::port::CallPort>(
    server: McpServer<P>,
) -> RunningService<RoleClient, ()> {
    let (client_end, server_end) = tokio::io::duplex(64 * 1024);
    let (read, write) = tokio::io::split(server_end);
    tokio::spawn(server.serve_io(read, write));
    ().serve(tokio::io::split(client_end))
        .await
        .expect("the handshake")
}

async fn over_http(server: &Server, sid: &str, tool: &str, args: &Value) -> Said {
    let headers = [
        ("mcp-session-id", sid),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let call = json!({
        "jsonrpc": "2.0", "id": 1, "method": "tools/call",
        "params": {"name": tool, "arguments": args}
    });
    let answer = post(server, &headers, call.to_string()).await;
    let result: CallToolResult =
        serde_json::from_value(answer.message()["result"].clone()).expect("a tool result");
    from_mcp(&result)
}

async fn over_web(server: &Server, tool: &str, args: &Value) -> Said {
    let answer = support::http::request(
        server,
        hyper::Method::POST,
        &format!("/api/tools/{tool}"),
        &[],
        args.to_string(),
    )
    .await;
    let envelope: Value = serde_json::from_str(&answer.body).expect("JSON");
    match (&envelope["success"], &envelope["error"]) {
        (Value::Null, error) => {
            let expected = match error["code"].as_str() {
                Some("INVALID_REQUEST" | "UNKNOWN_ACTION") => StatusCode::BAD_REQUEST,
                _ => StatusCode::OK,
            };
            assert_eq!(answer.status, expected, "{}", answer.body);
            Said::Err(error.clone())
        }
        (fields, _) => {
            assert_eq!(answer.status, StatusCode::OK);
            Said::ok(fields.clone())
        }
    }
}

type Socket = tokio_tungstenite::WebSocketStream<TcpStream>;

async fn over_toon(socket: &mut Socket, version: Version, tool: &str, args: &Value) -> Said {
    let call = json!({"toolName": tool, "args": args});
    let stamp = Stamp {
        timestamp: 1,
        sequence_id: 7,
    };
    let frame = Encoder::new(version)
        .encode(MessageType::ToolCall, stamp, &call)
        .expect("a frame");
    socket
        .send(Message::Binary(frame.into()))
        .await
        .expect("sent");
    let frame = match tokio::time::timeout(SOON, socket.next()).await {
        Ok(Some(Ok(Message::Binary(bytes)))) => bytes.to_vec(),
        other => panic!("expected a frame, got {other:?}"),
    };
    let decoded = Decoder::new()
        .decode::<Json>(&frame)
        .expect("a frame that decodes");
    assert_eq!(decoded.header.message_type, MessageType::ToolResult);
    let result = decoded.value;
    assert_eq!(result["toolName"], tool);
    if result["success"] == true {
        Said::ok(result["data"].clone())
    } else {
        Said::Err(result["error"].clone())
    }
}

async fn over_batch(transport: &HootTransport<ToolCatalogue>, tool: &str, args: &Value) -> Said {
    match transport.call_tool(tool, args.clone()).await {
        Ok(fields) => Said::ok(fields),
        Err(e) => Said::Err(serde_json::to_value(e).expect("an error's JSON")),
    }
}

/// A HOOT01 worker over a fresh studio, and an MCP gateway in front of it.
async fn gateway() -> (ServerHandle, RunningService<RoleClient, ()>) {
    let worker = toolwright::hoot::Server::serve(
        dispatcher(DispatcherConfig::default()),
        ServerConfig::new("tcp://127.0.0.1:0"),
    )
    .expect("the worker binds");
    let client = Client::<ToolCatalogue>::connect(&[worker.endpoint()], ClientConfig::default())
        .expect("the gateway connects");
    assert!(client.ready(SOON).await, "the worker answers");
    let server = McpServer::new(client).expect("the schema parses");
    (worker, piped(server).await)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_json_door_answers_every_call_alike() {
    let stdio =
        piped(McpServer::new(dispatcher(DispatcherConfig::default())).expect("the schema parses"))
            .await;
    let http = start(HttpConfig::default()).await;
    let sid = session(&http, "2025-11-25", &[]).await;
    let url = format!("ws://{}/api/toon", http.addr);
    let stream = TcpStream::connect(http.addr).await.expect("connect");
    let (mut socket, _) = tokio_tungstenite::client_async(url, stream)
        .await
        .expect("the upgrade");
    let (worker, gateway) = gateway().await;
    let batch = HootTransport::<ToolCatalogue>::connect(
        &[worker.endpoint()],
        ClientConfig::default(),
        SOON,
    )
    .await
    .expect("the batch client connects");

    for (name, tool, args, expect) in cases() {
        let said = [
            ("MCP stdio", over_rmcp(&stdio, tool, &args).await),
            ("MCP HTTP", over_http(&http, &sid, tool, &args).await),
            ("web", over_web(&http, tool, &args).await),
            (
                "TOON v1",
                over_toon(&mut socket, Version::V1, tool, &args).await,
            ),
            (
                "TOON v2",
                over_toon(&mut socket, Version::V2, tool, &args).await,
            ),
            ("gateway", over_rmcp(&gateway, tool, &args).await),
            ("HOOT01 batch", over_batch(&batch, tool, &args).await),
        ];
        let (_, first) = &said[0];
        match &expect {
            Expect::Fields(Value::Null) => {
                assert!(matches!(first, Said::Ok(_)), "{name}: {first:?}")
            }
            Expect::Fields(fields) => assert_eq!(first, &Said::Ok(fields.clone()), "{name}"),
            Expect::Code(code) => assert_eq!(first.code(), Some(*code), "{name}: {first:?}"),
        }
        for (door, answer) in &said[1..] {
            let mut expected = match first {
                Said::Ok(v) => Said::Ok(v.clone()),
                Said::Err(v) => Said::Err(v.clone()),
            };
            // `status` says where the tool runs: behind a gateway (or a
            // batch client's HOOT01 connection), on another server.
            if let (Said::Ok(fields), "gateway" | "HOOT01 batch") = (&mut expected, *door)
                && fields["action"] == "status"
            {
                fields["backend"] = json!("mcp");
            }
            assert_eq!(
                answer, &expected,
                "{name}: {door} answers as MCP stdio does"
            );
        }
    }
}

#[tokio::test]
async fn a_number_too_large_for_its_f32_names_the_field() {
    let stdio =
        piped(McpServer::new(dispatcher(DispatcherConfig::default())).expect("the schema parses"))
            .await;
    let said = over_rmcp(&stdio, "scale", &json!({"factor": -1e39})).await;
    let Said::Err(error) = said else {
        panic!("refused, not {said:?}");
    };
    assert_eq!(error["code"], "INVALID_REQUEST");
    assert_eq!(error["details"]["field"], "factor");
    let message = error["message"].as_str().unwrap_or_default();
    assert!(message.contains("f32's range"), "{message}");
}
