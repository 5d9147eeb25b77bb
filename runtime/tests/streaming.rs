//! Streamed calls: `StreamStart`, the chunks in order, `StreamEnd` with the
//! count, then the answer; and the job events every subscriber sees.

mod support;

use std::time::Duration;

use support::*;
use tokio::sync::broadcast::error::TryRecvError;
use toolwright::codec::{self, Limits};
use toolwright::jobs::{JobEvent, JobState};
use toolwright::{DispatcherConfig, ResponseEnvelope, ToolTiming, codes};

async fn collect(mut rx: tokio::sync::mpsc::Receiver<Envelope>) -> Vec<Envelope> {
    let mut out = Vec::new();
    while let Some(envelope) = rx.recv().await {
        out.push(envelope);
    }
    out
}

#[tokio::test(start_paused = true)]
async fn a_stream_yields_start_chunks_in_order_end_and_the_answer() {
    let d = dispatcher(DispatcherConfig::default());
    let rx = d
        .call_streaming(ToolRequest::Generate(GenerateRequest {
            chunks: 5,
            interval_ms: 10,
        }))
        .await;
    let envelopes = collect(rx).await;
    assert_eq!(envelopes.len(), 1 + 5 + 2, "{envelopes:?}");

    let ResponseEnvelope::StreamStart { job_id, tool } = &envelopes[0] else {
        panic!("expected StreamStart, got {:?}", envelopes[0]);
    };
    assert_eq!(tool, "generate");
    for (n, envelope) in envelopes[1..6].iter().enumerate() {
        let ResponseEnvelope::StreamChunk {
            job_id: chunk_job,
            seq,
            chunk,
        } = envelope
        else {
            panic!("expected StreamChunk, got {envelope:?}");
        };
        assert_eq!(chunk_job, job_id);
        assert_eq!(*seq, n as u64);
        let decoded: GenerationChunk =
            codec::from_msgpack(chunk, Limits::default()).expect("a chunk decodes");
        assert_eq!(decoded, GenerationChunk::Step { n: n as u32 });
    }
    assert_eq!(
        envelopes[6],
        ResponseEnvelope::StreamEnd {
            job_id: job_id.clone(),
            chunks: 5
        }
    );
    assert_eq!(
        envelopes[7],
        ResponseEnvelope::Success(ToolResponse::Generate(GenerateResponse { sent: 5 }))
    );
    // The job is recorded; its response went to the stream.
    let info = status(&d, job_id).await;
    assert_eq!(info.state, JobState::Complete);
    assert_eq!(info.progress, Some(1.0));
}

#[tokio::test(start_paused = true)]
async fn any_timing_class_can_be_streamed() {
    let d = dispatcher(DispatcherConfig::default());
    let sync = collect(
        d.call_streaming(ToolRequest::Add(MathOperands { a: 1, b: 2 }))
            .await,
    )
    .await;
    assert!(matches!(sync[0], ResponseEnvelope::StreamStart { .. }));
    assert!(matches!(
        sync[1],
        ResponseEnvelope::StreamEnd { chunks: 0, .. }
    ));
    assert_eq!(
        sync[2],
        ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 3 }))
    );
    assert_eq!(sync.len(), 3);

    // No budget applies: the stream is the wait.
    let slow = collect(
        d.call_streaming(ToolRequest::Sleep(DelayRequest { ms: 3_600_000 }))
            .await,
    )
    .await;
    assert_eq!(
        slow.last(),
        Some(&ResponseEnvelope::Success(ToolResponse::Sleep(
            SleepResponse {
                slept_ms: 3_600_000
            }
        )))
    );

    let failing = collect(
        d.call_streaming(ToolRequest::Launch(LaunchRequest { fail: true }))
            .await,
    )
    .await;
    assert_eq!(failing.len(), 3);
    assert_eq!(error(&failing[2]).code, "ENGINE_DOWN");
}

