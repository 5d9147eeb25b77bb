//! `JobEvent`: what the store broadcasts about every job, for transports that
//! publish job activity (IOPub, the HTTP event stream, MCP progress).

use serde::{Deserialize, Serialize};

use crate::jobs::JobState;
use crate::{Bytes, ToolTiming};

/// Something that happened to a job. Sent to every
/// [`JobStore::subscribe`](crate::jobs::JobStore::subscribe) receiver;
/// a receiver that falls behind by more than the channel's capacity loses
/// the oldest events (`RecvError::Lagged`) rather than holding the store up.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(tag = "event", rename_all = "snake_case")]
#[non_exhaustive]
pub enum JobEvent {
    /// A job was accepted.
    Started {
        /// The job.
        job_id: String,
        /// The tool it runs.
        tool: String,
        /// The timing class of the call.
        timing: ToolTiming,
        /// Milliseconds since the Unix epoch.
        at: u64,
        /// The W3C `traceparent` of the span of the call that started the
        /// job, when spans are recorded (feature `otel`): the job, and
        /// every later event about it, belong to that trace.
        #[serde(default, skip_serializing_if = "Option::is_none")]
        traceparent: Option<String>,
    },
    /// The handler reported progress.
    Progress {
        /// The job.
        job_id: String,
        /// Between 0 and 1.
        fraction: f32,
    },
    /// The handler sent a stream chunk.
    Chunk {
        /// The job.
        job_id: String,
        /// Position of the chunk, from 0.
        seq: u64,
        /// The chunk, MsgPack-encoded.
        chunk: Bytes,
    },
    /// The job reached a final state: complete, failed or cancelled.
    Finished {
        /// The job.
        job_id: String,
        /// The tool it ran.
        tool: String,
        /// `Complete`, `Failed` or `Cancelled`.
        state: JobState,
        /// The error's code, when it did not complete.
        #[serde(skip_serializing_if = "Option::is_none")]
        error_code: Option<String>,
        /// Milliseconds since the Unix epoch.
        at: u64,
    },
}

impl JobEvent {
    /// The job the event is about.
    pub fn job_id(&self) -> &str {
        match self {
            JobEvent::Started { job_id, .. }
            | JobEvent::Progress { job_id, .. }
            | JobEvent::Chunk { job_id, .. }
            | JobEvent::Finished { job_id, .. } => job_id,
        }
    }
}
