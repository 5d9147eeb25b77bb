//! `JobSink`: where a job's handler reports progress and chunks. It records
//! progress in the store, publishes both as job events, and forwards chunks
//! to the caller's stream when the call is streamed.

use std::sync::{Arc, Mutex, PoisonError};

use tokio::sync::mpsc;

use crate::jobs::JobStore;
use crate::port::{StreamEvent, StreamSender};
use crate::{Bytes, CallSink, ResponseEnvelope};

/// The sending end of a streamed call's envelopes.
pub(crate) type StreamTx<R> = mpsc::Sender<ResponseEnvelope<R>>;

/// Where a job's stream goes: envelopes for `call_streaming`, events for a
/// port's caller.
pub(crate) enum StreamTo<R> {
    Envelopes(StreamTx<R>),
    Events(StreamSender),
}

impl<R> StreamTo<R> {
    /// Sends one event without waiting; false when the receiver is gone or
    /// has fallen [`STREAM_CAPACITY`](crate::port::STREAM_CAPACITY) events
    /// behind.
    pub(crate) fn send(&self, event: StreamEvent) -> bool {
        match self {
            StreamTo::Envelopes(tx) => tx.try_send(event.into_envelope()).is_ok(),
            StreamTo::Events(tx) => tx.try_send(event).is_ok(),
        }
    }
}

pub(crate) struct JobSink<R> {
    store: JobStore<R>,
    job_id: Arc<str>,
    /// The caller's stream and how many chunks went to it; `None` when the
    /// call is not streamed or the stream has ended.
    stream: Mutex<Option<(StreamTo<R>, u64)>>,
}

impl<R: Send + 'static> JobSink<R> {
    pub(crate) fn new(store: JobStore<R>, job_id: Arc<str>, stream: Option<StreamTo<R>>) -> Self {
        JobSink {
            store,
            job_id,
            stream: Mutex::new(stream.map(|tx| (tx, 0))),
        }
    }

    /// Ends the stream: later chunks go to subscribers only. Returns how many
    /// chunks the stream got, and its sender for the closing envelopes.
    ///
    /// Closing under the same lock that forwards chunks means no chunk can
    /// slip in after the caller has been told the count.
    pub(crate) fn close(&self) -> Option<(StreamTo<R>, u64)> {
        self.stream
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .take()
    }
}

impl<R: Send + 'static> CallSink for JobSink<R> {
    fn progress(&self, fraction: f32) {
        self.store.set_progress(&self.job_id, fraction);
    }

    fn chunk(&self, seq: u64, msgpack: Vec<u8>) {
        self.store.chunk_event(&self.job_id, seq, &msgpack);
        let mut stream = self.stream.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some((tx, count)) = stream.as_mut() {
            let event = StreamEvent::Chunk {
                job_id: self.job_id.to_string(),
                seq,
                chunk: Bytes(msgpack),
            };
            // A caller that stopped listening, or reads too slowly to keep
            // up, stops getting the stream; the chunks still reach the
            // subscribers, and the answer the caller.
            if tx.send(event) {
                *count += 1;
            } else {
                *stream = None;
            }
        }
    }
}