#[tokio::test(start_paused = true)]
async fn a_job_tool_streams_its_one_answer() {
    let d = dispatcher(DispatcherConfig::default());
    let answer = collect(d.call_streaming(ToolRequest::JobList(all_jobs())).await).await;
    assert_eq!(answer.len(), 1);
    assert!(matches!(
        answer[0],
        ResponseEnvelope::Success(ToolResponse::JobList(_))
    ));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_stream_ends_with_cancelled_and_no_chunk_after_its_end() {
    let d = dispatcher(DispatcherConfig::default());
    let mut rx = d
        .call_streaming(ToolRequest::Generate(GenerateRequest {
            chunks: 1_000_000,
            interval_ms: 1,
        }))
        .await;
    let Some(ResponseEnvelope::StreamStart { job_id, .. }) = rx.recv().await else {
        panic!("expected StreamStart");
    };
    // Let a few chunks through, then cancel.
    for _ in 0..3 {
        let chunk = tokio::time::timeout(SOON, rx.recv())
            .await
            .expect("a chunk");
        assert!(matches!(chunk, Some(ResponseEnvelope::StreamChunk { .. })));
    }
    d.jobs().cancel(&job_id).await.expect("cancel");
    let rest = tokio::time::timeout(SOON, collect(rx))
        .await
        .expect("the stream ends");
    let end = rest
        .iter()
        .position(|e| matches!(e, ResponseEnvelope::StreamEnd { .. }))
        .expect("a StreamEnd");
    assert_eq!(rest.len(), end + 2, "only the answer follows the end");
    let ResponseEnvelope::StreamEnd { chunks, .. } = rest[end] else {
        unreachable!()
    };
    assert_eq!(chunks, 3 + end as u64, "the count is the chunks sent");
    assert_eq!(error(&rest[end + 1]).code, codes::CANCELLED);
}

#[tokio::test(start_paused = true)]
async fn subscribers_see_every_job_event() {
    let d = dispatcher(DispatcherConfig::default().short_wait(Duration::ZERO));
    let mut events = d.subscribe();
    let id = started(
        &d.call(ToolRequest::Generate(GenerateRequest {
            chunks: 2,
            interval_ms: 5,
        }))
        .await,
    );
    wait_all(&d, &[&id]).await;
    let failing = started(
        &d.call(ToolRequest::Launch(LaunchRequest { fail: true }))
            .await,
    );
    wait_all(&d, &[&failing]).await;

    let mut seen = Vec::new();
    loop {
        match events.try_recv() {
            Ok(event) => seen.push(event),
            Err(TryRecvError::Empty) => break,
            Err(other) => panic!("{other:?}"),
        }
    }
    let for_generate: Vec<&JobEvent> = seen.iter().filter(|e| e.job_id() == id).collect();
    assert!(matches!(
        for_generate[0],
        JobEvent::Started {
            timing: ToolTiming::AsyncLong,
            ..
        }
    ));
    assert!(matches!(for_generate[1], JobEvent::Chunk { seq: 0, .. }));
    assert!(matches!(for_generate[2], JobEvent::Progress { fraction, .. } if *fraction == 0.5));
    assert!(matches!(for_generate[3], JobEvent::Chunk { seq: 1, .. }));
    assert!(matches!(for_generate[4], JobEvent::Progress { fraction, .. } if *fraction == 1.0));
    assert!(matches!(
        for_generate[5],
        JobEvent::Finished {
            state: JobState::Complete,
            error_code: None,
            ..
        }
    ));
    assert_eq!(for_generate.len(), 6);
    assert!(seen.iter().any(|e| matches!(
        e,
        JobEvent::Finished { job_id, state: JobState::Failed, error_code: Some(code), .. }
            if *job_id == failing && code == "ENGINE_DOWN"
    )));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_reader_that_falls_behind_loses_the_stream_but_not_the_answer() {
    use toolwright::port::STREAM_CAPACITY;

    let d = dispatcher(DispatcherConfig::default());
    let chunks = 3 * STREAM_CAPACITY as u32;
    let mut rx = d
        .call_streaming(ToolRequest::Generate(GenerateRequest {
            chunks,
            interval_ms: 0,
        }))
        .await;
    let Some(ResponseEnvelope::StreamStart { job_id, .. }) = rx.recv().await else {
        panic!("expected StreamStart");
    };
    // Nobody reads while the handler sends three times what the channel
    // holds: it is not slowed down, and nothing grows without bound.
    let polled = wait_all(&d, &[job_id.as_str()]).await;
    assert_eq!(polled.completed, vec![job_id.clone()]);
    let rest = tokio::time::timeout(SOON, collect(rx))
        .await
        .expect("the stream ends");
    let delivered = rest
        .iter()
        .filter(|e| matches!(e, ResponseEnvelope::StreamChunk { .. }))
        .count();
    assert!(
        delivered <= STREAM_CAPACITY,
        "{delivered} chunks were held for the reader"
    );
    assert!(
        !rest
            .iter()
            .any(|e| matches!(e, ResponseEnvelope::StreamEnd { .. })),
        "a stream cut short has no end"
    );
    let Some(ResponseEnvelope::Success(ToolResponse::Generate(_))) = rest.last() else {
        panic!("the answer comes last: {:?}", rest.last());
    };
}
