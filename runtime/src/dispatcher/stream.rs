//! `call_streaming`: a call whose caller receives the handler's chunks as
//! they come, then the answer.

use tokio::sync::mpsc;

use super::sink::StreamTo;
use super::{Dispatcher, RequestOf, ResponseOf, envelope, runner};
use crate::port::{STREAM_CAPACITY, StreamEvent};
use crate::{Catalogue, ResponseEnvelope, Service};

impl<S: Service> Dispatcher<S> {
    /// Runs a call as a job whatever its timing class, and streams it:
    /// `StreamStart`, a `StreamChunk` per chunk the handler sends (numbered
    /// from 0), `StreamEnd` with the count, then the final `Success` or
    /// `Error`. Waiting on the stream is the wait: no budget applies. Job
    /// tools and calls refused before they start yield their one answer
    /// alone.
    ///
    /// The channel holds at most [`STREAM_CAPACITY`] envelopes. A handler
    /// sends chunks without waiting, so a reader that falls that far behind
    /// stops getting chunks (no `StreamEnd` follows); the final answer
    /// always comes. Dropping the receiver leaves the job running, with its
    /// outcome kept for `job_status`.
    pub async fn call_streaming(
        &self,
        request: RequestOf<S>,
    ) -> mpsc::Receiver<ResponseEnvelope<ResponseOf<S>>> {
        let (tx, rx) = mpsc::channel(STREAM_CAPACITY);
        let info = S::Catalogue::call_info(&request);
        let request = if info.tool.builtin {
            match S::Catalogue::into_job_call(request) {
                Ok(call) => {
                    let _ = tx.send(self.answer_job_call(call, None).await).await;
                    return rx;
                }
                Err(request) => request,
            }
        } else {
            request
        };
        let job = match runner::spawn(
            &self.inner,
            request,
            info,
            true,
            Some(StreamTo::Envelopes(tx.clone())),
            runner::Requester::default(),
        )
        .await
        {
            Ok(job) => job,
            Err(e) => {
                let _ = tx.send(ResponseEnvelope::Error(e)).await;
                return rx;
            }
        };
        let Some(waiter) = job.waiter else {
            return rx;
        };
        let sink = job.sink;
        // A small task carries the outcome to the stream, so the caller can
        // read chunks while the job runs. It gives up when the caller stops
        // listening, which leaves the outcome to the store.
        tokio::spawn(async move {
            tokio::select! {
                outcome = waiter => {
                    let Ok(outcome) = outcome else { return };
                    // A stream cut short (its reader fell behind) has no
                    // end; the answer follows either way.
                    if let Some((stream, chunks)) = sink.close() {
                        let job_id = job.job_id.to_string();
                        stream.send(StreamEvent::End { job_id, chunks });
                    }
                    // The answer waits for room: it is never dropped.
                    let _ = tx.send(envelope(outcome)).await;
                }
                () = tx.closed() => {}
            }
        });
        rx
    }
}
