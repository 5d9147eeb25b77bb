//! Following a call that runs on as a job to its end, to send its
//! `tool_complete`: through the port's own job tools, so a job on a remote
//! worker is followed the same way as a local one.

use super::CallTrace;
use crate::jobs::{JobPollRequest, JobState, PollMode};
use crate::port::CallPort;
use crate::{Json, ToolError, codes};

/// How long one `job_poll` waits; the follower polls again until the job
/// has ended.
const POLL_MS: u64 = 30_000;

/// Sends `trace`'s `tool_complete` when job `job_id` ends. Needs a tokio
/// runtime; without one the call completes at once, as a job started.
pub(super) fn job<P: CallPort>(port: P, trace: CallTrace, job_id: String) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        return trace.failed(
            Some(job_id),
            &ToolError::internal("no runtime to follow the job on"),
        );
    };
    runtime.spawn(async move {
        loop {
            let request = JobPollRequest {
                job_ids: vec![job_id.clone()],
                timeout_ms: POLL_MS,
                mode: PollMode::Any,
            };
            match port.job_poll(request).await {
                Ok(polled) if polled.pending.is_empty() => break,
                Ok(_) => {}
                Err(e) => return trace.failed(Some(job_id), &e),
            }
        }
        match port.job_status(&job_id).await {
            Ok(info) => match info.state {
                JobState::Complete => {
                    let result = match info.result {
                        Some(Json::Object(mut fields)) => {
                            fields.remove("tool");
                            Json::Object(fields).to_string()
                        }
                        Some(other) => other.to_string(),
                        None => "{}".to_owned(),
                    };
                    trace.complete(Some(job_id), result, None);
                }
                JobState::Cancelled => {
                    let message = info.error.unwrap_or_else(|| "the job was cancelled".into());
                    trace.failed(Some(job_id), &ToolError::new(codes::CANCELLED, message));
                }
                _ => {
                    let code = info
                        .error_code
                        .unwrap_or_else(|| codes::INTERNAL.to_owned());
                    let message = info.error.unwrap_or_default();
                    trace.failed(Some(job_id), &ToolError::new(code, message));
                }
            },
            Err(e) => trace.failed(Some(job_id), &e),
        }
    });
}
