//! Each timing class gets the answer DESIGN.md §5 pins: `sync` inline,
//! `async_short`/`async_medium` inline within their budget and `JobStarted`
//! past it, `async_long` and `fire_and_forget` `JobStarted` at once.
//!
//! Time is paused: sleeps in handlers and budgets advance a virtual clock,
//! so these tests neither wait nor flake.

mod support;

use std::time::Duration;

use support::*;
use toolwright::jobs::{JobListRequest, JobState};
use toolwright::{DispatcherConfig, ResponseEnvelope, ToolTiming, codes};

fn budgets() -> DispatcherConfig {
    DispatcherConfig::default()
        .short_wait(Duration::from_millis(100))
        .medium_wait(Duration::from_millis(300))
}

#[tokio::test(start_paused = true)]
async fn sync_answers_inline_without_a_job() {
    let d = dispatcher(budgets());
    let answer = d.call(ToolRequest::Add(MathOperands { a: 2, b: 3 })).await;
    assert_eq!(
        answer,
        ResponseEnvelope::Success(ToolResponse::Add(MathResult { result: 5 }))
    );
    assert_eq!(d.jobs().list(all_jobs()).await.expect("lists").total, 0);
}

#[tokio::test(start_paused = true)]
async fn sync_tool_error_is_an_error_envelope_with_its_code() {
    let d = dispatcher(budgets());
    let answer = d
        .call(ToolRequest::Add(MathOperands { a: i64::MAX, b: 1 }))
        .await;
    let e = error(&answer);
    assert_eq!(e.code, "OVERFLOW");
    assert_eq!(e.details, Some(serde_json::json!({"overflow": {}})));
}

#[tokio::test(start_paused = true)]
async fn sync_handler_panic_is_internal() {
    let d = dispatcher(budgets());
    let answer = d.call(ToolRequest::Crash).await;
    let e = error(&answer);
    assert_eq!(e.code, codes::INTERNAL);
    assert!(e.message.contains("`crash` panicked"), "{}", e.message);
    assert!(e.message.contains("always panics"), "{}", e.message);
    // The dispatcher is still serving.
    let again = d.call(ToolRequest::Add(MathOperands { a: 1, b: 1 })).await;
    assert!(matches!(again, ResponseEnvelope::Success(_)));
}

#[tokio::test(start_paused = true)]
async fn a_plain_function_handler_that_panics_is_internal_too() {
    let d = dispatcher(budgets());
    for answer in [
        d.call(ToolRequest::CrashNow).await,
        decode(&d.call_msgpack(&encode(&ToolRequest::CrashNow)).await),
    ] {
        let e = error(&answer);
        assert_eq!(e.code, codes::INTERNAL);
        assert!(e.message.contains("`crash_now` panicked"), "{}", e.message);
        assert!(e.message.contains("always panics"), "{}", e.message);
    }
    let again = d.call(ToolRequest::Add(MathOperands { a: 1, b: 1 })).await;
    assert!(matches!(again, ResponseEnvelope::Success(_)));
}

#[tokio::test(start_paused = true)]
async fn async_short_within_its_budget_answers_inline() {
    let d = dispatcher(budgets());
    let answer = d.call(ToolRequest::Sleep(DelayRequest { ms: 40 })).await;
    assert_eq!(
        answer,
        ResponseEnvelope::Success(ToolResponse::Sleep(SleepResponse { slept_ms: 40 }))
    );
    // It ran as a job all the same, and is listed as complete.
    let list = d.jobs().list(all_jobs()).await.expect("lists");
    assert_eq!(list.total, 1);
    assert_eq!(list.jobs[0].tool_name, "sleep");
    assert_eq!(list.jobs[0].state, JobState::Complete);
}

#[tokio::test(start_paused = true)]
async fn async_short_past_its_budget_answers_job_started_then_completes() {
    let d = dispatcher(budgets());
    let answer = d.call(ToolRequest::Sleep(DelayRequest { ms: 5_000 })).await;
    let ResponseEnvelope::JobStarted {
        job_id,
        tool,
        expected_timing,
    } = answer
    else {
        panic!("expected JobStarted, got {answer:?}");
    };
    assert_eq!(tool, "sleep");
    assert_eq!(expected_timing, ToolTiming::AsyncShort);
    assert_eq!(status(&d, &job_id).await.state, JobState::Running);

    let polled = wait_all(&d, &[&job_id]).await;
    assert_eq!(polled.completed, vec![job_id.clone()]);
    let info = status(&d, &job_id).await;
    assert_eq!(info.state, JobState::Complete);
    assert_eq!(info.result, Some(serde_json::json!({"slept_ms": 5000})));
    assert!(info.started_at.is_some() && info.completed_at.is_some());
}

