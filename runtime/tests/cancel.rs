//! Cancellation really stops handlers: a cooperative one sees it at once,
//! one that ignores it is dropped after the grace period, and shutdown
//! cancels everything still running.
//!
//! These run on real time (the bounds are the point) with bounds generous
//! enough for a loaded two-core machine.

mod support;

use std::time::{Duration, Instant};

use support::*;
use toolwright::jobs::{JobCancelResponse, JobError, JobState};
use toolwright::{DispatcherConfig, ResponseEnvelope, codes};

/// The spec's bound for a handler to observe cancellation.
const OBSERVED_WITHIN: Duration = Duration::from_millis(100);

fn long_generation() -> ToolRequest {
    ToolRequest::Generate(GenerateRequest {
        chunks: 1_000_000,
        interval_ms: 1_000,
    })
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_cancelled_handler_sees_it_within_100_ms() {
    let d = dispatcher(DispatcherConfig::default());
    let id = started(&d.call(long_generation()).await);
    let probes = &d.service().probes;
    tokio::time::timeout(SOON, probes.started("generate", 1))
        .await
        .expect("the handler starts");

    let asked = Instant::now();
    let answer = d.jobs().cancel(&id).await.expect("cancel");
    let returned = asked.elapsed();
    assert_eq!(
        answer,
        JobCancelResponse {
            job_id: id.clone(),
            cancelled: true,
            state: JobState::Cancelled,
        }
    );
    let seen = probes
        .cancel_seen
        .lock()
        .expect("probe lock")
        .expect("the handler saw the cancellation");
    let latency = seen.saturating_duration_since(asked);
    assert!(
        latency < OBSERVED_WITHIN,
        "the handler saw the cancellation after {latency:?}"
    );
    // `cancel` waits for the handler to be gone, and a cooperative handler
    // goes at once, well before the grace period.
    assert!(returned < SOON, "cancel returned after {returned:?}");

    let info = status(&d, &id).await;
    assert_eq!(info.state, JobState::Cancelled);
    assert_eq!(info.error_code.as_deref(), Some(codes::CANCELLED));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_handler_that_ignores_cancel_is_aborted_after_the_grace() {
    let grace = Duration::from_millis(200);
    let d = dispatcher(DispatcherConfig::default().cancel_grace(grace));
    let id = started(&d.call(ToolRequest::Stubborn).await);
    let probes = &d.service().probes;
    tokio::time::timeout(SOON, probes.started("stubborn", 1))
        .await
        .expect("the handler starts");

    let asked = Instant::now();
    let answer = d.jobs().cancel(&id).await.expect("cancel");
    assert!(answer.cancelled);
    // Recorded as cancelled at once, whatever the handler does.
    assert_eq!(status(&d, &id).await.state, JobState::Cancelled);

    let dropped = probes
        .stubborn_dropped
        .lock()
        .expect("probe lock")
        .expect("cancel returns once the handler is dropped");
    let after = dropped.saturating_duration_since(asked);
    assert!(after >= grace, "dropped after {after:?}, before the grace");
    assert!(after < grace + SOON, "dropped after {after:?}");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancelling_a_finished_job_changes_nothing() {
    let d = dispatcher(DispatcherConfig::default());
    let id = started(
        &d.call(ToolRequest::Launch(LaunchRequest { fail: false }))
            .await,
    );
    wait_all(&d, &[&id]).await;
    let answer = d.jobs().cancel(&id).await.expect("cancel");
    assert_eq!(
        answer,
        JobCancelResponse {
            job_id: id.clone(),
            cancelled: false,
            state: JobState::Complete,
        }
    );
    assert_eq!(status(&d, &id).await.state, JobState::Complete);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn cancel_names_malformed_and_unknown_ids() {
    let d = dispatcher(DispatcherConfig::default());
    assert_eq!(
        d.jobs().cancel("job-1").await,
        Err(JobError::InvalidJobId {
            job_id: "job-1".into()
        })
    );
    assert_eq!(
        d.jobs().cancel("job_nosuchjob").await,
        Err(JobError::NotFound {
            job_id: "job_nosuchjob".into()
        })
    );
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_waiting_caller_gets_cancelled_when_its_job_is() {
    let d = dispatcher(DispatcherConfig::default().short_wait(Duration::from_secs(60)));
    let caller = {
        let d = d.clone();
        tokio::spawn(async move {
            d.call(ToolRequest::Sleep(DelayRequest { ms: 60_000 }))
                .await
        })
    };
    tokio::time::timeout(SOON, d.service().probes.started("sleep", 1))
        .await
        .expect("the handler starts");
    let id = d.jobs().list(all_jobs()).await.expect("lists").jobs[0]
        .job_id
        .clone();
    d.jobs().cancel(&id).await.expect("cancel");
    let answer = tokio::time::timeout(SOON, caller)
        .await
        .expect("the caller is answered")
        .expect("the caller's task");
    assert_eq!(error(&answer).code, codes::CANCELLED);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn shutdown_cancels_running_jobs_and_refuses_new_ones() {
    let d = dispatcher(DispatcherConfig::default().cancel_grace(Duration::from_millis(50)));
    let cooperative = started(&d.call(long_generation()).await);
    let stubborn = started(&d.call(ToolRequest::Stubborn).await);
    let probes = &d.service().probes;
    tokio::time::timeout(SOON, async {
        probes.started("generate", 1).await;
        probes.started("stubborn", 1).await;
    })
    .await
    .expect("the handlers start");

    tokio::time::timeout(SOON, d.shutdown())
        .await
        .expect("shutdown returns");
    for id in [&cooperative, &stubborn] {
        assert_eq!(status(&d, id).await.state, JobState::Cancelled);
    }
    assert!(
        probes
            .stubborn_dropped
            .lock()
            .expect("probe lock")
            .is_some()
    );

    let refused = d.call(long_generation()).await;
    assert_eq!(error(&refused).code, codes::CANCELLED);
    // Sync tools are still answered.
    let sync = d.call(ToolRequest::Add(MathOperands { a: 1, b: 2 })).await;
    assert!(matches!(sync, ResponseEnvelope::Success(_)));
}
