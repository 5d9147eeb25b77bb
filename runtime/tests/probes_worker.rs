//! A HOOT01 worker's own probes, served on a listener of their own: its
//! queue of calls in `/metrics`, and not ready while it drains. A binary of
//! its own: the metrics registry is the process's, and the counts asserted
//! in `probes.rs` are of that binary's requests alone.
#![cfg(all(
    feature = "mcp",
    feature = "web",
    feature = "hoot",
    feature = "metrics"
))]

mod support;

use std::time::Duration;

use hyper::StatusCode;
use support::http::{Server, get, sample};
use support::*;
use tokio::net::TcpListener;
use tokio_util::sync::CancellationToken;
use toolwright::hoot::{Client, ClientConfig, ServerConfig};
use toolwright::http::Probes;
use toolwright::mcp::HttpConfig;
use toolwright::port::{CallOptions, CallPort};
use toolwright::{DispatcherConfig, ResponseEnvelope, http};

/// A HOOT01 worker's own probes: `/metrics` counts the calls it serves
/// (its queue) against its limit, and `/readyz` says not ready once it
/// shuts down, while its calls drain.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_worker_reports_its_queue_and_is_not_ready_while_it_drains() {
    let dispatcher = dispatcher(DispatcherConfig::default());
    let worker = toolwright::hoot::Server::serve(
        dispatcher.clone(),
        ServerConfig::new("tcp://127.0.0.1:0").max_in_flight(8),
    )
    .expect("the worker binds");
    let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
    let addr = listener.local_addr().expect("an address");
    let stop = CancellationToken::new();
    let config = HttpConfig::default()
        .shutdown(stop.clone())
        .bearer_token("s3cret");
    let router = Probes::new()
        .port(dispatcher)
        .hoot_server(worker.meter())
        .router(&config)
        .expect("the probes route");
    let stopped = stop.clone().cancelled_owned();
    tokio::spawn(async move {
        axum::serve(listener, router)
            .with_graceful_shutdown(stopped)
            .await
    });
    let probes = Server { addr, stop };
    let token = [("authorization", "Bearer s3cret")];

    let metrics = get(&probes, http::METRICS, &[]).await;
    assert_eq!(metrics.status, StatusCode::UNAUTHORIZED);
    let metrics = get(&probes, http::METRICS, &token).await.body;
    assert_eq!(
        sample(&metrics, "toolwright_hoot_serving"),
        Some(0.0),
        "{metrics}"
    );
    assert_eq!(
        sample(&metrics, "toolwright_hoot_serving_limit"),
        Some(8.0),
        "{metrics}"
    );
    assert_eq!(
        sample(&metrics, "toolwright_hoot_turned_away_total"),
        Some(0.0),
        "{metrics}"
    );
    assert_eq!(get(&probes, http::READYZ, &[]).await.status, StatusCode::OK);

    // One call that takes a while: the worker's queue holds it.
    let client = Client::<ToolCatalogue>::connect(&[worker.endpoint()], ClientConfig::default())
        .expect("the client connects");
    assert!(client.ready(SOON).await, "the worker answers its heartbeat");
    let slow = encode(&ToolRequest::Sleep(DelayRequest { ms: 1_500 }));
    let call = tokio::spawn({
        let client = client.clone();
        async move { client.call(slow, CallOptions::default()).await }
    });
    let deadline = tokio::time::Instant::now() + SOON;
    loop {
        let metrics = get(&probes, http::METRICS, &token).await.body;
        if sample(&metrics, "toolwright_hoot_serving") == Some(1.0) {
            break;
        }
        assert!(tokio::time::Instant::now() < deadline, "{metrics}");
        tokio::time::sleep(Duration::from_millis(10)).await;
    }

    // Draining: not ready, alive, the call still answered.
    let meter = worker.meter();
    let drained = tokio::spawn(worker.shutdown(Duration::from_secs(10)));
    let deadline = tokio::time::Instant::now() + SOON;
    let answer = loop {
        let answer = get(&probes, http::READYZ, &[]).await;
        if answer.status == StatusCode::SERVICE_UNAVAILABLE
            || tokio::time::Instant::now() > deadline
        {
            break answer;
        }
        tokio::time::sleep(Duration::from_millis(10)).await;
    };
    assert_eq!(
        answer.status,
        StatusCode::SERVICE_UNAVAILABLE,
        "{}",
        answer.body
    );
    assert!(answer.body.contains("shutting down"), "{}", answer.body);
    assert_eq!(
        get(&probes, http::HEALTHZ, &[]).await.status,
        StatusCode::OK
    );
    assert!(!meter.accepting());
    let answered = call.await.expect("the call task");
    assert!(
        matches!(
            answered,
            ResponseEnvelope::Success(ToolResponse::Sleep(SleepResponse { slept_ms: 1_500 }))
        ),
        "{answered:?}"
    );
    drained.await.expect("the worker drains");
    assert_eq!(meter.serving(), 0);
}
