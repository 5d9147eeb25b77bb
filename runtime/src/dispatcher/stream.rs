//! `call_streaming`: a call whose caller receives the handler's chunks as
//! they come, then the answer.

use tokio::sync::mpsc;

use super::sink::StreamTo;
use super::{Dispatcher, RequestOf, ResponseOf, envelope, runner};
use crate::port::StreamEvent;
use crate::{Catalogue, ResponseEnvelope, Service};

impl<S: Service> Dispatcher<S> {
    /// Runs a call as a job whatever its timing class, and streams it:
    /// `StreamStart`, a `StreamChunk` per chunk the handler sends (numbered
    /// from 0), `StreamEnd` with the count, then the final `Success` or
    /// `Error`. Waiting on the stream is the wait: no budget applies. Job
    /// tools and calls refused before they start yield their one answer
    /// alone.
    ///
    /// The channel is unbounded because a handler sends chunks without
    /// waiting; read it steadily. Dropping the receiver leaves the job
    /// running, with its outcome kept for `job_status`.
    pub async fn call_streaming(
        &self,
        request: RequestOf<S>,
    ) -> mpsc::UnboundedReceiver<ResponseEnvelope<ResponseOf<S>>> {
        let (tx, rx) = mpsc::unbounded_channel();
        let info = S::Catalogue::call_info(&request);
        let request = if info.tool.builtin {
            match S::Catalogue::into_job_call(request) {
                Ok(call) => {
                    let _ = tx.send(self.answer_job_call(call, None).await);
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
            None,
        ) {
            Ok(job) => job,
            Err(e) => {
                let _ = tx.send(ResponseEnvelope::Error(e));
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
                    if let (Ok(outcome), Some((stream, chunks))) = (outcome, sink.close()) {
                        let job_id = job.job_id.to_string();
                        stream.send(StreamEvent::End { job_id, chunks });
                        let _ = tx.send(envelope(outcome));
                    }
                }
                () = tx.closed() => {}
            }
        });
        rx
    }
}
