//! HOOT01 end to end: `hoot::Client` to `hoot::Server` serving a
//! dispatcher, over tcp and ipc. Every timing class, typed errors, a
//! stream, cancellation seen by the handler across the wire, busy and
//! shutting-down servers, a backend that goes silent, one that is killed
//! and restarted, and two workers with one killed mid-run.

mod support;

use std::collections::HashSet;
use std::time::{Duration, Instant};

use support::*;
use tokio_util::sync::CancellationToken;
use toolwright::hoot::{
    self, Client, ClientConfig, Message, RequestId, Server, ServerConfig, ServerHandle,
};
use toolwright::jobs::{JobEvent, JobPollRequest, JobState, PollMode};
use toolwright::port::{CallOptions, CallPort, StreamEvent};
use toolwright::{Bytes, DispatcherConfig, ResponseEnvelope, codes};

type Hoot = Client<ToolCatalogue>;

/// Quick heartbeats, so a silent backend is noticed within a test, and a
/// liveness window that tests running side by side on two cores cannot
/// miss by being slow.
fn config() -> ClientConfig {
    ClientConfig::default()
        .heartbeat(Duration::from_millis(50), Duration::from_secs(1))
        .timeout(Duration::from_secs(10))
}

fn serve(endpoint: &str) -> (ServerHandle, toolwright::Dispatcher<Studio>) {
    let d = dispatcher(DispatcherConfig::default());
    let server = Server::serve(d.clone(), ServerConfig::new(endpoint)).expect("the server binds");
    (server, d)
}

async fn connect(endpoints: &[&str]) -> Hoot {
    let client = Hoot::connect(endpoints, config()).expect("the client connects");
    assert!(client.ready(SOON).await, "a backend answers its heartbeat");
    client
}

async fn call(client: &Hoot, request: &ToolRequest) -> Envelope {
    client.call(encode(request), CallOptions::default()).await
}

/// Connects to every worker and waits until all are in rotation.
async fn connect_all(endpoints: &[&str]) -> Hoot {
    let client = connect(endpoints).await;
    tokio::time::timeout(SOON, async {
        while client.backends_alive() < endpoints.len() {
            tokio::time::sleep(Duration::from_millis(10)).await;
        }
    })
    .await
    .expect("every worker joins");
    client
}

/// A bare ROUTER on a free loopback port, to play a misbehaving backend.
fn fake_backend(context: &zmq::Context) -> (zmq::Socket, String) {
    let router = context.socket(zmq::ROUTER).expect("a socket");
    router.bind("tcp://127.0.0.1:*").expect("bind");
    let endpoint = router
        .get_last_endpoint()
        .expect("endpoint")
        .expect("utf-8");
    (router, endpoint)
}

