//! The 2025-11-25 tasks utility over Streamable HTTP, driven with raw
//! requests: the capability and each tool's `execution`, task-augmented
//! calls of every timing class, `tasks/get`, `tasks/result`, `tasks/list`,
//! `tasks/cancel`, their errors, and older revisions, which have no tasks.
#![cfg(feature = "mcp")]

mod support;

use serde_json::{Value, json};
use support::http::{Server, post, session, start};
use toolwright::mcp::HttpConfig;

/// A session on `revision`: the server and the headers every POST carries.
struct Session {
    server: Server,
    headers: Vec<(&'static str, String)>,
    next_id: std::cell::Cell<u64>,
}

impl Session {
    async fn open(revision: &'static str) -> Session {
        let server = start(HttpConfig::default()).await;
        let sid = session(&server, revision, &[]).await;
        Session::on(server, sid, revision)
    }

    fn on(server: Server, sid: String, revision: &'static str) -> Session {
        Session {
            server,
            headers: vec![
                ("mcp-session-id", sid),
                ("mcp-protocol-version", revision.to_owned()),
            ],
            next_id: std::cell::Cell::new(1),
        }
    }

    /// Sends a request; returns the whole JSON-RPC answer.
    async fn request(&self, method: &str, params: Value) -> Value {
        let id = self.next_id.get();
        self.next_id.set(id + 1);
        let headers: Vec<(&str, &str)> =
            self.headers.iter().map(|(k, v)| (*k, v.as_str())).collect();
        let body = json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params});
        let answer = post(&self.server, &headers, body.to_string())
            .await
            .message();
        assert_eq!(answer["id"], id, "{answer}");
        answer
    }

    /// A request that must succeed; its result.
    async fn ok(&self, method: &str, params: Value) -> Value {
        let answer = self.request(method, params).await;
        assert!(answer.get("error").is_none(), "{method}: {answer}");
        answer["result"].clone()
    }

    /// A request that must fail; its error code.
    async fn fails(&self, method: &str, params: Value) -> i64 {
        let answer = self.request(method, params).await;
        answer["error"]["code"]
            .as_i64()
            .unwrap_or_else(|| panic!("{method} did not fail: {answer}"))
    }

    /// Calls `tool` as a task; the task.
    async fn task(&self, tool: &str, arguments: Value) -> Value {
        let params = json!({"name": tool, "arguments": arguments, "task": {"ttl": 60_000}});
        let result = self.ok("tools/call", params).await;
        result["task"].clone()
    }
}

