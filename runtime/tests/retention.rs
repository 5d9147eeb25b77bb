//! Finished jobs are kept for their time-to-live and up to a count, oldest
//! finished dropped first; jobs still running are never dropped.

mod support;

use std::time::Duration;

use support::*;
use toolwright::DispatcherConfig;
use toolwright::jobs::{JobError, JobState};

#[tokio::test(start_paused = true)]
async fn finished_jobs_expire_after_their_ttl() {
    let ttl = Duration::from_secs(60);
    let d = dispatcher(DispatcherConfig::default().job_ttl(ttl));
    let done = started(
        &d.call(ToolRequest::Launch(LaunchRequest { fail: false }))
            .await,
    );
    let running = started(&d.call(ToolRequest::Stubborn).await);
    wait_all(&d, &[&done]).await;

    tokio::time::advance(ttl - Duration::from_millis(1)).await;
    assert_eq!(status(&d, &done).await.state, JobState::Complete);

    tokio::time::advance(Duration::from_millis(1)).await;
    assert_eq!(
        d.jobs().status(&done).await,
        Err(JobError::NotFound { job_id: done })
    );
    // Running jobs do not expire, however old.
    tokio::time::advance(ttl * 10).await;
    assert_eq!(status(&d, &running).await.state, JobState::Running);
    assert_eq!(d.jobs().list(all_jobs()).await.expect("lists").total, 1);
}

#[tokio::test(start_paused = true)]
async fn the_oldest_finished_jobs_go_beyond_the_cap() {
    let d = dispatcher(DispatcherConfig::default().max_finished_jobs(2));
    let running = started(&d.call(ToolRequest::Stubborn).await);
    let mut finished = Vec::new();
    for _ in 0..4 {
        let id = started(
            &d.call(ToolRequest::Launch(LaunchRequest { fail: false }))
                .await,
        );
        // One at a time, so they finish in the order they started.
        wait_all(&d, &[&id]).await;
        finished.push(id);
    }
    let list = d.jobs().list(all_jobs()).await.expect("lists");
    let listed: Vec<&str> = list.jobs.iter().map(|j| j.job_id.as_str()).collect();
    // Newest first: the two newest finished ones and the running one.
    assert_eq!(listed, vec![&finished[3], &finished[2], &running]);
    assert_eq!(list.by_state.complete, 2);
    assert_eq!(list.by_state.running, 1);
    assert!(matches!(
        d.jobs().status(&finished[0]).await,
        Err(JobError::NotFound { .. })
    ));
}

#[tokio::test(start_paused = true)]
async fn a_cap_of_zero_still_answers_waiting_callers() {
    let d = dispatcher(
        DispatcherConfig::default()
            .max_finished_jobs(0)
            .short_wait(Duration::from_secs(1)),
    );
    let answer = d.call(ToolRequest::Sleep(DelayRequest { ms: 10 })).await;
    assert_eq!(
        answer,
        toolwright::ResponseEnvelope::Success(ToolResponse::Sleep(SleepResponse { slept_ms: 10 }))
    );
    assert_eq!(d.jobs().list(all_jobs()).await.expect("lists").total, 0);
}

#[tokio::test(start_paused = true)]
async fn list_filters_by_state_and_tool_and_limits() {
    let d = dispatcher(DispatcherConfig::default());
    let mut ids = Vec::new();
    for fail in [false, true, false, true, true] {
        ids.push(started(
            &d.call(ToolRequest::Launch(LaunchRequest { fail })).await,
        ));
    }
    let running = started(&d.call(ToolRequest::Stubborn).await);
    let refs: Vec<&str> = ids.iter().map(String::as_str).collect();
    wait_all(&d, &refs).await;

    let failed = d
        .jobs()
        .list(toolwright::jobs::JobListRequest {
            state: Some(JobState::Failed),
            tool_name: Some("launch".into()),
            limit: 2,
        })
        .await
        .expect("lists");
    assert_eq!(failed.total, 3);
    let listed: Vec<&str> = failed.jobs.iter().map(|j| j.job_id.as_str()).collect();
    assert_eq!(listed, vec![&ids[4], &ids[3]]);
    assert_eq!(failed.by_state.failed, 3);
    assert_eq!(failed.by_state.complete, 2);
    assert_eq!(failed.by_state.running, 1);

    let stubborn = d
        .jobs()
        .list(toolwright::jobs::JobListRequest {
            state: None,
            tool_name: Some("stubborn".into()),
            limit: 100,
        })
        .await
        .expect("lists");
    assert_eq!(stubborn.total, 1);
    assert_eq!(stubborn.jobs[0].job_id, running);
}
