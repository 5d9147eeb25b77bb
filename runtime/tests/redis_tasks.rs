//! A 2025-11-25 session's tasks on every replica of a server whose
//! sessions are in Redis: the replica a session moves to when its own dies
//! finds the session's tasks, follows their jobs to their end, and cancels
//! them.

mod support;

use serde_json::{Value, json};
use support::http::{Server, post, session};
use support::redis::RedisServer;
use tokio::net::TcpListener;
use tokio::task::JoinHandle;
use tokio_util::sync::CancellationToken;
use toolwright::jobs::RedisJobs;
use toolwright::mcp::{HttpConfig, McpServer, RedisSessions};
use toolwright::{Dispatcher, DispatcherConfig};

use support::Studio;
use toolwright::port::CallPort as _;

const REVISION: &str = "2025-11-25";

/// A replica of the server: its address, and the task serving it, which
/// the test aborts to kill it (a killed process deletes no session).
struct Replica {
    server: Server,
    serving: JoinHandle<()>,
}

async fn replica(jobs: &Dispatcher<Studio>, redis: &RedisServer) -> Replica {
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let sessions = RedisSessions::open(&redis.url()).expect("opens");
    let server = McpServer::new(jobs.clone())
        .expect("the schema parses")
        .sessions(sessions);
    let config = HttpConfig::default().shutdown(stop.clone());
    let serving = tokio::spawn(async move {
        let _ = server.serve_http_on(listener, config).await;
    });
    Replica {
        server: Server { addr, stop },
        serving,
    }
}

/// Sends one request of session `sid` to `server`; the JSON-RPC answer.
async fn request(server: &Server, sid: &str, method: &str, params: Value) -> Value {
    let headers = [("mcp-session-id", sid), ("mcp-protocol-version", REVISION)];
    let body = json!({"jsonrpc": "2.0", "id": 7, "method": method, "params": params});
    post(server, &headers, body.to_string()).await.message()
}

/// A request that must succeed; its result.
async fn ok(server: &Server, sid: &str, method: &str, params: Value) -> Value {
    let answer = request(server, sid, method, params).await;
    assert!(answer.get("error").is_none(), "{method}: {answer}");
    answer["result"].clone()
}

/// Calls `tool` as a task; the task's id.
async fn task(server: &Server, sid: &str, tool: &str, arguments: Value) -> String {
    let params = json!({"name": tool, "arguments": arguments, "task": {"ttl": 60_000}});
    let task = ok(server, sid, "tools/call", params).await["task"].clone();
    task["taskId"]
        .as_str()
        .unwrap_or_else(|| panic!("no taskId in {task}"))
        .to_owned()
}

/// The jobs every replica calls, recorded in Redis as a deployment's
/// workers record them.
fn shared_jobs(redis: &RedisServer) -> Dispatcher<Studio> {
    let records = RedisJobs::open(&redis.url()).expect("opens");
    Dispatcher::with_job_records(
        Studio::default(),
        DispatcherConfig::default(),
        std::sync::Arc::new(records),
    )
}

#[tokio::test]
async fn a_sessions_tasks_go_on_through_the_replica_it_moves_to() {
    let redis = RedisServer::start();
    let jobs = shared_jobs(&redis);
    let a = replica(&jobs, &redis).await;
    let b = replica(&jobs, &redis).await;
    let sid = session(&a.server, REVISION, &[]).await;

    let running = task(&a.server, &sid, "sleep", json!({"ms": 1500})).await;
    // Arguments that do not decode: a task over when it is made.
    let refused = task(&a.server, &sid, "sleep", json!({"ms": "soon"})).await;
    a.serving.abort();

    // B has never seen the session: it restores it, and its tasks with it.
    let got = ok(&b.server, &sid, "tasks/get", json!({"taskId": running})).await;
    assert_eq!(got["status"], "working", "{got}");
    assert_eq!(got["ttl"], 60_000, "{got}");
    let listed = ok(&b.server, &sid, "tasks/list", json!({})).await;
    let ids: Vec<&str> = listed["tasks"]
        .as_array()
        .into_iter()
        .flatten()
        .filter_map(|t| t["taskId"].as_str())
        .collect();
    assert_eq!(ids, [running.as_str(), refused.as_str()], "{listed}");

    let failed = ok(&b.server, &sid, "tasks/get", json!({"taskId": refused})).await;
    assert_eq!(failed["status"], "failed", "{failed}");
    let result = ok(&b.server, &sid, "tasks/result", json!({"taskId": refused})).await;
    assert_eq!(result["isError"], true, "{result}");

    // B follows the job to its end and answers with its result.
    let result = ok(&b.server, &sid, "tasks/result", json!({"taskId": running})).await;
    assert_eq!(result["structuredContent"], json!({"slept_ms": 1500}));
    assert_eq!(
        result["_meta"]["io.modelcontextprotocol/related-task"]["taskId"],
        running.as_str()
    );
    let got = ok(&b.server, &sid, "tasks/get", json!({"taskId": running})).await;
    assert_eq!(got["status"], "completed", "{got}");

    // Another session finds none of them.
    let other = session(&b.server, REVISION, &[]).await;
    let answer = request(&b.server, &other, "tasks/get", json!({"taskId": running})).await;
    assert!(answer.get("error").is_some(), "{answer}");
}

#[tokio::test]
async fn a_task_cancelled_on_one_replica_is_cancelled_on_every_other() {
    let redis = RedisServer::start();
    let jobs = shared_jobs(&redis);
    let a = replica(&jobs, &redis).await;
    let b = replica(&jobs, &redis).await;
    let c = replica(&jobs, &redis).await;
    let sid = session(&a.server, REVISION, &[]).await;
    let id = task(&a.server, &sid, "sleep", json!({"ms": 60_000})).await;
    a.serving.abort();

    let cancelled = ok(&b.server, &sid, "tasks/cancel", json!({"taskId": id})).await;
    assert_eq!(cancelled["status"], "cancelled", "{cancelled}");
    let job = jobs.job_status(&id, None).await.expect("the job is there");
    assert_eq!(job.state, toolwright::jobs::JobState::Cancelled);

    // C restores the session after the cancel: the task is over there too.
    let got = ok(&c.server, &sid, "tasks/get", json!({"taskId": id})).await;
    assert_eq!(got["status"], "cancelled", "{got}");
    let answer = request(&c.server, &sid, "tasks/cancel", json!({"taskId": id})).await;
    assert!(answer.get("error").is_some(), "{answer}");
}
