//! `StreamEvent`: what a streaming call sends before its answer.

use tokio::sync::mpsc;

use crate::{Bytes, ResponseEnvelope};

/// Where a call's [`StreamEvent`]s go: a channel of at most
/// [`STREAM_CAPACITY`] events, made with [`stream_channel`]. Handlers send
/// chunks without waiting, so a caller that falls that far behind stops
/// getting the stream (it still gets the call's answer, and subscribers
/// the chunks): a slow reader cannot make the server hold unbounded memory.
pub type StreamSender = mpsc::Sender<StreamEvent>;

/// The receiving end of a [`StreamSender`].
pub type StreamReceiver = mpsc::Receiver<StreamEvent>;

/// How many stream events may wait for a slow reader.
pub const STREAM_CAPACITY: usize = 1024;

/// A channel for one call's stream.
pub fn stream_channel() -> (StreamSender, StreamReceiver) {
    mpsc::channel(STREAM_CAPACITY)
}

/// One step of a streaming call, before its final answer. On the wire these
/// are the `stream_start`, `stream_chunk` and `stream_end` envelopes.
#[derive(Clone, Debug, PartialEq)]
pub enum StreamEvent {
    /// The call runs as job `job_id` and streams.
    Start {
        /// The job.
        job_id: String,
        /// The tool it runs.
        tool: String,
    },
    /// One chunk: the MsgPack encoding of the tool's `stream` type.
    Chunk {
        /// The job.
        job_id: String,
        /// Position of the chunk, from 0.
        seq: u64,
        /// The chunk, MsgPack-encoded.
        chunk: Bytes,
    },
    /// The stream ended; the final answer follows.
    End {
        /// The job.
        job_id: String,
        /// How many chunks were sent.
        chunks: u64,
    },
}

impl StreamEvent {
    /// The job the event is about.
    pub fn job_id(&self) -> &str {
        match self {
            StreamEvent::Start { job_id, .. }
            | StreamEvent::Chunk { job_id, .. }
            | StreamEvent::End { job_id, .. } => job_id,
        }
    }

    /// The event as the envelope that carries it on the wire.
    pub fn into_envelope<R>(self) -> ResponseEnvelope<R> {
        match self {
            StreamEvent::Start { job_id, tool } => ResponseEnvelope::StreamStart { job_id, tool },
            StreamEvent::Chunk { job_id, seq, chunk } => {
                ResponseEnvelope::StreamChunk { job_id, seq, chunk }
            }
            StreamEvent::End { job_id, chunks } => ResponseEnvelope::StreamEnd { job_id, chunks },
        }
    }

    /// The event an envelope carries, or the envelope back when it is a
    /// final answer (`Success`, `Error`, `JobStarted`).
    ///
    /// # Errors
    /// The envelope itself, when it is final.
    pub fn from_envelope<R>(envelope: ResponseEnvelope<R>) -> Result<Self, ResponseEnvelope<R>> {
        match envelope {
            ResponseEnvelope::StreamStart { job_id, tool } => {
                Ok(StreamEvent::Start { job_id, tool })
            }
            ResponseEnvelope::StreamChunk { job_id, seq, chunk } => {
                Ok(StreamEvent::Chunk { job_id, seq, chunk })
            }
            ResponseEnvelope::StreamEnd { job_id, chunks } => {
                Ok(StreamEvent::End { job_id, chunks })
            }
            last => Err(last),
        }
    }
}
