//! The test catalogue (generated from `catalogue.tool`, checked in), a
//! service over it, and helpers shared by the dispatcher tests. Each test
//! binary uses a part.
#![allow(dead_code)]

pub mod catalogue;
#[cfg(feature = "mcp")]
pub mod http;
#[cfg(feature = "redis")]
pub mod redis;
pub mod service;

use std::time::Duration;

pub use catalogue::*;
pub use service::Studio;
use toolwright::codec::{self, Limits};
use toolwright::jobs::{JobInfo, JobListRequest, JobPollRequest, JobPollResponse, PollMode};
use toolwright::{Dispatcher, DispatcherConfig, ResponseEnvelope, ToolError};

pub type Envelope = ResponseEnvelope<ToolResponse>;

/// A dispatcher over a fresh `Studio`.
pub fn dispatcher(config: DispatcherConfig) -> Dispatcher<Studio> {
    Dispatcher::with_config(Studio::default(), config)
}

/// The job id of a `JobStarted`, or a panic naming what came instead.
pub fn started(envelope: &Envelope) -> String {
    match envelope {
        ResponseEnvelope::JobStarted { job_id, .. } => job_id.clone(),
        other => panic!("expected JobStarted, got {other:?}"),
    }
}

/// The error of an `Error` envelope, or a panic naming what came instead.
pub fn error(envelope: &Envelope) -> &ToolError {
    envelope
        .error()
        .unwrap_or_else(|| panic!("expected an error, got {envelope:?}"))
}

/// Decodes an answer of `call_msgpack`.
pub fn decode(bytes: &[u8]) -> Envelope {
    codec::from_msgpack(bytes, Limits::default()).expect("the answer decodes as an envelope")
}

/// Encodes a request as a client would.
pub fn encode(request: &ToolRequest) -> Vec<u8> {
    codec::to_msgpack(request).expect("the request encodes")
}

/// Polls until every job in `ids` has finished (one minute at most).
pub async fn wait_all(dispatcher: &Dispatcher<Studio>, ids: &[&str]) -> JobPollResponse {
    let response = dispatcher
        .jobs()
        .poll(JobPollRequest {
            job_ids: ids.iter().map(|s| (*s).to_owned()).collect(),
            timeout_ms: 60_000,
            mode: PollMode::All,
        })
        .await
        .expect("poll");
    assert!(!response.timed_out, "jobs did not finish: {response:?}");
    response
}

/// A `job_list` request for every job.
pub fn all_jobs() -> JobListRequest {
    JobListRequest {
        state: None,
        tool_name: None,
        limit: 100,
    }
}

/// The status of a job that must exist.
pub async fn status(dispatcher: &Dispatcher<Studio>, id: &str) -> JobInfo {
    dispatcher.jobs().status(id).await.expect("the job exists")
}

/// Generous bound for "soon" on a loaded 2-core CI machine.
pub const SOON: Duration = Duration::from_secs(10);
