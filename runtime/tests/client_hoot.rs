//! The batch client over HOOT01, straight to a backend serving the test
//! catalogue: results in call order, typed errors, bad arguments named,
//! a job handle, and a backend that is gone.

mod support;

use std::time::Duration;

use serde_json::json;
use support::*;
use toolwright::DispatcherConfig;
use toolwright::client::{BatchOptions, Client, HootTransport, ToolCall, ToolTransport};
use toolwright::hoot::{ClientConfig, Server, ServerConfig};

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_batch_over_hoot_answers_each_call_in_order() {
    let server = Server::serve(
        dispatcher(DispatcherConfig::default()),
        ServerConfig::new("tcp://127.0.0.1:0"),
    )
    .expect("the server binds");
    let transport = HootTransport::<ToolCatalogue>::connect(
        &[server.endpoint()],
        ClientConfig::default(),
        SOON,
    )
    .await
    .expect("connect");
    transport.ping().await.expect("the backend answers");
    let client = Client::new(transport);
    let batch = [
        ToolCall::new("sum", "add", json!({"a": 2, "b": 3})),
        ToolCall::new("overflow", "add", json!({"a": i64::MAX, "b": 1})),
        ToolCall::new("bad", "add", json!({"a": "x", "b": 1})),
        ToolCall::new("unknown", "addd", json!({})),
        ToolCall::new(
            "bytes",
            "echo",
            json!({"text": "hi", "data": "AAE=", "items": [1], "tags": {}}),
        ),
        ToolCall::new("job", "launch", json!({"fail": false})),
    ];
    let options = BatchOptions::default()
        .parallel(true)
        .timeout(Duration::from_secs(10));
    let results = client
        .call_tools(&batch, &options)
        .await
        .expect("a well-formed batch");
    let ids: Vec<&str> = results.iter().map(|r| r.call_id.as_str()).collect();
    assert_eq!(ids, ["sum", "overflow", "bad", "unknown", "bytes", "job"]);
    assert_eq!(results[0].result(), Some(&json!({"result": 5})));
    assert_eq!(
        results[1].error().map(|e| e.code.as_ref()),
        Some("OVERFLOW")
    );
    let bad = results[2].error().expect("bad arguments fail");
    assert_eq!(bad.code, "INVALID_REQUEST");
    assert!(bad.message.contains("`a`"), "{bad:?}");
    assert_eq!(
        results[3].error().map(|e| e.code.as_ref()),
        Some("UNKNOWN_TOOL")
    );
    // `bytes` come back as base64, as everywhere JSON carries them.
    assert_eq!(
        results[4].result().map(|r| &r["data"]),
        Some(&json!("AAE="))
    );
    let handle = results[5].result().expect("a job handle");
    assert_eq!(handle["tool"], "launch");
    assert_eq!(handle["expected_timing"], "fire_and_forget");

    server.shutdown(Duration::from_secs(1)).await;
    let gone = client
        .call_tools(
            &[ToolCall::new("late", "add", json!({"a": 1, "b": 1}))],
            &options,
        )
        .await
        .expect("a well-formed batch");
    assert_eq!(
        gone[0].error().map(|e| e.code.as_ref()),
        Some("UNAVAILABLE")
    );
}