fn ipc_endpoint(dir: &tempfile::TempDir) -> String {
    format!("ipc://{}", dir.path().join("hoot.sock").display())
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_timing_class_over_tcp_ipc_and_inproc() {
    let dir = tempfile::tempdir().expect("a temporary directory");
    for endpoint in [
        "tcp://127.0.0.1:0".to_owned(),
        ipc_endpoint(&dir),
        "inproc://hoot-timing".to_owned(),
    ] {
        let (server, _d) = serve(&endpoint);
        let client = connect(&[server.endpoint()]).await;

        let sum = call(&client, &ToolRequest::Add(MathOperands { a: 2, b: 40 })).await;
        assert_eq!(
            sum,
            ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 42 }))
        );
        let slept = call(&client, &ToolRequest::Sleep(DelayRequest { ms: 5 })).await;
        assert_eq!(
            slept,
            ResponseEnvelope::Success(ToolResponse::Sleep(SleepResponse { slept_ms: 5 }))
        );
        let rendered = call(&client, &ToolRequest::Render(DelayRequest { ms: 20 })).await;
        assert_eq!(
            rendered,
            ResponseEnvelope::Success(ToolResponse::Render(RenderResponse { frames: 2 }))
        );

        let generate = ToolRequest::Generate(GenerateRequest {
            chunks: 2,
            interval_ms: 5,
        });
        let job = started(&call(&client, &generate).await);
        let launched =
            started(&call(&client, &ToolRequest::Launch(LaunchRequest { fail: false })).await);
        let polled = client
            .job_poll(
                JobPollRequest {
                    job_ids: vec![job.clone(), launched.clone()],
                    timeout_ms: 10_000,
                    mode: PollMode::All,
                },
                None,
            )
            .await
            .expect("job_poll through the client");
        assert_eq!(polled.completed.len(), 2, "{polled:?}");
        let info = client
            .job_status(&job, None)
            .await
            .expect("job_status through the client");
        assert_eq!(info.state, JobState::Complete);
        assert_eq!(info.tool_name, "generate");
        server.shutdown(Duration::from_secs(1)).await;
    }
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn errors_come_back_typed() {
    let (server, _d) = serve("tcp://127.0.0.1:0");
    let client = connect(&[server.endpoint()]).await;
    let overflow = call(
        &client,
        &ToolRequest::Add(MathOperands { a: i64::MAX, b: 1 }),
    )
    .await;
    assert_eq!(error(&overflow).code, "OVERFLOW");
    let garbage = client
        .call(b"\xc1\xff\x00garbage".to_vec(), CallOptions::default())
        .await;
    assert_eq!(error(&garbage).code, codes::INVALID_REQUEST);
    let unknown = client
        .call(b"\x81\xa4tool\xa4addd".to_vec(), CallOptions::default())
        .await;
    assert_eq!(error(&unknown).code, codes::UNKNOWN_TOOL);
    let panicked = call(&client, &ToolRequest::Crash).await;
    assert_eq!(error(&panicked).code, codes::INTERNAL);
    let missing = client
        .job_status("job_doesnotexist1", None)
        .await
        .expect_err("no such job");
    assert_eq!(missing.code, "NOT_FOUND");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_call_past_its_timeout_is_answered_timeout_and_cancelled() {
    // A backend that stays alive (it answers heartbeats) but never answers
    // a Request; it returns the id of the first Cancel it gets.
    let context = zmq::Context::new();
    let (router, endpoint) = fake_backend(&context);
    let stalling = std::thread::spawn(move || {
        let mut greeted = false;
        let mut requested = None;
        loop {
            let mut parts = router.recv_multipart(0).expect("receive");
            let peer = parts.remove(0);
            let message = hoot::decode(parts, 1 << 20).expect("a HOOT01 message");
            let answer = match message.command {
                hoot::Command::Heartbeat if !greeted => Message::ready(message.request_id),
                hoot::Command::Heartbeat => Message::heartbeat(message.request_id),
                hoot::Command::Request => {
                    requested = Some(message.request_id);
                    continue;
                }
                hoot::Command::Cancel => return (requested, message.request_id),
                _ => continue,
            };
            greeted = true;
            router
                .send_multipart(std::iter::once(peer).chain(hoot::encode(answer)), 0)
                .expect("send");
        }
    });
    let client = Hoot::connect(
        &[endpoint.as_str()],
        config().timeout(Duration::from_millis(200)),
    )
    .expect("connect");
    assert!(client.ready(SOON).await);
    let asked = Instant::now();
    let answer = call(&client, &ToolRequest::Add(MathOperands { a: 1, b: 2 })).await;
    let took = asked.elapsed();
    assert_eq!(error(&answer).code, codes::TIMEOUT, "{answer:?}");
    assert!(
        took >= Duration::from_millis(200) && took < Duration::from_secs(2),
        "took {took:?}"
    );
    let (requested, cancelled) = stalling.join().expect("the stalling backend");
    assert_eq!(
        requested,
        Some(cancelled),
        "the timed-out call was cancelled on the backend"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_frame_over_the_body_limit_is_dropped_by_libzmq_and_serving_goes_on() {
    let d = dispatcher(DispatcherConfig::default());
    let server = Server::serve(d, ServerConfig::new("tcp://127.0.0.1:0").max_body(1024))
        .expect("the server binds");
    let context = zmq::Context::new();
    let big = context.socket(zmq::DEALER).expect("a socket");
    big.connect(server.endpoint()).expect("connect");
    let request = encode(&ToolRequest::Echo(Echo {
        text: "x".repeat(64 * 1024),
        data: Bytes(Vec::new()),
        items: Vec::new(),
        tags: Default::default(),
        value: None,
    }));
    let body = hoot::encode_call(&request, None, false);
    big.send_multipart(
        hoot::encode(Message::request(RequestId::new(), "", body)),
        0,
    )
    .expect("send");
    big.set_rcvtimeo(300).expect("timeout");
    assert!(
        big.recv_multipart(0).is_err(),
        "no answer to a frame over the limit"
    );
    let client = connect(&[server.endpoint()]).await;
    let sum = call(&client, &ToolRequest::Add(MathOperands { a: 1, b: 2 })).await;
    assert_eq!(
        sum,
        ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 3 }))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_stream_arrives_in_order_before_its_answer() {
    let (server, _d) = serve("tcp://127.0.0.1:0");
    let client = connect(&[server.endpoint()]).await;
    let (tx, mut rx) = toolwright::port::stream_channel();
    let generate = ToolRequest::Generate(GenerateRequest {
        chunks: 3,
        interval_ms: 5,
    });
    let answer = client
        .call(
            encode(&generate),
            CallOptions::default().wait_until_done().stream_to(tx),
        )
        .await;
    assert_eq!(
        answer,
        ResponseEnvelope::Success(ToolResponse::Generate(GenerateResponse { sent: 3 }))
    );
    let mut events = Vec::new();
    while let Ok(event) = rx.try_recv() {
        events.push(event);
    }
    let Some(StreamEvent::Start { job_id, tool }) = events.first().cloned() else {
        panic!("the stream starts with Start: {events:?}");
    };
    assert_eq!(tool, "generate");
    let seqs: Vec<u64> = events
        .iter()
        .filter_map(|e| match e {
            StreamEvent::Chunk { seq, .. } => Some(*seq),
            _ => None,
        })
        .collect();
    assert_eq!(seqs, [0, 1, 2]);
    assert_eq!(events.last(), Some(&StreamEvent::End { job_id, chunks: 3 }));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_caller_that_never_reads_its_stream_still_gets_its_answer() {
    let (server, _d) = serve("tcp://127.0.0.1:0");
    let client = connect(&[server.endpoint()]).await;
    // Far more chunks than a stream holds, to a caller that reads none.
    let (tx, mut rx) = toolwright::port::stream_channel();
    let chunks = 4 * toolwright::port::STREAM_CAPACITY as u32;
    let generate = ToolRequest::Generate(GenerateRequest {
        chunks,
        interval_ms: 0,
    });
    let answer = client
        .call(
            encode(&generate),
            CallOptions::default().wait_until_done().stream_to(tx),
        )
        .await;
    assert_eq!(
        answer,
        ResponseEnvelope::Success(ToolResponse::Generate(GenerateResponse { sent: chunks }))
    );
    let mut held = 0;
    while rx.try_recv().is_ok() {
        held += 1;
    }
    assert!(
        (1..=toolwright::port::STREAM_CAPACITY).contains(&held),
        "{held} events held"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancel_reaches_the_handler_across_the_wire_within_100_ms() {
    let (server, d) = serve("tcp://127.0.0.1:0");
    let client = connect(&[server.endpoint()]).await;
    let token = CancellationToken::new();
    let long = ToolRequest::Generate(GenerateRequest {
        chunks: 1_000_000,
        interval_ms: 1_000,
    });
    let options = CallOptions::default()
        .wait_until_done()
        .cancel_on(token.clone());
    let caller = tokio::spawn({
        let client = client.clone();
        async move { client.call(encode(&long), options).await }
    });
    tokio::time::timeout(SOON, d.service().probes.started("generate", 1))
        .await
        .expect("the handler starts");
    let asked = Instant::now();
    token.cancel();
    let answer = tokio::time::timeout(SOON, caller)
        .await
        .expect("the call ends")
        .expect("the caller did not panic");
    assert_eq!(error(&answer).code, codes::CANCELLED);
    let seen = d
        .service()
        .probes
        .cancel_seen
        .lock()
        .expect("probe lock")
        .expect("the handler saw the cancellation");
    let latency = seen.saturating_duration_since(asked);
    assert!(
        latency < Duration::from_millis(100),
        "seen after {latency:?}"
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_full_server_answers_busy_and_a_stopping_one_unavailable() {
    let d = dispatcher(DispatcherConfig::default());
    let server = Server::serve(d, ServerConfig::new("tcp://127.0.0.1:0").max_in_flight(1))
        .expect("the server binds");
    // Liveness is not under test here: a generous window keeps a loaded
    // machine from turning the drain into a lost backend.
    let config = config().heartbeat(Duration::from_millis(50), Duration::from_secs(5));
    let client = Hoot::connect(&[server.endpoint()], config).expect("connect");
    assert!(client.ready(SOON).await);
    let slow = tokio::spawn({
        let client = client.clone();
        async move { call(&client, &ToolRequest::Sleep(DelayRequest { ms: 300 })).await }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    let busy = call(&client, &ToolRequest::Add(MathOperands { a: 1, b: 1 })).await;
    assert_eq!(error(&busy).code, codes::BUSY);
    // The graceful drain lets the call in flight finish.
    server.shutdown(Duration::from_secs(5)).await;
    let finished = slow.await.expect("the caller did not panic");
    assert_eq!(
        finished,
        ResponseEnvelope::Success(ToolResponse::Sleep(SleepResponse { slept_ms: 300 }))
    );
    let gone = call(&client, &ToolRequest::Add(MathOperands { a: 1, b: 1 })).await;
    assert_eq!(error(&gone).code, codes::UNAVAILABLE);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_backend_that_goes_silent_fails_its_callers_within_the_liveness_window() {
    // A ROUTER that says Ready, takes a Request, then never answers again.
    let context = zmq::Context::new();
    let (router, endpoint) = fake_backend(&context);
    let mute = std::thread::spawn(move || {
        let mut heartbeats = 0;
        loop {
            let mut parts = router.recv_multipart(0).expect("receive");
            let peer = parts.remove(0);
            let message = hoot::decode(parts, 1 << 20).expect("a HOOT01 message");
            match message.command {
                hoot::Command::Heartbeat if heartbeats == 0 => {
                    heartbeats += 1;
                    let reply = hoot::encode(Message::ready(message.request_id));
                    router
                        .send_multipart(std::iter::once(peer).chain(reply), 0)
                        .expect("send");
                }
                hoot::Command::Request => return router,
                _ => {}
            }
        }
    });
    let client = connect(&[endpoint.as_str()]).await;
    let asked = Instant::now();
    let answer = call(&client, &ToolRequest::Sleep(DelayRequest { ms: 10 })).await;
    let took = asked.elapsed();
    assert_eq!(error(&answer).code, codes::UNAVAILABLE, "{answer:?}");
    assert!(took < Duration::from_secs(3), "noticed after {took:?}");
    assert_eq!(client.backends_alive(), 0);
    drop(mute.join().expect("the mute backend"));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_killed_backend_fails_its_callers_and_serves_again_once_restarted() {
    let (server, _d) = serve("tcp://127.0.0.1:0");
    let endpoint = server.endpoint().to_owned();
    let client = connect(&[endpoint.as_str()]).await;
    let pending = tokio::spawn({
        let client = client.clone();
        async move {
            client
                .call(
                    encode(&ToolRequest::Sleep(DelayRequest { ms: 5_000 })),
                    CallOptions::default().wait_until_done(),
                )
                .await
        }
    });
    tokio::time::sleep(Duration::from_millis(100)).await;
    drop(server);
    let answer = tokio::time::timeout(Duration::from_secs(3), pending)
        .await
        .expect("the pending call is answered, not left hanging")
        .expect("the caller did not panic");
    assert_eq!(error(&answer).code, codes::UNAVAILABLE);
    let refused = call(&client, &ToolRequest::Add(MathOperands { a: 1, b: 2 })).await;
    assert_eq!(error(&refused).code, codes::UNAVAILABLE);

    // The old server's thread may still be closing its socket.
    let mut again = None;
    for _ in 0..100 {
        let d = dispatcher(DispatcherConfig::default());
        if let Ok(server) = Server::serve(d, ServerConfig::new(endpoint.as_str())) {
            again = Some(server);
            break;
        }
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let _again = again.expect("the endpoint can be bound again");
    assert!(client.ready(SOON).await, "the restarted backend rejoins");
    let sum = call(&client, &ToolRequest::Add(MathOperands { a: 1, b: 2 })).await;
    assert_eq!(
        sum,
        ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 3 }))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn two_workers_share_the_load_and_losing_one_loses_no_call() {
    let (first, _d1) = serve("tcp://127.0.0.1:0");
    let (second, _d2) = serve("tcp://127.0.0.1:0");
    let client = connect_all(&[first.endpoint(), second.endpoint()]).await;

    // Each call sleeps its own number of milliseconds and says so, so every
    // answer can be matched to its request.
    let calls: Vec<_> = (0..200u64)
        .map(|i| {
            let client = client.clone();
            tokio::spawn(async move {
                let ms = 100 + i;
                let answer = call(&client, &ToolRequest::Sleep(DelayRequest { ms })).await;
                (ms, answer)
            })
        })
        .collect();
    tokio::time::sleep(Duration::from_millis(50)).await;
    drop(first);
    let mut succeeded = 0;
    let mut lost = 0;
    for handle in calls {
        let (ms, answer) = tokio::time::timeout(SOON, handle)
            .await
            .expect("every call is answered")
            .expect("no caller panicked");
        match answer {
            ResponseEnvelope::Success(ToolResponse::Sleep(SleepResponse { slept_ms })) => {
                assert_eq!(slept_ms, ms, "an answer went to the wrong caller");
                succeeded += 1;
            }
            other => {
                assert_eq!(error(&other).code, codes::UNAVAILABLE);
                lost += 1;
            }
        }
    }
    assert!(
        succeeded > 0 && lost > 0,
        "{succeeded} succeeded, {lost} lost"
    );
    // The survivor takes everything from now on.
    let mut seen = HashSet::new();
    for i in 0..20 {
        let sum = call(&client, &ToolRequest::Add(MathOperands { a: i, b: i })).await;
        assert_eq!(
            sum,
            ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 2 * i }))
        );
        seen.insert(i);
    }
    assert_eq!(seen.len(), 20);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn job_tools_reach_the_worker_that_runs_the_job() {
    let (first, _d1) = serve("tcp://127.0.0.1:0");
    let (second, _d2) = serve("tcp://127.0.0.1:0");
    let client = connect(&[first.endpoint(), second.endpoint()]).await;
    let mut jobs = Vec::new();
    for _ in 0..6 {
        let generate = ToolRequest::Generate(GenerateRequest {
            chunks: 1,
            interval_ms: 1,
        });
        jobs.push(started(&call(&client, &generate).await));
    }
    for job in &jobs {
        let info = client
            .job_status(job, None)
            .await
            .expect("the owner knows its job");
        assert_eq!(&info.job_id, job);
    }
    let long = ToolRequest::Generate(GenerateRequest {
        chunks: 1_000_000,
        interval_ms: 1_000,
    });
    let job = started(&call(&client, &long).await);
    let cancelled = client
        .job_cancel(&job, None)
        .await
        .expect("job_cancel reaches the owner");
    assert!(cancelled.cancelled);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn another_gateway_finds_the_worker_of_a_job_it_did_not_start() {
    let (first, _d1) = serve("tcp://127.0.0.1:0");
    let (second, _d2) = serve("tcp://127.0.0.1:0");
    let endpoints = [first.endpoint(), second.endpoint()];
    let starter = connect(&endpoints).await;
    let mut jobs = Vec::new();
    for _ in 0..4 {
        let generate = ToolRequest::Generate(GenerateRequest {
            chunks: 1,
            interval_ms: 1,
        });
        jobs.push(started(&call(&starter, &generate).await));
    }
    // A second client, as a second gateway would be, has seen none of them.
    let other = connect_all(&endpoints).await;
    for job in &jobs {
        let info = other
            .job_status(job, None)
            .await
            .expect("some worker runs it");
        assert_eq!(&info.job_id, job);
    }
    let missing = other
        .job_status("job_doesnotexist1", None)
        .await
        .expect_err("no worker has it");
    assert_eq!(missing.code, "NOT_FOUND");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn iopub_tells_a_subscriber_every_outcome() {
    let d = dispatcher(DispatcherConfig::default());
    let server = Server::serve(
        d,
        ServerConfig::new("tcp://127.0.0.1:0").iopub("tcp://127.0.0.1:0"),
    )
    .expect("the server binds");
    let iopub = server
        .iopub_endpoint()
        .expect("an IOPub endpoint")
        .to_owned();
    let client = Hoot::connect(&[server.endpoint()], config().iopub(iopub)).expect("connect");
    assert!(client.ready(SOON).await);
    let mut events = client.subscribe();
    // A SUB receives only what is published after it has joined.
    tokio::time::sleep(Duration::from_millis(300)).await;
    let ok = started(&call(&client, &ToolRequest::Launch(LaunchRequest { fail: false })).await);
    let failed = started(&call(&client, &ToolRequest::Launch(LaunchRequest { fail: true })).await);
    let mut outcomes = std::collections::HashMap::new();
    tokio::time::timeout(SOON, async {
        while outcomes.len() < 2 {
            if let Ok(JobEvent::Finished {
                job_id,
                state,
                error_code,
                ..
            }) = events.recv().await
            {
                outcomes.insert(job_id, (state, error_code));
            }
        }
    })
    .await
    .expect("both outcomes are published");
    assert_eq!(outcomes[&ok], (JobState::Complete, None));
    assert_eq!(
        outcomes[&failed],
        (JobState::Failed, Some("ENGINE_DOWN".to_owned()))
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn malformed_messages_are_counted_and_serving_goes_on() {
    let (server, _d) = serve("tcp://127.0.0.1:0");
    let context = zmq::Context::new();
    let dealer = context.socket(zmq::DEALER).expect("a socket");
    dealer.connect(server.endpoint()).expect("connect");
    dealer
        .send_multipart([&b"HOOT01"[..], b"\x01"], 0)
        .expect("send");
    let heartbeat = hoot::encode(Message::heartbeat(RequestId::new()));
    let mut not_a_command = heartbeat.clone();
    not_a_command[1] = vec![0x09];
    dealer.send_multipart(not_a_command, 0).expect("send");
    dealer.send_multipart(heartbeat, 0).expect("send");
    // The Heartbeat after the two bad messages is still answered.
    dealer.set_rcvtimeo(5_000).expect("timeout");
    let answer = dealer.recv_multipart(0).expect("an answer");
    assert_eq!(answer[1], [hoot::Command::Ready.as_byte()]);
    assert_eq!(server.stats().dropped, 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn calls_through_a_gateway_report_events_from_both_ends_with_their_source() {
    let (server, backend) = serve("tcp://127.0.0.1:0");
    let client = connect(&[server.endpoint()]).await;
    let mut forwarded = client.events().subscribe();
    let mut local = backend.events().subscribe();
    assert_eq!(
        client.events().source(),
        toolwright::events::ToolSource::Mcp
    );

    call(&client, &ToolRequest::Add(MathOperands { a: 1, b: 2 })).await;
    let generate = ToolRequest::Generate(GenerateRequest {
        chunks: 2,
        interval_ms: 5,
    });
    let job = started(&call(&client, &generate).await);

    for (events, source) in [(&mut forwarded, "mcp"), (&mut local, "local")] {
        let mut seen = Vec::new();
        while seen.len() < 4 {
            let event = tokio::time::timeout(SOON, events.recv())
                .await
                .expect("an event in time")
                .expect("an event");
            let value: serde_json::Value = serde_json::from_str(event.json()).expect("JSON");
            assert_eq!(value["source"], source);
            // The backend also sees the job tools the gateway calls to
            // follow the job: real calls, left out here.
            if !event.tool_name().starts_with("job_") {
                seen.push(value);
            }
        }
        assert_eq!(seen[0]["tool_name"], "add");
        assert_eq!(seen[1]["tool_result"], r#"{"result":3}"#);
        // The job completes when it ends, on the gateway too, which learns
        // it through the job tools.
        let end = &seen[3];
        assert_eq!(
            (end["type"].as_str(), end["job_id"].as_str()),
            (Some("tool_complete"), Some(job.as_str()))
        );
        assert_eq!(end["tool_result"], r#"{"sent":2}"#);
    }
}

/// The port's job methods answer for the caller they are given, in this
/// process and across the wire alike: another owner's job is `NOT_FOUND`,
/// listed for nobody else, and cannot be cancelled by them.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_job_methods_answer_for_their_caller_on_every_port() {
    use toolwright::jobs::{JobListRequest, Owner};
    let (server, backend) = serve("tcp://127.0.0.1:0");
    let client = connect(&[server.endpoint()]).await;
    let alice = Owner::new("alice");
    let bob = Owner::new("bob");
    let long = ToolRequest::Generate(GenerateRequest {
        chunks: 1_000_000,
        interval_ms: 1_000,
    });
    let options = CallOptions::default().owned_by(alice.clone());
    let job = started(&client.call(encode(&long), options).await);

    async fn check<P: CallPort>(port: &P, job: &str, alice: &Owner, bob: &Owner) {
        let mine = port
            .job_status(job, Some(alice))
            .await
            .expect("alice's job");
        assert_eq!(mine.job_id, job);
        let theirs = port.job_status(job, Some(bob)).await.map(|i| i.job_id);
        assert_eq!(theirs.map_err(|e| e.code), Err("NOT_FOUND".into()));
        let listed = |owner| port.job_list(JobListRequest::default(), Some(owner));
        let ids = |list: toolwright::jobs::JobListResponse| {
            list.jobs.into_iter().map(|j| j.job_id).collect::<Vec<_>>()
        };
        assert_eq!(ids(listed(alice).await.expect("a list")), [job.to_owned()]);
        assert!(ids(listed(bob).await.expect("a list")).is_empty());
        let refused = port.job_cancel(job, Some(bob)).await.map(|c| c.cancelled);
        assert_eq!(refused.map_err(|e| e.code), Err("NOT_FOUND".into()));
    }
    check(&client, &job, &alice, &bob).await;
    check(&backend, &job, &alice, &bob).await;
    let cancelled = client
        .job_cancel(&job, Some(&alice))
        .await
        .expect("alice cancels");
    assert!(cancelled.cancelled);
}
