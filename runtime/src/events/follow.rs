//! Following a call that runs on as a job to its end, to send its
//! `tool_complete`: through the port's own job tools, so a job on a remote
//! worker is followed the same way as a local one.

use super::CallTrace;
use crate::jobs::{JobPollRequest, JobState, PollMode};
use crate::port::CallPort;
use crate::{Json, ToolError, codes};

/// How long one `job_poll` waits (the job tools' default); the follower
/// polls again until the job has ended. Kept below the per-call timeouts
/// of transports, so a long job is not taken for a lost one.
const POLL_MS: u64 = 5_000;

/// Sends `trace`'s `tool_complete` when job `job_id` ends. Needs a tokio
/// runtime; without one the call completes at once, as a job started.
pub(super) fn job<P: CallPort>(port: P, trace: CallTrace, job_id: String) {
    let Ok(runtime) = tokio::runtime::Handle::try_current() else {
        let e = ToolError::internal("no runtime to follow the job on");
        return trace.job_ended(job_id, Err(e));
    };
    runtime.spawn(async move {
        loop {
            let request = JobPollRequest {
                job_ids: vec![job_id.clone()],
                timeout_ms: POLL_MS,
                mode: PollMode::Any,
            };
            // The hub follows every call's job, whoever made it.
            match port.job_poll(request, None).await {
                Ok(polled) if polled.pending.is_empty() => break,
                // Still running, or a poll the transport gave up on.
                Ok(_) => {}
                Err(e) if e.code == codes::TIMEOUT => {}
                Err(e) => return trace.job_ended(job_id, Err(e)),
            }
        }
        let outcome = match port.job_status(&job_id, None).await {
            Ok(info) => match info.state {
                JobState::Complete => Ok(info
                    .result
                    .unwrap_or_else(|| Json::Object(Default::default()))),
                JobState::Cancelled => Err(ToolError::new(
                    codes::CANCELLED,
                    info.error.unwrap_or_else(|| "the job was cancelled".into()),
                )),
                _ => Err(ToolError::new(
                    info.error_code
                        .unwrap_or_else(|| codes::INTERNAL.to_owned()),
                    info.error.unwrap_or_default(),
                )),
            },
            Err(e) => Err(e),
        };
        trace.job_ended(job_id, outcome);
    });
}