fn id_of(task: &Value) -> String {
    task["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("no taskId in {task}"))
        .to_owned()
}

async fn initialize(server: &Server, revision: &str) -> Value {
    let init = json!({
        "jsonrpc": "2.0", "id": 0, "method": "initialize",
        "params": {"protocolVersion": revision, "capabilities": {},
                   "clientInfo": {"name": "test", "version": "1"}}
    });
    post(server, &[], init.to_string()).await.message()["result"].clone()
}

#[tokio::test]
async fn only_sessions_on_2025_11_25_are_offered_tasks() {
    let server = start(HttpConfig::default()).await;
    let tasks = &initialize(&server, "2025-11-25").await["capabilities"]["tasks"];
    assert_eq!(
        tasks,
        &json!({"list": {}, "cancel": {}, "requests": {"tools": {"call": {}}}})
    );
    for older in ["2025-06-18", "2025-03-26"] {
        let result = initialize(&server, older).await;
        assert_eq!(result["protocolVersion"], older);
        assert!(result["capabilities"].get("tasks").is_none(), "{result}");
        assert!(result["capabilities"].get("tools").is_some(), "{result}");
    }
}

#[tokio::test]
async fn job_capable_tools_say_tasks_are_optional() {
    let session = Session::open("2025-11-25").await;
    let tools = session.ok("tools/list", json!({})).await["tools"].clone();
    let support = |name: &str| -> Option<String> {
        let tool = tools
            .as_array()
            .and_then(|t| t.iter().find(|t| t["name"] == name))
            .unwrap_or_else(|| panic!("no tool {name}"));
        tool.get("execution")
            .map(|e| e["taskSupport"].as_str().unwrap_or("?").to_owned())
    };
    for tool in ["sleep", "render", "generate", "launch", "fs"] {
        assert_eq!(support(tool).as_deref(), Some("optional"), "{tool}");
    }
    for tool in ["add", "echo", "job_status", "job_poll"] {
        assert_eq!(support(tool), None, "{tool}");
    }

    let older = Session::open("2025-06-18").await;
    let tools = older.ok("tools/list", json!({})).await["tools"].clone();
    let listed = tools.as_array().map_or(0, Vec::len);
    assert!(listed > 10, "{tools}");
    assert!(
        tools
            .as_array()
            .into_iter()
            .flatten()
            .all(|t| t.get("execution").is_none())
    );
}

#[tokio::test]
async fn a_task_runs_to_its_result() {
    let session = Session::open("2025-11-25").await;
    let task = session.task("sleep", json!({"ms": 300})).await;
    assert_eq!(task["status"], "working", "{task}");
    assert_eq!(task["ttl"], 60_000);
    assert!(task["pollInterval"].as_u64().is_some(), "{task}");
    assert!(
        task["createdAt"].as_str().is_some_and(|t| t.ends_with('Z')),
        "{task}"
    );
    let id = id_of(&task);
    // A task of a job is the job: the job tools see it under the same id.
    assert!(id.starts_with("job_"), "{id}");

    let got = session.ok("tasks/get", json!({"taskId": id})).await;
    assert_eq!(got["taskId"], id.as_str());

    let result = session.ok("tasks/result", json!({"taskId": id})).await;
    assert_eq!(result["structuredContent"], json!({"slept_ms": 300}));
    assert_eq!(result["isError"], false);
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        id.as_str()
    );

    let got = session.ok("tasks/get", json!({"taskId": id})).await;
    assert_eq!(got["status"], "completed", "{got}");
    let listed = session.ok("tasks/list", json!({})).await;
    assert_eq!(listed["tasks"][0]["taskId"], id.as_str(), "{listed}");
    assert_eq!(listed["tasks"][0]["status"], "completed");
    assert!(listed.get("nextCursor").is_none());
}

#[tokio::test]
async fn a_tool_error_is_a_failed_task_whose_result_carries_it() {
    let session = Session::open("2025-11-25").await;
    let id = id_of(&session.task("launch", json!({"fail": true})).await);
    let result = session.ok("tasks/result", json!({"taskId": id})).await;
    assert_eq!(result["isError"], true, "{result}");
    assert!(
        result["structuredContent"]["code"].as_str().is_some(),
        "{result}"
    );
    let got = session.ok("tasks/get", json!({"taskId": id})).await;
    assert_eq!(got["status"], "failed", "{got}");
    assert!(got["statusMessage"].as_str().is_some(), "{got}");
}

#[tokio::test]
async fn arguments_that_do_not_decode_make_a_task_that_has_failed() {
    let session = Session::open("2025-11-25").await;
    let task = session.task("sleep", json!({"ms": "soon"})).await;
    assert_eq!(task["status"], "failed", "{task}");
    let result = session
        .ok("tasks/result", json!({"taskId": id_of(&task)}))
        .await;
    assert_eq!(
        result["structuredContent"]["code"], "INVALID_REQUEST",
        "{result}"
    );
}

#[tokio::test]
async fn action_tools_run_sync_actions_at_once_and_async_ones_as_jobs() {
    let session = Session::open("2025-11-25").await;
    let write = session
        .task(
            "fs",
            json!({"action": "write", "uri": "a.txt", "content": "hi", "ms": 100}),
        )
        .await;
    assert_eq!(write["status"], "working", "{write}");
    let written = session
        .ok("tasks/result", json!({"taskId": id_of(&write)}))
        .await;
    assert_eq!(written["isError"], false, "{written}");

    let read = session
        .task("fs", json!({"action": "read", "uri": "a.txt"}))
        .await;
    assert_eq!(read["status"], "completed", "{read}");
    assert!(id_of(&read).starts_with("task_"), "{read}");
    let help = session.task("fs", json!({"action": "help"})).await;
    let answer = session
        .ok("tasks/result", json!({"taskId": id_of(&help)}))
        .await;
    assert_eq!(answer["structuredContent"]["action"], "help", "{answer}");
}

