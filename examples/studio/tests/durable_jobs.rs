//! Jobs outlive the process: the studio with `$STUDIO_JOBS` is killed with
//! SIGKILL while a job runs, and started again on the same files. The
//! result nobody fetched, the failure nobody listed and the job the kill
//! interrupted are all there, through the HTTP call endpoint.
#![cfg(unix)]

use std::process::Stdio;
use std::time::Duration;

use serde_json::{Value, json};
use tokio::io::{AsyncBufReadExt, AsyncReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpStream;
use tokio::process::{Child, Command};

const SOON: Duration = Duration::from_secs(30);

/// `studio serve --http 127.0.0.1:0` on `dir`'s files, and its address.
async fn studio(dir: &tempfile::TempDir) -> (Child, String) {
    let mut child = Command::new(env!("CARGO_BIN_EXE_studio"))
        .args(["serve", "--http", "127.0.0.1:0"])
        .env("STUDIO_DATA", dir.path().join("data"))
        .env("STUDIO_JOBS", dir.path().join("jobs.redb"))
        .stdin(Stdio::null())
        .stdout(Stdio::null())
        .stderr(Stdio::piped())
        .kill_on_drop(true)
        .spawn()
        .expect("the studio starts");
    let mut lines = BufReader::new(child.stderr.take().expect("stderr")).lines();
    let addr = tokio::time::timeout(SOON, async {
        while let Some(line) = lines.next_line().await.expect("stderr reads") {
            if let Some(rest) = line.strip_prefix("studio: serving MCP at http://") {
                return rest.trim_end_matches("/mcp").to_owned();
            }
        }
        panic!("the studio stopped before serving");
    })
    .await
    .expect("the studio serves in time");
    // Keep reading its stderr, so that it never blocks on a full pipe.
    tokio::spawn(async move { while let Ok(Some(_)) = lines.next_line().await {} });
    (child, addr)
}

/// `POST /api/tools/{tool}?wait=0` with `args`: the envelope as JSON.
async fn call(addr: &str, tool: &str, args: Value) -> Value {
    let body = args.to_string();
    let request = format!(
        "POST /api/tools/{tool}?wait=0 HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
        body.len()
    );
    let mut stream = TcpStream::connect(addr).await.expect("connects");
    stream.write_all(request.as_bytes()).await.expect("sends");
    let mut answer = String::new();
    tokio::time::timeout(SOON, stream.read_to_string(&mut answer))
        .await
        .expect("answered in time")
        .expect("reads");
    let (_, json) = answer.split_once("\r\n\r\n").expect("an HTTP answer");
    serde_json::from_str(json).unwrap_or_else(|e| panic!("{e}: {answer}"))
}

fn job_id(envelope: &Value) -> String {
    envelope["job_started"]["job_id"]
        .as_str()
        .unwrap_or_else(|| panic!("expected a job handle: {envelope}"))
        .to_owned()
}

async fn status(addr: &str, job_id: &str) -> Value {
    let envelope = call(addr, "job_status", json!({ "job_id": job_id })).await;
    envelope["success"].clone()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn finished_jobs_survive_a_kill_and_running_ones_are_interrupted() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut first, addr) = studio(&dir).await;

    // One short generation, left to finish and never fetched; a failing
    // fire-and-forget call nobody lists; and a long generation, running
    // when the process is killed.
    let done = job_id(&call(&addr, "orpheus_generate", json!({"max_tokens": 128})).await);
    let failed = job_id(&call(&addr, "garden_play", json!({})).await);
    let long = json!({"max_tokens": 8192, "num_variations": 8});
    let running = job_id(&call(&addr, "orpheus_generate", long).await);
    let deadline = tokio::time::Instant::now() + SOON;
    // Both must have ended before the kill, or a loaded machine would see
    // them interrupted instead.
    while status(&addr, &done).await["state"] != "complete"
        || status(&addr, &failed).await["state"] != "failed"
    {
        assert!(
            tokio::time::Instant::now() < deadline,
            "the short job or the failing call did not end"
        );
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let state = status(&addr, &running).await["state"].clone();
    assert!(state == "pending" || state == "running", "{state}");

    first.kill().await.expect("SIGKILL");
    let (_second, addr) = studio(&dir).await;

    let finished = status(&addr, &done).await;
    assert_eq!(finished["state"], "complete", "{finished}");
    assert!(
        finished["result"]["output_hashes"]
            .as_array()
            .is_some_and(|h| !h.is_empty()),
        "the result is kept: {finished}"
    );
    let failure = status(&addr, &failed).await;
    assert_eq!(failure["state"], "failed", "{failure}");
    assert_eq!(failure["error_code"], "NOT_IMPLEMENTED", "{failure}");
    let interrupted = status(&addr, &running).await;
    assert_eq!(interrupted["state"], "failed", "{interrupted}");
    assert_eq!(interrupted["error_code"], "INTERRUPTED", "{interrupted}");
    let listed = call(&addr, "job_list", json!({})).await;
    assert_eq!(listed["success"]["total"], 3, "{listed}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_drains_and_records_the_jobs_it_cancels() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    let (mut first, addr) = studio(&dir).await;
    let long = json!({"max_tokens": 8192, "num_variations": 8});
    let running = job_id(&call(&addr, "orpheus_generate", long).await);
    let state = status(&addr, &running).await["state"].clone();
    assert!(state == "pending" || state == "running", "{state}");

    let pid = first.id().expect("running").to_string();
    let sent = std::process::Command::new("kill")
        .args(["-TERM", &pid])
        .status()
        .expect("kill runs");
    assert!(sent.success());
    let exit = tokio::time::timeout(SOON, first.wait())
        .await
        .expect("the studio stops in time after SIGTERM")
        .expect("waits");
    assert!(exit.success(), "a clean exit: {exit:?}");

    let (_second, addr) = studio(&dir).await;
    let stopped = status(&addr, &running).await;
    assert_eq!(stopped["state"], "cancelled", "{stopped}");
    assert_eq!(stopped["error_code"], "CANCELLED", "{stopped}");
}
