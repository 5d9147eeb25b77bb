//! `job_poll`: wait for any or all of some jobs, or of every running job,
//! bounded by a timeout. Time is paused, so the waits are virtual.

mod support;

use std::time::Duration;

use support::*;
use tokio::time::Instant;
use toolwright::jobs::{JobError, JobPollRequest, PollMode};
use toolwright::{Dispatcher, DispatcherConfig};

/// Starts a `sleep` job of `ms` that is answered with `JobStarted`.
async fn sleeper(d: &Dispatcher<Studio>, ms: u64) -> String {
    started(&d.call(ToolRequest::Sleep(DelayRequest { ms })).await)
}

fn config() -> DispatcherConfig {
    DispatcherConfig::default().short_wait(Duration::ZERO)
}

fn poll(ids: &[&str], timeout_ms: u64, mode: PollMode) -> JobPollRequest {
    JobPollRequest {
        job_ids: ids.iter().map(|s| (*s).to_owned()).collect(),
        timeout_ms,
        mode,
    }
}

#[tokio::test(start_paused = true)]
async fn any_returns_when_the_first_job_finishes() {
    let d = dispatcher(config());
    let (fast, slow) = (sleeper(&d, 100).await, sleeper(&d, 10_000).await);
    let start = Instant::now();
    let answer = d
        .jobs()
        .poll(poll(&[&fast, &slow], 60_000, PollMode::Any))
        .await
        .expect("poll");
    assert!(!answer.timed_out);
    assert_eq!(answer.completed, vec![fast]);
    assert_eq!(answer.pending, vec![slow]);
    assert!(answer.failed.is_empty());
    let waited = start.elapsed();
    assert!(waited >= Duration::from_millis(100) && waited < Duration::from_millis(10_000));
    assert_eq!(
        answer.elapsed_ms,
        u64::try_from(waited.as_millis()).unwrap_or(0)
    );
}

#[tokio::test(start_paused = true)]
async fn all_waits_for_every_job() {
    let d = dispatcher(config());
    let (fast, slow) = (sleeper(&d, 100).await, sleeper(&d, 2_000).await);
    let failing = started(
        &d.call(ToolRequest::Launch(LaunchRequest { fail: true }))
            .await,
    );
    let answer = d
        .jobs()
        .poll(poll(&[&fast, &slow, &failing], 60_000, PollMode::All))
        .await
        .expect("poll");
    assert!(!answer.timed_out);
    assert_eq!(answer.completed, vec![fast, slow]);
    assert_eq!(answer.failed, vec![failing]);
    assert!(answer.pending.is_empty());
    assert!(answer.elapsed_ms >= 2_000);
}

#[tokio::test(start_paused = true)]
async fn no_ids_waits_for_every_running_job() {
    let d = dispatcher(config());
    let a = sleeper(&d, 300).await;
    let b = sleeper(&d, 700).await;
    let answer = d
        .jobs()
        .poll(poll(&[], 60_000, PollMode::All))
        .await
        .expect("poll");
    assert!(!answer.timed_out);
    let mut completed = answer.completed;
    completed.sort();
    let mut expected = vec![a, b];
    expected.sort();
    assert_eq!(completed, expected);

    // With nothing running, it answers at once.
    let start = Instant::now();
    let idle = d
        .jobs()
        .poll(poll(&[], 60_000, PollMode::Any))
        .await
        .expect("poll");
    assert_eq!(start.elapsed(), Duration::ZERO);
    assert!(!idle.timed_out);
    assert!(idle.completed.is_empty() && idle.pending.is_empty());
}

#[tokio::test(start_paused = true)]
async fn the_timeout_ends_the_wait_and_says_so() {
    let d = dispatcher(config());
    let slow = sleeper(&d, 60_000).await;
    let start = Instant::now();
    let answer = d
        .jobs()
        .poll(poll(&[&slow], 250, PollMode::Any))
        .await
        .expect("poll");
    assert!(answer.timed_out);
    assert_eq!(answer.pending, vec![slow.clone()]);
    assert_eq!(start.elapsed(), Duration::from_millis(250));
    assert_eq!(answer.elapsed_ms, 250);

    // A zero timeout checks once.
    let once = d
        .jobs()
        .poll(poll(&[&slow], 0, PollMode::Any))
        .await
        .expect("poll");
    assert!(once.timed_out);
    assert_eq!(once.elapsed_ms, 0);
}

#[tokio::test(start_paused = true)]
async fn all_with_one_job_left_times_out() {
    let d = dispatcher(config());
    let (fast, slow) = (sleeper(&d, 10).await, sleeper(&d, 60_000).await);
    let answer = d
        .jobs()
        .poll(poll(&[&fast, &slow], 1_000, PollMode::All))
        .await
        .expect("poll");
    assert!(answer.timed_out);
    assert_eq!(answer.completed, vec![fast]);
    assert_eq!(answer.pending, vec![slow]);
}

#[tokio::test(start_paused = true)]
async fn poll_names_malformed_and_unknown_ids() {
    let d = dispatcher(config());
    let real = sleeper(&d, 10).await;
    assert_eq!(
        d.jobs()
            .poll(poll(&[&real, "job_"], 0, PollMode::Any))
            .await,
        Err(JobError::InvalidJobId {
            job_id: "job_".into()
        })
    );
    assert_eq!(
        d.jobs()
            .poll(poll(&[&real, "job_unknown1"], 0, PollMode::Any))
            .await,
        Err(JobError::NotFound {
            job_id: "job_unknown1".into()
        })
    );
}

#[tokio::test(start_paused = true)]
async fn duplicate_ids_are_reported_once() {
    let d = dispatcher(config());
    let id = sleeper(&d, 10).await;
    let answer = d
        .jobs()
        .poll(poll(&[&id, &id], 60_000, PollMode::All))
        .await
        .expect("poll");
    assert_eq!(answer.completed, vec![id]);
}