#[tokio::test]
async fn cancelling_a_task_stops_its_job() {
    let session = Session::open("2025-11-25").await;
    let id = id_of(
        &session
            .task("generate", json!({"chunks": 1000, "interval_ms": 20}))
            .await,
    );
    let cancelled = session.ok("tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    assert_eq!(
        session.fails("tasks/cancel", json!({"taskId": id})).await,
        -32602
    );
    let result = session.ok("tasks/result", json!({"taskId": id})).await;
    assert_eq!(result["structuredContent"]["code"], "CANCELLED", "{result}");
    let job = session
        .ok(
            "tools/call",
            json!({"name": "job_status", "arguments": {"job_id": id}}),
        )
        .await;
    assert_eq!(job["structuredContent"]["state"], "cancelled", "{job}");
}

#[tokio::test]
async fn what_cannot_be_a_task_is_refused_with_its_error() {
    let session = Session::open("2025-11-25").await;
    let sync = json!({"name": "add", "arguments": {"a": 1, "b": 2}, "task": {}});
    assert_eq!(session.fails("tools/call", sync).await, -32601);
    let job_tool = json!({"name": "job_list", "arguments": {}, "task": {}});
    assert_eq!(session.fails("tools/call", job_tool).await, -32601);
    let unknown = json!({"name": "mix", "arguments": {}, "task": {}});
    assert_eq!(session.fails("tools/call", unknown).await, -32602);
    let bad_task = json!({"name": "sleep", "arguments": {"ms": 1}, "task": {"ttl": "long"}});
    assert_eq!(session.fails("tools/call", bad_task).await, -32602);
    for method in ["tasks/get", "tasks/result", "tasks/cancel"] {
        let nobody = json!({"taskId": "job_nobody"});
        assert_eq!(session.fails(method, nobody).await, -32602, "{method}");
        assert_eq!(session.fails(method, json!({})).await, -32602, "{method}");
    }
    let cursor = json!({"cursor": "job_nowhere"});
    assert_eq!(session.fails("tasks/list", cursor).await, -32602);
}

#[tokio::test]
async fn tasks_belong_to_the_session_that_made_them() {
    let first = Session::open("2025-11-25").await;
    let id = id_of(&first.task("sleep", json!({"ms": 1})).await);
    let other_sid = session(&first.server, "2025-11-25", &[]).await;
    let headers = [
        ("mcp-session-id", other_sid.as_str()),
        ("mcp-protocol-version", "2025-11-25"),
    ];
    let get = json!({"jsonrpc": "2.0", "id": 9, "method": "tasks/get", "params": {"taskId": id}});
    let answer = post(&first.server, &headers, get.to_string())
        .await
        .message();
    assert_eq!(answer["error"]["code"], -32602, "{answer}");
    let list = json!({"jsonrpc": "2.0", "id": 10, "method": "tasks/list", "params": {}});
    let answer = post(&first.server, &headers, list.to_string())
        .await
        .message();
    assert_eq!(answer["result"]["tasks"], json!([]), "{answer}");
    // The session that made it still sees it.
    first.ok("tasks/get", json!({"taskId": id})).await;
}

#[tokio::test]
async fn older_revisions_call_plainly_and_have_no_task_methods() {
    let session = Session::open("2025-06-18").await;
    let call = json!({"name": "sleep", "arguments": {"ms": 10}, "task": {"ttl": 1000}});
    let result = session.ok("tools/call", call).await;
    assert_eq!(
        result["structuredContent"],
        json!({"slept_ms": 10}),
        "{result}"
    );
    assert_eq!(
        session.fails("tasks/get", json!({"taskId": "job_x"})).await,
        -32601
    );
    assert_eq!(session.fails("tasks/list", json!({})).await, -32601);
}
