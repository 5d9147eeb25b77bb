//! `ResponseEnvelope`: how every answer travels.

use serde::{Deserialize, Serialize};

use crate::{Bytes, ToolError, ToolTiming};

/// Every answer to a call. Externally tagged with snake_case names on the
/// wire (`{"success": {...}}`, `{"job_started": {...}}`), so a reader knows
/// the shape from the first key without buffering.
///
/// A call answered inline gets one `Success` or `Error`. A job's caller gets
/// `JobStarted` and polls. A streaming transport sends `StreamStart`, the
/// chunks, `StreamEnd`, then the final `Success` or `Error`.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum ResponseEnvelope<R> {
    /// The call succeeded; `R` is the catalogue's `ToolResponse`.
    Success(R),
    /// The call runs as a job; poll or wait for it.
    JobStarted {
        /// The job's id, for `job_status`, `job_poll` and `job_cancel`.
        job_id: String,
        /// The tool it runs.
        tool: String,
        /// The timing class that made it a job.
        expected_timing: ToolTiming,
    },
    /// The call failed.
    Error(ToolError),
    /// A streaming call started.
    StreamStart {
        /// The job streaming.
        job_id: String,
        /// The tool it runs.
        tool: String,
    },
    /// One chunk of a stream: the MsgPack encoding of the tool's `stream`
    /// type, carried as `bin` so relays forward it without knowing the type.
    StreamChunk {
        /// The job streaming.
        job_id: String,
        /// Position of the chunk, from 0.
        seq: u64,
        /// The chunk, MsgPack-encoded.
        chunk: Bytes,
    },
    /// The stream ended; the final `Success` or `Error` follows.
    StreamEnd {
        /// The job that streamed.
        job_id: String,
        /// How many chunks were sent.
        chunks: u64,
    },
}

/// A call's outcome, borrowed, encoded exactly as the `Success` or `Error`
/// envelope holding it: a dispatcher encodes an outcome in place instead of
/// moving it into an envelope first (a catalogue's response can be
/// hundreds of bytes).
#[derive(Serialize)]
#[serde(rename = "ResponseEnvelope", rename_all = "snake_case")]
pub(crate) enum Answered<'a, R> {
    /// As [`ResponseEnvelope::Success`].
    Success(&'a R),
    /// As [`ResponseEnvelope::Error`].
    Error(&'a ToolError),
}

impl<'a, R> From<&'a Result<R, ToolError>> for Answered<'a, R> {
    fn from(outcome: &'a Result<R, ToolError>) -> Self {
        match outcome {
            Ok(response) => Answered::Success(response),
            Err(e) => Answered::Error(e),
        }
    }
}

impl<R> ResponseEnvelope<R> {
    /// The error, if this is one.
    pub fn error(&self) -> Option<&ToolError> {
        match self {
            ResponseEnvelope::Error(e) => Some(e),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_answered_outcome_encodes_as_its_envelope() {
        let outcomes: [Result<Vec<u32>, ToolError>; 2] = [
            Ok(vec![1, 2, 3]),
            Err(ToolError::invalid_request("no").with_details(serde_json::json!({"a": 1}))),
        ];
        for outcome in outcomes {
            let answered = crate::codec::to_msgpack(&Answered::from(&outcome)).unwrap();
            let envelope = match outcome {
                Ok(response) => ResponseEnvelope::Success(response),
                Err(e) => ResponseEnvelope::Error(e),
            };
            assert_eq!(answered, crate::codec::to_msgpack(&envelope).unwrap());
            assert_eq!(
                crate::codec::to_json(&Answered::from(&Ok::<_, ToolError>(1))).unwrap(),
                crate::codec::to_json(&ResponseEnvelope::Success(1)).unwrap()
            );
        }
    }
}
