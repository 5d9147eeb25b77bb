//! `CallOutcome`: how a call ended, as the `outcome` label names it.

use crate::ResponseEnvelope;

/// How a call ended: `ok`, `job_started`, or its error's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(not(feature = "metrics"), allow(dead_code))] // read by `metrics` alone
pub(crate) enum CallOutcome<'a> {
    /// Answered with a response.
    Ok,
    /// Runs on as a job; its end is counted with the jobs.
    JobStarted,
    /// Failed with this code.
    Error(&'a str),
}

impl<'a> CallOutcome<'a> {
    /// The outcome of a port's final answer.
    pub(crate) fn of<R>(envelope: &'a ResponseEnvelope<R>) -> Self {
        match envelope {
            ResponseEnvelope::Error(e) => CallOutcome::Error(&e.code),
            ResponseEnvelope::JobStarted { .. } => CallOutcome::JobStarted,
            // A port answers `Success`, `Error` or `JobStarted`; the
            // stream's envelopes go to the stream, not here.
            _ => CallOutcome::Ok,
        }
    }
}