#[tokio::test(start_paused = true)]
async fn async_medium_uses_the_medium_budget() {
    let d = dispatcher(budgets());
    // Longer than the short budget, within the medium one.
    let inline = d.call(ToolRequest::Render(DelayRequest { ms: 200 })).await;
    assert_eq!(
        inline,
        ResponseEnvelope::Success(ToolResponse::Render(RenderResponse { frames: 20 }))
    );
    let late = d
        .call(ToolRequest::Render(DelayRequest { ms: 1_000 }))
        .await;
    let ResponseEnvelope::JobStarted {
        expected_timing, ..
    } = late
    else {
        panic!("expected JobStarted, got {late:?}");
    };
    assert_eq!(expected_timing, ToolTiming::AsyncMedium);
}

#[tokio::test(start_paused = true)]
async fn async_long_answers_job_started_at_once() {
    let d = dispatcher(budgets());
    let before = tokio::time::Instant::now();
    let answer = d
        .call(ToolRequest::Generate(GenerateRequest {
            chunks: 1,
            interval_ms: 0,
        }))
        .await;
    assert_eq!(
        tokio::time::Instant::now(),
        before,
        "no virtual time passed"
    );
    let ResponseEnvelope::JobStarted {
        job_id,
        expected_timing,
        ..
    } = answer
    else {
        panic!("expected JobStarted, got {answer:?}");
    };
    assert_eq!(expected_timing, ToolTiming::AsyncLong);
    wait_all(&d, &[&job_id]).await;
    assert_eq!(
        status(&d, &job_id).await.result,
        Some(serde_json::json!({"sent": 1}))
    );
}

#[tokio::test(start_paused = true)]
async fn fire_and_forget_acknowledges_with_a_job_and_records_its_failure() {
    let d = dispatcher(budgets());
    let ok = d
        .call(ToolRequest::Launch(LaunchRequest { fail: false }))
        .await;
    let failing = d
        .call(ToolRequest::Launch(LaunchRequest { fail: true }))
        .await;
    for answer in [&ok, &failing] {
        assert!(
            matches!(
                answer,
                ResponseEnvelope::JobStarted {
                    expected_timing: ToolTiming::FireAndForget,
                    ..
                }
            ),
            "{answer:?}"
        );
    }
    let (ok, failing) = (started(&ok), started(&failing));
    wait_all(&d, &[&ok, &failing]).await;

    let failed = d
        .jobs()
        .list(JobListRequest {
            state: Some(JobState::Failed),
            tool_name: None,
            limit: 100,
        })
        .await
        .expect("lists");
    assert_eq!(failed.total, 1);
    assert_eq!(failed.jobs[0].job_id, failing);
    assert_eq!(failed.jobs[0].error_code.as_deref(), Some("ENGINE_DOWN"));
    assert_eq!(
        failed.jobs[0].error.as_deref(),
        Some("The engine is not running.")
    );
    assert_eq!(failed.by_state.failed, 1);
    assert_eq!(failed.by_state.complete, 1);
    // An acknowledgement's result is the empty object.
    assert_eq!(status(&d, &ok).await.result, Some(serde_json::json!({})));
}

#[tokio::test(start_paused = true)]
async fn each_action_runs_under_its_own_timing() {
    let d = dispatcher(budgets());
    let read = d
        .call(ToolRequest::Fs(FsRequest::Read(FsReadRequest {
            uri: "a.txt".into(),
        })))
        .await;
    assert_eq!(
        read,
        ResponseEnvelope::Success(ToolResponse::Fs(FsResponse::Read(FsReadResponse {
            text: "contents of a.txt".into()
        })))
    );
    let write = d
        .call(ToolRequest::Fs(FsRequest::Write(FsWriteRequest {
            uri: "a.txt".into(),
            content: "hello".into(),
            ms: 1_000,
        })))
        .await;
    let ResponseEnvelope::JobStarted {
        job_id,
        tool,
        expected_timing,
    } = write
    else {
        panic!("expected JobStarted, got {write:?}");
    };
    assert_eq!(
        (tool.as_str(), expected_timing),
        ("fs", ToolTiming::AsyncShort)
    );
    wait_all(&d, &[&job_id]).await;
    assert_eq!(
        status(&d, &job_id).await.result,
        Some(serde_json::json!({"action": "write", "written": 5}))
    );
}

#[tokio::test(start_paused = true)]
async fn a_panicking_job_fails_with_internal() {
    let d = dispatcher(budgets());
    let id = started(&d.call(ToolRequest::Meltdown).await);
    let polled = wait_all(&d, &[&id]).await;
    assert_eq!(polled.failed, vec![id.clone()]);
    let info = status(&d, &id).await;
    assert_eq!(info.state, JobState::Failed);
    assert_eq!(info.error_code.as_deref(), Some(codes::INTERNAL));
    assert!(
        info.error
            .as_deref()
            .unwrap_or("")
            .contains("meltdown in a job")
    );
}

#[tokio::test(start_paused = true)]
async fn a_job_answered_inline_does_not_keep_its_result_twice() {
    let d = dispatcher(budgets());
    let answer = d.call(ToolRequest::Sleep(DelayRequest { ms: 1 })).await;
    assert!(matches!(answer, ResponseEnvelope::Success(_)));
    let job = &d.jobs().list(all_jobs()).await.expect("lists").jobs[0];
    assert_eq!(job.state, JobState::Complete);
    assert_eq!(job.result, None, "the result went to the caller");
}
